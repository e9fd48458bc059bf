/**
 * An interactive page's island (`interactivePages` in routes.ts): its
 * module imported and mounted on that part of the page only, and
 * unmounted before the next page is swapped in.
 */
import type { IslandHost } from "../app/island";
import { ISLAND_ID } from "../app/island";

/** The islands' modules (`islands/page.tsx`), set by scripts/build.mjs. */
declare const __PAGE_ISLAND__: string;

/** The island mounted, or being mounted (each mount its own). */
let island: { unmount: (() => void) | null; gone: boolean } | null = null;

export function unmountIsland() {
  if (!island) return;
  island.gone = true;
  island.unmount?.();
  island = null;
}

/**
 * Mounts the page's island, if it has one. Its code failing to load (a new
 * deploy removed it) loads `url` in full, which brings the new build's.
 */
export async function mountIsland(url: string | null, host: IslandHost) {
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
