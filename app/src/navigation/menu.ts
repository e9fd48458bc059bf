/**
 * The main menu as a tree, built from route meta: top-level entries
 * are routes without a parent that have a label and are shown; each lists its
 * shown children, nested by `parent`.
 */
import type { TFunction } from "../i18n";
import type { RouteDef } from "../routes";
import { routeHref } from "./paths";

/** The text of a route's `meta.navigation` key (`nav.<key>` in the strings). */
export function navLabel(t: TFunction, navigation: string): string {
  return t(`nav.${navigation}` as "nav.home");
}

export interface MenuEntry {
  /** Route name, also the label key under `nav.`. */
  name: string;
  label: string;
  /** Path of the site without language prefix; absent for headings and external links. */
  path?: string;
  /** Another site's address (an external redirect route). */
  externalUrl?: string;
  newTab?: boolean;
  children: MenuEntry[];
}

function isShown(route: RouteDef): boolean {
  const internalRedirect = route.redirect?.to.startsWith("/");
  return Boolean(route.meta.navigation) && !route.meta.invisible && route.meta.isVisible && !internalRedirect;
}

export function buildMenu(table: readonly RouteDef[]): MenuEntry[] {
  const childrenOf = new Map<string, RouteDef[]>();
  for (const route of table) {
    if (route.parent && isShown(route)) childrenOf.set(route.parent, [...(childrenOf.get(route.parent) ?? []), route]);
  }
  const entry = (route: RouteDef): MenuEntry => {
    const children = route.meta.invisibleChildren ? [] : (childrenOf.get(route.name) ?? []).map(entry).filter(isUseful);
    const external = route.redirect && !route.redirect.to.startsWith("/") ? route.redirect : undefined;
    return {
      name: route.name,
      label: route.meta.navigation as string,
      path: external ? undefined : routeHref(route),
      externalUrl: external?.to,
      newTab: external?.newTab,
      children,
    };
  };
  return table
    .filter((r) => !r.parent && isShown(r))
    .map(entry)
    .filter(isUseful);
}

/** A heading without anything under it leads nowhere. */
function isUseful(entry: MenuEntry): boolean {
  return Boolean(entry.path || entry.externalUrl || entry.children.length);
}
