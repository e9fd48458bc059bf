// `make test-scale`: three `site` instances sharing one Redis (REDIS_URL),
// one SESSION_KEY and one DATA_DIR, behind nginx round-robin, on loopback:
// the shared state, as a visitor and an operator would see it. Starts
// redis-server, nginx, tools/strapi_fixture.py (the CMS, taking form
// entries) and the instances itself, on free loopback ports, and stops them
// all when done (tests/in-own-group.sh adds a trap for the process group).
//
//   SITE_BIN=target/debug/site node --test --test-concurrency=1 tests/scale/

import { after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { anyFailed, children, freePorts, logTails, setUpFirst, sleep, start, stop, test, up, waitFor } from "./processes.mjs";
import { call as callAt, instanceEnv, requireBinaries, startDeployment, startRedis } from "./services.mjs";

const ROOT = resolve(import.meta.dirname, "../..");
const SITE_BIN = resolve(ROOT, process.env.SITE_BIN ?? "target/debug/site");
const SECRET = "scale-hook-secret";
const FORMS_TOKEN = "scale-forms-token";
const SESSION_KEY = Buffer.from("shared by every instance behind one address; at least 64 bytes long").toString("base64");
const AMINA = "0754000001";
const JUMA = "0754000002";
const NEEMA = "0754000003";

const dir = mkdtempSync(join(tmpdir(), "site-scale-"));
const ports = {};
let sites = [];

function startSite(n) {
  const env = {
    ...instanceEnv(ports, n, SESSION_KEY),
    DATA_DIR: join(dir, "data"),
    CMS_URL: `http://127.0.0.1:${ports.cms}`,
    CMS_WEBHOOK_SECRET: SECRET,
    CONTENT_TTL_SECS: "3600",
    FORMS_TOKEN,
    FORMS_RETRY_MS: "300",
    METRICS_ADDR: `127.0.0.1:${ports.metrics[n]}`,
    OTP_RESEND_SECS: "0",
    RENDER_WORKERS: "1",
    PRERENDER: "false",
    SHUTDOWN_GRACE_SECS: "5",
    RUST_LOG: "info",
  };
  sites[n] = start(`site ${n + 1}`, SITE_BIN, [], env);
  return up(`http://127.0.0.1:${ports.sites[n]}/readyz`);
}

const base = () => `http://127.0.0.1:${ports.nginx}`;

/** A request through nginx, or to one instance (`to`), as services.mjs's `call` makes it. */
const call = (path, { to = base(), ...options } = {}) => callAt(to, path, options);

async function signIn(number, client) {
  const asked = await call("/api/auth/request-otp", { method: "POST", body: { msisdn: number }, client });
  assert.equal(asked.status, 200, asked.text);
  const inbox = await call(`/sandbox/inbox?msisdn=255${number.slice(1)}`, { client });
  const signedIn = await call("/api/auth/validate-otp", { method: "POST", body: { msisdn: number, code: inbox.json.code }, client });
  assert.equal(signedIn.status, 200, signedIn.text);
  return signedIn.setCookie.split(";")[0];
}

setUpFirst(setUp);

async function setUp() {
  requireBinaries(["redis-server", "nginx"]);
  assert.ok(existsSync(SITE_BIN), `no site binary at ${SITE_BIN}: cargo build first`);
  const free = await freePorts(9);
  [ports.redis, ports.cms, ports.nginx] = free;
  ports.sites = free.slice(3, 6);
  ports.metrics = free.slice(6, 9);
  // All three on one fresh DATA_DIR: whichever is first makes the shared sandbox and form databases.
  await startDeployment(ports, dir, startSite);
}

after(async () => {
  await Promise.all([...children].map((child) => stop(child, "SIGTERM")));
  if (anyFailed()) logTails();
  rmSync(dir, { recursive: true, force: true });
});

test("a visitor signs in through nginx and keeps working while each request lands on another instance", async () => {
  const cookie = await signIn(AMINA, "198.51.100.10");
  const upstreams = new Set();
  for (let n = 0; n < 6; n++) {
    const account = await call("/api/account", { cookie, client: "198.51.100.10" });
    assert.equal(account.status, 200, account.text);
    assert.equal(account.json.subscriber.names, "Amina Mwakyusa");
    upstreams.add(account.upstream);
  }
  assert.equal(upstreams.size, 3, `answered by ${[...upstreams]}`);
});

test("the 4th code request for one number within 10 minutes is 429 whichever instance answers", async () => {
  const upstreams = new Set();
  for (let n = 1; n <= 3; n++) {
    const asked = await call("/api/auth/request-otp", { method: "POST", body: { msisdn: JUMA }, client: `198.51.100.2${n}` });
    assert.equal(asked.status, 200, `request ${n}: ${asked.text}`);
    upstreams.add(asked.upstream);
  }
  assert.equal(upstreams.size, 3, "one request per instance");
  for (let n = 4; n <= 6; n++) {
    const refused = await call("/api/auth/request-otp", { method: "POST", body: { msisdn: JUMA }, client: `198.51.100.2${n}` });
    assert.equal(refused.status, 429, `request ${n} on ${refused.upstream}: ${refused.text}`);
    // How long to wait, from the budget kept in Redis: a third of the 10 minutes.
    assert.deepEqual([refused.json.notice.key, refused.json.notice.params], ["codeWaitMinutes", { minutes: "4" }]);
  }
});

test("logout on one instance makes the cookie fail on the others", async () => {
  const cookie = await signIn(NEEMA, "198.51.100.30");
  const out = await call("/api/auth/logout", { method: "POST", body: {}, cookie, client: "198.51.100.30" });
  assert.equal(out.status, 200);
  for (const port of ports.sites) {
    const account = await call("/api/account", { cookie, to: `http://127.0.0.1:${port}` });
    assert.equal(account.status, 401, `instance on ${port} (logout was on ${out.upstream}): ${account.text}`);
  }
});

test("a webhook to one instance refreshes a page on all three within 1 s", async () => {
  const direct = ports.sites.map((port) => `http://127.0.0.1:${port}`);
  const title = async (to) => /<title>([^<]*)<\/title>/.exec((await call("/voice-sms", { to })).text)?.[1];
  for (const to of direct) for (let n = 0; n < 2; n++) assert.match(await title(to), /Voice &amp; SMS bundles/);
  const file = join(dir, "content/en/voice.json");
  const voice = JSON.parse(readFileSync(file, "utf8"));
  voice.data.attributes.seo.metaTitle = "Voice, edited in the CMS";
  writeFileSync(file, JSON.stringify(voice));
  assert.match(await title(direct[1]), /Voice &amp; SMS bundles/, "kept until the webhook");
  const sent = Date.now();
  const hook = await fetch(`${direct[0]}/api/cms/webhook`, {
    method: "POST",
    headers: { authorization: `Bearer ${SECRET}`, "content-type": "application/json" },
    body: JSON.stringify({ event: "entry.update", model: "voice", entry: { id: 3, locale: "en" } }),
  });
  assert.equal(hook.status, 200);
  const took = [];
  for (const to of direct) {
    while ((await title(to)) !== "Voice, edited in the CMS") {
      assert.ok(Date.now() - sent < 1000, `${to} not refreshed within 1 s`);
      await sleep(10);
    }
    took.push(Date.now() - sent);
  }
  console.log(`# webhook to instance 1: refreshed on instances 1, 2, 3 after ${took.join(", ")} ms`);
});

test("killing one instance mid-run loses no accepted purchase or form", async () => {
  const cookie = await signIn(AMINA, "198.51.100.40");
  const accepted = { purchases: 0, forms: [] };
  const lead = (n) => ({
    name: `Lead ${n}`, email: `lead${n}@example.co.tz`, phone: "0754 000 001", businessName: `Business ${n}`,
    businessSize: "small", industry: "Retail", whereHeard: "other", services: ["iot"],
  });
  let killed = false;
  const work = [];
  for (let n = 0; n < 24; n++) {
    if (n === 8) {
      // Instance 2 dies with requests in flight.
      work.push(stop(sites[1]).then(() => (killed = true)));
    }
    work.push(
      // `again`: each of these is meant (the same bundle again within 2 minutes is refused unconfirmed).
      call("/api/bundles/purchase", { method: "POST", body: { bundleId: "data-daily-500mb", purchaseChannel: "MPESA", recipient: "self", again: true }, cookie, client: "198.51.100.40" })
        .then((r) => r.status === 200 && accepted.purchases++),
      call("/api/forms/business-community", { method: "POST", body: lead(n), client: `198.51.100.${100 + (n % 100)}`, headers: { "idempotency-key": `lead-${n}` } })
        .then((r) => r.status === 201 && accepted.forms.push(r.json.reference)),
    );
    await sleep(25);
  }
  await Promise.all(work);
  assert.ok(killed);
  console.log(`# accepted ${accepted.purchases} purchases and ${accepted.forms.length} forms of 24 each, instance 2 killed after 8`);
  assert.ok(accepted.purchases >= 16 && accepted.forms.length >= 16, JSON.stringify(accepted));
  // Every accepted purchase is in the operator's books (the shared sandbox).
  const rows = execFileSync("python3", ["-c", `import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from purchase where payer='255754000001' and bundle_id='data-daily-500mb'").fetchone()[0])`, join(dir, "data/sandbox.sqlite3")]);
  assert.ok(Number(rows) >= accepted.purchases, `${rows} purchases recorded, ${accepted.purchases} accepted`);
  // Every accepted form is kept, and delivered to the CMS exactly once by the instances left.
  const exported = await call("/api/forms/export?form=business-community", { headers: { authorization: `Bearer ${FORMS_TOKEN}` } });
  const kept = new Set(exported.json.map((row) => row.reference));
  for (const reference of accepted.forms) assert.ok(kept.has(reference), `${reference} kept`);
  const posts = () => (existsSync(join(dir, "posts.jsonl")) ? readFileSync(join(dir, "posts.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l).reference) : []);
  await waitFor("every accepted form delivered", () => accepted.forms.every((reference) => posts().includes(reference)), 15000);
  const delivered = posts();
  assert.equal(new Set(delivered).size, delivered.length, "no form delivered twice");
  await startSite(1);
});

test("Redis stopped then started again: pages never fail, sign-in answers 503 and recovers", async () => {
  const redis = [...children].find((child) => child.name === "redis");
  let pagesFailed = [];
  let polling = true;
  const pages = (async () => {
    const paths = ["/", "/voice-sms", "/sw", "/sw/internet-overview", "/about-us"];
    for (let n = 0; polling; n++) {
      const page = await call(paths[n % paths.length]);
      if (page.status !== 200) pagesFailed.push(`${paths[n % paths.length]}: ${page.status}`);
      await sleep(20);
    }
  })();
  await stop(redis);
  await sleep(300);
  const down = await call("/api/auth/request-otp", { method: "POST", body: { msisdn: AMINA }, client: "198.51.100.50", headers: { "x-site-lang": "sw" } });
  assert.equal(down.status, 503, down.text);
  assert.equal(down.json.notice.key, "serviceUnavailable");
  const ready = await call("/readyz");
  assert.equal(ready.status, 503);
  const back = Date.now();
  await startRedis(ports.redis, dir);
  // Each instance answers its very first request once Redis answers: none
  // refuses one while its connection to Redis finds out it was dropped.
  for (const [n, port] of ports.sites.entries()) {
    const first = await call("/api/auth/request-otp", { method: "POST", body: { msisdn: `075400010${n}` }, client: "198.51.100.51", to: `http://127.0.0.1:${port}` });
    assert.equal(first.status, 200, `instance ${n + 1}: ${first.text}`);
  }
  console.log(`# sign-in on all three instances ${Date.now() - back} ms after Redis started again`);
  polling = false;
  await pages;
  assert.deepEqual(pagesFailed, []);
  await signIn(JUMA, "198.51.100.52");
});

test("each instance serves /metrics on its private listener", async () => {
  const text = await (await fetch(`http://127.0.0.1:${ports.metrics[0]}/metrics`)).text();
  for (const name of ["http_requests_total", "rate_limit_rejections_total", "content_invalidations_total", "forms_accepted_total", "purchases_total"]) {
    assert.ok(text.includes(name), `${name} in /metrics`);
  }
  assert.equal((await call("/metrics")).status, 404, "not through nginx");
});
