/**
 * An interactive page's island (`interactivePages` in routes.ts): its
 * module imported and mounted on that part of the page only, and
 * unmounted before the next page is swapped in.
 *
 * It is hydrated when the visitor starts the flow: a field of the island
 * focused or typed in, or a tap in it; at once where they started it
 * before (`STARTED_BEFORE`). Until then the server's form works as
 * it does without JavaScript, and no hydration holds up a slow phone while
 * the page loads. Its code (React and the page's flow, some 110 KB) is
 * fetched then too, which is what a visitor on 2G pays for; on a connection
 * measured fast (`connection.ts`) it is fetched before, once the page has
 * loaded and the browser is idle, so that the flow starts at once.
 */
import type { IslandHost } from "../app/island";
import { ISLAND_FILES_ID, ISLAND_ID } from "../app/island";
import { fastConnection } from "./connection";
import type { PageKind } from "../routes";
import { MODEM_BUNDLE_KEY } from "../features/account/common/ids";
import { FOUNDATION_DRAFT_KEY } from "../features/forms/ids";
import { inlineJson, pageData } from "./inline";

/** What starts an island's flow: its fields focused or typed in, a tap on its buttons and links. */
const STARTS = ["focusin", "input", "pointerdown"] as const;

/** The islands' modules (`islands/page.tsx`), set by scripts/build.mjs. */
declare const __PAGE_ISLAND__: string;

/** The island mounted, or waiting for its flow to start, or being mounted (each mount its own). */
let island: { unmount: (() => void) | null; gone: boolean; waiting: (() => void) | null } | null = null;

export function unmountIsland() {
  if (!island) return;
  island.gone = true;
  island.waiting?.();
  island.unmount?.();
  island = null;
}

/**
 * The island's code fetched and compiled, not run: a modulepreload link for
 * every file its mount imports (the island, the page kind's chunk, the
 * language's strings, as the page's head lists them), so that the flow
 * starts without waiting on the network and nothing blocks the page before.
 */
function preload() {
  for (const href of inlineJson<string[]>(ISLAND_FILES_ID, [])) {
    if (typeof href !== "string" || document.head.querySelector(`link[rel=modulepreload][href="${href}"]`)) continue;
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = href;
    document.head.append(link);
  }
}

/** Runs `then` once the page has loaded and the browser is idle (a timer where `requestIdleCallback` is missing). */
function whenIdle(then: () => void) {
  const idle = () =>
    "requestIdleCallback" in window ? requestIdleCallback(then, { timeout: 2000 }) : setTimeout(then, 200);
  if (document.readyState === "complete") idle();
  else addEventListener("load", idle, { once: true });
}

/**
 * Where an island keeps a flow the visitor started earlier on this phone,
 * which the server's page cannot show: found there, the flow goes on at
 * once, as if the visitor had just started it (a modem chosen for a
 * bundle, a foundation application's draft).
 */
const STARTED_BEFORE: Partial<Record<PageKind, () => string | null>> = {
  account: () => sessionStorage.getItem(MODEM_BUNDLE_KEY),
  foundationApplication: () => localStorage.getItem(FOUNDATION_DRAFT_KEY),
};

function startedBefore(): boolean {
  const kind = pageData()?.route.page;
  try {
    return Boolean(kind && STARTED_BEFORE[kind]?.());
  } catch {
    return false; // storage refused (a private window's policy)
  }
}

/**
 * Mounts the page's island, if it has one, when the visitor starts its
 * flow, or at once when they started it before; on a fast connection its
 * code is fetched before. Its code failing to load (a new deploy removed
 * it) loads `url` in full, which brings the new build's.
 */
export function mountIsland(url: string | null, host: IslandHost) {
  const element = document.getElementById(ISLAND_ID);
  if (!element) return;
  const mounting = { unmount: null as (() => void) | null, gone: false, waiting: null as (() => void) | null };
  island = mounting;
  if (startedBefore()) {
    void load(url, host, mounting);
    return;
  }
  if (fastConnection()) whenIdle(() => mounting.gone || preload());
  const start = () => {
    mounting.waiting?.();
    mounting.waiting = null;
    void load(url, host, mounting);
  };
  for (const type of STARTS) element.addEventListener(type, start, { passive: true });
  mounting.waiting = () => {
    for (const type of STARTS) element.removeEventListener(type, start);
  };
}

async function load(url: string | null, host: IslandHost, mounting: NonNullable<typeof island>) {
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
