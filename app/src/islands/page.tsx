/**
 * The island of an interactive page (`interactivePages` in routes.ts): the
 * enhancement script imports this module when a page has one
 * (`#island`, rendered by `PageIsland` as a root of its own) and mounts it.
 * Only that subtree is hydrated; the header, menu and footer stay server
 * HTML. `mount` resolves to what unmounts it, which the enhancement script
 * calls before it shows another page.
 */
import { StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import type { PageData } from "../contract";
import { ISLAND_ID, ISLAND_ID_PREFIX, type IslandHost } from "../app/island";
import { PageIsland } from "../app/PageIsland";
import { loadPage } from "../pages";

export async function mount(host: IslandHost): Promise<() => void> {
  const element = document.getElementById(ISLAND_ID);
  const data: PageData | null = JSON.parse(document.getElementById("page-data")?.textContent || "null");
  if (!element || !data) return () => {};
  const { default: Page } = await loadPage(data.route.page);
  const root = hydrateRoot(
    element,
    <StrictMode>
      <PageIsland data={data} Page={Page} url={location.pathname + location.search} host={host} />
    </StrictMode>,
    { identifierPrefix: ISLAND_ID_PREFIX },
  );
  return () => root.unmount();
}
