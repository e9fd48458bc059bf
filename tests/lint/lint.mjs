// `make test-lint`: what two outside checkers say of the site as built.
//
// - REDbot (lint for HTTP, PyPI `redbot`, in tools/lint/.venv) over
//   representative addresses: pages (brotli, gzip and plain; REDbot makes
//   its own conditional, ranged and negotiated requests, so each address
//   also tries a 304; a locator's region and a place found), a hashed asset, a static file, the service worker,
//   a page's data, an API refusal, the not-found page, robots and the
//   sitemap.
// - The Nu Html Checker (npm `vnu-jar`, in tools/lint/node_modules; needs
//   Java) over one page of every page kind in both languages (the locator's
//   with a district, a place found and one not), signed out
//   and signed in, the 422 answers of both forms posted without JavaScript,
//   and every other page of the sitemap.
//
// Starts the site (embedded content, the built-in sandbox) on a free
// loopback port and stops it when done. Any error fails the run; warnings
// are printed. `tests/lint/run.sh` runs it in its own process group.
//
//   SITE_BIN=target/debug/site node tests/lint/lint.mjs

import { spawn, execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const ROOT = resolve(import.meta.dirname, "../..");
const SITE_BIN = resolve(ROOT, process.env.SITE_BIN ?? "target/debug/site");
const REDBOT = resolve(ROOT, "tools/lint/.venv/bin/redbot");
const VNU = resolve(ROOT, "tools/lint/node_modules/vnu-jar/build/dist/vnu.jar");
/** The sandbox's subscriber with a bundle, a modem and CPM permissions (docs/self-service.md). */
const SUBSCRIBER = "0754000001";
const BROWSER = "gzip, deflate, br";
const run = promisify(execFile);

const dir = mkdtempSync(join(tmpdir(), "site-lint-"));
let site;

async function freePort() {
  const server = await new Promise((ok, fail) => {
    const server = createServer().listen(0, "127.0.0.1", () => ok(server));
    server.on("error", fail);
  });
  const { port } = server.address();
  await new Promise((ok) => server.close(ok));
  return port;
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

async function startSite() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const log = [];
  site = spawn(SITE_BIN, [], {
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), SITE_URL: base, DATA_DIR: join(dir, "data"), METRICS_ADDR: "off", OTP_RESEND_SECS: "0", RUST_LOG: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const stream of [site.stdout, site.stderr]) stream.on("data", (chunk) => log.push(chunk.toString()) > 100 && log.shift());
  const until = Date.now() + 30000;
  for (;;) {
    if (site.exitCode !== null) throw new Error(`the site stopped (${site.exitCode}):\n${log.join("")}`);
    const ready = await fetch(`${base}/readyz`).then((r) => r.ok, () => false);
    if (ready) return base;
    if (Date.now() > until) throw new Error(`the site was not ready within 30 s:\n${log.join("")}`);
    await sleep(100);
  }
}

/** A visitor: the cookies the site set, sent back. */
class Visitor {
  constructor(base) {
    this.base = base;
    this.cookies = new Map();
  }

  async call(path, { method = "GET", json, form, encoding = BROWSER } = {}) {
    const headers = { "accept-encoding": encoding };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    if (json || form) Object.assign(headers, { "sec-fetch-site": "same-origin", origin: this.base });
    if (json) Object.assign(headers, { "content-type": "application/json", accept: "application/json" });
    if (form) headers["content-type"] = "application/x-www-form-urlencoded";
    const body = json ? JSON.stringify(json) : form ? new URLSearchParams(form).toString() : undefined;
    const response = await fetch(this.base + path, { method, headers, body, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair.indexOf("=");
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return { status: response.status, text: await response.text(), location: response.headers.get("location") };
  }

  async page(path, status = 200) {
    const answer = await this.call(path);
    if (answer.status !== status) throw new Error(`${path}: ${answer.status}, expected ${status}`);
    return answer.text;
  }

  async signIn(kind) {
    const msisdn = SUBSCRIBER;
    const api = kind === "cpm" ? "/api/cpm" : "/api/auth";
    const asked = await this.call(`${api}/request-otp`, { method: "POST", json: { msisdn } });
    if (asked.status !== 200) throw new Error(`${api}/request-otp: ${asked.status} ${asked.text}`);
    const inbox = JSON.parse((await this.call(`/sandbox/inbox?msisdn=255${msisdn.slice(1)}`)).text);
    const signedIn = await this.call(`${api}/validate-otp`, { method: "POST", json: { msisdn, code: inbox.code } });
    if (signedIn.status !== 200) throw new Error(`${api}/validate-otp: ${signedIn.status} ${signedIn.text}`);
  }

  /**
   * The form of the page at `path` posted without JavaScript, empty but for
   * its hidden fields, and the answer it gets back: 422 with the page and
   * its errors.
   */
  async postEmpty(path, action) {
    const html = await this.page(path);
    const hidden = Object.fromEntries(
      [...html.matchAll(/<input\b[^>]*\btype="hidden"[^>]*>/g)].map(([input]) => [attribute(input, "name"), attribute(input, "value") ?? ""]).filter(([name]) => name),
    );
    const answer = await this.call(action, { method: "POST", form: hidden });
    if (answer.status !== 422) throw new Error(`${action} posted empty from ${path}: ${answer.status}, expected 422`);
    return answer.text;
  }
}

function attribute(tag, name) {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
}

/** Addresses of the links in the `<main>` of `html` that start with `prefix` and have no query. */
function links(html, prefix) {
  const main = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
  return [...main.matchAll(/<a\b[^>]*\bhref="([^"#?]+)"/g)].map(([, href]) => href).filter((href) => href.startsWith(prefix));
}

/** One page of every page kind in both languages, and the forms' 422 answers: name → HTML. */
async function pages(base) {
  const documents = new Map();
  // Signed in to the account and to CPM once (a number gets few codes).
  const subscriber = new Visitor(base);
  await subscriber.signIn("account");
  await subscriber.signIn("cpm");
  for (const prefix of ["", "/sw"]) {
    const lang = prefix ? "sw" : "en";
    const visitor = new Visitor(base);
    const at = (path) => (path === "/" ? prefix || "/" : `${prefix}${path}`);
    const firstLink = async (list, item) => {
      const found = links(await visitor.page(at(list)), at(item)).find((href) => href !== at(list));
      if (!found) throw new Error(`${at(list)} links to no ${at(item)}…`);
      return found;
    };
    const addresses = {
      content: at("/"),
      "content-mpesa": at("/mpesa"),
      newsList: at("/news-events"),
      newsItem: await firstLink("/news-events", "/news-event/"),
      deviceList: at("/devices"),
      deviceItem: await firstLink("/devices", "/devices/"),
      faq: at("/faq"),
      businessCategory: at("/vodacom-business/5/iot"),
      businessItem: await firstLink("/vodacom-business/5/iot", "/vodacom-business/"),
      fraudster: at("/fraudster"),
      account: at("/account"),
      cpmLogin: at("/cpm-login"),
      businessCommunity: at("/vodacom-business/community"),
      foundationApplication: at("/foundation/apply"),
      search: at("/search?q=mpesa"),
      offline: at("/offline"),
      locator: at("/mpesa-agents"),
      "locator-district": at("/mpesa-agents/dar-es-salaam/ilala"),
      "locator-place": at("/vodashop?q=kariakoo"),
      "locator-unknown-place": at("/mpesa-agents?q=atlantis"),
    };
    for (const [kind, path] of Object.entries(addresses)) {
      if (!path) throw new Error(`no address found for ${kind} (${lang})`);
      documents.set(`${lang}-${kind} ${path}`, await visitor.page(path));
    }
    documents.set(`${lang}-notFound ${at("/no-such-page")}`, await visitor.page(at("/no-such-page"), 404));
    documents.set(`${lang}-businessCommunity-422`, await visitor.postEmpty(at("/vodacom-business/community"), "/api/forms/business-community"));
    documents.set(`${lang}-foundationApplication-422`, await visitor.postEmpty(at("/foundation/apply"), "/api/forms/foundation-application"));

    documents.set(`${lang}-account-signed-in ${at("/account")}`, await subscriber.page(at("/account")));
    documents.set(`${lang}-content-signed-in ${at("/mpesa")}`, await subscriber.page(at("/mpesa")));
    const cpm = at("/customer-permission-management");
    documents.set(`${lang}-cpm ${cpm}`, await subscriber.page(cpm));
    const otp = `${at("/cpm-otp")}?msisdn=255${SUBSCRIBER.slice(1)}`;
    documents.set(`${lang}-cpmOtp ${otp}`, await visitor.page(otp));
  }
  // Every other page the sitemap lists: a few hundred, in seconds.
  const checked = new Set([...documents.keys()].map((name) => name.split(" ")[1]));
  const anonymous = new Visitor(base);
  for (const [, url] of (await anonymous.page("/sitemap.xml")).matchAll(/<loc>([^<]+)<\/loc>/g)) {
    const path = url.slice(base.length);
    if (!checked.has(path)) documents.set(`sitemap${path.replaceAll("/", "_")} ${path}`, await anonymous.page(path));
  }
  return documents;
}

/** The Nu Html Checker over `documents`, each a file of its own: [errors, warnings]. */
async function checkHtml(documents) {
  const files = new Map();
  for (const [name, html] of documents) {
    const file = join(dir, `${name.split(" ")[0]}.html`);
    writeFileSync(file, html);
    files.set(`file:${file}`, name);
  }
  const { stdout } = await run("java", ["-jar", VNU, "--format", "json", "--stdout", "--exit-zero-always", ...[...files.keys()].map((f) => f.slice(5))], {
    maxBuffer: 64 << 20,
  });
  const messages = JSON.parse(stdout).messages;
  let errors = 0;
  let warnings = 0;
  for (const message of messages) {
    const level = message.type === "error" || message.type === "non-document-error" ? "error" : message.subType === "warning" ? "warning" : null;
    if (!level) continue;
    level === "error" ? errors++ : warnings++;
    const where = files.get(message.url) ?? message.url;
    console.log(`html ${level}: ${where}:${message.lastLine ?? "?"}: ${message.message}\n    ${(message.extract ?? "").replace(/\s+/g, " ").trim()}`);
  }
  console.log(`Nu Html Checker: ${documents.size} documents, ${errors} errors, ${warnings} warnings`);
  return [errors, warnings];
}

/** The addresses REDbot checks. */
async function addresses(base) {
  const home = await fetch(base + "/").then((r) => r.text());
  const script = /<script type="module" src="([^"]+)"/.exec(home)?.[1];
  const style = /<link rel="stylesheet" href="([^"]+)"/.exec(home)?.[1];
  if (!script || !style) throw new Error("the home page names no script or style sheet");
  return ["/", "/sw/mpesa", "/news-events?page=2", "/mpesa-agents/dar-es-salaam?page=2", "/sw/vodashop?q=kariakoo", script, style, "/static/logo.svg", "/static/site.webmanifest", "/sw.js", "/_data/mpesa", "/api/account", "/no-such-page", "/robots.txt", "/sitemap.xml"];
}

/** REDbot over one address: its notes of level BAD and WARN, subnotes included. */
async function redbot(base, path) {
  const { stdout } = await run(REDBOT, ["-o", "har", base + path], { maxBuffer: 64 << 20, timeout: 60000 });
  const notes = [];
  const walk = (list = []) => list.forEach((note) => (notes.push(note), walk(note.subnotes)));
  const { entries } = JSON.parse(stdout).log;
  if (!entries.length) notes.push({ level: "BAD", summary: "REDbot got no answer" });
  for (const entry of entries) walk(entry._red_messages);
  return notes.filter((note) => note.level === "BAD" || note.level === "WARN").map((note) => ({ ...note, path }));
}

async function checkHttp(base) {
  const paths = await addresses(base);
  const notes = [];
  // Two at a time: each is several requests and a Python start.
  for (let i = 0; i < paths.length; i += 2) {
    for (const found of await Promise.all(paths.slice(i, i + 2).map((path) => redbot(base, path)))) notes.push(...found);
  }
  for (const note of notes) console.log(`http ${note.level === "BAD" ? "error" : "warning"}: ${note.path}: ${note.summary}`);
  const errors = notes.filter((note) => note.level === "BAD").length;
  console.log(`REDbot: ${paths.length} addresses, ${errors} errors, ${notes.length - errors} warnings`);
  return [errors, notes.length - errors];
}

let failed = true;
try {
  const started = Date.now();
  const base = await startSite();
  // Both before the site stops, whichever fails.
  const checked = await Promise.allSettled([pages(base).then(checkHtml), checkHttp(base)]);
  const [[htmlErrors], [httpErrors]] = checked.map((result) => {
    if (result.status === "rejected") throw result.reason;
    return result.value;
  });
  failed = htmlErrors + httpErrors > 0;
  console.log(`${failed ? "FAILED" : "ok"}: ${htmlErrors} HTML errors, ${httpErrors} HTTP errors in ${((Date.now() - started) / 1000).toFixed(0)} s`);
} catch (error) {
  console.error(error);
} finally {
  site?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
