import type { ReactNode } from "react";
import { useT } from "../i18n/context";
import { LANGS, localePath, type Lang } from "../routes";
import { LocalLink, useSite } from "../app/site";
import { MENU_ID } from "./menuDisclosures";
import { SearchForm } from "./SearchForm";

/**
 * The site's header; `account` is the self-service control (log in, or the
 * subscriber), given by the app. Server HTML on every page: the enhancement
 * script adds the login dialog and the language switch.
 *
 * The main menu (`MainMenu`) comes after the page's content, so that a text
 * browser or a small screen reaches the page's heading first; the header's
 * Menu link leads to it in every browser. Where the stylesheet lifts the menu
 * into the header (see styles/app.css), the menu's own toggle stands for that
 * link, which then shows only when it has keyboard focus.
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
        <a className="menu-link" href={`#${MENU_ID}`}>
          {t("nav.menu")}
        </a>
      </div>
      <SearchForm lang={lang} id="site-search-q" className="search-form site-search" />
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
