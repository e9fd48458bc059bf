/**
 * The enhancement script every page loads: what every page needs once
 * JavaScript runs, without React. The menu's disclosures, popups' close
 * buttons, golden minutes, toasts, the language switch, the service worker,
 * the login dialog (its own small script and the account page's forms load
 * on the first tap of "Log in" or of a purchase link), link navigation, and an
 * interactive page's island (`interactivePages` in routes.ts): the island's
 * module is imported when the visitor starts its flow (at once on a fast
 * connection) and hydrates only that part of the page.
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
import { clientTarget, rememberLang } from "../app/links";
import { registerServiceWorker } from "../sw/register";
import type { IslandHost } from "../app/island";
import { ACCOUNT_CONTROL_ID } from "../features/account/common/ids";
import { SCROLL_KEY, savePosition, savedPositions } from "../navigation/scrollPositions";
import { announce, hideOverlay, showOverlay, toast } from "./feedback";
import { pageData, strings } from "./inline";
import { mountIsland } from "./island";
import { enhancePage } from "./page";
import { focusHeading, swap } from "./swap";

const FIRST_VISIT_KEY = "firstVisit";
/** The login dialog's script (`./login.ts`), set by scripts/build.mjs. */
declare const __LOGIN_SCRIPT__: string;
/** The account page's path (`pathOf("account")` in routes.ts), set by scripts/build.mjs: the route table stays out of this script. */
declare const __ACCOUNT_PATH__: string;

// ---- navigation ----------------------------------------------------------

const newKey = () => Math.random().toString(36).slice(2, 10);
/** The history entry shown (its key in `history.state`). */
let shownKey: string = history.state?.key ?? newKey();
/** Signed in (or was, in this tab): pages must come from the server, not a copy held from before. */
let personal = false;
let pending: AbortController | null = null;
/** The address shown (a fragment link changes the address, not the page). */
let shownUrl = location.pathname + location.search;

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
    if (
      (!response.ok && response.status !== 404 && !offlinePage) ||
      !(response.headers.get("content-type") || "").includes("text/html")
    ) {
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
    mountIsland(url, host);
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

// ---- the login dialog ----------------------------------------------------

/**
 * Opens the login dialog (`./login.ts`) on the forms of the account page, or
 * of `after` (a purchase link's address: the account page with that bundle
 * chosen), its script and that page fetched at once. Signed in, the page
 * shown (or `after`) is shown again from the server, with the subscriber.
 */
async function openLogin(after: string | undefined) {
  const address = after ?? document.getElementById(ACCOUNT_CONTROL_ID)?.getAttribute("href") ?? __ACCOUNT_PATH__;
  showOverlay();
  try {
    const [{ openLoginDialog }, page]: [typeof import("./login"), Response] = await Promise.all([
      import(__LOGIN_SCRIPT__),
      fetch(address, { headers: { accept: "text/html" }, cache: "no-store" }),
    ]);
    await openLoginDialog(page, async () => {
      personal = true;
      await go(after ?? location.pathname + location.search, after ? "push" : "replace");
    });
  } catch (error) {
    console.error(error);
    // The dialog could not open: the page it would have shown signs in as it is.
    window.location.assign(address);
  } finally {
    hideOverlay();
  }
}

const modified = (event: MouseEvent) =>
  event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;

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
  mountIsland(null, host);
  registerServiceWorker();
  followPreviewUpdates();
  document.documentElement.dataset.ready = "";
}

start();
