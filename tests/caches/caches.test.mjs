// `make test-caches`: the shared caches of deploy/ in front of one `site`, as
// a visitor sees them: nginx with deploy/nginx.conf and Varnish with
// deploy/varnish.vcl (Debian's packages), each file run as shipped with only
// its addresses and paths put in. Pages for everyone come from the cache;
// what depends on the visitor (their session, the notice a form post left
// them, their language on `/`, the account area, the API) is theirs alone.
// Starts the site (embedded content, the built-in sandbox), nginx and
// varnishd on free loopback ports and stops them all when done
// (tests/in-own-group.sh adds a trap for the process group).
//
//   SITE_BIN=target/debug/site node --test tests/caches/
//
// NGINX_CONF or VARNISH_VCL run another file in place of deploy/'s (e.g. a
// plain `proxy_cache` one, to see these tests fail).

import { after } from "node:test";
import { anyFailed, children, freePorts, logTails, setUpFirst, start, stop, test, up } from "../scale/processes.mjs";
import { requireBinaries, startNginx } from "../scale/services.mjs";
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../..");
const SITE_BIN = resolve(ROOT, process.env.SITE_BIN ?? "target/debug/site");
const NGINX_CONF = resolve(ROOT, process.env.NGINX_CONF ?? "deploy/nginx.conf");
const VARNISH_VCL = resolve(ROOT, process.env.VARNISH_VCL ?? "deploy/varnish.vcl");
/** A browser's `Accept-Encoding`. */
const BROWSER = "gzip, deflate, br";

const dir = mkdtempSync(join(tmpdir(), "site-caches-"));
// nginx's workers and varnishd's child run as other users when started as root.
chmodSync(dir, 0o755);
const ports = {};

/** The processes' log tails, and nginx's error log. */
function tails() {
  logTails();
  for (const file of ["nginx-error.log"].map((name) => join(dir, name)).filter(existsSync)) {
    console.log(`--- ${file} ---\n${readFileSync(file, "utf8").slice(-3000)}`);
  }
}

/** `text` with `pattern` replaced, failing if the shipped file no longer has it. */
function replaced(text, pattern, replacement, file) {
  assert.match(text, pattern, `${file} no longer has ${pattern}: update the test's template`);
  return text.replace(pattern, replacement);
}

/** deploy/nginx.conf on this machine: its listener, the one site, its files in `dir`. */
function nginxConfig() {
  let conf = readFileSync(NGINX_CONF, "utf8");
  const at = (pattern, replacement) => (conf = replaced(conf, pattern, replacement, NGINX_CONF));
  at(/^worker_processes [^;]*;/m, `worker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/nginx-error.log warn;\ndaemon off;`);
  at(/^http \{/m, `http {
  access_log off;
  client_body_temp_path ${dir}/nginx-body;
  proxy_temp_path ${dir}/nginx-proxy;
  fastcgi_temp_path ${dir}/nginx-fastcgi;
  uwsgi_temp_path ${dir}/nginx-uwsgi;
  scgi_temp_path ${dir}/nginx-scgi;`);
  at(/(upstream site \{\n)(\s*server site-\d+:8080[^;]*;\n)+/, `$1    server 127.0.0.1:${ports.site};\n`);
  at(/listen 80;/, `listen 127.0.0.1:${ports.nginx};`);
  if (/proxy_cache_path /.test(conf)) at(/proxy_cache_path \S+/, `proxy_cache_path ${dir}/nginx-cache`);
  return conf;
}

/** deploy/varnish.vcl on this machine: every backend is the one site. */
function varnishConfig() {
  let vcl = readFileSync(VARNISH_VCL, "utf8");
  vcl = replaced(vcl, /\.host = "[^"]*"; \.port = "8080";/g, `.host = "127.0.0.1"; .port = "${ports.site}";`, VARNISH_VCL);
  return vcl;
}

function startSite() {
  start("site", SITE_BIN, [], {
    HOST: "127.0.0.1",
    PORT: String(ports.site),
    // https as in production: the session cookie is `__Host-session`.
    SITE_URL: "https://www.example.co.tz",
    DATA_DIR: join(dir, "data"),
    METRICS_ADDR: `127.0.0.1:${ports.metrics}`,
    TRUSTED_PROXIES: "127.0.0.1",
    OTP_RESEND_SECS: "0",
    PRERENDER: "false",
    SHUTDOWN_GRACE_SECS: "2",
    RUST_LOG: "warn",
  });
  return up(`http://127.0.0.1:${ports.site}/readyz`);
}

const fronts = {
  site: () => `http://127.0.0.1:${ports.site}`,
  nginx: () => `http://127.0.0.1:${ports.nginx}`,
  varnish: () => `http://127.0.0.1:${ports.varnish}`,
};

/**
 * A request to `front` as a browser sends it. `cached`: whether the cache
 * answered from a copy it kept (nginx's `$upstream_cache_status`, Varnish's
 * lookup, both as `X-Cache`).
 */
async function call(front, path, { method = "GET", cookie, encoding = BROWSER, headers = {}, body, form } = {}) {
  const response = await fetch(`${fronts[front]()}${path}`, {
    method,
    redirect: "manual",
    headers: {
      "accept-encoding": encoding,
      ...(body ? { "content-type": "application/json", accept: "application/json" } : {}),
      ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      ...(body || form ? { "sec-fetch-site": "same-origin" } : {}),
      ...(cookie ? { cookie } : {}),
      ...headers,
    },
    body: body ? JSON.stringify(body) : form ? new URLSearchParams(form).toString() : undefined,
  });
  const text = await response.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {}
  const xCache = response.headers.get("x-cache") ?? "";
  return {
    status: response.status,
    headers: response.headers,
    text,
    json,
    xCache,
    cached: /^(hit|stale|updating|revalidated)$/i.test(xCache),
    setCookie: response.headers.getSetCookie(),
  };
}

/** `name=value` of the cookie `name` among `set`, or none. */
const cookieOf = (set, name) => set.map((line) => line.split(";")[0]).find((pair) => pair.startsWith(`${name}=`));

/** Signs `msisdn` in through `front`: the code read from the sandbox's inbox, through `front` too. */
async function signIn(front, msisdn) {
  const asked = await call(front, "/api/auth/request-otp", { method: "POST", body: { msisdn } });
  assert.equal(asked.status, 200, asked.text);
  const inbox = await call(front, `/sandbox/inbox?msisdn=255${msisdn.slice(1)}`);
  assert.equal(inbox.status, 200, inbox.text);
  const signedIn = await call(front, "/api/auth/validate-otp", { method: "POST", body: { msisdn, code: inbox.json.code } });
  assert.equal(signedIn.status, 200, signedIn.text);
  const cookie = cookieOf(signedIn.setCookie, "__Host-session");
  assert.ok(cookie, `a session cookie: ${signedIn.setCookie}`);
  return cookie;
}

setUpFirst(setUp, tails);

async function setUp() {
  requireBinaries(["nginx", "varnishd"], ["nginx", "varnish"]);
  assert.ok(existsSync(SITE_BIN), `no site binary at ${SITE_BIN}: cargo build first`);
  [ports.site, ports.metrics, ports.nginx, ports.varnish] = await freePorts(4);
  await startSite();
  startNginx(dir, nginxConfig());
  writeFileSync(join(dir, "varnish.vcl"), varnishConfig());
  const varnishd = existsSync("/usr/sbin/varnishd") ? "/usr/sbin/varnishd" : "varnishd";
  // -F: in the foreground, stopped with SIGTERM; -n: its own working
  // directory (shared memory log, compiled VCL); -T: its management
  // interface on a free loopback port, not Debian's fixed one.
  start("varnishd", varnishd, [
    "-F", "-a", `127.0.0.1:${ports.varnish}`, "-T", "127.0.0.1:0", "-f", join(dir, "varnish.vcl"),
    "-n", join(dir, "varnish"), "-s", "malloc,64m",
  ]);
  await Promise.all([up(`${fronts.nginx()}/healthz`), up(`${fronts.varnish()}/healthz`)]);
}

after(async () => {
  await Promise.all([...children].map((child) => stop(child, "SIGTERM")));
  if (anyFailed()) tails();
  rmSync(dir, { recursive: true, force: true });
});

/** Who signs in through each cache (the sandbox's subscribers). */
const SUBSCRIBERS = {
  nginx: { msisdn: "0754000001", name: "Amina Mwakyusa" },
  varnish: { msisdn: "0754000003", name: "Neema Mushi" },
};

for (const front of ["nginx", "varnish"]) {
  const { msisdn, name } = SUBSCRIBERS[front];
  /** The subscriber's session cookie, once signed in through this cache. */
  let session;
  const signedIn = async () => (session ??= await signIn(front, msisdn));

  test(`${front}: a page for everyone comes from the cache the second time, one copy per encoding`, async () => {
    for (const [encoding, expected] of [[BROWSER, "br"], ["gzip, deflate", "gzip"], ["identity", null], ["br;q=0, gzip", "gzip"]]) {
      const direct = await call("site", "/voice-sms", { encoding });
      for (const n of [1, 2]) {
        const page = await call(front, "/voice-sms", { encoding });
        assert.equal(page.status, 200);
        assert.equal(page.headers.get("content-encoding"), expected, `${encoding}, request ${n}`);
        assert.equal(page.text, direct.text, `${encoding}, request ${n}: the site's page`);
        if (n === 2) assert.ok(page.cached, `${encoding}: served from the cache the second time (X-Cache: ${page.xCache})`);
      }
    }
  });

  test(`${front}: cookies no page reads (analytics, junk) still get the page from the cache`, async () => {
    await call(front, "/about-us");
    const page = await call(front, "/about-us", { cookie: "_ga=GA1.2.1234.5678; theme=dark; session_hint=1" });
    assert.equal(page.status, 200);
    assert.ok(page.cached, `X-Cache: ${page.xCache}`);
  });

  test(`${front}: a signed-in subscriber gets their own /account and pages with their name; a visitor after them never does`, async () => {
    const paths = ["/account", "/sw/account", "/", "/voice-sms", "/sw/internet-overview"];
    // The anonymous copies first, kept where they may be.
    for (const path of paths) for (const n of [1, 2]) assert.equal((await call(front, path)).status, 200, `${path} ${n}`);
    const cookie = await signedIn();
    for (const path of paths) {
      const own = await call(front, path, { cookie });
      assert.equal(own.status, 200, path);
      assert.ok(!own.cached, `${path}: not from the cache (X-Cache: ${own.xCache})`);
      assert.ok(own.text.includes(name), `${path}: shows ${name}`);
    }
    const balances = await call(front, "/account", { cookie });
    assert.match(balances.headers.get("cache-control"), /private|no-store/);
    for (const path of paths) {
      const anonymous = await call(front, path);
      assert.equal(anonymous.status, 200, path);
      assert.ok(!anonymous.text.includes(name), `${path}: an anonymous visitor does not get ${name}'s page`);
    }
  });

  test(`${front}: /api/bundles gives each visitor their own catalogue, in any order`, async () => {
    const cookie = await signedIn();
    const visitors = {
      "anonymous, English": { headers: { "x-site-lang": "en" } },
      "anonymous, Swahili": { headers: { "x-site-lang": "sw" } },
      "signed in, English": { headers: { "x-site-lang": "en" }, cookie },
      "signed in, Swahili": { headers: { "x-site-lang": "sw" }, cookie },
    };
    const direct = {};
    for (const [who, as] of Object.entries(visitors)) direct[who] = (await call("site", "/api/bundles", as)).json;
    assert.notDeepEqual(direct["anonymous, English"].bundles, direct["anonymous, Swahili"].bundles, "the two catalogues differ");
    const order = ["anonymous, English", "anonymous, English", "signed in, English", "anonymous, Swahili", "signed in, Swahili",
      "anonymous, English", "signed in, English", "anonymous, Swahili", "anonymous, English", "signed in, Swahili"];
    for (const [n, who] of order.entries()) {
      const answer = await call(front, "/api/bundles", visitors[who]);
      assert.equal(answer.status, 200, `${n}: ${who}`);
      assert.equal("paymentMethods" in answer.json, who.startsWith("signed in"), `${n}: ${who}: paymentMethods`);
      assert.deepEqual(answer.json, direct[who], `${n}: ${who}: the site's own answer`);
    }
  });

  test(`${front}: a visitor who chose Swahili is sent from / to /sw, one who did not gets the English home from the cache`, async () => {
    for (const [n, chose] of [false, false, true, false, true, true, false].entries()) {
      const home = await call(front, "/", chose ? { cookie: "lang=sw" } : {});
      if (chose) {
        assert.ok([302, 303, 307].includes(home.status), `${n}: redirected, not ${home.status} (X-Cache: ${home.xCache})`);
        assert.equal(home.headers.get("location"), "/sw", `${n}`);
      } else {
        assert.equal(home.status, 200, `${n}`);
        assert.equal(home.headers.get("content-language"), "en", `${n}`);
        if (n > 0) assert.ok(home.cached, `${n}: from the cache (X-Cache: ${home.xCache})`);
      }
    }
    const english = await call(front, "/", { cookie: "lang=en" });
    assert.equal(english.status, 200);
    assert.equal(english.headers.get("content-language"), "en");
  });

  test(`${front}: the notice a form post leaves is shown to its poster alone`, async () => {
    // Without JavaScript: a plain form post, answered with a redirect back and the notice in the flash cookie.
    const posted = await call(front, "/api/auth/request-otp", { method: "POST", form: { msisdn: "0754000002", returnTo: "/internet-overview" } });
    assert.equal(posted.status, 303, posted.text);
    const back = posted.headers.get("location");
    assert.match(back, /^\/internet-overview/);
    const flash = cookieOf(posted.setCookie, "flash");
    assert.ok(flash, `a flash cookie: ${posted.setCookie}`);
    const notice = '"notice":{';
    // The page for everyone at that address, kept where it may be.
    for (const n of [1, 2]) assert.ok(!(await call(front, back)).text.includes(notice), `${n}`);
    const own = await call(front, back, { cookie: flash });
    assert.equal(own.status, 200);
    assert.ok(!own.cached, `X-Cache: ${own.xCache}`);
    assert.ok(own.text.includes(notice), "the page with the notice");
    assert.ok(!(await call(front, back)).text.includes(notice), "the next visitor gets the page without it");
  });

  test(`${front}: an answer that sets a cookie is never kept`, async () => {
    for (const n of [1, 2]) {
      const chosen = await call(front, "/voice-sms?lang=sw");
      assert.ok([302, 303].includes(chosen.status), `${n}: ${chosen.status}`);
      assert.ok(cookieOf(chosen.setCookie, "lang"), `${n}: sets the lang cookie`);
      assert.ok(!chosen.cached, `${n}: X-Cache: ${chosen.xCache}`);
    }
  });
}
