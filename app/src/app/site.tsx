/** The current language and path, for links and the language switch. */
import { createContext, useContext, type ReactNode, type MouseEvent } from "react";
import { Link } from "react-router";
import { localePath, type Lang } from "../routes";

export interface Site {
  lang: Lang;
  /** Path without language prefix. */
  path: string;
}

const SiteContext = createContext<Site>({ lang: "en", path: "/" });

export const SiteProvider = SiteContext.Provider;

export function useSite(): Site {
  return useContext(SiteContext);
}

/** Remembers the visitor's choice for the next visit to `/` (spec §9: stored under `lang`). */
export function rememberLang(lang: Lang) {
  document.cookie = `lang=${lang}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

/**
 * A link to a path of the site in the current language. Absolute URLs to
 * other sites are plain anchors.
 */
export function LocalLink({
  to,
  children,
  className,
  onClick,
}: {
  to: string;
  children: ReactNode;
  className?: string;
  onClick?: (event: MouseEvent<HTMLAnchorElement>) => void;
}) {
  const { lang } = useSite();
  if (/^https?:\/\//.test(to)) {
    return (
      <a href={to} className={className} rel="noopener" onClick={onClick}>
        {children}
      </a>
    );
  }
  return (
    <Link to={localePath(lang, to)} className={className} onClick={onClick}>
      {children}
    </Link>
  );
}
