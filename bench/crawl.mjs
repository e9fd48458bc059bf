// A search engine's crawl of the site, for `bench/newsroom.sh`: every
// address it is given fetched once, `CONCURRENCY` at a time, from
// `ADDRESSES` client addresses (127.0.0.2, .3, … : loopback answers any
// 127.x address, so the server sees as many clients), with one keep-alive
// agent per address, as a crawler's machines each keep their connections.
// While it runs, every 0.5 s: the site's RSS (and its high-water mark) from
// /proc, and the time `/healthz` takes to answer (at most 5 s); and a few
// times a second, a cached page (`/`) asked by another client (127.0.0.20),
// whose p99 is set against the same client's with the server idle just
// before. Every request has a timeout, and the crawl a bound on its wall
// time (`--seconds`): what is not answered by then is counted as such.
// Prints one line of JSON with the figures (bench/newsroom-table.mjs makes
// the table); progress goes to stderr.
//
//   node bench/crawl.mjs sitemap BASE                        # the sitemap's paths, one a line
//   node bench/crawl.mjs story BASE PATH --cms URL           # one page: ms and CMS requests
//   node bench/crawl.mjs crawl BASE PATHS_FILE --addresses 8 --concurrency 8 \
//     --pid PID --metrics URL --cms URL --seconds 1200 --label "first crawl"
//
// Node core only.
import http from "node:http";
import { setMaxListeners } from "node:events";
import { readFileSync } from "node:fs";

const REQUEST_TIMEOUT_MS = 30_000;
const HEALTH_TIMEOUT_MS = 5_000;
const SAMPLE_MS = 500;
const PROBE_MS = 200;
const IDLE_PROBE_MS = 10_000;
// What a search engine's crawler says it takes.
const HEADERS = { "accept-encoding": "gzip, deflate, br", "user-agent": "newsroom-crawl (bench)" };

const agents = new Map();
function agentFor(address) {
  if (!agents.has(address)) agents.set(address, new http.Agent({ keepAlive: true, localAddress: address }));
  return agents.get(address);
}

/** One GET: its status (0 when none came) and milliseconds, the body read and dropped. */
function get(url, { address = "127.0.0.1", timeout = REQUEST_TIMEOUT_MS, signal } = {}) {
  const started = performance.now();
  return new Promise((done) => {
    const finish = (status) => done({ status, ms: performance.now() - started });
    const request = http.get(url, { agent: agentFor(address), localAddress: address, headers: HEADERS, timeout, signal }, (response) => {
      response.on("data", () => {});
      response.on("end", () => finish(response.statusCode));
      response.on("error", () => finish(0));
    });
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", () => finish(0));
  });
}

async function text(url, timeout = REQUEST_TIMEOUT_MS) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeout) });
    return response.ok ? await response.text() : null;
  } catch {
    return null;
  }
}

/** Every page address of the sitemap and its sub-sitemaps, as paths. */
async function sitemap(base) {
  const locs = async (url) => [...((await text(url)) ?? "").matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]));
  const paths = [];
  for (const loc of await locs(`${base}/sitemap.xml`)) {
    if (loc.pathname.startsWith("/sitemaps/")) paths.push(...(await locs(base + loc.pathname + loc.search)).map((l) => l.pathname + l.search));
    else paths.push(loc.pathname + loc.search);
  }
  return paths;
}

/** The pages rendered so far: `render_duration_seconds`'s count over its outcomes; null when /metrics did not answer. */
async function rendered(metricsUrl) {
  if (!metricsUrl) return null;
  const body = await text(`${metricsUrl}/metrics`);
  if (body === null) return null;
  return [...body.matchAll(/^render_duration_seconds_count(?:\{[^}]*\})? ([0-9.e+]+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
}

/** The CMS fixture's requests so far, by kind (`/__requests`). */
async function cmsRequests(cmsUrl) {
  if (!cmsUrl) return null;
  const body = await text(`${cmsUrl}/__requests`);
  return body === null ? null : JSON.parse(body);
}

const difference = (after, before) =>
  after && before ? Object.fromEntries(Object.keys(after).map((kind) => [kind, after[kind] - (before[kind] ?? 0)])) : null;

function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `take` every `ms` (the next starting `ms` after the last began, or when it ended) until `stop()`. */
function every(ms, take) {
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await take();
      await sleep(Math.max(0, ms - (performance.now() - started)));
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

/** VmRSS and VmHWM of a process, in MB; null once it is gone. */
function memory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0);
    return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
  } catch {
    return null;
  }
}

/** The cached page's latencies from its own client, every PROBE_MS until `stop()`. */
function probe(base) {
  const times = [];
  const stop = every(PROBE_MS, async () => {
    const { status, ms } = await get(`${base}/`, { address: "127.0.0.20", timeout: HEALTH_TIMEOUT_MS });
    times.push(status === 0 ? HEALTH_TIMEOUT_MS : ms);
  });
  return async () => {
    await stop();
    return times;
  };
}

async function crawl(base, paths, options) {
  const addresses = Array.from({ length: options.addresses }, (_, n) => `127.0.0.${2 + n}`);
  // The cached page with the server idle, from the probe's own client.
  await get(`${base}/`, { address: "127.0.0.20" });
  const stopIdle = probe(base);
  await sleep(IDLE_PROBE_MS);
  const idle = await stopIdle();

  const before = { rendered: await rendered(options.metrics), cms: await cmsRequests(options.cms) };
  let peakRss = 0;
  let hwm = 0;
  const stopMemory = every(SAMPLE_MS, async () => {
    const now = memory(options.pid);
    if (now) [peakRss, hwm] = [Math.max(peakRss, now.rss), Math.max(hwm, now.hwm)];
  });
  let worstHealth = 0;
  let healthTimeouts = 0;
  const stopHealth = every(SAMPLE_MS, async () => {
    const { status, ms } = await get(`${base}/healthz`, { timeout: HEALTH_TIMEOUT_MS });
    if (status === 0) healthTimeouts += 1;
    worstHealth = Math.max(worstHealth, status === 0 ? HEALTH_TIMEOUT_MS : ms);
  });
  const stopProbe = probe(base);

  const statuses = { "2xx": 0, "3xx": 0, "4xx": 0, 429: 0, "5xx": 0, none: 0 };
  const latencies = [];
  const started = performance.now();
  const bound = AbortSignal.timeout(options.seconds * 1000);
  // Every request of the crawl listens to it.
  setMaxListeners(0, bound);
  let next = 0;
  let answered = 0;
  const progress = setInterval(() => {
    const secs = (performance.now() - started) / 1000;
    process.stderr.write(`  ${options.label}: ${answered} of ${paths.length} answered in ${secs.toFixed(0)} s\n`);
  }, 30_000);
  await Promise.all(
    Array.from({ length: options.concurrency }, async (_, worker) => {
      const address = addresses[worker % addresses.length];
      while (next < paths.length && !bound.aborted) {
        const path = paths[next++];
        const { status, ms } = await get(base + path, { address, signal: bound });
        if (status === 0) {
          statuses.none += 1;
          continue;
        }
        answered += 1;
        latencies.push(ms);
        const kind = status === 429 ? 429 : `${Math.floor(status / 100)}xx`;
        statuses[kind] = (statuses[kind] ?? 0) + 1;
      }
    }),
  );
  clearInterval(progress);
  const wall = (performance.now() - started) / 1000;
  // Those never asked for before the bound are not answered either.
  statuses.none += paths.length - Math.min(next, paths.length);
  const crawling = await stopProbe();
  await Promise.all([stopMemory(), stopHealth()]);
  const after = { rendered: await rendered(options.metrics), cms: await cmsRequests(options.cms) };
  const cms = difference(after.cms, before.cms);
  // Over the stories' pages it asked for: all of them unless the bound cut the crawl.
  const storyPages = paths.slice(0, Math.min(next, paths.length)).filter((path) => /\/news-event\//.test(path)).length;
  const idleP99 = percentile(idle, 99);
  const crawlP99 = percentile(crawling, 99);
  return {
    label: options.label,
    addresses: options.addresses,
    concurrency: options.concurrency,
    pages: paths.length,
    storyPages,
    answered,
    statuses,
    cut: bound.aborted,
    seconds: wall,
    pagesPerSecond: answered / wall,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    rendered: before.rendered !== null && after.rendered !== null ? after.rendered - before.rendered : null,
    cms,
    cmsPerStoryPage: cms && storyPages ? cms.total / storyPages : null,
    peakRss,
    hwm,
    worstHealth,
    healthTimeouts,
    cachedIdleP99: idleP99,
    cachedCrawlP99: crawlP99,
    cachedRatio: idleP99 && crawlP99 !== null ? crawlP99 / idleP99 : null,
  };
}

/** One page never asked for before: its milliseconds and the CMS requests it cost. */
async function story(base, path, options) {
  const before = await cmsRequests(options.cms);
  const { status, ms } = await get(base + path);
  const after = await cmsRequests(options.cms);
  return { path, status, ms, cms: difference(after, before)?.total ?? null };
}

function flags(args) {
  const options = {};
  for (let n = 0; n < args.length; n += 2) options[args[n].replace(/^--/, "")] = args[n + 1];
  return options;
}

const [command, base, ...rest] = process.argv.slice(2);
if (command === "sitemap") {
  process.stdout.write((await sitemap(base)).map((path) => `${path}\n`).join(""));
} else if (command === "story") {
  const [path, ...args] = rest;
  console.log(JSON.stringify(await story(base, path, flags(args))));
} else if (command === "crawl") {
  const [file, ...args] = rest;
  const options = flags(args);
  const paths = readFileSync(file, "utf8").split("\n").filter(Boolean);
  const result = await crawl(base, paths, {
    label: options.label ?? "crawl",
    addresses: Number(options.addresses ?? 8),
    concurrency: Number(options.concurrency ?? 8),
    seconds: Number(options.seconds ?? 1200),
    pid: options.pid,
    metrics: options.metrics,
    cms: options.cms,
  });
  console.log(JSON.stringify(result));
} else {
  console.error("usage: node bench/crawl.mjs sitemap BASE | story BASE PATH --cms URL | crawl BASE PATHS_FILE [--flags]");
  process.exit(2);
}
for (const agent of agents.values()) agent.destroy();
