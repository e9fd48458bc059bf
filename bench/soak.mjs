// `make soak`: three release `site` instances sharing Redis, SESSION_KEY and
// DATA_DIR behind nginx round-robin (as `make bench-scale`), a CMS
// (tools/strapi_fixture.py) and an operator API (the sandbox served by a
// fourth `site`, its books in its own DATA_DIR) each behind
// tools/operator-proxy.mjs, under load for SOAK_MINUTES (default 10) while a
// schedule of faults runs: CMS slow, answering 500, malformed JSON and hung;
// the operator API hung and failing; Redis restarted; one instance `kill
// -9`ed and one drained with SIGTERM, each started again. Throughout, the
// CMS publishes a new edition of every title every SOAK_EDITION_SECS (5;
// `--edition-every`, 0 for none), so every page keeps changing. Load throughout,
// every request through nginx: anonymous visitors walking the sitemap (5%
// of views with a subscriber's session), sign-ins, purchases for self and
// friends, form submissions and hostile clients (junk cookies, random
// queries and addresses, slow headers over raw sockets).
//
// Prints per minute the requests, answers by kind and status, the
// documented sheds (429 or 503 with Retry-After) apart from unplanned errors
// (any other 5xx but the account API's documented ones, a connection error
// or timeout), p50/p99, the share of anonymous pages served stale
// (`Cache-Control: no-cache`) with their mean age and those past
// PAGE_STALE_MAX_SECS (the instances' /metrics), the pages refused, and
// each instance's RSS and open files; at the end,
// every accepted purchase looked up in the operator's books, every accepted
// form in the export and the CMS's entries, and a verdict against the goals.
// Everything runs on loopback and is stopped on exit (bench/soak.sh also
// kills the process group). Asserts nothing: exit status 0 either way.
//
//   SOAK_MINUTES=2 SITE_BIN=target/release/site node bench/soak.mjs

import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, openSync, readFileSync, readdirSync, existsSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startOperatorProxy } from "../tools/operator-proxy.mjs";
import { loadBalancerConfig } from "../tests/scale/nginx.mjs";
import { instanceEnv, requireBinaries, startFixtureCms, startNginx, startRedis } from "../tests/scale/services.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const SITE_BIN = resolve(ROOT, process.env.SITE_BIN ?? "target/release/site");
const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const WALKERS = Number(process.env.SOAK_WALKERS ?? 6);
const EDITION_SECS = Number(process.env.SOAK_EDITION_SECS ?? 5);
const TOTAL_MS = MINUTES * 60_000;
/** The first minute (a fifth of a shorter run) warms the caches: no faults, and the RSS baseline. */
const WARM_MS = Math.min(60_000, TOTAL_MS * 0.2);
/** The last minute (less in a shorter run) is calm, so retries and the forms outbox settle. */
const CALM_MS = Math.min(60_000, TOTAL_MS * 0.15);
const FORMS_TOKEN = "soak-forms-token";
const SESSION_KEY = Buffer.from("shared by every instance of the soak behind one address; 64 bytes long at least").toString("base64");
const SUBSCRIBERS = [
  { local: "0754000001", channels: ["MPESA", "AIRTIME"] },
  { local: "0754000002", channels: ["MPESA", "AIRTIME"] },
  { local: "0754000003", channels: ["AIRTIME"] }, // postpaid: on her bill
  { local: "0754000004", channels: ["AIRTIME"] }, // no M-Pesa account
];
const international = (local) => `255${local.slice(1)}`;

const dir = mkdtempSync(join(tmpdir(), "site-soak-"));
const children = new Set();
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
const started = Date.now();
const clock = () => {
  const s = Math.floor((Date.now() - started) / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
};
const say = (line) => console.log(`[${clock()}] ${line}`);

// ---------------------------------------------------------------- processes

function start(name, command, args, env = {}) {
  const log = openSync(join(dir, `${name}.log`), "a");
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", log, log] });
  child.name = name;
  children.add(child);
  child.on("exit", () => children.delete(child));
  return child;
}

function stop(child, signal = "SIGKILL", ms = 30_000) {
  return new Promise((ok) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return ok();
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.once("exit", () => (clearTimeout(timer), ok()));
    child.kill(signal);
  });
}

function stopAll() {
  for (const child of children) child.kill("SIGKILL");
}
process.on("exit", stopAll);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => process.exit(130));

async function freePorts(count) {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise((ok, fail) => {
      const server = net.createServer().listen(0, "127.0.0.1", () => ok(server));
      server.on("error", fail);
    })),
  );
  const chosen = servers.map((server) => server.address().port);
  await Promise.all(servers.map((server) => new Promise((ok) => server.close(ok))));
  return chosen;
}

async function waitFor(what, check, ms = 60_000) {
  const until = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return;
    } catch {}
    if (Date.now() > until) throw new Error(`${what} not within ${ms} ms (logs in ${dir})`);
    await sleep(100);
  }
}

const ports = {};
const sites = [];
let redis;


const plainGet = (url) => new Promise((ok, fail) => {
  http.get(url, { agent: false }, (answer) => {
    let body = "";
    answer.on("data", (chunk) => (body += chunk));
    answer.on("end", () => ok({ status: answer.statusCode, body }));
  }).on("error", fail);
});

let operatorProxy;
let cmsProxy;

/** Starts that ended before they were ready, with the last line each logged. */
const failedStarts = [];

/** Starts instance `n` and waits until it is ready; one that ends first is started again, as a supervisor would. */
async function startSite(n) {
  for (let attempt = 1; ; attempt++) {
    const child = launchSite(n);
    let gone = false;
    child.once("exit", () => (gone = true));
    await waitFor(`instance ${n + 1} ready`, async () => gone || (await plainGet(`http://127.0.0.1:${ports.sites[n]}/readyz`)).status === 200);
    if (!gone) return;
    const last = readFileSync(join(dir, `site-${n + 1}.log`), "utf8").replace(/\x1b\[[0-9;]*m/g, "").trim().split("\n").at(-1);
    failedStarts.push(`${clock()} instance ${n + 1}: ${last}`);
    say(`instance ${n + 1} ended before it was ready (start ${attempt}): ${last}`);
    if (attempt === 5) throw new Error(`instance ${n + 1} did not start in 5 tries (logs in ${dir})`);
    await sleep(1000);
  }
}

function launchSite(n) {
  sites[n] = start(`site-${n + 1}`, SITE_BIN, [], {
    ...instanceEnv(ports, n, SESSION_KEY),
    DATA_DIR: join(dir, "data"),
    CMS_URL: cmsProxy.url,
    CONTENT_TTL_SECS: "15",
    FORMS_TOKEN,
    FORMS_RETRY_MS: "1000",
    DIGITAL_API_URL: `${operatorProxy.url}/`,
    METRICS_ADDR: `127.0.0.1:${ports.metrics[n]}`,
    MAX_CONNECTIONS_PER_ADDRESS: "4096",
    OTP_RESEND_SECS: "0",
    SHUTDOWN_GRACE_SECS: "10",
    RUST_LOG: "warn",
  });
  bornAt.set(sites[n].pid, Date.now());
  return sites[n];
}

// ------------------------------------------------------------------ clients

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
let base;

/**
 * One request through nginx; resolves (never rejects) with status, headers,
 * body (kept when `keep` or a 5xx) and milliseconds, or `error`.
 */
function send({ method = "GET", path, headers = {}, body, keep = false, timeout = 30_000, to = base }) {
  const begun = performance.now();
  return new Promise((ok) => {
    const request = http.request(`${to}${path}`, { method, agent, headers, timeout }, (answer) => {
      const chunks = [];
      answer.on("data", (chunk) => chunks.push(chunk));
      answer.on("end", () => {
        const status = answer.statusCode;
        const text = keep || status >= 500 ? Buffer.concat(chunks).toString() : "";
        ok({ status, headers: answer.headers, text, ms: performance.now() - begun });
      });
      answer.on("error", (error) => ok({ error: error.code ?? error.message, ms: performance.now() - begun }));
    });
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", (error) => ok({ error: error.code ?? error.message, ms: performance.now() - begun }));
    request.end(body);
  });
}

const json = (value) => {
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
};

// ------------------------------------------------------------------ figures

/** Kinds whose 5xx count against "pages for everyone". */
const PAGE_KINDS = new Set(["page", "hostile"]);
let minute = newMinute();
const minutes = [];
const unplannedSamples = [];
/** Pages for everyone answered "Failed to Load Content" (503, Retry-After: 30). */
const contentSamples = [];
const totals = { requests: 0, shed: 0, unplanned: 0, unplannedPages: 0, documented: 0, pages: 0, stale: 0, ageSum: 0, ageCount: 0, tooStale: 0 };
const shedsByKind = {};

function newMinute() {
  return { requests: 0, byKind: {}, shed: {}, unplanned: {}, documented: {}, latencies: [], pages: 0, stale: 0 };
}

const bump = (map, key) => (map[key] = (map[key] ?? 0) + 1);
const tally = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);

/**
 * Counts one answer: `shed` (429/503 with Retry-After), `documented` (a 5xx
 * of the account or forms API carrying its message: 502 notRight, 504
 * purchaseUnconfirmed, 503 serviceUnavailable, a form's 503 "could not be
 * saved"), `unplanned` (any other 5xx, a connection error or timeout) or
 * ordinary.
 */
function record(kind, result, what) {
  minute.requests++;
  totals.requests++;
  minute.latencies.push(result.ms);
  const status = result.error ? `error:${result.error}` : String(result.status);
  bump((minute.byKind[kind] ??= {}), status);
  if (result.error) return unplanned(kind, status, result, what);
  if ((result.status === 429 || result.status === 503) && result.headers["retry-after"]) {
    const why = result.status === 503 && /Failed to Load Content/.test(result.text) ? "503 content" : String(result.status);
    bump(minute.shed, `${kind} ${why}`);
    if (why === "503 content" && contentSamples.length < 20) contentSamples.push(`${clock()} ${what} via ${result.headers["x-upstream"] ?? "?"}`);
    bump(shedsByKind, `${kind} ${why}`);
    totals.shed++;
    return;
  }
  if (result.status >= 500) {
    const answer = !PAGE_KINDS.has(kind) && json(result.text);
    const notice = answer?.notice?.key ?? (answer?.errors?.form ? "errors.form" : null);
    if (notice) {
      bump(minute.documented, `${kind} ${result.status} ${notice}`);
      totals.documented++;
      return;
    }
    unplanned(kind, status, result, what);
  }
}

function unplanned(kind, status, result, what) {
  bump(minute.unplanned, `${kind} ${status}`);
  totals.unplanned++;
  if (PAGE_KINDS.has(kind)) totals.unplannedPages++;
  if (unplannedSamples.length < 40) {
    unplannedSamples.push(`${clock()} ${kind} ${what} -> ${status} via ${result.headers?.["x-upstream"] ?? "?"} ${(result.text ?? "").replace(/\s+/g, " ").slice(0, 160)}`);
  }
}

function percentile(sorted, p) {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

const mb = (kb) => (kb / 1024).toFixed(0);

function sample() {
  return sites.map((child) => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
      const fds = readdirSync(`/proc/${child.pid}/fd`).length;
      return { pid: child.pid, rssKb, fds };
    } catch {
      return { pid: child.pid, rssKb: null, fds: null };
    }
  });
}

/** Each process's RSS samples, and when each was started. */
const rssSeen = new Map();
const bornAt = new Map();

/** Each instance's stale-page figures at the last scrape, by pid (a restarted instance counts from 0). */
const staleSeen = new Map();
/** Where each instance's memory is at the last scrape, by pid: the allocator's live and resident bytes, the page cache's. */
const heldSeen = new Map();

/** The instances' stale pages since the last call: answers, the sum of their ages, and those refused past the bound. */
async function staleSinceLast() {
  const since = { ageSum: 0, ageCount: 0, tooStale: 0 };
  await Promise.all(sites.map(async (child, n) => {
    let text;
    try {
      text = (await plainGet(`http://127.0.0.1:${ports.metrics[n]}/metrics`)).body;
    } catch {
      return;
    }
    const value = (series) => Number(new RegExp(`^${series.replace(/[{}"]/g, "\\$&")} ([0-9.e+-]+)$`, "m").exec(text)?.[1] ?? 0);
    const now = { ageSum: value("page_stale_age_seconds_sum"), ageCount: value("page_stale_age_seconds_count"), tooStale: value('page_cache_lookups_total{result="too_stale"}') };
    heldSeen.set(child.pid, { allocated: value("memory_allocated_bytes"), resident: value("memory_resident_bytes"), pages: value("page_cache_bytes") });
    const last = staleSeen.get(child.pid) ?? { ageSum: 0, ageCount: 0, tooStale: 0 };
    staleSeen.set(child.pid, now);
    for (const key of Object.keys(since)) since[key] += Math.max(0, now[key] - last[key]);
  }));
  return since;
}

const pct = (part, whole) => (whole ? ((100 * part) / whole).toFixed(1) : "0.0");

async function closeMinute() {
  const done = minute;
  minute = newMinute();
  const stale = await staleSinceLast();
  totals.ageSum += stale.ageSum;
  totals.ageCount += stale.ageCount;
  totals.tooStale += stale.tooStale;
  const sorted = Float64Array.from(done.latencies).sort();
  const resources = sample();
  for (const [n, seen] of resources.entries()) {
    if (seen.rssKb === null) continue;
    const life = rssSeen.get(seen.pid) ?? { instance: n + 1, born: bornAt.get(seen.pid) ?? Date.now(), samples: [] };
    life.samples.push({ at: Date.now(), rssKb: seen.rssKb });
    rssSeen.set(seen.pid, life);
  }
  minutes.push({ ...done, resources });
  const list = (map) => Object.entries(map).map(([k, v]) => `${k}: ${v}`).join(", ") || "none";
  console.log(`\n== minute ${minutes.length} (${clock()}): ${done.requests} requests, p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`);
  for (const [kind, statuses] of Object.entries(done.byKind)) console.log(`   ${kind.padEnd(9)} ${list(statuses)}`);
  const refused = Object.entries(done.shed).filter(([key]) => key.startsWith("page ")).reduce((sum, [, n]) => sum + n, 0);
  console.log(
    `   pages: ${done.pages} anonymous, served stale ${pct(done.stale, done.pages)}% (mean age ${(stale.ageCount ? stale.ageSum / stale.ageCount : 0).toFixed(1)} s), ` +
      `past PAGE_STALE_MAX_SECS ${stale.tooStale}; refused ${refused}`,
  );
  console.log(`   sheds (Retry-After): ${list(done.shed)}`);
  console.log(`   documented API errors: ${list(done.documented)}`);
  console.log(`   UNPLANNED: ${list(done.unplanned)}`);
  const held = (pid) => {
    const seen = heldSeen.get(pid);
    return seen ? ` (jemalloc ${mb(seen.allocated / 1024)} live/${mb(seen.resident / 1024)} resident, pages ${mb(seen.pages / 1024)})` : "";
  };
  console.log(`   instances: ${resources.map((r, n) => `${n + 1}: pid ${r.pid} ${r.rssKb === null ? "down" : `${mb(r.rssKb)} MB${held(r.pid)}, ${r.fds} fds`}`).join(" | ")}`);
}

// ------------------------------------------------------------------- load

let running = true;
const addressPool = Array.from({ length: 2000 }, (_, n) => `10.${20 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`);
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const encodings = ["br, gzip", "gzip", "", "gzip, deflate, br"];
let paths = [];

/** Live sessions by subscriber number: { cookie, address }. */
const sessions = new Map();

async function walker() {
  while (running) {
    const path = pick(paths);
    const headers = { "x-forwarded-for": pick(addressPool), "accept-encoding": pick(encodings) };
    const signedIn = Math.random() < 0.05 && sessions.size > 0 ? pick([...sessions.values()]) : null;
    if (signedIn) Object.assign(headers, { cookie: signedIn.cookie, "x-forwarded-for": signedIn.address });
    const result = await send({ path, headers });
    record(signedIn ? "signed-in" : "page", result, `GET ${path}`);
    if (!signedIn && !result.error) {
      minute.pages++;
      totals.pages++;
      // A page for earlier content, its new one rendering: the only anonymous page answered so.
      if (result.headers["cache-control"] === "no-cache") minute.stale++, totals.stale++;
    }
  }
}

const postHeaders = (extra) => ({
  "content-type": "application/json",
  accept: "application/json",
  "sec-fetch-site": "same-origin",
  origin: base,
  "x-site-lang": Math.random() < 0.3 ? "sw" : "en",
  ...extra,
});

const signInWait = new Map();

async function signIn(subscriber) {
  const address = pick(addressPool);
  const body = JSON.stringify({ msisdn: subscriber.local });
  const asked = await send({ method: "POST", path: "/api/auth/request-otp", headers: postHeaders({ "x-forwarded-for": address }), body, keep: true });
  record("sign-in", asked, "POST /api/auth/request-otp");
  if (asked.status !== 200) {
    const wait = Number(asked.headers?.["retry-after"] ?? 5);
    signInWait.set(subscriber.local, Date.now() + Math.min(wait, 120) * 1000);
    return;
  }
  const inbox = await send({ path: `/sandbox/inbox?msisdn=${international(subscriber.local)}`, to: `http://127.0.0.1:${ports.operator}`, keep: true });
  const code = json(inbox.text)?.code;
  if (!code) return;
  const checked = await send({
    method: "POST",
    path: "/api/auth/validate-otp",
    headers: postHeaders({ "x-forwarded-for": address }),
    body: JSON.stringify({ msisdn: subscriber.local, code }),
    keep: true,
  });
  record("sign-in", checked, "POST /api/auth/validate-otp");
  const cookie = [checked.headers?.["set-cookie"] ?? []].flat().map((c) => c.split(";")[0]).find((c) => /session=/.test(c));
  if (checked.status === 200 && cookie) sessions.set(subscriber.local, { cookie, address });
}

async function signIns() {
  let lastFresh = Date.now();
  while (running) {
    const due = SUBSCRIBERS.find((s) => !sessions.has(s.local) && (signInWait.get(s.local) ?? 0) < Date.now());
    if (due) await signIn(due);
    else if (Date.now() - lastFresh > 30_000) {
      lastFresh = Date.now();
      const again = pick(SUBSCRIBERS);
      if ((signInWait.get(again.local) ?? 0) < Date.now()) await signIn(again);
    }
    await sleep(2000);
  }
}

/** Per payer|recipient|bundle: accepted (200) and unsure (an answer that might have gone through). */
const purchases = new Map();
let bundleIds = [];

async function purchaser() {
  while (running) {
    await sleep(500 + Math.random() * 1000);
    const live = SUBSCRIBERS.filter((s) => sessions.has(s.local));
    if (!live.length || !bundleIds.length) continue;
    const payer = pick(live);
    const session = sessions.get(payer.local);
    const friend = Math.random() < 0.4 ? pick(SUBSCRIBERS.filter((s) => s !== payer)) : null;
    const bundleId = pick(bundleIds);
    const again = Math.random() < 0.9;
    const form = { bundleId, purchaseChannel: pick(payer.channels), recipient: friend ? "friend" : "self", ...(friend ? { subscriber: friend.local } : {}), ...(again ? { again: true } : {}) };
    const result = await send({
      method: "POST",
      path: "/api/bundles/purchase",
      headers: postHeaders({ cookie: session.cookie, "x-forwarded-for": session.address }),
      body: JSON.stringify(form),
      keep: true,
    });
    record("purchase", result, `POST /api/bundles/purchase ${JSON.stringify(form)}`);
    const key = `${international(payer.local)}|${international((friend ?? payer).local)}|${bundleId}`;
    const entry = purchases.get(key) ?? { accepted: 0, unsure: 0 };
    if (result.status === 200) entry.accepted++;
    else if (result.error || result.status >= 500) entry.unsure++;
    purchases.set(key, entry);
    if (result.status === 401) sessions.delete(payer.local);
  }
}

/** Every form fill: its Idempotency-Key and, once accepted, its reference. */
const forms = [];

async function submitter() {
  let n = 0;
  while (running) {
    await sleep(500 + Math.random() * 1000);
    const key = `soak-${process.pid}-${n++}`;
    const fill = { key, reference: null, tries: 0 };
    forms.push(fill);
    const body = JSON.stringify({
      name: `Soak ${key}`, email: `${key}@example.co.tz`, phone: "0754 000 001", businessName: `Business ${n}`,
      businessSize: "small", industry: "Retail", whereHeard: "other", services: ["iot"],
    });
    const address = pick(addressPool);
    // A connection lost or a 5xx: the same fill is sent again with the same key, as a page would.
    while (fill.tries < 3 && running) {
      fill.tries++;
      const result = await send({ method: "POST", path: "/api/forms/business-community", headers: postHeaders({ "idempotency-key": key, "x-forwarded-for": address }), body, keep: true });
      record("form", result, `POST /api/forms/business-community ${key}`);
      if (result.status === 201) fill.reference = json(result.text)?.reference ?? null;
      if (!(result.error || result.status >= 500)) break;
      await sleep(1000);
    }
  }
}

const junk = () => Math.random().toString(36).slice(2);

async function hostile() {
  while (running) {
    const choice = Math.random();
    let path = pick(paths);
    const headers = { "x-forwarded-for": pick(addressPool) };
    if (choice < 0.35) headers.cookie = `session=${junk()}${junk()}; flash=${junk()}; lang=${pick(["sw", "xx", junk()])}`;
    else if (choice < 0.7) path += `${path.includes("?") ? "&" : "?"}${junk()}=${junk()}&q=${junk()}&page=${Math.floor(Math.random() * 1e6)}`;
    else path = `/${junk()}/${junk()}`;
    record("hostile", await send({ path, headers }), `GET ${path}`);
    await sleep(5);
  }
}

/** A client sending its headers a byte every 500 ms, until nginx closes it. */
let slowCut = 0;
async function slowHeaders() {
  while (running) {
    await new Promise((done) => {
      const socket = net.connect(ports.nginx, "127.0.0.1");
      const text = `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${"a".repeat(200)}`;
      let at = 0;
      const timer = setInterval(() => {
        if (!running || at >= text.length) return socket.destroy();
        socket.write(text[at++]);
      }, 500);
      socket.on("error", () => {});
      socket.on("close", () => (clearInterval(timer), slowCut++, done()));
    });
  }
}

// ------------------------------------------------------------------ chaos

const chaosLog = [];
function chaos(line) {
  chaosLog.push(`${clock()} ${line}`);
  say(`chaos: ${line}`);
}

async function restartSite(n, signal) {
  const down = Date.now();
  await stop(sites[n], signal);
  chaos(`instance ${n + 1} ended (${signal}) after ${Date.now() - down} ms; started again in 3 s`);
  await sleep(3000);
  await startSite(n);
  chaos(`instance ${n + 1} ready again (pid ${sites[n].pid})`);
}

async function restartRedis() {
  await stop(redis, "SIGTERM");
  chaos("Redis stopped; started again in 5 s");
  await sleep(5000);
  redis = await startRedis(ports.redis, dir);
  chaos("Redis answering again");
}

/** The faults, in turn, each on for half of its slot. */
const FAULTS = [
  ["CMS slow (2.5 s each answer)", () => cmsProxy.behave("slow", { delayMs: 2500 }), () => cmsProxy.behave("pass")],
  ["instance 2 kill -9", () => restartSite(1, "SIGKILL"), null],
  ["CMS answering 500", () => cmsProxy.behave("500"), () => cmsProxy.behave("pass")],
  ["instance 3 drained with SIGTERM", () => restartSite(2, "SIGTERM"), null],
  ["CMS answering malformed JSON", () => cmsProxy.behave("malformed"), () => cmsProxy.behave("pass")],
  ["operator API hung", () => operatorProxy.behave("hang", { only: /^\/api\// }), () => operatorProxy.behave("pass")],
  ["CMS hung", () => cmsProxy.behave("hang"), () => cmsProxy.behave("pass")],
  ["Redis restarted", () => restartRedis(), null],
  ["operator API failing (500)", () => operatorProxy.behave("500", { only: /^\/api\// }), () => operatorProxy.behave("pass")],
];

async function chaosSchedule() {
  const slot = (TOTAL_MS - WARM_MS - CALM_MS) / FAULTS.length;
  await sleep(WARM_MS);
  for (const [name, on, off] of FAULTS) {
    if (!running) return;
    const slotStart = Date.now();
    chaos(`${name}${off ? `, for ${(slot / 2000).toFixed(0)} s` : ""}`);
    const event = on();
    if (off) {
      await sleep(slot / 2);
      off();
      chaos(`${name}: over`);
    }
    await event;
    await sleep(Math.max(0, slot - (Date.now() - slotStart)));
  }
  chaos("calm until the end");
}

// ------------------------------------------------------------------- main

async function setUp() {
  requireBinaries(["redis-server", "redis-cli", "nginx", "sqlite3", "python3"], ["redis-server", "nginx", "sqlite3", "python3"]);
  if (!existsSync(SITE_BIN)) throw new Error(`no site binary at ${SITE_BIN}: make release first`);
  const free = await freePorts(10);
  [ports.redis, ports.cms, ports.nginx, ports.operator] = free;
  ports.sites = free.slice(4, 7);
  ports.metrics = free.slice(7, 10);
  mkdirSync(join(dir, "data"));
  mkdirSync(join(dir, "operator"));
  redis = await startRedis(ports.redis, dir);
  await startFixtureCms(ports.cms, dir, ["--edition-every", String(EDITION_SECS)]);
  cmsProxy = await startOperatorProxy(`http://127.0.0.1:${ports.cms}`);
  // The operator: a fourth `site` serving the sandbox, its books in its own DATA_DIR.
  start("operator", SITE_BIN, [], {
    HOST: "127.0.0.1", PORT: String(ports.operator), DATA_DIR: join(dir, "operator"), RENDER_WORKERS: "1",
    PRERENDER: "false", METRICS_ADDR: "off", OTP_RESEND_SECS: "0", RUST_LOG: "warn",
  });
  await waitFor("operator sandbox", async () => (await plainGet(`http://127.0.0.1:${ports.operator}/readyz`)).status === 200);
  // Wallets and airtime deep enough for every purchase of the run.
  execFileSync("sqlite3", ["-cmd", ".timeout 5000", join(dir, "operator/sandbox.sqlite3"), "UPDATE subscriber SET airtime = 1000000000, wallet = 1000000000;"]);
  operatorProxy = await startOperatorProxy(`http://127.0.0.1:${ports.operator}/sandbox/digital`);
  await Promise.all([startSite(0), startSite(1), startSite(2)]);
  const nginx = loadBalancerConfig({
    dir,
    sites: ports.sites,
    port: ports.nginx,
    workerConnections: 4096,
    keepalive: 64,
    httpExtra: "client_header_timeout 10s;",
    locationExtra: "proxy_read_timeout 30s;",
  });
  startNginx(dir, nginx);
  base = `http://127.0.0.1:${ports.nginx}`;
  await waitFor("nginx", async () => (await plainGet(`${base}/healthz`)).status === 200);

  const sitemap = await send({ path: "/sitemap.xml", keep: true });
  let locs = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
  if (/<sitemapindex/.test(sitemap.text)) {
    const nested = await Promise.all(locs.map((loc) => send({ path: new URL(loc).pathname, keep: true })));
    locs = nested.flatMap((answer) => [...answer.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]));
  }
  paths = locs.map((loc) => { const url = new URL(loc); return url.pathname + url.search; });
  if (!paths.length) throw new Error("the sitemap lists no page");
  const catalogue = json((await send({ path: "/api/bundles", headers: { accept: "application/json" }, keep: true })).text);
  bundleIds = (catalogue?.bundles ?? []).filter((b) => b.purchasable).map((b) => b.id).slice(0, 6);
  if (!bundleIds.length) throw new Error("no purchasable bundle in /api/bundles");
}

/** The instances' ERROR, WARN and panic lines, counted by message (fields after it left out). */
function logSummary() {
  const counts = new Map();
  for (const n of [1, 2, 3]) {
    const text = readFileSync(join(dir, `site-${n}.log`), "utf8").replace(/\x1b\[[0-9;]*m/g, "");
    for (const line of text.split("\n")) {
      const found = /\b(ERROR|WARN)\s+(\S+): (.*?)(?: \w+=|$)/.exec(line) ?? (/panicked/.test(line) ? [line, "PANIC", "", line.slice(0, 160)] : null);
      if (found) tally(counts, `${found[1]} ${found[2]}: ${found[3]}`);
    }
  }
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([message, count]) => `${String(count).padStart(6)} ${message}`);
  // Whole lines of what a visitor of a page for everyone may have seen fail.
  const pageFailures = [1, 2, 3].flatMap((n) =>
    readFileSync(join(dir, `site-${n}.log`), "utf8").replace(/\x1b\[[0-9;]*m/g, "").split("\n")
      .filter((line) => /page content unavailable|render threw|page data failed|panicked/.test(line)).map((line) => `instance ${n}: ${line.slice(0, 300)}`));
  return [...top, ...pageFailures.slice(0, 8)];
}

async function finish() {
  say("load stopped; every fault off; waiting for the forms outbox to empty");
  cmsProxy.behave("pass");
  operatorProxy.behave("pass");
  const pending = async () => {
    let sum = 0;
    for (const port of ports.sites) sum += json((await plainGet(`http://127.0.0.1:${port}/healthz?detail`)).body)?.forms?.pending ?? 1;
    return sum;
  };
  try {
    await waitFor("forms outbox empty", async () => (await pending()) === 0, 120_000);
  } catch (error) {
    say(String(error.message));
  }

  // Purchases: each accepted one in the operator's books, none beyond what could have gone through.
  const since = started - 1000;
  const rows = execFileSync("sqlite3", ["-cmd", ".timeout 5000", "-separator", "|", join(dir, "operator/sandbox.sqlite3"),
    `SELECT payer, recipient, bundle_id, count(*) FROM purchase WHERE created_at >= ${since} GROUP BY 1, 2, 3;`]).toString();
  const books = new Map(rows.trim().split("\n").filter(Boolean).map((line) => { const p = line.split("|"); return [p.slice(0, 3).join("|"), Number(p[3])]; }));
  let accepted = 0, unsure = 0, booked = 0, lost = 0, doubled = 0;
  const problems = [];
  for (const key of new Set([...purchases.keys(), ...books.keys()])) {
    const mine = purchases.get(key) ?? { accepted: 0, unsure: 0 };
    const theirs = books.get(key) ?? 0;
    accepted += mine.accepted; unsure += mine.unsure; booked += theirs;
    if (theirs < mine.accepted) { lost += mine.accepted - theirs; problems.push(`${key}: ${mine.accepted} accepted, ${theirs} in the books`); }
    if (theirs > mine.accepted + mine.unsure) { doubled += theirs - mine.accepted - mine.unsure; problems.push(`${key}: ${theirs} in the books, ${mine.accepted} accepted + ${mine.unsure} unsure`); }
  }

  // Forms: each accepted reference exported exactly once; no fill stored twice; each delivered to the CMS once.
  const exported = await send({ path: "/api/forms/export?form=business-community", headers: { authorization: `Bearer ${FORMS_TOKEN}` }, keep: true });
  const records = json(exported.text) ?? [];
  const byReference = new Map();
  const byFill = new Map();
  for (const row of records) {
    tally(byReference, row.reference);
    const fill = /Soak (soak-\S+)/.exec(JSON.stringify(row))?.[1];
    if (fill) tally(byFill, fill);
  }
  const acceptedForms = forms.filter((f) => f.reference);
  const formsLost = acceptedForms.filter((f) => byReference.get(f.reference) !== 1);
  const formsDoubled = [...byFill.entries()].filter(([, count]) => count > 1);
  const posted = existsSync(join(dir, "posts.jsonl")) ? readFileSync(join(dir, "posts.jsonl"), "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l).reference) : [];
  const postedCount = new Map();
  for (const reference of posted) tally(postedCount, reference);
  const notDelivered = acceptedForms.filter((f) => postedCount.get(f.reference) !== 1);

  // RSS growth of each process that lived past its own warm-up.
  const growth = [];
  for (const [pid, life] of rssSeen) {
    const after = life.samples.filter((s) => s.at - life.born >= 55_000);
    if (after.length < 2) continue;
    const first = after[0].rssKb, last = after.at(-1).rssKb;
    growth.push({ instance: life.instance, pid, first, last, pct: ((last - first) / first) * 100, minutes: after.length - 1 });
  }

  console.log(`\n==== soak: ${MINUTES} min, ${WALKERS} walkers over ${paths.length} sitemap pages, ${SITE_BIN}`);
  console.log(`machine: ${execFileSync("nproc").toString().trim()} cores, load average at the end ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
  console.log(`chaos:\n  ${chaosLog.join("\n  ")}`);
  const all = Float64Array.from(minutes.flatMap((m) => m.latencies)).sort();
  console.log(`requests: ${totals.requests}; p50 ${percentile(all, 50).toFixed(1)} ms, p99 ${percentile(all, 99).toFixed(1)} ms; slow-header clients cut: ${slowCut}`);
  console.log(
    `publishing every ${EDITION_SECS} s: ${totals.pages} anonymous pages, served stale ${pct(totals.stale, totals.pages)}% ` +
      `(mean age ${(totals.ageCount ? totals.ageSum / totals.ageCount : 0).toFixed(1)} s), past PAGE_STALE_MAX_SECS ${totals.tooStale}`,
  );
  console.log(`sheds with Retry-After: ${totals.shed} (${Object.entries(shedsByKind).map(([k, v]) => `${k}: ${v}`).join(", ") || "none"}); documented API errors: ${totals.documented}`);
  console.log(`unplanned: ${totals.unplanned}, of them on pages for everyone: ${totals.unplannedPages}`);
  for (const line of unplannedSamples) console.log(`  ${line}`);
  if (contentSamples.length) console.log(`pages answered "Failed to Load Content" (503 with Retry-After), first ${contentSamples.length}:`);
  for (const line of contentSamples) console.log(`  ${line}`);
  console.log(`purchases: ${accepted} accepted, ${unsure} unsure (5xx or no answer), ${booked} in the operator's books; lost ${lost}, doubled ${doubled}`);
  for (const line of problems.slice(0, 20)) console.log(`  ${line}`);
  console.log(`forms: ${forms.length} filled, ${acceptedForms.length} accepted (201), ${records.length} exported; accepted not exported exactly once: ${formsLost.length}; fills stored twice: ${formsDoubled.length}; accepted not delivered to the CMS exactly once: ${notDelivered.length}`);
  for (const f of formsLost.slice(0, 10)) console.log(`  ${f.key} ${f.reference}: exported ${byReference.get(f.reference) ?? 0} times`);
  for (const [fill, count] of formsDoubled.slice(0, 10)) console.log(`  ${fill} stored ${count} times`);
  for (const g of growth) console.log(`RSS instance ${g.instance} (pid ${g.pid}): ${mb(g.first)} MB after its first minute, ${mb(g.last)} MB ${g.minutes} min later (${g.pct >= 0 ? "+" : ""}${g.pct.toFixed(1)}%)`);
  const worst = growth.length ? Math.max(...growth.map((g) => g.pct)) : NaN;
  const pagesRefused = Object.entries(shedsByKind).filter(([key]) => key.startsWith("page ")).reduce((sum, [, n]) => sum + n, 0);
  const goals = [
    [`0 unplanned 5xx on pages for everyone`, totals.unplannedPages === 0, `${totals.unplannedPages}`],
    [`0 pages for everyone refused (429/503 with Retry-After)`, !pagesRefused, `${pagesRefused}`],
    [`0 accepted purchases lost or doubled`, lost === 0 && doubled === 0, `lost ${lost}, doubled ${doubled}`],
    [`0 accepted forms lost or doubled`, formsLost.length === 0 && formsDoubled.length === 0 && notDelivered.length === 0, `lost ${formsLost.length}, doubled ${formsDoubled.length}, not delivered once ${notDelivered.length}`],
    [`RSS growth <= 10% after warm-up`, worst <= 10, `worst ${worst.toFixed(1)}%`],
  ];
  console.log(`instance starts that failed (started again): ${failedStarts.length}`);
  for (const line of failedStarts) console.log(`  ${line}`);
  console.log("instance logs, ERROR and WARN lines by message (all three, every start):");
  for (const line of logSummary()) console.log(`  ${line}`);
  console.log("\nVERDICT");
  for (const [goal, met, figure] of goals) console.log(`  ${met ? "met   " : "MISSED"} ${goal}: ${figure}`);
  const clean = failedStarts.length === 0 && totals.unplanned === 0 && lost === 0 && doubled === 0 && formsLost.length === 0 && formsDoubled.length === 0 && notDelivered.length === 0;
  console.log(clean && !process.env.SOAK_KEEP ? "logs removed (SOAK_KEEP=1 keeps them)" : `logs and data kept in ${dir}`);
  return clean;
}

let keepLogs = true;
try {
  say(`setting up in ${dir}`);
  await setUp();
  say(`running ${MINUTES} min: ${paths.length} pages, bundles ${bundleIds.join(", ")}; instances on ${ports.sites.join(", ")} behind nginx on ${ports.nginx}`);
  const ticker = setInterval(closeMinute, 60_000);
  const load = [
    ...Array.from({ length: WALKERS }, walker),
    signIns(), purchaser(), submitter(), hostile(), hostile(),
    ...Array.from({ length: 6 }, slowHeaders),
  ];
  const schedule = chaosSchedule();
  await sleep(TOTAL_MS);
  running = false;
  clearInterval(ticker);
  await schedule;
  await Promise.all(load);
  if (minute.requests) await closeMinute();
  keepLogs = !(await finish());
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  running = false;
  await Promise.all([...children].map((child) => stop(child, "SIGTERM", 15_000)));
  operatorProxy?.stop();
  cmsProxy?.stop();
  agent.destroy();
  if (!process.env.SOAK_KEEP && !keepLogs) rmSync(dir, { recursive: true, force: true });
}
