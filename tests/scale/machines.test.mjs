// `make test-scale`, machines that share no disk, simulated: three `site`
// instances, each with its own DATA_DIR, sharing only Redis (REDIS_URL),
// PostgreSQL (DATABASE_URL) and the CMS, behind nginx round-robin, on
// loopback. Starts redis-server, a PostgreSQL cluster of its own (Debian's
// `postgresql`, as the `postgres` user when run as root), nginx,
// tools/strapi_fixture.py (the CMS, taking form entries) and the instances,
// on free loopback ports, and stops them all when done.
//
//   SITE_BIN=target/debug/site node --test --test-concurrency=1 tests/scale/machines.test.mjs

import { after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { anyFailed, children, everyChild, freePorts, logTails, setUpFirst, sleep, start, stop, test, up, waitFor } from "./processes.mjs";
import { call as callAt, instanceEnv, requireBinaries, startDeployment } from "./services.mjs";

const ROOT = resolve(import.meta.dirname, "../..");
const SITE_BIN = resolve(ROOT, process.env.SITE_BIN ?? "target/debug/site");
const FORMS_TOKEN = "machines-forms-token";
const SESSION_KEY = Buffer.from("shared by every instance behind one address; at least 64 bytes long").toString("base64");
const FORMS = 30;

const dir = mkdtempSync(join(tmpdir(), "site-machines-"));
/** PostgreSQL's own directory: the `postgres` user must own it. */
const pgDir = mkdtempSync(join(tmpdir(), "site-machines-pg-"));
const ports = {};
const sites = [];

/** PostgreSQL's programs: the newest of Debian's versions. */
function pgBin() {
  const versions = existsSync("/usr/lib/postgresql")
    ? readdirSync("/usr/lib/postgresql").filter((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`)).sort((a, b) => a - b)
    : [];
  if (versions.length === 0) throw new Error("PostgreSQL is missing: apt-get install postgresql");
  return `/usr/lib/postgresql/${versions.at(-1)}/bin`;
}

/** One of PostgreSQL's programs, as the `postgres` user when this is root (PostgreSQL refuses root). */
function pg(program, args) {
  const path = join(pgBin(), program);
  const [command, all] = process.getuid() === 0 ? ["runuser", ["-u", "postgres", "--", path, ...args]] : [path, args];
  return execFileSync(command, all, { cwd: pgDir, stdio: ["ignore", "pipe", "pipe"] }).toString();
}

const pgData = join(pgDir, "data");
const startPostgres = () =>
  pg("pg_ctl", ["-D", pgData, "-l", join(pgDir, "log"), "-w", "-t", "60", "-o", `-p ${ports.pg} -k ${pgDir} -c listen_addresses=127.0.0.1`, "start"]);
/** Stopped as a crash would: connections drop, new ones are refused. */
const stopPostgres = () => pg("pg_ctl", ["-D", pgData, "-m", "immediate", "-w", "stop"]);

const dataDir = (n) => join(dir, `data-${n + 1}`);

function startSite(n) {
  const env = {
    ...instanceEnv(ports, n, SESSION_KEY),
    DATABASE_URL: `postgres://postgres@127.0.0.1:${ports.pg}/postgres`,
    DATA_DIR: dataDir(n),
    CMS_URL: `http://127.0.0.1:${ports.cms}`,
    CONTENT_TTL_SECS: "3600",
    FORMS_TOKEN,
    FORMS_RETRY_MS: "300",
    METRICS_ADDR: "off",
    RENDER_WORKERS: "1",
    PRERENDER: "false",
    SHUTDOWN_GRACE_SECS: "5",
    RUST_LOG: "info",
    NO_COLOR: "1",
  };
  // Every line kept: the test counts the deliveries the instances logged.
  sites[n] = start(`site ${n + 1}`, SITE_BIN, [], env, { keepAll: true });
  return up(`http://127.0.0.1:${ports.sites[n]}/readyz`);
}

const base = () => `http://127.0.0.1:${ports.nginx}`;

/** A request through nginx, or to one instance (`to`), as services.mjs's `call` makes it. */
const call = (path, { to = base(), ...options } = {}) => callAt(to, path, options);

const lead = (n) => ({
  name: `Lead ${n}`, email: `lead${n}@example.co.tz`, phone: "0754 000 001", businessName: `Business ${n}`,
  businessSize: "small", industry: "Retail", whereHeard: "other", services: ["iot"],
});

/** Posts lead `n` through nginx, from an address of its own (the budget per address is shared in Redis). */
const postLead = (n, headers = {}) =>
  call("/api/forms/business-community", { method: "POST", body: lead(n), client: `198.51.100.${n + 1}`, headers: { "idempotency-key": `lead-${n}`, ...headers } });

/** The references each instance's export lists, asked of each directly. */
async function exports() {
  const lists = [];
  for (const port of ports.sites) {
    const exported = await call("/api/forms/export?form=business-community", { to: `http://127.0.0.1:${port}`, headers: { authorization: `Bearer ${FORMS_TOKEN}` } });
    assert.equal(exported.status, 200, exported.text);
    lists.push(exported.json.map((row) => row.reference).sort());
  }
  return lists;
}

const posted = () =>
  existsSync(join(dir, "posts.jsonl")) ? readFileSync(join(dir, "posts.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l).reference) : [];

setUpFirst(setUp);

async function setUp() {
  requireBinaries(["redis-server", "nginx"]);
  assert.ok(existsSync(SITE_BIN), `no site binary at ${SITE_BIN}: cargo build first`);
  const free = await freePorts(7);
  [ports.redis, ports.cms, ports.nginx, ports.pg] = free;
  ports.sites = free.slice(4, 7);
  if (process.getuid() === 0) execFileSync("chown", ["postgres:", pgDir]);
  pg("initdb", ["-D", pgData, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"]);
  startPostgres();
  // All three at once on one fresh database: they take turns to make its tables.
  await startDeployment(ports, dir, startSite);
}

after(async () => {
  await Promise.all([...children].map((child) => stop(child, "SIGTERM")));
  try {
    stopPostgres();
  } catch {}
  if (anyFailed()) {
    logTails();
    try {
      console.log(`--- postgresql log tail ---\n${readFileSync(join(pgDir, "log"), "utf8").slice(-3000)}`);
    } catch {}
  }
  rmSync(dir, { recursive: true, force: true });
  rmSync(pgDir, { recursive: true, force: true });
});

test("an instance killed with kill -9 and its DATA_DIR deleted loses and doubles no form", async () => {
  const answers = new Map();
  const work = [];
  for (let n = 0; n < FORMS; n++) {
    if (n === 10) {
      // Instance 2's machine is lost with requests in flight, its disk with it.
      work.push(stop(sites[1]).then(() => rmSync(dataDir(1), { recursive: true, force: true })));
    }
    if (n === 20) work.push(startSite(1));
    work.push(postLead(n).then((r) => answers.set(n, r)));
    await sleep(25);
  }
  await Promise.all(work);
  assert.ok(!existsSync(join(dataDir(1), "forms.sqlite3")), "the new instance 2 keeps no forms on its disk");
  // A visitor whose post failed with the machine sends it again, with the
  // same key: kept once whether or not the first reached PostgreSQL.
  const refused = [...answers].filter(([, r]) => r.status !== 201).map(([n]) => n);
  for (const n of refused) answers.set(n, await postLead(n));
  for (const [n, r] of answers) assert.equal(r.status, 201, `lead ${n}: ${r.text}`);
  console.log(`# ${FORMS - refused.length} of ${FORMS} forms accepted at once, ${refused.length} on a second try; instance 2 killed after 10, back after 20`);
  const accepted = [...answers.values()].map((r) => r.json.reference).sort();
  assert.equal(new Set(accepted).size, FORMS, "one reference per form");
  for (const [n, list] of (await exports()).entries()) assert.deepEqual(list, accepted, `instance ${n + 1}'s export: every form, once`);
  // An entry the killed instance had claimed waits for its lease (2 minutes).
  await waitFor("every form delivered", () => accepted.every((reference) => posted().includes(reference)), 150000);
  const delivered = posted();
  assert.equal(delivered.length, FORMS, "no entry but the accepted ones");
  const sent = everyChild.filter((child) => child.name.startsWith("site")).flatMap((site) => site.log.join("").split("\n")).filter((line) => line.includes("form delivered to the CMS"));
  const sentTwice = accepted.filter((reference) => new Set(sent.filter((line) => line.includes(reference))).size > 1);
  assert.deepEqual(sentTwice, [], "no form delivered twice");
});

test("PostgreSQL restarted: posts answer 503 with Retry-After in the visitor's language, nothing accepted is lost", async () => {
  const [before] = await exports();
  stopPostgres();
  const down = await postLead(100, { "x-site-lang": "sw" });
  assert.equal(down.status, 503, down.text);
  assert.ok(Number(down.retryAfter) > 0, `Retry-After: ${down.retryAfter}`);
  assert.equal(down.json.errors.form.key, "notSaved");
  assert.equal((await call("/", { client: "198.51.100.200" })).status, 200, "pages are not affected");
  startPostgres();
  await waitFor("a post kept again", async (saw) => {
    const again = await postLead(101);
    saw(`${again.status} ${again.text}`);
    return again.status === 201;
  });
  const kept = await postLead(100, { "x-site-lang": "sw" });
  assert.equal(kept.status, 201, kept.text);
  for (const list of await exports()) {
    assert.equal(list.length, before.length + 2, "the two new forms");
    for (const reference of before) assert.ok(list.includes(reference), `${reference} still kept`);
  }
});
