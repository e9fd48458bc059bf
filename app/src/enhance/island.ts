/**
 * An interactive page's island (`interactivePages` in routes.ts): its
 * module imported and mounted on that part of the page only, and
 * unmounted before the next page is swapped in.
 *
 * Its code (React and the page's flow, some 120 KB) loads when the visitor
 * starts the flow: a field of the island focused or typed in, or a tap in
 * it. Until then the server's form works as it does without JavaScript,
 * which is the first view a visitor on 2G pays for. On a connection
 * measured fast (`connection.ts`) it loads at once.
 */
import type { IslandHost } from "../app/island";
import { ISLAND_ID } from "../app/island";
import { fastConnection } from "./connection";

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
 * Mounts the page's island, if it has one: at once on a fast connection,
 * else when the visitor starts its flow. Its code failing to load (a new
 * deploy removed it) loads `url` in full, which brings the new build's.
 */
export function mountIsland(url: string | null, host: IslandHost) {
  const element = document.getElementById(ISLAND_ID);
  if (!element) return;
  const mounting = { unmount: null as (() => void) | null, gone: false, waiting: null as (() => void) | null };
  island = mounting;
  if (fastConnection()) {
    void load(url, host, mounting);
    return;
  }
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
