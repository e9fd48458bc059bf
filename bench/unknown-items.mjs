// CMS requests made by a burst of unknown item ids: a newsroom of `STORIES`
// (default 250) stories per language served the way Strapi 5 does
// (`tools/strapi_fixture.py --shape v5` over a generated copy of content/),
// the site pointed at it, its sitemap read once (as the pre-render pass does
// at start), then one client asking `/news-event/<random id>/x` one after
// another for `SECONDS` (default 5). Prints the requests answered, their
// statuses and the CMS requests they cost (read from the site's /metrics).
// Asserts nothing: the numbers are for reading.
//
//   node bench/unknown-items.mjs                 # SITE_BIN, default target/release/site
//   SITE_BIN=target/debug/site node bench/unknown-items.mjs
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort, startSite } from "../app/e2e/harness.mjs";

const root = resolve(import.meta.dirname, "..");
process.env.SITE_BIN ||= resolve(root, "target/release/site");
const STORIES = Number(process.env.STORIES || 250);
const SECONDS = Number(process.env.SECONDS || 5);



// content/ with `STORIES` news stories per language (v4 shape, as stored).
const content = mkdtempSync(join(tmpdir(), "newsroom-"));
cpSync(join(root, "content"), content, { recursive: true });
for (const lang of ["en", "sw"]) {
  const data = Array.from({ length: STORIES }, (_, i) => ({
    id: i + 1,
    attributes: { title: `Story ${i + 1} ${lang}`, slug: `story-${i + 1}-${lang}`, publishDate: new Date(Date.UTC(2020, 0, 1) + i * 86400000).toISOString().slice(0, 10), summary: "A story." },
  }));
  writeFileSync(join(content, lang, "collections", "news-updates.json"), JSON.stringify({ data }));
}
const cmsPort = await freePort();
const cms = spawn("python3", [join(root, "tools/strapi_fixture.py"), "--port", String(cmsPort), "--shape", "v5", "--content", content], { stdio: ["ignore", "pipe", "inherit"] });
await new Promise((ok) => cms.stdout.on("data", (chunk) => String(chunk).includes("listening") && ok()));

const metricsPort = await freePort();
const site = await startSite({ RENDER_WORKERS: "1", PRERENDER: "false", CMS_URL: `http://127.0.0.1:${cmsPort}`, METRICS_ADDR: `127.0.0.1:${metricsPort}`, CONTENT_DISK_CACHE_MB: "0" });
const cmsRequests = async () => {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return [...text.matchAll(/^upstream_request_duration_seconds_count\{[^}]*upstream="cms"[^}]*\} (\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
};
try {
  await (await fetch(`${site.base}/sitemap.xml`)).text();
  await (await fetch(`${site.base}/news-event/1/story-1-en`)).text();
  const before = await cmsRequests();
  const statuses = {};
  let answered = 0;
  const until = Date.now() + SECONDS * 1000;
  while (Date.now() < until) {
    const id = 1 + Math.floor(Math.random() * 1_000_000);
    const response = await fetch(`${site.base}/news-event/${id}/x`, { redirect: "manual" });
    await response.arrayBuffer();
    statuses[response.status] = (statuses[response.status] || 0) + 1;
    answered += 1;
  }
  const made = (await cmsRequests()) - before;
  console.log(`${STORIES} stories per language; ${answered} requests of random ids in ${SECONDS} s (${(answered / SECONDS).toFixed(0)}/s), statuses ${JSON.stringify(statuses)}: ${made} CMS requests`);
} finally {
  await site.stop();
  cms.kill();
}
