/** Addresses of routes and collection items, from the route table's patterns. */
import type { PageData } from "../contract";
import { routes, type Lang, type RouteDef } from "../routes";

/**
 * `pattern` with its `:param` and `:param?` segments filled in; an optional
 * segment without a value is dropped. `undefined` when a required value is
 * missing or the pattern is the catch-all.
 */
export function fillPath(
  pattern: string,
  params: Record<string, string | number | null | undefined> = {},
): string | undefined {
  const segments: string[] = [];
  for (const segment of pattern.split("/").slice(1)) {
    if (segment === "*") return undefined;
    const param = /^:(\w+)(\?)?$/.exec(segment);
    if (!param) {
      segments.push(segment);
      continue;
    }
    const value = params[param[1]];
    if (value !== undefined && value !== null && value !== "") segments.push(encodeURIComponent(String(value)));
    else if (!param[2]) return undefined;
  }
  return "/" + segments.join("/");
}

/** The address of a route as a menu or breadcrumb link (no parameters), if it has one. */
export function routeHref(route: RouteDef): string | undefined {
  if (!route.path || route.redirect || !route.meta.isClickable) return undefined;
  return fillPath(route.path);
}

/** The page of one item of `collection` (e.g. `/news-event/12/new-tower`), from the route showing it. */
export function itemPath(collection: string, item: { id: number; slug?: string | null }): string | undefined {
  const route = routes.find((r) => r.item === collection);
  return route && fillPath(route.path, { id: item.id, slug: item.slug });
}

/**
 * The current page's path (without language prefix) in each language, for
 * the language switch and alternate links: the server's `alternates` when
 * items' slugs differ between languages, else the same path. `/faq/<question>`
 * has no known counterpart in the other language; that one is the FAQ page.
 */
export function languagePaths(data: PageData): Record<Lang, string> {
  if (data.alternates) return { en: data.alternates.en ?? data.path, sw: data.alternates.sw ?? data.path };
  const faq = faqBasePath(data);
  return { en: faq && data.lang !== "en" ? faq : data.path, sw: faq && data.lang !== "sw" ? faq : data.path };
}

/** The address of page `page` of the list at `path` (no language prefix): page 1 is the list's own address. */
export function pagePath(path: string, page: number): string {
  return page <= 1 ? path : `${path}${path.includes("?") ? "&" : "?"}page=${page}`;
}

/**
 * The canonical path in `lang`: `/faq/<question>` is the FAQ page with one
 * answer open, so the FAQ page is canonical; each page of a list past the
 * first is its own (`?page=N`).
 */
export function canonicalPath(data: PageData, lang: Lang): string {
  const path = faqBasePath(data) ?? languagePaths(data)[lang];
  return data.pager ? pagePath(path, data.pager.page) : path;
}

function faqBasePath(data: PageData): string | undefined {
  if (data.route.page !== "faq" || !data.route.params.item) return undefined;
  const route = routes.find((r) => r.name === data.route.name);
  return route && fillPath(route.path);
}
