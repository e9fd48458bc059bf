// Photos on a phone (make bench): a newsroom of real photographs in the
// shapes editors upload (tools/photo_fixture.mjs: Debian's
// plasma-workspace-wallpapers as camera photos, a phone portrait, CMYK,
// transparency, an animated GIF, a 48-megapixel photo, …, with Strapi's
// formats) behind tools/strapi_fixture.py, and the site at SITE_BIN on it.
//
//   SITE_BIN=target/release/site node bench/images.mjs
//
// Prints, at 390 px, DPR 2, empty cache, as Chromium loads pages (its lazy
// loading included): the first view of a news list in each language and its
// photos after scrolling to the end, and the first view of each upload's
// story, in KB, as served (through the image endpoint) and as the markup
// before it cost (each photo shown sent as uploaded: `asUploaded` of
// tools/photo_budget.mjs). Then the encode cost: for the 8 uploads of stories
// 10 to 17, each width of the endpoint's set in WebP and in JPEG (a browser
// without WebP), the first request (resizing and encoding from the photo's
// master, which the narrowest WebP, asked first, also fetches from the
// fixture and decodes) and the same again (from disk), median ms and KB; and the disk the endpoint takes per 1,000 photos, for the widths the
// visits asked for and for every width.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchBrowser, startSite } from "../app/e2e/harness.mjs";
import { asUploaded, startNewsroom, visit } from "../tools/photo_budget.mjs";

const kb = (bytes) => (bytes / 1024).toFixed(1);
const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
const FORMATS = { webp: "image/avif,image/webp,image/apng,image/*,*/*;q=0.8", jpeg: "image/jpeg,image/*;q=0.8" };

async function timed(url, accept) {
  const start = performance.now();
  const response = await fetch(url, { headers: { accept } });
  const bytes = (await response.arrayBuffer()).byteLength;
  return { ms: performance.now() - start, bytes, status: response.status };
}

/** The `srcset` candidates of each newsroom photo on a page: [[{ url, width }]]. */
async function srcsets(base, path) {
  const html = await (await fetch(base + path)).text();
  return [...html.matchAll(/srcSet="([^"]*newsroom_[^"]*)"/g)].map(([, srcset]) =>
    srcset.split(", ").map((candidate) => {
      const [url, descriptor] = candidate.split(" ");
      return { url: base + url, width: Number.parseInt(descriptor, 10) };
    }),
  );
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "newsroom-bench-"));
  const browser = await launchBrowser();
  let newsroom;
  let site;
  try {
    newsroom = await startNewsroom(dir);
    site = await startSite({ CMS_URL: newsroom.url, PRERENDER: "false", METRICS_ADDR: "off" });
    const list = await visit(browser, `${site.base}/news-events`, { scroll: true });
    const listSw = await visit(browser, `${site.base}/sw/news-events`, { scroll: true });
    console.log("photos at 390 px, DPR 2, empty cache (KB transferred; before: each photo sent as uploaded); budget: 100 KB a first view, 300 KB a list's photos");
    console.log(`${"".padEnd(58)} ${"before".padStart(8)} ${"now".padStart(8)} ${"ratio".padStart(7)}`);
    const row = (label, before, now) => console.log(`${label.padEnd(58)} ${kb(before).padStart(8)} ${kb(now).padStart(8)} ${(now / before).toFixed(3).padStart(7)}`);
    for (const [lang, visited] of [["en", list], ["sw", listSw]]) {
      row(`news list (${lang}), first view (all-in)`, asUploaded(visited.firstView, newsroom.photos, visited.firstImages), visited.firstView);
      row(`news list (${lang}), photos after scrolling`, asUploaded(visited.imageBytes, newsroom.photos, visited.images), visited.imageBytes);
    }
    const stories = [];
    for (const upload of newsroom.uploads) {
      const id = upload.story;
      const path = id % 2 ? `/news-event/${id}/newsroom-story-${id}` : `/sw/news-event/${id}/habari-${id}`;
      const visited = await visit(browser, `${site.base}${path}`);
      stories.push(visited);
      row(`story, first view: ${upload.shape}`, asUploaded(visited.firstView, newsroom.photos, visited.firstImages), visited.firstView);
    }
    const worst = stories.reduce((a, b) => (b.firstView > a.firstView ? b : a));
    console.log(`worst story first view: ${kb(worst.firstView)} KB; median ${kb(median(stories.map((v) => v.firstView)))} KB`);

    // Stories 10 to 17: photos no visit above asked for (the list shows stories 1 to 9).
    const photos = [];
    for (let id = 10; id < 18; id++) photos.push(...(await srcsets(site.base, `/news-event/${id}/newsroom-story-${id}`)).slice(0, 1));
    const cost = new Map();
    for (const candidates of photos) {
      for (const { url, width } of candidates) {
        for (const [format, accept] of Object.entries(FORMATS)) {
          const first = await timed(url, accept);
          const again = await timed(url, accept);
          const key = `${width} ${format}`;
          if (!cost.has(key)) cost.set(key, { width, format, first: [], again: [], bytes: [] });
          const entry = cost.get(key);
          entry.first.push(first.ms);
          entry.again.push(again.ms);
          entry.bytes.push(first.bytes);
        }
      }
    }
    console.log(`\nencode cost, ${photos.length} uploads (stories 10 to 17: ${newsroom.uploads.slice(9, 17).map((u) => u.shape).join("; ")}); ms median: first request (resize and encode from the photo's master; the 160 WebP, asked first, also fetches and decodes it) and again (disk)`);
    console.log(`${"width".padStart(6)} ${"format".padEnd(6)} ${"first ms".padStart(9)} ${"again ms".padStart(9)} ${"KB".padStart(7)}`);
    for (const entry of [...cost.values()].sort((a, b) => a.width - b.width || a.format.localeCompare(b.format))) {
      console.log(`${String(entry.width).padStart(6)} ${entry.format.padEnd(6)} ${median(entry.first).toFixed(1).padStart(9)} ${median(entry.again).toFixed(1).padStart(9)} ${kb(median(entry.bytes)).padStart(7)}`);
    }
    const perPhoto = (rows) => rows.reduce((sum, entry) => sum + median(entry.bytes), 0);
    const asked = new Set(
      [...list.images, ...listSw.images, ...stories.flatMap((visited) => visited.images)].map((r) => new URL(r.url).pathname).filter((path) => path.startsWith("/img/")).map((path) => path.split("/")[2]),
    );
    const webp = [...cost.values()].filter((entry) => entry.format === "webp");
    // The originals are wider than every width: a candidate's descriptor is its endpoint width.
    const askedWebp = webp.filter((entry) => asked.has(String(entry.width)));
    console.log(`\ndisk per 1,000 photos: ${(perPhoto(askedWebp) * 1000 / 2 ** 20).toFixed(1)} MB for the widths these visits asked (${[...asked].join(", ")}) in WebP; ${(perPhoto(webp) * 1000 / 2 ** 20).toFixed(1)} MB for every width in WebP; ${(perPhoto([...cost.values()]) * 1000 / 2 ** 20).toFixed(1)} MB with JPEG too`);
  } finally {
    await browser.close();
    await site?.stop();
    await newsroom?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
