/**
 * Registers the service worker (scope /). When a new build's worker has
 * installed, it takes over at once and the page reloads onto it (as
 * promised: "a new service-worker version updates automatically and reloads the page").
 * The first install reloads nothing. Once a worker is active it is told the
 * page's language, so that it keeps the offline page in it, and whether the
 * connection is measured fast from this page's own load (`fastConnection`):
 * only then does it keep more than what the visitor fetched.
 */
import { fastConnection } from "../enhance/connection";

export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  const hadController = Boolean(navigator.serviceWorker.controller);
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (!hadController || reloading) return;
    reloading = true;
    window.location.reload();
  });
  navigator.serviceWorker
    .register("/sw.js", { scope: "/" })
    .then((registration) => {
      registration.addEventListener("updatefound", () => {
        const worker = registration.installing;
        worker?.addEventListener("statechange", () => {
          if (worker.state === "installed" && navigator.serviceWorker.controller) worker.postMessage("skipWaiting");
        });
      });
    })
    .catch((error) => console.warn("service worker not registered", error));
  navigator.serviceWorker.ready.then((registration) => {
    registration.active?.postMessage({
      type: "keep-offline",
      lang: document.documentElement.lang,
      fast: fastConnection(),
    });
  });
}
