/** What the server put in the page for its script: the strings and the page's data, as JSON. */
import type { PageData } from "../contract";
import { STRINGS_ID, type EnhanceStrings } from "./strings";

/** The JSON in the page's (or `page`'s) `<script type="application/json" id>`; `fallback` when it is missing or does not parse. */
export function inlineJson<T>(id: string, fallback: T, page: Document = document): T {
  try {
    return JSON.parse(page.getElementById(id)?.textContent || "null") ?? fallback;
  } catch {
    return fallback;
  }
}

export function strings(): EnhanceStrings {
  return inlineJson(STRINGS_ID, {} as EnhanceStrings);
}

/** The page's data (the same the React entry hydrates with). */
export function pageData(): PageData | null {
  return inlineJson<PageData | null>("page-data", null);
}
