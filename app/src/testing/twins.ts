/**
 * The cases in `tests/twins/` that the server's `twins` test module reads
 * too: rules written once in Rust and once here, checked against the same
 * cases so that neither side drifts alone.
 */
import { readFileSync } from "node:fs";
import type { NoticeKey } from "../features/account/common/notices";
import type { Lang } from "../routes";

function twins<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../../../tests/twins/${name}`, import.meta.url), "utf8")) as T;
}

/** Inputs that parse, and inputs refused with the notice `notice`. */
interface Inputs<T> {
  notice: NoticeKey;
  accepted: T[];
  refused: string[];
}

type Json = string | Json[] | { [key: string]: Json } | null;

export const phoneNumbers = twins<Inputs<{ input: string; msisdn: string; local: string }>>("phone-numbers.json");
export const codes = twins<Inputs<{ input: string; code: string }>>("codes.json");
export const slugs = twins<{ cases: { text: string; slug: string }[] }>("slugs.json").cases;
export const languagePaths = twins<{
  paths: { path: string; lang: Lang; local: string; href: string }[];
  codes: { value: string; lang: Lang }[];
}>("language-paths.json");
export const formFields = twins<{ cases: { pairs: [string, string][]; value: Record<string, Json> }[] }>(
  "form-fields.json",
).cases;
export const routeHrefs = twins<{ cases: { pattern: string; params: Record<string, string>; href: string | null }[] }>(
  "route-hrefs.json",
).cases;
