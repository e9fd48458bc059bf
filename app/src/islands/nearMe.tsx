/**
 * "Near me" as an island of a locator page: the enhancement script imports
 * this module (and with it React) on the first tap of the button, and the
 * nearest places open are shown in the page's `#near-me-results`.
 */
import { StrictMode } from "react";
import { createRoot, type Root } from "react-dom/client";
import type { LocationKind, PageData } from "../contract";
import { NearMe } from "../features/locator/NearMe";
import { LanguageProvider } from "../i18n/context";

let shown: Root | null = null;

export function findNearMe(data: PageData, container: HTMLElement, kind: LocationKind) {
  shown?.unmount();
  shown = createRoot(container);
  // A key per tap: a second tap asks for the position again.
  shown.render(
    <StrictMode>
      <LanguageProvider lang={data.lang}>
        <NearMe key={Date.now()} kind={kind} lang={data.lang} />
      </LanguageProvider>
    </StrictMode>,
  );
}
