/**
 * Browser entry of the interactive pages (`interactivePages` in routes.ts):
 * hydrates the server-rendered page with the data it carries, and owns
 * navigation from then on. Content pages get `enhance/main.ts` instead.
 */
import { StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import type { PageData } from "./contract";
import { ClientApp } from "./app/ClientApp";
import { ToastProvider } from "./features/notifications/Toasts";
import { ClientLanguage } from "./i18n/context";
import { loadPage } from "./pages";
import { registerServiceWorker } from "./sw/register";

// A page chunk that is gone (a new deploy): load the target address in full,
// which brings the new build's HTML and chunks.
window.addEventListener("preload-error", (event) => {
  event.preventDefault();
  window.location.assign(event.detail.url);
});

async function start() {
  const dataElement = document.getElementById("page-data");
  const root = document.getElementById("root");
  if (!dataElement || !root) return;
  const data: PageData = JSON.parse(dataElement.textContent || "null");
  // The enhancement script (when this page was swapped in by it) stands back from now on.
  document.documentElement.dataset.app = "react";
  const { default: Page } = await loadPage(data.route.page);
  hydrateRoot(
    root,
    <StrictMode>
      <ClientLanguage initial={data.lang}>
        <BrowserRouter>
          <ToastProvider>
            <ClientApp initial={{ data, Page }} />
          </ToastProvider>
        </BrowserRouter>
      </ClientLanguage>
    </StrictMode>,
  );
}

start();
registerServiceWorker();
