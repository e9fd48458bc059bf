/**
 * The enhancement script every page loads: what every page needs once
 * JavaScript runs, without React. The menu's disclosures, popups' close
 * buttons, golden minutes, toasts, the language switch, the service worker,
 * the login dialog (React loads on the first tap of "Log in" or of a
 * purchase link, and the dialog opens once it has), link navigation, and an
 * interactive page's island (`interactivePages` in routes.ts): the island's
 * module is imported and hydrates only that part of the page.
 *
 * Navigation fetches the next page's server HTML, the same cached
 * and precompressed bytes a full load gets, and swaps the page in: the app
 * root, the page data, the head's tags, the title and the language. A
 * loading overlay shows meanwhile; then the page scrolls to the top (or to
 * the position saved for a history entry), focus moves to the new `<h1>` and
 * the new page is announced. A page that failed to load leaves the page as
 * it was with the content-failure toast. An interactive page is swapped in
 * the same way, its island unmounted before and the next one mounted after.
 */
import { attachMenuDisclosures } from "../components/menuDisclosures";
import { isGoldenMinutes } from "../features/golden-minutes/schedule";
import { rememberDismissal, wasDismissed } from "../features/popups/dismissal";
import { clientTarget, rememberLang } from "../app/links";
import { registerServiceWorker } from "../sw/register";
import type { PageData } from "../contract";
import type { IslandHost } from "../app/island";
import { ISLAND_ID } from "../app/island";
import { ACCOUNT_CONTROL_ID } from "../features/account/ids";
import { showToast, TOASTS_CLASS, type Notification } from "../features/notifications/toast";
import { STRINGS_ID, type EnhanceStrings } from "./strings";
import { SCROLL_KEY, savePosition, savedPositions } from "../navigation/scrollPositions";

const FIRST_VISIT_KEY = "firstVisit";
const GOLDEN_CHECK_MS = 15_000;
/** The islands' modules (`islands/login.tsx`, `islands/page.tsx`), set by scripts/build.mjs. */
declare const __LOGIN_ISLAND__: string;
declare const __PAGE_ISLAND__: string;

/** The JSON in the page's `<script type="application/json" id>`; `fallback` when it is missing or does not parse. */
function inlineJson<T>(id: string, fallback: T): T {
  try {
    return JSON.parse(document.getElementById(id)?.textContent || "null") ?? fallback;
  } catch {
    return fallback;
  }
}

function strings(): EnhanceStrings {
  return inlineJson(STRINGS_ID, {} as EnhanceStrings);
}

/** The page's data (the same the React entry hydrates with). */
function pageData(): PageData | null {
  return inlineJson<PageData | null>("page-data", null);
}

// ---- toasts and the loading overlay -------------------------------------

function toast(notification: Notification) {
  showToast(notification, strings().close);
}

let overlay: HTMLElement | null = null;

function showOverlay() {
  if (overlay) return;
  overlay = document.createElement("div");
  overlay.className = "loading-overlay";
  overlay.setAttribute("role", "progressbar");
  overlay.setAttribute("aria-label", strings().loading);
  overlay.appendChild(document.createElement("span")).className = "spinner";
  document.getElementById("root")?.append(overlay);
}

function hideOverlay() {
  overlay?.remove();
  overlay = null;
}

// ---- what each page gets -------------------------------------------------

/** Undoes the last page's enhancements (timers, the header's listeners). */
let cleanups: (() => void)[] = [];

function enhancePage() {
  cleanups.forEach((cleanup) => cleanup());
  cleanups = [];
  const header = document.querySelector<HTMLElement>("header.site-header");
  if (header) cleanups.push(attachMenuDisclosures(header));

  const banner = document.querySelector<HTMLElement>(".popup-banner[data-popup]");
  if (banner) {
    const id = banner.dataset.popup!;
    if (wasDismissed(id)) banner.remove();
    banner.querySelector(".popup-close")?.addEventListener("click", () => {
      rememberDismissal(id);
      banner.remove();
    });
  }

  const golden = document.querySelector<HTMLElement>(".golden-minutes");
  if (golden) {
    const status = golden.querySelector('[role="status"]');
    const check = () => {
      const live = isGoldenMinutes(new Date());
      golden.classList.toggle("golden-minutes-live", live);
      if (!status) return;
      if (live && !status.firstChild) status.appendChild(document.createElement("strong")).textContent = strings().goldenMinutesLive;
      // Not replaceChildren: engines that run this module may be older than it.
      if (!live) status.textContent = "";
    };
    check();
    const timer = setInterval(check, GOLDEN_CHECK_MS);
    cleanups.push(() => clearInterval(timer));
  }

  // A form post's notice (the flash cookie) becomes a toast like every other notice.
  const flash = document.querySelector<HTMLElement>(".flash-notice");
  if (flash) {
    const notice = pageData()?.notice;
    const title = flash.querySelector("strong")?.textContent ?? "";
    const text = (flash.textContent ?? "").slice(title.length).trim();
    flash.remove();
    toast({ type: notice?.type ?? "info", title, text, duration: notice?.duration });
  }

  // The service worker's copy of a page read before, served offline.
  if (document.documentElement.hasAttribute("data-offline-copy")) {
    const box = document.createElement("p");
    box.className = "notice-box notice-info offline-copy";
    box.setAttribute("role", "status");
    box.textContent = strings().staleCopy;
    document.getElementById("main")?.prepend(box);
  }

  // `/faq/<question>` opens that question: show it.
  const last = decodeURIComponent(location.pathname.split("/").pop() || "");
  if (last && !location.hash) document.querySelector(`main details[open][id="${CSS.escape(last)}"]`)?.scrollIntoView({ block: "start" });
}

// ---- navigation ----------------------------------------------------------

const newKey = () => Math.random().toString(36).slice(2, 10);
/** The history entry shown (its key in `history.state`, as react-router keeps it). */
let shownKey: string = history.state?.key ?? newKey();
/** Signed in (or was, in this tab): pages must come from the server, not a copy held from before. */
let personal = false;
let pending: AbortController | null = null;
/** The address shown (a fragment link changes the address, not the page). */
let shownUrl = location.pathname + location.search;

let announcer: HTMLElement | null = null;

function announce(text: string) {
  if (!announcer) {
    announcer = document.createElement("p");
    announcer.className = "visually-hidden";
    announcer.setAttribute("aria-live", "assertive");
    announcer.setAttribute("aria-atomic", "true");
    document.body.append(announcer);
  }
  announcer.textContent = text;
}

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
  for (const element of wanted) if (!kept.has(element.outerHTML)) document.head.append(document.importNode(element, true));
}

/**
 * Shows the page `doc` in place of this one; toasts showing stay. The
 * island, if any, is unmounted, and the caller mounts the next; with
 * `keepIsland` (the same page again) the island mounted stays, in place of
 * the next page's.
 */
function swap(doc: Document, keepIsland: boolean) {
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

function focusHeading() {
  const main = document.getElementById("main");
  const heading = main?.querySelector<HTMLElement>("h1");
  // An island's markup is React's to hydrate: it gets no new attribute, and focus goes to `main` (focusable already).
  const target = heading && !heading.closest(`#${ISLAND_ID}`) ? heading : main;
  if (!target) return;
  if (target === heading) target.setAttribute("tabindex", "-1");
  target.focus({ preventScroll: true });
}

// ---- the island of an interactive page -------------------------------------

/** The island mounted, or being mounted (each mount its own). */
let island: { unmount: (() => void) | null; gone: boolean } | null = null;

function unmountIsland() {
  if (!island) return;
  island.gone = true;
  island.unmount?.();
  island = null;
}

/** What the island may ask of the page around it. */
const host: IslandHost = {
  navigate: async (url, replace) => {
    personal = true;
    await go(url, replace ? "replace" : "push");
  },
  refresh: async () => {
    personal = true;
    return (await go(location.pathname + location.search, "refresh")) ? pageData() : null;
  },
  toast,
  signedOut: () => {
    // The header's subscriber and "Log out" give way to "Log in" (the same link, the account page's address).
    const control = document.querySelector(".account-control");
    const link = control?.querySelector<HTMLAnchorElement>(`#${ACCOUNT_CONTROL_ID}`);
    if (!control || !link) return;
    link.textContent = strings().logIn;
    control.replaceWith(link);
  },
};

/**
 * Mounts the page's island, if it has one. Its code failing to load (a new
 * deploy removed it) loads `url` in full, which brings the new build's.
 */
async function mountIsland(url: string | null) {
  if (!document.getElementById(ISLAND_ID)) return;
  const mounting = { unmount: null as (() => void) | null, gone: false };
  island = mounting;
  try {
    const { mount }: typeof import("../islands/page") = await import(__PAGE_ISLAND__);
    if (mounting.gone) return;
    const unmount = await mount(host);
    if (mounting.gone) unmount();
    else mounting.unmount = unmount;
  } catch (error) {
    console.error(error);
    if (url !== null && !mounting.gone) window.location.assign(url);
  }
}

/** `refresh` shows the page shown again, from the server, around the island mounted (scroll and focus stay). */
type Mode = "push" | "replace" | "pop" | "refresh";

/**
 * Shows the page at `url`. `push` adds a history entry, `replace` replaces
 * the current one, `pop` shows the entry the browser moved to. True once
 * the page is shown.
 */
async function go(url: string, mode: Mode): Promise<boolean> {
  savePosition(shownKey, window.scrollY);
  try {
    sessionStorage.removeItem(FIRST_VISIT_KEY); // a prior route exists now
  } catch {
    // storage blocked
  }
  pending?.abort();
  const controller = new AbortController();
  pending = controller;
  showOverlay();
  try {
    const response = await fetch(url, {
      headers: { accept: "text/html" },
      // A redirect route: the browser follows it (it may lead to another site).
      redirect: "manual",
      cache: personal ? "no-cache" : "default",
      signal: controller.signal,
    });
    if (response.type === "opaqueredirect") {
      window.location.assign(url);
      return false;
    }
    const offlinePage = response.headers.has("x-offline-page");
    if ((!response.ok && response.status !== 404 && !offlinePage) || !(response.headers.get("content-type") || "").includes("text/html")) {
      throw new Error(`page ${url}: HTTP ${response.status}`);
    }
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    if (controller.signal.aborted) return false;
    if (mode === "refresh") {
      swap(doc, true);
      enhancePage();
      personal ||= isPersonal();
      return true;
    }
    if (mode === "push") {
      shownKey = newKey();
      history.pushState({ key: shownKey }, "", url);
    } else if (mode === "replace") {
      history.replaceState({ ...history.state, key: shownKey }, "", url);
    } else {
      shownKey = history.state?.key ?? newKey();
    }
    shownUrl = location.pathname + location.search;
    swap(doc, false);
    enhancePage();
    mountIsland(url);
    const hash = new URL(url, location.href).hash;
    const saved = mode === "pop" ? savedPositions()[shownKey] : undefined;
    const anchor = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (anchor) anchor.scrollIntoView();
    else window.scrollTo(0, saved ?? 0);
    focusHeading();
    announce(strings().loaded.replace("{{title}}", document.title));
    personal ||= isPersonal();
    return true;
  } catch (error) {
    if (controller.signal.aborted) return false;
    console.error(error);
    const { error: title, failedToLoadContent } = strings();
    toast({ type: "warning", title, text: failedToLoadContent });
    return false;
  } finally {
    if (pending === controller) {
      pending = null;
      hideOverlay();
    }
  }
}

const isPersonal = () => {
  const data = pageData();
  return Boolean(data?.subscriber || data?.cpm);
};

// ---- the login island ----------------------------------------------------

async function openLogin(after: string | undefined) {
  showOverlay();
  try {
    const { openLoginDialog }: typeof import("../islands/login") = await import(__LOGIN_ISLAND__);
    hideOverlay();
    const data = pageData();
    if (!data) throw new Error("the page carries no page data");
    openLoginDialog(data, async () => {
      // Signed in: the page (or the one the visitor was heading for) again, from the server.
      personal = true;
      await go(after ?? location.pathname + location.search, after ? "push" : "replace");
    });
  } catch (error) {
    hideOverlay();
    console.error(error);
    // React could not load: the account page signs in without it.
    if (after) window.location.assign(after);
    else window.location.assign(document.getElementById(ACCOUNT_CONTROL_ID)?.getAttribute("href") ?? "/account");
  }
}

const modified = (event: MouseEvent) => event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;

function onClick(event: MouseEvent) {
  if (event.defaultPrevented || modified(event)) return;
  const anchor = event.target instanceof Element ? event.target.closest("a") : null;
  if (!anchor) return;
  const signedIn = Boolean(document.querySelector(".account-control"));
  // triggerAuthDialog: "Log in", and a purchase link for a signed-out visitor, open the login dialog.
  if (!signedIn && (anchor.id === ACCOUNT_CONTROL_ID || anchor.hasAttribute("data-purchase"))) {
    event.preventDefault();
    openLogin(anchor.hasAttribute("data-purchase") ? (anchor.getAttribute("href") ?? undefined) : undefined);
    return;
  }
  let target = clientTarget(event, window.location);
  if (target === null) return;
  // The language switch: remembered, and the address without `?lang=` (which is for browsers without JavaScript).
  const lang = anchor.closest(".lang-switch") ? anchor.getAttribute("hreflang") : null;
  if (lang) {
    rememberLang(lang);
    const url = new URL(target, location.href);
    url.searchParams.delete("lang");
    target = url.pathname + url.search;
  }
  event.preventDefault();
  go(target, "push");
}

function onPopState() {
  const url = location.pathname + location.search;
  if (url === shownUrl) return;
  go(url + location.hash, "pop");
}

/**
 * A preview of the CMS's drafts, inside the CMS admin's frame: reloaded
 * when the admin (its origin alone) says an entry was saved.
 */
function followPreviewUpdates() {
  const admin = pageData()?.preview?.adminOrigin;
  if (!admin) return;
  window.addEventListener("message", (event: MessageEvent) => {
    if (event.origin === admin && event.data?.type === "strapiUpdate") location.reload();
  });
}

function start() {
  history.scrollRestoration = "manual";
  history.replaceState({ ...history.state, key: shownKey }, "");
  try {
    if (!sessionStorage.getItem(SCROLL_KEY)) sessionStorage.setItem(FIRST_VISIT_KEY, "1");
  } catch {
    // storage blocked
  }
  personal = isPersonal();
  document.addEventListener("click", onClick);
  window.addEventListener("popstate", onPopState);
  enhancePage();
  mountIsland(null);
  registerServiceWorker();
  followPreviewUpdates();
  document.documentElement.dataset.ready = "";
}

start();
