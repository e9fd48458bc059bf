import type { ReactNode } from "react";
import { useT } from "../i18n/context";
import { LANGS, localePath, type Lang } from "../routes";
import { LocalLink, useSite } from "../app/site";
import { MainMenu } from "./MainMenu";
import { SearchForm } from "./SearchForm";

/**
 * The site's header; `account` is the self-service control (log in, or the
 * subscriber), given by the app. Server HTML on every page: the enhancement
 * script adds the menu's behaviour, the login dialog and the language switch.
 */
export function Header({ account }: { account?: ReactNode }) {
  const t = useT();
  const { lang } = useSite();
  return (
    <header className="site-header">
      <div className="header-bar">
        <LocalLink to="/" className="brand">
          <img src="/static/logo.svg" alt={t("site.name")} width="36" height="36" />
          <span className="brand-name">{t("site.name")}</span>
          <span className="badge-25">{t("site.anniversary")}</span>
        </LocalLink>
        <div className="header-tools">
          {account}
          <LanguageSwitch />
        </div>
      </div>
      <SearchForm lang={lang} id="site-search-q" className="search-form site-search" />
      {/* Narrow screens: the whole menu behind one disclosure, without JavaScript too;
          on the smallest (feature phones) the search and the language switch are behind it as well.
          An engine without <details> (KaiOS 2.5) shows a disclosure's content and ignores its summary:
          there, on the smallest screens, the two links open the menu (it becomes the page's :target)
          and close it; an engine with <details> never shows them (see styles/app.css). */}
      <details className="menu" id="menu">
        <summary>{t("nav.menu")}</summary>
        <a className="menu-open" href="#menu">
          {t("nav.menu")}
        </a>
        <a className="menu-close" href="#">
          {t("nav.closeMenu")}
        </a>
        <div className="menu-tools">
          <SearchForm lang={lang} id="menu-search-q" className="search-form" />
          <LanguageSwitch />
        </div>
        <MainMenu />
      </details>
    </header>
  );
}

/**
 * Links to the same page in the other language. `?lang=` lets the server
 * remember the choice when JavaScript is off; with it, the enhancement script
 * sets the cookie and navigates to the address without `?lang=`.
 */
function LanguageSwitch() {
  const t = useT();
  const { lang, paths } = useSite();
  return (
    <ul className="lang-switch" aria-label={t("language.label")}>
      {LANGS.map((other: Lang) => (
        <li key={other}>
          {other === lang ? (
            <span aria-current="true" lang={other}>
              {t(`language.${other}`)}
            </span>
          ) : (
            <a
              href={`${localePath(other, paths[other])}?lang=${other}`}
              hrefLang={other}
              lang={other}
              title={t("language.switchTo", { language: t(`language.${other}`) })}
            >
              {t(`language.${other}`)}
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}
