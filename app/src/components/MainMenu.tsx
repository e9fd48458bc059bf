/**
 * The main menu from the route table (see `navigation/menu.ts`). Every
 * top-level entry with children is a `<details>` disclosure, so the menu
 * opens by mouse, touch and keyboard without JavaScript; `useMenuDisclosures`
 * adds one-open-at-a-time, Escape and click-outside once hydrated. The menu
 * asks for its labels once and hands them down: a translation hook per link
 * (~150 of them) was most of a page's render time, and each language's
 * labels are translated once per engine, the strings being bundled.
 */
import type { TFunction } from "../i18n";
import { useTranslator } from "../i18n/context";
import { LocalLink, useSite } from "../app/site";
import { buildMenu, navLabel, type MenuEntry } from "../navigation/menu";
import { routes } from "../routes";

const MENU = buildMenu(routes);

type MenuLabel = (label: string) => string;

const labelsByLanguage = new Map<string, Map<string, string>>();

function menuLabels(language: string, t: TFunction): MenuLabel {
  let labels = labelsByLanguage.get(language);
  if (!labels) {
    labels = new Map();
    labelsByLanguage.set(language, labels);
  }
  const known = labels;
  return (label) => {
    let text = known.get(label);
    if (text === undefined) {
      text = navLabel(t, label);
      known.set(label, text);
    }
    return text;
  };
}

export function MainMenu() {
  const { t, lang } = useTranslator();
  const label = menuLabels(lang, t);
  return (
    <nav aria-label={t("nav.mainMenu")}>
      <ul className="menu-bar">
        {MENU.map((entry) => (
          <li key={entry.name}>
            {entry.children.length > 0 ? (
              <details className="menu-group">
                <summary>{label(entry.label)}</summary>
                <ul className="menu-panel">
                  {(entry.path || entry.externalUrl) && (
                    <li>
                      <MenuLink entry={entry} label={label} />
                    </li>
                  )}
                  {entry.children.map((child) => (
                    <MenuItem key={child.name} entry={child} label={label} />
                  ))}
                </ul>
              </details>
            ) : (
              <MenuLink entry={entry} label={label} />
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

function MenuItem({ entry, label }: { entry: MenuEntry; label: MenuLabel }) {
  return (
    <li>
      <MenuLink entry={entry} label={label} />
      {entry.children.length > 0 && (
        <ul>
          {entry.children.map((child) => (
            <MenuItem key={child.name} entry={child} label={label} />
          ))}
        </ul>
      )}
    </li>
  );
}

function MenuLink({ entry, label: menuLabel }: { entry: MenuEntry; label: MenuLabel }) {
  const { route } = useSite();
  const label = menuLabel(entry.label);
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
