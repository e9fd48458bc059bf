/**
 * A page fetched as HTML shown in place of this one: the head's tags, the
 * title, the language, the page data and the app root; then focus on its
 * heading.
 */
import { ISLAND_ID } from "../app/island";
import { TOASTS_CLASS } from "../features/notifications/toast";
import { unmountIsland } from "./island";

/** The head's tags of `next` in place of this page's; identical ones (styles) stay. */
function swapHead(next: HTMLHeadElement) {
  const wanted = Array.from(next.children).filter((element) => element.tagName !== "TITLE");
  const wantedHtml = new Set(wanted.map((element) => element.outerHTML));
  const kept = new Set<string>();
  for (const element of Array.from(document.head.children)) {
    if (element.tagName === "TITLE") continue;
    if (wantedHtml.has(element.outerHTML)) kept.add(element.outerHTML);
    else element.remove();
  }
  for (const element of wanted)
    if (!kept.has(element.outerHTML)) document.head.append(document.importNode(element, true));
}

/**
 * Shows the page `doc` in place of this one; toasts showing stay. The
 * island, if any, is unmounted, and the caller mounts the next; with
 * `keepIsland` (the same page again) the island mounted stays, in place of
 * the next page's.
 */
export function swap(doc: Document, keepIsland: boolean) {
  const root = document.getElementById("root");
  const nextRoot = doc.getElementById("root");
  if (!root || !nextRoot) throw new Error("no #root in the page");
  const kept = keepIsland ? document.getElementById(ISLAND_ID) : null;
  if (!kept) unmountIsland();
  const toasts = Array.from(document.querySelector(`.${TOASTS_CLASS}`)?.children ?? []);
  swapHead(doc.head);
  document.title = doc.title;
  const html = document.documentElement;
  html.lang = doc.documentElement.lang;
  html.toggleAttribute("data-offline-copy", doc.documentElement.hasAttribute("data-offline-copy"));
  const data = document.getElementById("page-data");
  const nextData = doc.getElementById("page-data");
  if (data && nextData) data.textContent = nextData.textContent;
  root.innerHTML = nextRoot.innerHTML;
  document.querySelector(`.${TOASTS_CLASS}`)?.append(...toasts);
  if (!kept) return;
  const place = document.getElementById(ISLAND_ID);
  if (place) place.replaceWith(kept);
  else unmountIsland();
}

export function focusHeading() {
  const main = document.getElementById("main");
  const heading = main?.querySelector<HTMLElement>("h1");
  // An island's markup is React's to hydrate: it gets no new attribute, and focus goes to `main` (focusable already).
  const target = heading && !heading.closest(`#${ISLAND_ID}`) ? heading : main;
  if (!target) return;
  if (target === heading) target.setAttribute("tabindex", "-1");
  target.focus({ preventScroll: true });
}
