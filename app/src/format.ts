/**
 * Money and dates, written out rather than through `Intl`: its locale data
 * differs between the server's engine and browsers and would break hydration.
 */
import type { Lang } from "./routes";

/** `1,250,000`: a whole number with its thousands grouped. */
export function formatCount(amount: number): string {
  const text = Math.round(amount).toString();
  // Digits after an optional sign, grouped by slicing (a page writes tens of
  // prices); anything else ("1e+21", "NaN") by the pattern, which leaves it.
  const first = text.charCodeAt(0) === 45 ? 1 : 0;
  for (let at = first; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 48 || code > 57) return text.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }
  let grouped = text.slice(0, first + ((text.length - first - 1) % 3) + 1);
  for (let at = grouped.length; at < text.length; at += 3) grouped += `,${text.slice(at, at + 3)}`;
  return grouped;
}

/** `TSh 25,000`. */
export function formatTzs(amount: number): string {
  return `TSh ${formatCount(amount)}`;
}

/** A message shown to the visitor ends with a full stop (unless it ends a sentence already). */
export function withFullStop(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

const MONTHS: Record<Lang, readonly string[]> = {
  en: [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
  ],
  sw: [
    "Januari",
    "Februari",
    "Machi",
    "Aprili",
    "Mei",
    "Juni",
    "Julai",
    "Agosti",
    "Septemba",
    "Oktoba",
    "Novemba",
    "Desemba",
  ],
};

/** A CMS date (`YYYY-MM-DD`) as `5 March 2025` / `5 Machi 2025`; anything else as given. */
export function formatDate(isoDate: string, lang: Lang): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  const month = m ? MONTHS[lang][Number(m[2]) - 1] : undefined;
  if (!m || !month) return isoDate;
  return `${Number(m[3])} ${month} ${m[1]}`;
}
