/**
 * The main menu from the route table (see `navigation/menu.ts`), placed after
 * the page's content: the header's Menu link leads to it. The whole menu is
 * one `<details>` disclosure, opened on narrow screens by its summary, and
 * every top-level entry with children is one too, so the menu opens by mouse,
 * touch and keyboard without JavaScript. An engine without `<details>` shows
 * it all, below the content. The stylesheet shows it at the top, in the
 * header's colours, where it can (see styles/app.css); the enhancement script
 * adds one-open-at-a-time, Escape, click-outside and the header's link
 * opening the disclosure (`menuDisclosures.ts`).
 *
 * The menu is the same on every page of a language but for the link to the
 * page itself (`aria-current`), and its ~150 links were most of a page's
 * render, even as elements built once (React still walked them on every
 * page, as much as the rest of the page together): each language's
 * top-level items are rendered to HTML once per JS realm, and so is the item
 * holding the current page for each route (the route table bounds them);
 * a page puts that HTML in its menu bar as it is.
 */
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { localAnchor, useSite } from "../app/site";
import type { TFunction } from "../i18n";
import { useTranslator } from "../i18n/context";
import { buildMenu, navLabel, type MenuEntry } from "../navigation/menu";
import { routes, type Lang } from "../routes";
import { MENU_ID } from "./menuDisclosures";

const MENU = buildMenu(routes);

/** The names of the routes under each top-level entry, itself included. */
const NAMES = MENU.map(function names(entry: MenuEntry): Set<string> {
  return new Set([entry.name, ...entry.children.flatMap((child) => [...names(child)])]);
});

/** Each language's menu bar: its top-level items' HTML, and the bar's HTML before and after the item at an index, made when first asked. */
interface MenuBar {
  items: string[];
  whole: string;
  around: Map<number, [string, string]>;
}

const barsByLanguage = new Map<Lang, MenuBar>();
/** The HTML of the top-level item holding a route, its link marked, by language and route. */
const markedByRoute = new Map<string, string>();

export function MainMenu() {
  const { lang, t } = useTranslator();
  const { route } = useSite();
  return (
    <nav className="site-menu" id={MENU_ID} aria-label={t("nav.mainMenu")}>
      <details className="menu">
        <summary>{t("nav.menu")}</summary>
        <ul className="menu-bar" dangerouslySetInnerHTML={{ __html: menuBarHtml(lang, t, route) }} />
      </details>
    </nav>
  );
}

/**
 * The menu bar's HTML on a page of `route` in `lang`: the kept HTML, the
 * item holding the route in its marked form. Joined strings only (a
 * renderer's output is made of many pieces, and one page asks for them all).
 */
function menuBarHtml(lang: Lang, t: TFunction, route: string): string {
  let bar = barsByLanguage.get(lang);
  if (!bar) {
    const items = MENU.map((entry) => itemHtml(entry, { lang, t, route: undefined }));
    bar = { items, whole: items.join(""), around: new Map() };
    barsByLanguage.set(lang, bar);
  }
  const current = NAMES.findIndex((names) => names.has(route));
  if (current < 0) return bar.whole;
  const key = `${lang} ${route}`;
  let marked = markedByRoute.get(key);
  if (marked === undefined) {
    marked = itemHtml(MENU[current], { lang, t, route });
    markedByRoute.set(key, marked);
  }
  let around = bar.around.get(current);
  if (!around) {
    around = [bar.items.slice(0, current).join(""), bar.items.slice(current + 1).join("")];
    bar.around.set(current, around);
  }
  return around[0] + marked + around[1];
}

/**
 * A top-level item as the page's render writes it. It is HTML elements
 * alone (no component, no hook), so rendering it apart, even from inside
 * the page's render, gives the same bytes and touches none of that
 * render's state.
 */
function itemHtml(entry: MenuEntry, context: MenuContext): string {
  return renderToString(topItem(entry, context));
}

/** What the menu's elements depend on: the language, and the page's route if it is among them. */
interface MenuContext {
  lang: Lang;
  t: TFunction;
  route: string | undefined;
}

function topItem(entry: MenuEntry, context: MenuContext): ReactElement {
  return (
    <li key={entry.name}>
      {entry.children.length > 0 ? (
        <details className="menu-group">
          <summary>{navLabel(context.t, entry.label)}</summary>
          <ul className="menu-panel">
            {(entry.path || entry.externalUrl) && <li>{menuLink(entry, context)}</li>}
            {entry.children.map((child) => menuItem(child, context))}
          </ul>
        </details>
      ) : (
        menuLink(entry, context)
      )}
    </li>
  );
}

function menuItem(entry: MenuEntry, context: MenuContext): ReactElement {
  return (
    <li key={entry.name}>
      {menuLink(entry, context)}
      {entry.children.length > 0 && <ul>{entry.children.map((child) => menuItem(child, context))}</ul>}
    </li>
  );
}

function menuLink(entry: MenuEntry, { lang, t, route }: MenuContext): ReactElement {
  const label = navLabel(t, entry.label);
  if (entry.externalUrl) return localAnchor(lang, entry.externalUrl, entry.newTab, { children: label });
  if (!entry.path) return <span className="menu-heading">{label}</span>;
  return localAnchor(lang, entry.path, undefined, {
    "aria-current": entry.name === route ? "page" : undefined,
    children: label,
  });
}
