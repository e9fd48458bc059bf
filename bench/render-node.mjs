// Renders the server bundle in node (V8) the way `ssr-runtime` calls it,
// `globalThis.__ssr.render(request)`, and prints ms per render per page.
//
//   node bench/render-node.mjs <bundle-dir> <site-url | requests.json> [--save requests.json] [--cookie c] [--runs N] [path ...]
//   node bench/render-node.mjs <bundle-dir> <site-url | requests.json> --compare <other-bundle-dir>
//
// <bundle-dir> holds `server.js` and `assets.json` (`node app/scripts/build.mjs <dir>`,
// or `target/*/build/site-*/out/app`). The page data of each path comes from
// a running server's HTML (its `page-data` element), or from a file written
// by `--save`; the assets are built from `assets.json` as the server does
// (`manifest.rs`, `page_assets`). Each page's first render is checked against
// the markup the server sent, when there is one. `--cookie` sends a
// `Cookie` header (its value, or the cookies of a curl cookie jar file) to
// the site, for the pages of a signed-in visitor.
//
// `--compare` renders every request (every path given, or every one of the
// file) with both bundles, with the same assets, and lists the URLs whose
// status, head or markup differ.
// Profile with `node --cpu-prof bench/render-node.mjs ...`.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

/** One page of each page kind as an anonymous visitor sees it, in the embedded content: the paths asked of a site when none are given. */
export const KIND_PATHS = [
  "/", // content
  "/mpesa", // content
  "/vodacom-business", // content
  "/devices", // deviceList
  "/devices/10/iphone-16", // deviceItem
  "/sw/news-events", // newsList
  "/news-event/12/vodacom-business-opens-a-cloud-region-in-dar-es-salaam", // newsItem
  "/vodacom-business/1/large-mobile", // businessCategory
  "/vodacom-business/community", // businessCommunity
  "/vodacom-business/11/business-fibre", // businessItem
  "/faq", // faq
  "/foundation/apply", // foundationApplication
  "/fraudster", // fraudster
  "/cpm-login", // cpmLogin
  "/cpm-otp?msisdn=255754000002", // cpmOtp
  "/account", // account
  "/no-such-page", // notFound
  "/sw/no-such-page", // notFound
];

/** `--name value` taken out of `args`, or `fallback`. */
export function option(args, name, fallback) {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [, value] = args.splice(at, 2);
  return value;
}

/** A `Cookie` header: `value` itself, or the cookies of the curl cookie jar at that path. */
function cookieHeader(value) {
  if (!value || !existsSync(value)) return value;
  return readFileSync(value, "utf8")
    .split("\n")
    .map((line) => line.replace(/^#HttpOnly_/, ""))
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => line.split("\t"))
    .map((fields) => `${fields[5]}=${fields[6]}`)
    .join("; ");
}

/** `{url, data, expectedHtml}` of each path, from a running site's pages. */
async function fromSite(base, paths, cookie) {
  const headers = cookie ? { cookie: cookieHeader(cookie) } : {};
  const pages = [];
  for (const path of paths) {
    const html = await (await fetch(new URL(path, base), { headers, redirect: "manual" })).text();
    const json = html.match(/<script type="application\/json" id="page-data">(.*?)<\/script>/s)?.[1];
    if (!json) throw new Error(`${path}: no page-data in the answer`);
    const root = html.match(/<div id="root">(.*)<\/div><script type="application\/json"/s)?.[1];
    pages.push({ url: path, data: JSON.parse(json), expectedHtml: root });
  }
  return pages;
}

/**
 * The saved requests of `source` (a site URL or a file written by `--save`),
 * only those of `paths` when some are given.
 */
export async function loadPages(source, paths, { cookie } = {}) {
  if (/^https?:/.test(source)) return fromSite(source, paths.length ? paths : KIND_PATHS, cookie);
  const saved = JSON.parse(readFileSync(source, "utf8"));
  return paths.length ? saved.filter((page) => paths.includes(page.url)) : saved;
}

/** The bundle of `dir`: its `render` and the assets the server gives each page kind. */
export function loadBundle(dir) {
  vm.runInThisContext(readFileSync(join(dir, "server.js"), "utf8"), { filename: join(dir, "server.js") });
  const { render } = globalThis.__ssr;
  const manifestFile = join(dir, "assets.json");
  const manifest = existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, "utf8")) : null;
  // Every page gets the enhancement script's chunks and nothing of an island, whose code loads when the
  // visitor starts its flow (a bundle from before islands: the React entry's, `preload`).
  const assetsFor = () => {
    if (!manifest) return { stylesheets: [], preload: [], island: [] };
    return { stylesheets: manifest.stylesheets, preload: manifest.enhancePreload ?? manifest.preload, island: [] };
  };
  return { render, assetsFor };
}

/** The request ssr-runtime sends for a saved page. */
export const requestFor = (page, assetsFor) => ({ url: page.url, data: page.data, assets: assetsFor() });

/**
 * ms per render of each `{render, request}` of `jobs`, run in turn `runs`
 * times after `warmup` rounds, so drift and garbage collection fall on all
 * alike; each render gets its own copy of the request, as from ssr-runtime,
 * made outside the time measured: `[{p50, mean}]`.
 */
export async function timeRenders(jobs, runs, warmup = 20) {
  for (let i = 0; i < warmup; i++) for (const { render, request } of jobs) await render(structuredClone(request));
  const times = jobs.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [at, { render, request }] of jobs.entries()) {
      const copy = structuredClone(request);
      const start = performance.now();
      await render(copy);
      times[at].push(performance.now() - start);
    }
  }
  return times.map((list) => {
    list.sort((a, b) => a - b);
    return { p50: list[Math.floor(list.length / 2)], mean: list.reduce((a, b) => a + b, 0) / list.length };
  });
}

async function compare(pages, dir, otherDir) {
  const one = loadBundle(dir);
  const other = loadBundle(otherDir);
  const differing = [];
  for (const page of pages) {
    const request = requestFor(page, one.assetsFor);
    const [a, b] = [await one.render(structuredClone(request)), await other.render(structuredClone(request))];
    const parts = ["status", "head", "html"].filter((part) => a[part] !== b[part]);
    if (parts.length) differing.push(`${page.url} (${parts.join(", ")})`);
  }
  console.log(`${pages.length} requests, ${differing.length} differ${differing.length ? ":" : ""}`);
  for (const line of differing) console.log(`  ${line}`);
  return differing.length === 0;
}

async function main() {
  const args = process.argv.slice(2);
  const save = option(args, "--save");
  const cookie = option(args, "--cookie");
  const other = option(args, "--compare");
  const runs = Number(option(args, "--runs", "200"));
  const [bundleDir, source, ...chosen] = args;
  if (!bundleDir || !source) {
    console.error("usage: node bench/render-node.mjs <bundle-dir> <site-url | requests.json> [--save file] [--cookie c] [--runs N] [--compare other-bundle-dir] [path ...]");
    process.exit(2);
  }
  const pages = await loadPages(source, chosen, { cookie });
  if (save) writeFileSync(save, JSON.stringify(pages));
  if (other) process.exit((await compare(pages, bundleDir, other)) ? 0 : 1);

  const { render, assetsFor } = loadBundle(bundleDir);
  for (const page of pages) {
    const request = requestFor(page, assetsFor);
    const first = await render(structuredClone(request));
    const same = page.expectedHtml === undefined ? "" : first.html === page.expectedHtml ? " markup=server" : " markup DIFFERS from the server's";
    const [{ mean, p50 }] = await timeRenders([{ render, request }], runs);
    console.log(`${page.url.padEnd(20)} ${page.data.route.page.padEnd(16)} mean ${mean.toFixed(2)} ms  p50 ${p50.toFixed(2)} ms${same}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
  // The bundle may leave timers behind (the app schedules some at render); the measurement is done.
  process.exit(0);
}
