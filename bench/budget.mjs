// The bytes a first visit costs, on a 2G-like link, in headless Chromium.
//
//   node bench/budget.mjs <site-url> [path ...]
//
// Each page (one of each page kind, `KIND_PATHS` of render-node.mjs, and the
// pages of `MORE_PATHS` below, unless paths are given) is opened in a fresh
// browser context (empty cache, no service worker yet) with the network
// emulated through the DevTools protocol: 400 ms latency, 50 KB/s down and
// up. The account pages are opened again signed in (`SIGNED_IN_PATHS`, with
// a session the script signs in through the site and its sandbox), when the
// site has its sandbox. It prints, per page, the bytes transferred by
// resource type (as Chromium counts them: compressed bodies and headers),
// the JavaScript's gzip size (each script asked for again with
// `Accept-Encoding: gzip`), first contentful paint, the time until the
// page's form can be sent (its HTML parsed: every form works without
// JavaScript) and the load event. Every page must stay within the first
// view's budget (`CONTENT_PAGE_BUDGET` in app/scripts/sizes.mjs: HTML + CSS
// + JS in all, and JS gzipped), an interactive one (`interactivePages` in
// app/src/routes.ts) included: its island's code loads when the visitor
// starts a flow. Then the bytes the service worker fetched by itself after
// a first visit of the home page, on the same link, against its budget
// (`SERVICE_WORKER_BUDGET`); and what a tap on "Log in" and on "near me"
// costs on that link (the bytes, the scripts in all against 20 KB, and the
// time until the dialog or the list shows). The last line is `BUDGET ok` or `BUDGET over`
// naming what is over; over, the script exits 1.
import { request } from "node:http";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { KIND_PATHS } from "./render-node.mjs";
import { CONTENT_PAGE_BUDGET, SERVICE_WORKER_BUDGET } from "../app/scripts/sizes.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const appRequire = createRequire(join(root, "app/package.json"));
const { chromium } = appRequire("playwright-core");
const { build } = appRequire("esbuild");

const { total: TOTAL_BUDGET, jsGzip: JS_BUDGET } = CONTENT_PAGE_BUDGET;
/** A tap's scripts in all, the first view's included: "Log in" at most 20 KB (issue 46). */
const TAP_SCRIPT_BUDGET = 20 * 1024;
const LINK = { offline: false, latency: 400, downloadThroughput: 50 * 1024, uploadThroughput: 50 * 1024 };
/** The pages of the table not among the page kinds: the other language, a locator, a region, a search. */
export const MORE_PATHS = ["/sw", "/mpesa-agents", "/mpesa-agents/arusha", "/search?q=bundles", "/sw/account", "/sw/foundation/apply"];
/** Pages opened signed in: the account page in both languages and its purchase step (a bundle chosen). */
export const SIGNED_IN_PATHS = ["/account", "/sw/account", "/account?bundleId=data-daily-1gb"];
/** The sandbox's subscriber the signed-in pages are opened as. */
const SUBSCRIBER = "0754000003";

/** The page kinds that load React for their islands, from the route table. */
async function interactivePages() {
  const dir = mkdtempSync(join(tmpdir(), "budget-"));
  try {
    const outfile = join(dir, "routes.mjs");
    await build({ entryPoints: [join(root, "app/src/routes.ts")], outfile, bundle: true, format: "esm", platform: "node", logLevel: "warning" });
    const routes = await import(pathToFileURL(outfile).href);
    return new Set(routes.interactivePages ?? []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Body bytes of `url` asked for with gzip only (nothing decompressed). */
function gzipSize(url) {
  return new Promise((ok, fail) => {
    request(url, { headers: { "accept-encoding": "gzip" } }, (response) => {
      let size = 0;
      response.on("data", (chunk) => (size += chunk.length));
      response.on("end", () => ok(size));
    })
      .on("error", fail)
      .end();
  });
}

const TYPES = { Document: "html", Stylesheet: "css", Script: "js", Image: "img", Font: "font", Fetch: "fetch", XHR: "fetch" };

/** The cookie of a session signed in through the site (code asked, read from the sandbox's inbox, sent back), or null without a sandbox. */
export async function signIn(base) {
  const post = (path, body) =>
    fetch(base + path, {
      method: "POST",
      headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
      body: JSON.stringify(body),
    });
  const asked = await post("/api/auth/request-otp", { msisdn: SUBSCRIBER });
  if (!asked.ok) throw new Error(`request-otp: HTTP ${asked.status}`);
  const inbox = await fetch(`${base}/sandbox/inbox?msisdn=255${SUBSCRIBER.slice(1)}`);
  if (!inbox.ok) return null;
  const { code } = await inbox.json();
  const answer = await post("/api/auth/validate-otp", { msisdn: SUBSCRIBER, code });
  const session = answer.headers.getSetCookie().find((cookie) => /^[^=]*session=/.test(cookie));
  return session ? session.split(";")[0] : null;
}

/** `name=value` as a cookie of the browser context for `base`. */
function contextCookie(base, cookie) {
  const at = cookie.indexOf("=");
  return { name: cookie.slice(0, at), value: cookie.slice(at + 1), url: base };
}

/** A fresh page (no cache) on the 2G-like link, and the DevTools session that throttles it and sees its traffic. */
async function onTheLink(browser, options, cookies = null) {
  const context = await browser.newContext(options);
  if (cookies) await context.addCookies(cookies);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", LINK);
  return { context, page, cdp };
}

async function measure(browser, base, path, cookie = null) {
  const { context, page, cdp } = await onTheLink(browser, {}, cookie && [contextCookie(base, cookie)]);
  const kinds = new Map();
  const bytes = {};
  const scripts = [];
  cdp.on("Network.responseReceived", ({ requestId, type, response }) => {
    kinds.set(requestId, TYPES[type] ?? "other");
    if (type === "Script") scripts.push(response.url);
  });
  cdp.on("Network.loadingFinished", ({ requestId, encodedDataLength }) => {
    const kind = kinds.get(requestId) ?? "other";
    bytes[kind] = (bytes[kind] ?? 0) + encodedDataLength;
  });
  const response = await page.goto(base + path, { waitUntil: "load", timeout: 120_000 });
  // Whatever starts right after load (a lazily loaded chunk) counts too.
  await page.waitForLoadState("networkidle", { timeout: 60_000 }).catch(() => {});
  const timing = await page.evaluate(() => {
    const paint = performance.getEntriesByName("first-contentful-paint")[0];
    const navigation = performance.getEntriesByType("navigation")[0];
    return { fcp: paint ? paint.startTime : NaN, ready: navigation.domContentLoadedEventEnd, load: navigation.loadEventEnd };
  });
  const kind = await page.evaluate(() => {
    try {
      return JSON.parse(document.getElementById("page-data")?.textContent || "null")?.route?.page ?? "?";
    } catch {
      return "?";
    }
  });
  await context.close();
  let jsGzip = 0;
  for (const url of new Set(scripts)) jsGzip += await gzipSize(url);
  return { path, kind, status: response.status(), bytes, jsGzip, ...timing };
}

/** Kariakoo, Dar es Salaam: the position "near me" is measured from. */
const KARIAKOO = { latitude: -6.8187, longitude: 39.2775 };

/**
 * What a tap costs on the 2G-like link, on a page already shown (service
 * worker blocked, so that nothing was fetched ahead): `start` taps, `done`
 * waits for its answer on screen. The bytes transferred from the tap until
 * then (scripts apart), with the scripts of the page's first view, and the
 * seconds from the tap. "Log in" (its dialog open) and "near me" (the
 * places listed).
 */
async function tap(browser, base, { path, start, done, geolocation }) {
  const { context, page, cdp } = await onTheLink(browser, {
    serviceWorkers: "block",
    ...(geolocation ? { geolocation, permissions: ["geolocation"] } : {}),
  });
  const scripts = new Set();
  const bytes = { script: 0, other: 0 };
  let counting = false;
  let firstViewScript = 0;
  cdp.on("Network.responseReceived", ({ requestId, type }) => type === "Script" && scripts.add(requestId));
  cdp.on("Network.loadingFinished", ({ requestId, encodedDataLength }) => {
    if (!counting) {
      if (scripts.has(requestId)) firstViewScript += encodedDataLength;
      return;
    }
    bytes[scripts.has(requestId) ? "script" : "other"] += encodedDataLength;
  });
  await page.goto(base + path, { waitUntil: "load", timeout: 120_000 });
  await page.waitForLoadState("networkidle", { timeout: 60_000 }).catch(() => {});
  counting = true;
  const began = Date.now();
  await start(page);
  await done(page);
  const seconds = (Date.now() - began) / 1000;
  await page.waitForLoadState("networkidle", { timeout: 60_000 }).catch(() => {});
  await context.close();
  return { ...bytes, firstViewScript, seconds };
}

/** The taps measured: "Log in" on a content page in both languages, "near me" on a locator. */
const TAPS = [
  ...[
    ["/mpesa", "Log in"],
    ["/sw/mpesa", "Ingia"],
  ].map(([path, name]) => ({
    label: `"Log in" on ${path}`,
    path,
    start: (page) => page.getByRole("banner").getByRole("link", { name, exact: true }).click(),
    done: (page) => page.getByRole("dialog").locator("input[name=msisdn]").waitFor({ timeout: 60_000 }),
  })),
  {
    label: '"near me" on /mpesa-agents',
    path: "/mpesa-agents",
    geolocation: KARIAKOO,
    start: (page) => page.locator("#near-me button").click(),
    done: (page) => page.locator("#near-me-list").waitFor({ timeout: 60_000 }),
  },
];

/**
 * The bytes the service worker fetched by itself (its requests, not the
 * page's) in the 20 s after a first visit of `path` on the 2G-like link:
 * what a visitor pays beyond the page they asked for.
 */
async function serviceWorkerBytes(browser, base, path) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { ...LINK, connectionType: "cellular3g" });
  const fetched = [];
  context.on("requestfinished", (request) => {
    if (request.serviceWorker()) fetched.push(request.sizes().then((sizes) => sizes.responseBodySize + sizes.responseHeadersSize));
  });
  await page.goto(base + path, { waitUntil: "load", timeout: 120_000 });
  await page.evaluate(() => navigator.serviceWorker?.ready);
  await page.waitForTimeout(20_000);
  await context.close();
  return (await Promise.all(fetched)).reduce((sum, size) => sum + size, 0);
}

async function main() {
  const [base, ...given] = process.argv.slice(2);
  if (!base) throw new Error("usage: node bench/budget.mjs <site-url> [path ...]");
  const interactive = await interactivePages();
  const paths = given.length ? given : [...KIND_PATHS, ...MORE_PATHS];
  const cookie = given.length
    ? null
    : await signIn(base).catch((error) => {
        console.log(`not signed in (${error.message})`);
        return null;
      });
  const visits = [...paths.map((path) => ({ path })), ...(cookie ? SIGNED_IN_PATHS.map((path) => ({ path, cookie })) : [])];
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const kb = (n) => ((n ?? 0) / 1024).toFixed(1);
  const over = [];
  console.log("first visit, 2G-like link (400 ms, 50 KB/s), empty cache; KB transferred");
  console.log(`${"page".padEnd(44)} ${"kind".padEnd(22)} ${"html".padStart(6)} ${"css".padStart(6)} ${"js".padStart(6)} ${"img".padStart(6)} ${"other".padStart(6)} ${"total".padStart(7)} ${"js gz".padStart(6)} ${"fcp s".padStart(6)} ${"form s".padStart(6)} ${"load s".padStart(6)}  budget`);
  try {
    for (const { path, cookie: signedIn } of visits) {
      const m = await measure(browser, base, path, signedIn);
      const label = signedIn ? `${path} signed in` : path;
      const { html = 0, css = 0, js = 0, img = 0 } = m.bytes;
      const other = Object.entries(m.bytes).filter(([k]) => !["html", "css", "js", "img"].includes(k)).reduce((sum, [, v]) => sum + v, 0);
      const counted = html + css + js;
      const within = counted <= TOTAL_BUDGET && m.jsGzip <= JS_BUDGET;
      if (!within) over.push(`${label} (${kb(counted)} KB, JS ${kb(m.jsGzip)} KB gzip)`);
      const kind = interactive.has(m.kind) ? `${m.kind}*` : m.kind;
      console.log(
        `${label.slice(0, 44).padEnd(44)} ${kind.padEnd(22)} ${kb(html).padStart(6)} ${kb(css).padStart(6)} ${kb(js).padStart(6)} ${kb(img).padStart(6)} ${kb(other).padStart(6)} ${kb(html + css + js + img + other).padStart(7)} ${kb(m.jsGzip).padStart(6)} ${(m.fcp / 1000).toFixed(2).padStart(6)} ${(m.ready / 1000).toFixed(2).padStart(6)} ${(m.load / 1000).toFixed(2).padStart(6)}  ${within ? "ok" : "OVER"}`,
      );
    }
    if (!given.length) {
      console.log("taps, 2G-like link: KB transferred from the tap until its answer shows (scripts, the rest), the first view's scripts, seconds");
      for (const measured of TAPS) {
        const m = await tap(browser, base, measured);
        const within = m.firstViewScript + m.script <= TAP_SCRIPT_BUDGET;
        if (!within) over.push(`${measured.label} (${kb(m.firstViewScript + m.script)} KB of script)`);
        console.log(
          `${measured.label.padEnd(44)} script ${kb(m.script).padStart(6)}  other ${kb(m.other).padStart(6)}  first view's script ${kb(m.firstViewScript).padStart(6)}  ${m.seconds.toFixed(2).padStart(6)} s  ${within ? "ok" : "OVER"}`,
        );
      }
      const worker = await serviceWorkerBytes(browser, base, "/");
      const within = worker <= SERVICE_WORKER_BUDGET;
      if (!within) over.push(`the service worker (${kb(worker)} KB)`);
      console.log(`service worker, in the 20 s after a first visit of / (link reported as 3g): ${kb(worker)} KB fetched  ${within ? "ok" : "OVER"}`);
    }
  } finally {
    await browser.close();
  }
  if (!cookie && !given.length) console.log("no sandbox: the signed-in pages were not measured");
  console.log("* a kind with an island (its code loads when the visitor starts its flow)");
  console.log(
    `budget per page: HTML + CSS + JS <= ${TOTAL_BUDGET / 1024} KB transferred, JS <= ${JS_BUDGET / 1024} KB gzip; a tap's scripts in all <= ${TAP_SCRIPT_BUDGET / 1024} KB; the service worker <= ${SERVICE_WORKER_BUDGET / 1024} KB`,
  );
  if (over.length) {
    console.log(`BUDGET over: ${over.join(", ")}`);
    process.exitCode = 1;
  } else {
    console.log("BUDGET ok");
  }
}

// Run, not imported (bench/lighthouse.mjs reads its pages and its sign-in).
if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
