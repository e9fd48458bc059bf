/**
 * Phone numbers and one-time codes as the visitor types them. The server
 * parses them again (`server/src/msisdn.rs`); checking here first
 * answers at once, in the visitor's language, without a round trip.
 */
import { FIELD_LENGTHS } from "../../../contract";

/** What people type between a number's digits (nothing else is read). */
const SEPARATORS = /[ .\-()]/g;

/**
 * Mobile ranges of Tanzania's numbering plan, as the server's `phonenumber`
 * crate has them: national numbers starting 61-63, 65-69, 70, 71, 73-79.
 */
const MOBILE = /^(?:6[1-35-9]|7[013-9])\d{7}$/;

/**
 * A Tanzanian mobile number as international digits (`255754000001`), from
 * `+255 754 000 001`, `255754000001`, `0754000001`, the bare 9 digits or
 * `+255 (0)754 000 001`, with spaces, dots, dashes and brackets anywhere
 * inside; `null` for anything else. The same rule as the server's
 * `Msisdn::parse`, both checked against `tests/twins/phone-numbers.json`.
 */
export function parseMsisdn(input: string): string | null {
  const compact = input.trim().replace(SEPARATORS, "");
  // The national number's 9 digits, after at most one prefix: the country
  // code (with its trunk 0 kept, or its + left out), or the trunk 0 alone.
  const national = /^(?:\+?2550?|0)?(\d{9})$/.exec(compact)?.[1];
  return national && MOBILE.test(national) ? `255${national}` : null;
}

const OTP_CODE = new RegExp(`^\\d{${FIELD_LENGTHS.otpCode}}$`);

/** A one-time code: exactly its 6 digits. */
export function isOtpCode(input: string): boolean {
  return OTP_CODE.test(input.trim());
}

/** `0754 000 001`, the way Tanzanians write a number; anything unparsable as given. */
export function localMsisdn(msisdn: string): string {
  const international = parseMsisdn(msisdn);
  if (!international) return msisdn;
  const national = international.slice(3);
  return `0${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`;
}
