/**
 * The island of an interactive page (`interactivePages` in routes.ts): the
 * enhancement script imports this module when the visitor starts the
 * island's flow (`enhance/island.ts`; a fast connection has fetched it
 * before), and mounts it on `#island`, rendered by `PageIsland` as a root
 * of its own.
 * Only that subtree is hydrated; the header, menu and footer stay server
 * HTML. What the visitor typed in its fields before is then told to React
 * (`typed.ts`). `mount` resolves to what unmounts it, which the enhancement
 * script calls before it shows another page.
 */
import { StrictMode, useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import type { PageData } from "../contract";
import { ISLAND_ID, ISLAND_ID_PREFIX, type IslandHost } from "../app/island";
import { PageIsland } from "../app/PageIsland";
import { loadPage } from "../pages";
import { loadStrings } from "../i18n";
import { replayTyped } from "./typed";

/** Runs `then` once the island it closes has hydrated (its effects run after the whole root's commit). */
function Hydrated({ then }: { then: () => void }) {
  useEffect(then, [then]);
  return null;
}

export async function mount(host: IslandHost): Promise<() => void> {
  const element = document.getElementById(ISLAND_ID);
  const data: PageData | null = JSON.parse(document.getElementById("page-data")?.textContent || "null");
  if (!element || !data) return () => {};
  // The page kind's code and the visitor's language's strings, both at once.
  const [{ default: Page }] = await Promise.all([loadPage(data.route.page), loadStrings(data.lang)]);
  let replayed = false;
  const replay = () => {
    if (replayed) return;
    replayed = true;
    replayTyped(element);
  };
  const root = hydrateRoot(
    element,
    <StrictMode>
      <PageIsland data={data} Page={Page} url={location.pathname + location.search} host={host} />
      <Hydrated then={replay} />
    </StrictMode>,
    { identifierPrefix: ISLAND_ID_PREFIX },
  );
  return () => root.unmount();
}
