/**
 * Phone numbers and one-time codes as the visitor types them. The server
 * parses them again (`server/src/account/msisdn.rs`); checking here first
 * answers at once, in the visitor's language, without a round trip.
 */

/** Separators people type inside a number. */
const SEPARATORS = /[\s\-().]/g;

/**
 * A Tanzanian mobile number as international digits (`255754000001`), from
 * `+255 754 000 001`, `255754000001`, `0754000001` or the bare 9 digits;
 * `null` for anything else. Mobile numbers start with 6 or 7 after the
 * country code.
 */
export function parseMsisdn(input: string): string | null {
  const compact = input.replace(SEPARATORS, "");
  const national = /^(?:\+?255|0)?([67]\d{8})$/.exec(compact);
  return national ? `255${national[1]}` : null;
}

/** A one-time code: exactly 6 digits. */
export function isOtpCode(input: string): boolean {
  return /^\d{6}$/.test(input.trim());
}

/** `0754 000 001`, the way Tanzanians write a number; anything unparsable as given. */
export function localMsisdn(msisdn: string): string {
  const international = parseMsisdn(msisdn);
  if (!international) return msisdn;
  const national = international.slice(3);
  return `0${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`;
}
