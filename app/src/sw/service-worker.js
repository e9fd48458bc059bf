// The site's service worker (scope /). scripts/build.mjs fills in
// BUILD, PRECACHE and PRECACHE_MORE for each build, so every deploy is a new
// version: the page reloads onto it (see src/sw/register.ts).
//
// - Hashed code and styles (/assets/…) never change: cache first.
// - Static files (/static/…): cache, refreshed in the background.
// - Pages (a document load, or the enhancement script's fetch of a page's
//   HTML): the network first, and a copy kept. Offline, the copy of a page
//   read before, marked `data-offline-copy` on <html> (the page then says it
//   may be out of date); for a page never read, the offline page in its
//   language (kept once the site has told the worker the visitor's
//   language), with a retry link to the page asked for and the list of the
//   pages kept, answered 503 with `X-Offline-Page`.
// - /api/, /_data/ and /sandbox/ pass through untouched (personal, or changing).
//
// Installing keeps what a content page loads (PRECACHE: the stylesheet and
// the enhancement script, just loaded by the page, so from the HTTP cache).
// Then a page tells the worker the visitor's language and whether the
// connection is measured fast from the page's own load (the browser calls a
// 2G-like link `3g`, so the worker cannot tell by itself): by default it
// keeps the offline page of that language only; on a fast connection the
// offline page in both languages and the islands' code too (PRECACHE_MORE).
// Nothing else is fetched that the visitor did not ask for.
const BUILD = "__BUILD__";
const PRECACHE = __PRECACHE__;
const PRECACHE_MORE = __PRECACHE_MORE__;
const ASSETS = `assets-${BUILD}`;
const OFFLINE = `offline-${BUILD}`;
const PAGES = "pages";
const OFFLINE_PATHS = { en: "/offline", sw: "/sw/offline" };
/** Pages listed on the offline page, at most. */
const LISTED = 30;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(ASSETS).then((cache) => cache.addAll(PRECACHE)));
});

async function keepOffline(lang, andMore) {
  const cache = await caches.open(OFFLINE);
  // The visitor's language first: it is the one a page going offline next needs.
  const own = OFFLINE_PATHS[lang] || OFFLINE_PATHS.en;
  const paths = andMore ? [own, ...Object.values(OFFLINE_PATHS).filter((path) => path !== own)] : [own];
  for (const path of paths) {
    if (!(await cache.match(path))) await cache.add(path).catch(() => {});
  }
  if (andMore)
    await caches
      .open(ASSETS)
      .then((assets) => assets.addAll(PRECACHE_MORE))
      .catch(() => {});
}

// One at a time: every page load asks, and a page kept twice at once could
// be missing while the second copy replaces the first.
let keeping = Promise.resolve();

self.addEventListener("message", (event) => {
  if (event.data === "skipWaiting") self.skipWaiting();
  else if (event.data && event.data.type === "keep-offline") {
    keeping = keeping.then(() => keepOffline(event.data.lang, event.data.fast === true));
    event.waitUntil(keeping);
  }
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((key) => /^(assets|offline)-/.test(key) && key !== ASSETS && key !== OFFLINE)
            .map((key) => caches.delete(key)),
        ),
      )
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
  } else if (request.mode === "navigate" || (request.headers.get("accept") || "").includes("text/html")) {
    event.respondWith(page(request, url));
  }
});

async function page(request, url) {
  const key = url.pathname + url.search;
  try {
    // Asked of the server every time (pages are `max-age=0`): offline, the
    // browser's HTTP cache would otherwise answer with a stale page that says
    // nothing of it. A redirect goes back to the page, which follows it.
    const response = await fetch(url.href, {
      cache: "no-cache",
      redirect: "manual",
      credentials: "include",
      headers: { accept: request.headers.get("accept") || "text/html" },
    });
    // Personal pages (signed in) are never kept; nor is the offline page among the pages.
    const personal = /private|no-store/.test(response.headers.get("cache-control") || "");
    if (response.ok && response.type === "basic" && !personal && !Object.values(OFFLINE_PATHS).includes(url.pathname)) {
      const copy = response.clone();
      caches.open(PAGES).then((cache) => cache.put(key, copy));
    }
    return response;
  } catch (error) {
    const copy = await caches.open(PAGES).then((cache) => cache.match(key));
    if (copy) return staleCopy(copy);
    const offline = await offlinePage(url);
    if (offline) return offline;
    throw error;
  }
}

async function staleCopy(copy) {
  const html = (await copy.text()).replace(/^(<!doctype html>)?<html /i, (start) =>
    start.replace("<html ", '<html data-offline-copy="" '),
  );
  return new Response(html, {
    status: 200,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}

const escapeHtml = (text) =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
const langOf = (path) => (path === "/sw" || path.startsWith("/sw/") ? "sw" : "en");

async function offlinePage(url) {
  const lang = langOf(url.pathname);
  const cache = await caches.open(OFFLINE);
  const own = await cache.match(OFFLINE_PATHS[lang], { ignoreVary: true });
  const kept = own || (await cache.match(OFFLINE_PATHS[lang === "sw" ? "en" : "sw"], { ignoreVary: true }));
  if (!kept) return null;
  const pages = await caches.open(PAGES);
  const items = [];
  for (const request of await pages.keys()) {
    const path = new URL(request.url).pathname + new URL(request.url).search;
    const response = await pages.match(request);
    const title = response ? /<title>([^<]*)<\/title>/.exec(await response.text()) : null;
    items.push({ path, title: title ? title[1] : escapeHtml(path), same: langOf(path) === lang });
  }
  items.sort((a, b) => Number(b.same) - Number(a.same));
  const list = items
    .slice(0, LISTED)
    .map((item) => `<li><a href="${escapeHtml(item.path)}">${item.title}</a></li>`)
    .join("");
  const html = (await kept.text())
    .replace(/(<a class="button offline-retry" href=")[^"]*"/, `$1${escapeHtml(url.pathname + url.search)}"`)
    .replace(/(<ul class="offline-pages">)[\s\S]*?(<\/ul>)/, list ? `$1${list}$2` : "$&");
  return new Response(html, {
    status: 503,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "x-offline-page": "1" },
  });
}

function fetchInto(cacheName, request) {
  return fetch(request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(cacheName).then((cache) => cache.put(request, copy));
    }
    return response;
  });
}
