/**
 * The route table: the single source of truth for every URL of the site.
 *
 * Both entries (server and client) read it, and `scripts/build.mjs` writes it
 * as `routes.json` for the Rust router. It is data only: page components are
 * looked up by `page` in `pages.ts`, so generating the manifest does not pull
 * in React.
 *
 * Paths use `:param` and `:param?` segments. English lives at the path as
 * written, Swahili under `/sw` (see `localePath`).
 */

/** Route meta of spec §3. */
export interface RouteMeta {
  /** Menu label key (in the `nav` namespace of the strings); absent: not in the menu. */
  navigation?: string;
  requiresAuth: boolean;
  /** Content is fetched from the server on every route change. */
  isDynamic: boolean;
  /** The parent route's content is used (spec §2). */
  isPassThrough: boolean;
  /** Hidden from the menu. */
  invisible: boolean;
  /** Children hidden from the menu. */
  invisibleChildren: boolean;
  /** The menu entry is a link (false: a group heading only). */
  isClickable: boolean;
  isVisible: boolean;
  /** Analytics / document name. */
  pageName: string;
  icon?: string;
}

/** Which component renders a route; see `pages.ts`. */
export type PageKind = "content" | "notFound";

export interface RouteDef {
  /** Unique route name; for dynamic routes it is also the content key fetched (spec §7). */
  name: string;
  path: string;
  page: PageKind;
  /** Single-type content key; pass-through routes inherit their parent's. */
  content?: string;
  /** Name of the parent route, for the menu tree and pass-through content. */
  parent?: string;
  meta: RouteMeta;
}

const defaults: RouteMeta = {
  requiresAuth: false,
  isDynamic: true,
  isPassThrough: false,
  invisible: false,
  invisibleChildren: false,
  isClickable: true,
  isVisible: true,
  pageName: "",
};

function route(
  name: string,
  path: string,
  page: PageKind,
  options: { content?: string; parent?: string; meta?: Partial<RouteMeta> } = {},
): RouteDef {
  return {
    name,
    path,
    page,
    content: options.content,
    parent: options.parent,
    meta: { ...defaults, pageName: name, ...options.meta },
  };
}

export const NOT_FOUND = "not-found";

export const routes: RouteDef[] = [
  route("home", "/", "content", { content: "home", meta: { navigation: "home", icon: "home" } }),
  route("internet", "/internet-overview", "content", {
    content: "internet",
    meta: { navigation: "internet", icon: "globe" },
  }),
  route("voice", "/voice-sms", "content", {
    content: "voice",
    meta: { navigation: "voice", icon: "phone" },
  }),
  route(NOT_FOUND, "/*", "notFound", {
    meta: { invisible: true, isVisible: false, isDynamic: false, pageName: "not-found" },
  }),
];

export type Lang = "en" | "sw";
export const LANGS: readonly Lang[] = ["en", "sw"];
export const DEFAULT_LANG: Lang = "en";

/** Spec §5: anything other than en or sw is en. */
export function parseLang(value: string | null | undefined): Lang {
  return value === "sw" ? "sw" : "en";
}

/** The address of `path` (written without language prefix) in `lang`. */
export function localePath(lang: Lang, path: string): string {
  if (lang === DEFAULT_LANG) return path;
  return path === "/" ? `/${lang}` : `/${lang}${path}`;
}

/** Splits an address into its language and the path without prefix. */
export function splitLang(pathname: string): { lang: Lang; path: string } {
  const m = /^\/sw(\/.*)?$/.exec(pathname);
  if (m) return { lang: "sw", path: m[1] || "/" };
  return { lang: "en", path: pathname || "/" };
}

export function routeByName(name: string): RouteDef | undefined {
  return routes.find((r) => r.name === name);
}
