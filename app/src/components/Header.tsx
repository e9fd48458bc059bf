import { useTranslation } from "react-i18next";
import { LANGS, localePath, routes, type Lang } from "../routes";
import { LocalLink, rememberLang, useSite } from "../app/site";
import { Link, useNavigate } from "react-router";

/** Menu entries from route meta: routes with a label that are visible. */
const menu = routes.filter((r) => r.meta.navigation && !r.meta.invisible && r.meta.isVisible);

export function Header() {
  const { t } = useTranslation();
  const { path } = useSite();
  return (
    <header className="site-header">
      <div className="header-bar">
        <LocalLink to="/" className="brand">
          <img src="/static/logo.svg" alt={t("site.name")} width="36" height="36" />
          <span className="brand-name">{t("site.name")}</span>
          <span className="badge-25">{t("site.anniversary")}</span>
        </LocalLink>
        <LanguageSwitch />
      </div>
      {/* <details> opens and closes the menu on small screens without JavaScript. */}
      <details className="menu">
        <summary>{t("nav.menu")}</summary>
        <nav aria-label={t("nav.mainMenu")}>
          <ul>
            {menu.map((r) => (
              <li key={r.name}>
                {r.meta.isClickable ? (
                  <LocalLink to={r.path} className={r.path === path ? "active" : undefined}>
                    {t(`nav.${r.meta.navigation}` as "nav.home")}
                  </LocalLink>
                ) : (
                  <span>{t(`nav.${r.meta.navigation}` as "nav.home")}</span>
                )}
              </li>
            ))}
          </ul>
        </nav>
      </details>
    </header>
  );
}

/**
 * Links to the same page in the other language. `?lang=` lets the server
 * remember the choice when JavaScript is off; with it, the cookie is set here
 * and the router navigates without a reload.
 */
function LanguageSwitch() {
  const { t } = useTranslation();
  const { lang, path } = useSite();
  const navigate = useNavigate();
  return (
    <ul className="lang-switch" aria-label={t("language.label")}>
      {LANGS.map((other: Lang) => (
        <li key={other}>
          {other === lang ? (
            <span aria-current="true" lang={other}>
              {t(`language.${other}`)}
            </span>
          ) : (
            <Link
              to={`${localePath(other, path)}?lang=${other}`}
              hrefLang={other}
              lang={other}
              title={t("language.switchTo", { language: t(`language.${other}`) })}
              onClick={(event) => {
                event.preventDefault();
                rememberLang(other);
                navigate(localePath(other, path));
              }}
            >
              {t(`language.${other}`)}
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}
