/**
 * The main menu from the route table (see `navigation/menu.ts`). Every
 * top-level entry with children is a `<details>` disclosure, so the menu
 * opens by mouse, touch and keyboard without JavaScript; `useMenuDisclosures`
 * adds one-open-at-a-time, Escape and click-outside once hydrated. The menu
 * asks for `t` once and hands it down: `useTranslation` per link (~150 of
 * them) was most of a page's render time.
 */
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { LocalLink, useSite } from "../app/site";
import { buildMenu, navLabel, type MenuEntry } from "../navigation/menu";
import { routes } from "../routes";

const MENU = buildMenu(routes);

export function MainMenu() {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("nav.mainMenu")}>
      <ul className="menu-bar">
        {MENU.map((entry) => (
          <li key={entry.name}>
            {entry.children.length > 0 ? (
              <details className="menu-group">
                <summary>{navLabel(t, entry.label)}</summary>
                <ul className="menu-panel">
                  {(entry.path || entry.externalUrl) && (
                    <li>
                      <MenuLink entry={entry} t={t} />
                    </li>
                  )}
                  {entry.children.map((child) => (
                    <MenuItem key={child.name} entry={child} t={t} />
                  ))}
                </ul>
              </details>
            ) : (
              <MenuLink entry={entry} t={t} />
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

function MenuItem({ entry, t }: { entry: MenuEntry; t: TFunction }) {
  return (
    <li>
      <MenuLink entry={entry} t={t} />
      {entry.children.length > 0 && (
        <ul>
          {entry.children.map((child) => (
            <MenuItem key={child.name} entry={child} t={t} />
          ))}
        </ul>
      )}
    </li>
  );
}

function MenuLink({ entry, t }: { entry: MenuEntry; t: TFunction }) {
  const { route } = useSite();
  const label = navLabel(t, entry.label);
  if (entry.externalUrl) {
    return (
      <LocalLink to={entry.externalUrl} newTab={entry.newTab}>
        {label}
      </LocalLink>
    );
  }
  if (!entry.path) return <span className="menu-heading">{label}</span>;
  return (
    <LocalLink to={entry.path} aria-current={entry.name === route ? "page" : undefined}>
      {label}
    </LocalLink>
  );
}
