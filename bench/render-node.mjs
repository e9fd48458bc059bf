// Renders the server bundle in node (V8) the way `ssr-runtime` calls it,
// `globalThis.__ssr.render(request)`, and prints ms per render per page.
//
//   node bench/render-node.mjs <bundle-dir> <site-url | requests.json> [--save requests.json] [--runs N] [path ...]
//
// <bundle-dir> holds `server.js` and `assets.json` (`node app/scripts/build.mjs <dir>`,
// or `target/*/build/site-*/out/app`). The page data of each path comes from
// a running server's HTML (its `page-data` element), or from a file written
// by `--save`; the assets are built from `assets.json` as the server does
// (`manifest.rs`, `for_page`). Each page's first render is checked against
// the markup the server sent, when there is one.
// Profile with `node --cpu-prof bench/render-node.mjs ...`.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import vm from "node:vm";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [, value] = args.splice(at, 2);
  return value;
};
const save = option("--save");
const runs = Number(option("--runs", "200"));
const [bundleDir, source, ...chosen] = args;
if (!bundleDir || !source) {
  console.error("usage: node bench/render-node.mjs <bundle-dir> <site-url | requests.json> [--save file] [--runs N] [path ...]");
  process.exit(2);
}
const paths = chosen.length ? chosen : ["/", "/mpesa", "/sw/news-events", "/vodacom-business", "/account"];

const manifest = JSON.parse(readFileSync(join(bundleDir, "assets.json"), "utf8"));
const assetsFor = (kind) => {
  const preload = [...manifest.preload];
  for (const chunk of manifest.pages[kind] ?? []) if (!preload.includes(chunk)) preload.push(chunk);
  return { stylesheets: manifest.stylesheets, preload };
};

async function fromSite(base) {
  const pages = [];
  for (const path of paths) {
    const html = await (await fetch(new URL(path, base))).text();
    const json = html.match(/<script type="application\/json" id="page-data">(.*?)<\/script>/s)?.[1];
    if (!json) throw new Error(`${path}: no page-data in the answer`);
    const root = html.match(/<div id="root">(.*)<\/div><script type="application\/json"/s)?.[1];
    pages.push({ url: path, data: JSON.parse(json), expectedHtml: root });
  }
  return pages;
}

const pages = /^https?:/.test(source)
  ? await fromSite(source)
  : JSON.parse(readFileSync(source, "utf8")).filter((page) => !chosen.length || paths.includes(page.url));
if (save) writeFileSync(save, JSON.stringify(pages));

vm.runInThisContext(readFileSync(join(bundleDir, "server.js"), "utf8"), { filename: "server.js" });
const { render } = globalThis.__ssr;

for (const page of pages) {
  const request = { url: page.url, data: page.data, assets: assetsFor(page.data.route.page) };
  const first = await render(structuredClone(request));
  const same = page.expectedHtml === undefined ? "" : first.html === page.expectedHtml ? " markup=server" : " markup DIFFERS from the server's";
  for (let i = 0; i < 20; i++) await render(structuredClone(request));
  const times = [];
  for (let i = 0; i < runs; i++) {
    const copy = structuredClone(request);
    const start = performance.now();
    await render(copy);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const p50 = times[Math.floor(times.length / 2)];
  console.log(`${page.url.padEnd(20)} ${page.data.route.page.padEnd(16)} mean ${mean.toFixed(2)} ms  p50 ${p50.toFixed(2)} ms${same}`);
}

// The bundle may leave timers behind (the app schedules some at render); the measurement is done.
process.exit(0);
