// The bytes a first visit costs, on a 2G-like link, in headless Chromium.
//
//   node bench/budget.mjs <site-url> [path ...]
//
// Each page (one of each page kind, `KIND_PATHS` of render-node.mjs, unless
// paths are given) is opened in a fresh browser context (empty cache, no
// service worker yet) with the network emulated through the DevTools
// protocol: 400 ms latency, 50 KB/s down and up. It prints, per page, the
// bytes transferred by resource type (as Chromium counts them: compressed
// bodies and headers), the JavaScript's gzip size (each script asked for
// again with `Accept-Encoding: gzip`), first contentful paint and the load
// event. Pages of a kind that is not interactive (`interactivePages` in
// app/src/routes.ts) must stay within the budget (`CONTENT_PAGE_BUDGET` in
// app/scripts/sizes.mjs: HTML + CSS + JS in all, and JS gzipped). The last
// line is `BUDGET ok` or `BUDGET over` naming the pages; over, the script
// exits 1.
import { request } from "node:http";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { KIND_PATHS } from "./render-node.mjs";
import { CONTENT_PAGE_BUDGET } from "../app/scripts/sizes.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const appRequire = createRequire(join(root, "app/package.json"));
const { chromium } = appRequire("playwright-core");
const { build } = appRequire("esbuild");

const { total: TOTAL_BUDGET, jsGzip: JS_BUDGET } = CONTENT_PAGE_BUDGET;
const LINK = { offline: false, latency: 400, downloadThroughput: 50 * 1024, uploadThroughput: 50 * 1024 };

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

async function measure(browser, base, path) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", LINK);
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
    return { fcp: paint ? paint.startTime : NaN, load: navigation.loadEventEnd };
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

async function main() {
  const [base, ...given] = process.argv.slice(2);
  if (!base) throw new Error("usage: node bench/budget.mjs <site-url> [path ...]");
  const interactive = await interactivePages();
  const paths = given.length ? given : KIND_PATHS;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const kb = (n) => ((n ?? 0) / 1024).toFixed(1);
  const over = [];
  console.log("first visit, 2G-like link (400 ms, 50 KB/s), empty cache; KB transferred");
  console.log(`${"page".padEnd(44)} ${"kind".padEnd(22)} ${"html".padStart(6)} ${"css".padStart(6)} ${"js".padStart(6)} ${"img".padStart(6)} ${"other".padStart(6)} ${"total".padStart(7)} ${"js gz".padStart(6)} ${"fcp s".padStart(6)} ${"load s".padStart(6)}  budget`);
  try {
    for (const path of paths) {
      const m = await measure(browser, base, path);
      const { html = 0, css = 0, js = 0, img = 0 } = m.bytes;
      const other = Object.entries(m.bytes).filter(([k]) => !["html", "css", "js", "img"].includes(k)).reduce((sum, [, v]) => sum + v, 0);
      const counted = html + css + js;
      const isContent = !interactive.has(m.kind);
      const within = counted <= TOTAL_BUDGET && m.jsGzip <= JS_BUDGET;
      if (isContent && !within) over.push(`${path} (${kb(counted)} KB, JS ${kb(m.jsGzip)} KB gzip)`);
      const verdict = isContent ? (within ? "ok" : "OVER") : "(interactive)";
      console.log(
        `${path.slice(0, 44).padEnd(44)} ${m.kind.padEnd(22)} ${kb(html).padStart(6)} ${kb(css).padStart(6)} ${kb(js).padStart(6)} ${kb(img).padStart(6)} ${kb(other).padStart(6)} ${kb(html + css + js + img + other).padStart(7)} ${kb(m.jsGzip).padStart(6)} ${(m.fcp / 1000).toFixed(2).padStart(6)} ${(m.load / 1000).toFixed(2).padStart(6)}  ${verdict}`,
      );
    }
  } finally {
    await browser.close();
  }
  console.log(`budget per content page: HTML + CSS + JS <= ${TOTAL_BUDGET / 1024} KB transferred, JS <= ${JS_BUDGET / 1024} KB gzip`);
  if (over.length) {
    console.log(`BUDGET over: ${over.join(", ")}`);
    process.exitCode = 1;
  } else {
    console.log("BUDGET ok");
  }
}

await main();
