// The site's service worker (scope /, spec §9). scripts/build.mjs fills in
// BUILD and PRECACHE for each build, so every deploy is a new version:
// the page reloads onto it (spec §4, see src/sw/register.ts).
//
// - Hashed code and styles (/assets/…) never change: cache first.
// - Static files (/static/…): cache, refreshed in the background.
// - Pages: the network first; offline, the last copy seen, so a visitor on a
//   patchy 2G link can still read a page they opened before.
// - /api/, /_data/ and /sandbox/ pass through untouched (personal, or changing).
const BUILD = "__BUILD__";
const PRECACHE = __PRECACHE__;
const ASSETS = `assets-${BUILD}`;
const PAGES = "pages";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(ASSETS).then((cache) => cache.addAll(PRECACHE)));
});

self.addEventListener("message", (event) => {
  if (event.data === "skipWaiting") self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("assets-") && key !== ASSETS).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (/^\/(api|_data|sandbox)\//.test(url.pathname) || url.pathname === "/sw.js") return;
  if (url.pathname.startsWith("/assets/")) {
    event.respondWith(caches.match(request).then((hit) => hit || fetchInto(ASSETS, request)));
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(
      caches.match(request).then((hit) => {
        const fresh = fetchInto(ASSETS, request);
        return hit || fresh;
      }),
    );
  } else if (request.mode === "navigate") {
    event.respondWith(
      fetch(request)
        .then((response) => {
          // Personal pages (signed in) are never kept.
          const personal = (response.headers.get("cache-control") || "").includes("private");
          if (response.ok && !personal) {
            const copy = response.clone();
            caches.open(PAGES).then((cache) => cache.put(request, copy));
          }
          return response;
        })
        .catch(() => caches.match(request).then((hit) => hit || Response.error())),
    );
  }
});

function fetchInto(cacheName, request) {
  return fetch(request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(cacheName).then((cache) => cache.put(request, copy));
    }
    return response;
  });
}
