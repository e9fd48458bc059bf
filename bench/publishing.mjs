// A newsroom that never stops publishing (`make bench`): the site against
// a Strapi-5-shaped CMS (`tools/strapi_fixture.py` over content/) with
// `CONTENT_TTL_SECS=5`, walked over every page of its sitemap in both
// languages by one client address (a carrier's NAT) with wrk, first while
// content stays the same, then while every title of every page and list
// changes every `EDITION_SECS` (10). Prints per run requests/s, p99, the
// answers that were no page (not 2xx/3xx: refused, failed), the share of
// pages served stale and their age, and the background renders; then the
// publishing run's p99 against the fixed run's.
//
//   SITE_BIN=target/release/site node bench/publishing.mjs
//   WALK_SECONDS=30 CONNECTIONS=16 EDITION_SECS=10
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort, startSite } from "../app/e2e/harness.mjs";

const root = resolve(import.meta.dirname, "..");
process.env.SITE_BIN ||= resolve(root, "target/release/site");
const SECONDS = Number(process.env.WALK_SECONDS || 30);
const CONNECTIONS = Number(process.env.CONNECTIONS || 16);
const EDITION_SECS = Number(process.env.EDITION_SECS || 10);



async function startCms(editionEvery) {
  const cmsPort = await freePort();
  const args = [join(root, "tools/strapi_fixture.py"), "--port", String(cmsPort), "--shape", "v5", "--edition-every", String(editionEvery)];
  const cms = spawn("python3", args, { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((ok) => cms.stdout.on("data", (chunk) => String(chunk).includes("listening") && ok()));
  return { url: `http://127.0.0.1:${cmsPort}`, stop: () => cms.kill() };
}

/** Every page address of the sitemap (its sub-sitemaps too). */
async function sitemapPaths(base) {
  const locs = async (url) => [...(await (await fetch(url)).text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
  const paths = [];
  for (const loc of await locs(`${base}/sitemap.xml`)) {
    const path = new URL(loc).pathname + new URL(loc).search;
    if (path.startsWith("/sitemaps/")) paths.push(...(await locs(base + path)).map((l) => new URL(l).pathname + new URL(l).search));
    else paths.push(path);
  }
  return paths;
}

/** `/metrics` as name{labels} → value. */
async function metrics(metricsBase) {
  const text = await (await fetch(`${metricsBase}/metrics`)).text();
  const values = new Map();
  for (const line of text.split("\n")) {
    const match = line.match(/^([a-z_]+(?:\{[^}]*\})?) ([0-9.e+-]+)$/);
    if (match) values.set(match[1], Number(match[2]));
  }
  return values;
}

const sum = (values, prefix) => [...values].filter(([name]) => name.startsWith(prefix)).reduce((total, [, value]) => total + value, 0);

async function run(name, editionEvery) {
  const cms = await startCms(editionEvery);
  const metricsPort = await freePort();
  const site = await startSite({ CMS_URL: cms.url, CONTENT_TTL_SECS: "5", METRICS_ADDR: `127.0.0.1:${metricsPort}`, CONTENT_DISK_CACHE_MB: "0" });
  const metricsBase = `http://127.0.0.1:${metricsPort}`;
  try {
    for (let waited = 0; waited < 600; waited++) {
      const detail = await (await fetch(`${site.base}/healthz?detail`)).json();
      if (detail.pages?.prerendered) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const paths = await sitemapPaths(site.base);
    const work = mkdtempSync(join(tmpdir(), "publishing-"));
    const script = join(work, "walk.lua");
    writeFileSync(
      script,
      `paths = ${JSON.stringify(paths).replace("[", "{").replace(/\]$/, "}")}\ncounter = 0\nrequest = function()\n  counter = counter + 1\n  return wrk.format("GET", paths[counter % #paths + 1], { ["Accept-Encoding"] = "gzip" })\nend\n`,
    );
    const before = await metrics(metricsBase);
    const out = execFileSync("wrk", ["-t2", `-c${CONNECTIONS}`, `-d${SECONDS}s`, "--latency", "-s", script, site.base], { encoding: "utf8" });
    const after = await metrics(metricsBase);
    const delta = (prefix) => sum(after, prefix) - sum(before, prefix);
    const rps = Number(out.match(/Requests\/sec:\s+([0-9.]+)/)[1]);
    const p99 = out.match(/ 99%\s+([0-9.]+)(us|ms|s)/);
    const p99ms = Number(p99[1]) * { us: 0.001, ms: 1, s: 1000 }[p99[2]];
    const requests = Number(out.match(/(\d+) requests in/)[1]);
    const notPages = Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] || 0);
    // Every answer served stale, by either path, records its age.
    const stale = delta("page_stale_age_seconds_count");
    const fast = delta("page_fast_hits_total");
    const tooStale = delta('page_cache_lookups_total{result="too_stale"}');
    const ageMean = stale ? delta("page_stale_age_seconds_sum") / stale : 0;
    const rendered = delta('page_refreshes_total{outcome="rendered"}');
    const coalesced = delta('page_refreshes_total{outcome="coalesced"}');
    console.log(
      `${name.padEnd(10)} ${paths.length} pages, ${CONNECTIONS} connections, ${SECONDS} s: ${rps.toFixed(0)} req/s, p99 ${p99ms.toFixed(1)} ms, ` +
        `${notPages} of ${requests} answers no page; from memory ${((100 * fast) / requests).toFixed(1)}%; served stale ${((100 * stale) / requests).toFixed(1)}% (mean age ${ageMean.toFixed(1)} s), ` +
        `past the bound ${tooStale}; background renders ${rendered} (${coalesced} coalesced)`,
    );
    return { rps, p99ms, notPages };
  } finally {
    await site.stop();
    cms.stop();
  }
}

const fixed = await run("fixed", 0);
const publishing = await run("publishing", EDITION_SECS);
console.log(
  `publishing every ${EDITION_SECS} s against fixed content: ${(publishing.rps / fixed.rps).toFixed(2)}x the requests/s, p99 ${(publishing.p99ms / fixed.p99ms).toFixed(2)}x (goal ≤ 3x), ${publishing.notPages} answers no page (goal 0)`,
);
