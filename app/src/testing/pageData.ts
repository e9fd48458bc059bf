/** Page data for unit tests: the English home page, with `overrides`. */
import type { PageData } from "../contract";

export function pageData(overrides: Partial<PageData> = {}): PageData {
  return {
    lang: "en",
    path: "/",
    status: 200,
    route: { name: "home", page: "content", params: {} },
    content: { page: null, sidebar: null },
    subscriber: null,
    siteUrl: "https://example.co.tz",
    ...overrides,
  };
}
