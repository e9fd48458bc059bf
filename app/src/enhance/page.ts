/**
 * What each page gets once shown, the first or a swapped-in one: the
 * menu's disclosures, a popup's close button, golden minutes, the form
 * post's notice as a toast, the offline copy's notice, and the FAQ question
 * its address names.
 */
import { MENU_ID, attachMenuDisclosures } from "../components/menuDisclosures";
import { isGoldenMinutes } from "../features/golden-minutes/schedule";
import { rememberDismissal, wasDismissed } from "../features/popups/dismissal";
import { toast } from "./feedback";
import { pageData, strings } from "./inline";

const GOLDEN_CHECK_MS = 15_000;
/** "Near me"'s script (`./nearMe.ts`), set by scripts/build.mjs. */
declare const __NEAR_ME_SCRIPT__: string;

/** Whether this document was loaded as a locator page (see "near me" below). */
let loadedAsLocator: boolean | null = null;
/** The address fragment that starts "near me" once a locator page is loaded whole. */
const NEAR_ME_HASH = "near-me";

/** Undoes the last page's enhancements (timers, the menu's listeners). */
let cleanups: (() => void)[] = [];

export function enhancePage() {
  cleanups.forEach((cleanup) => cleanup());
  cleanups = [];
  const menu = document.getElementById(MENU_ID);
  if (menu) cleanups.push(attachMenuDisclosures(menu));

  const banner = document.querySelector<HTMLElement>(".popup-banner[data-popup]");
  if (banner) {
    const id = banner.dataset.popup!;
    if (wasDismissed(id)) banner.remove();
    banner.querySelector(".popup-close")?.addEventListener("click", () => {
      rememberDismissal(id);
      banner.remove();
    });
  }

  // A locator page's "near me": shown only where the browser can tell a
  // position; its script (no React) loads on the first tap.
  // The browser lets a document ask for the position only where the
  // server's Permissions-Policy allowed it, that of the page it was loaded
  // as: a locator page swapped into another page's document is loaded
  // whole first, and "near me" starts once it is.
  const nearMe = document.getElementById("near-me");
  loadedAsLocator ??= Boolean(nearMe);
  if (nearMe && "geolocation" in navigator) {
    nearMe.hidden = false;
    const find = async () => {
      if (!loadedAsLocator) {
        location.replace(`${location.pathname}${location.search}#${NEAR_ME_HASH}`);
        location.reload();
        return;
      }
      const results = document.getElementById("near-me-results");
      const kind = nearMe.dataset.kind === "shop" ? "shop" : "agent";
      const data = pageData();
      if (!results || !data) return;
      try {
        const { findNearMe }: typeof import("./nearMe") = await import(__NEAR_ME_SCRIPT__);
        findNearMe(results, kind, data.lang);
      } catch {
        // Its script did not load (offline, say): the region form is still the way.
      }
    };
    nearMe.querySelector("button")?.addEventListener("click", find);
    if (location.hash === `#${NEAR_ME_HASH}` && loadedAsLocator) {
      history.replaceState(history.state, "", location.pathname + location.search);
      void find();
    }
  }

  const golden = document.querySelector<HTMLElement>(".golden-minutes");
  if (golden) {
    const status = golden.querySelector('[role="status"]');
    const check = () => {
      const live = isGoldenMinutes(new Date());
      golden.classList.toggle("golden-minutes-live", live);
      if (!status) return;
      if (live && !status.firstChild)
        status.appendChild(document.createElement("strong")).textContent = strings().goldenMinutesLive;
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
  if (last && !location.hash)
    document.querySelector(`main details[open][id="${CSS.escape(last)}"]`)?.scrollIntoView({ block: "start" });
}
