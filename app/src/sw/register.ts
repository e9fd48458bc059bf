/**
 * Registers the service worker (scope /). When a new build's worker has
 * installed, it takes over at once and the page reloads onto it (spec §4:
 * "a new service-worker version updates automatically and reloads the page").
 * The first install reloads nothing.
 */
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
}
