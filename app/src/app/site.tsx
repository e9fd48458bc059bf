/** The current language, page and route, for links, the menu and the language switch. */
import { createContext, useContext, type AnchorHTMLAttributes, type ReactElement } from "react";
import type { PageData } from "../contract";
import { languagePaths } from "../navigation/paths";
import { localePath, type Lang } from "../routes";

export interface Site {
  lang: Lang;
  /** Path without language prefix. */
  path: string;
  /** Name of the matched route. */
  route: string;
  /** This page's path in each language (see `languagePaths`). */
  paths: Record<Lang, string>;
  /** The browser session's form token, on a page rendered for one visitor (see `CsrfField`). */
  csrf?: string;
}

/** A page's site context where only its language matters. */
export function siteIn(lang: Lang): Site {
  return { lang, path: "/", route: "home", paths: { en: "/", sw: "/" } };
}

const SiteContext = createContext<Site>(siteIn("en"));

export const SiteProvider = SiteContext.Provider;

/** The site context of the page `data`. */
export function siteOf(data: PageData): Site {
  return { lang: data.lang, path: data.path, route: data.route.name, paths: languagePaths(data), csrf: data.csrf };
}

export function useSite(): Site {
  return useContext(SiteContext);
}

export function isExternal(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(url);
}

/** An anchor's attributes but its address; `data-*` ones too, which JSX allows but the attribute type does not name. */
type LinkAttributes = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  [data: `data-${string}`]: string | undefined;
};

/**
 * A link to a path of the site in the current language. It renders a plain
 * anchor (cheap on the server's engine, where a page holds ~150 menu links);
 * in the browser the enhancement script's one delegated listener turns clicks
 * on same-site anchors into link navigation (`clientTarget`). Other sites, `tel:` and
 * `mailto:` are plain anchors too.
 */
export function LocalLink({ to, newTab, ...attributes }: { to: string; newTab?: boolean } & LinkAttributes) {
  return localAnchor(useSite().lang, to, newTab, attributes);
}

/** `LocalLink`'s anchor in `lang`, for lists of links built once (the main menu) rather than one component each. */
export function localAnchor(
  lang: Lang,
  to: string,
  newTab: boolean | undefined,
  attributes: LinkAttributes,
): ReactElement {
  if (isExternal(to)) {
    return <a href={to} rel="noopener" target={newTab ? "_blank" : undefined} {...attributes} />;
  }
  return <a href={localePath(lang, to)} {...attributes} />;
}
