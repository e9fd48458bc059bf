// The real services the multi-process tests and benchmarks start beside the
// site, each on its own loopback port and files in the run's folder: a check
// that Debian's binaries are there, redis-server without persistence, the
// Strapi-shaped CMS fixture over a copy of content/, and nginx from a
// config the caller wrote. Each waits until its service answers, so the
// caller's next step can rely on it.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadBalancerConfig } from "./nginx.mjs";
import { start, up, waitFor } from "./processes.mjs";

const ROOT = resolve(import.meta.dirname, "../..");

/** Fails with the apt-get line to run where one of `binaries` is missing. */
export function requireBinaries(binaries, packages = binaries) {
  for (const binary of binaries) {
    try {
      execFileSync("sh", ["-c", `command -v ${binary} || test -x /usr/sbin/${binary}`]);
    } catch {
      throw new Error(`${binary} is missing: apt-get install ${packages.join(" ")}`);
    }
  }
}

/** redis-server on `port`, nothing kept on disk; resolves once it answers PING. */
export async function startRedis(port, dir) {
  const redis = start("redis", "redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir]);
  await waitFor("redis", () => execFileSync("redis-cli", ["-p", String(port), "ping"], { stdio: ["ignore", "pipe", "ignore"] }).toString().includes("PONG"));
  return redis;
}

/**
 * tools/strapi_fixture.py on `port` over a copy of content/ in `dir`/content
 * (what a test publishes there stays its own), taking form entries into
 * `dir`/posts.jsonl.
 */
export async function startFixtureCms(port, dir, extra = []) {
  cpSync(join(ROOT, "content"), join(dir, "content"), { recursive: true });
  const cms = start("cms", "python3", [join(ROOT, "tools/strapi_fixture.py"), "--port", String(port), "--content", join(dir, "content"), "--posts", join(dir, "posts.jsonl"), ...extra]);
  await up(`http://127.0.0.1:${port}/api/home`);
  return cms;
}

/** nginx with `config` (written to `dir`/nginx.conf), its prefix and error log in `dir`. */
export function startNginx(dir, config) {
  writeFileSync(join(dir, "nginx.conf"), config);
  const nginx = existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx";
  return start("nginx", nginx, ["-c", join(dir, "nginx.conf"), "-p", dir, "-e", join(dir, "nginx-error.log")]);
}

/**
 * What instance `n` of the site shares with the others behind the balancer:
 * its own port, the address visitors use (nginx's), the one Redis and the
 * one session key, nginx as the proxy whose forwarded address it trusts.
 * The caller adds the rest (its data, the CMS, metrics, log level).
 */
export function instanceEnv(ports, n, sessionKey) {
  return {
    HOST: "127.0.0.1",
    PORT: String(ports.sites[n]),
    SITE_URL: `http://127.0.0.1:${ports.nginx}`,
    REDIS_URL: `redis://127.0.0.1:${ports.redis}/0`,
    SESSION_KEY: sessionKey,
    TRUSTED_PROXIES: "127.0.0.1",
  };
}

/**
 * A request to `to` + `path` as the site's own page makes it (a JSON body
 * from the same origin), from `client` as nginx forwards it
 * (X-Forwarded-For). The answer's status, text, JSON if it is, and the
 * headers the tests look at.
 */
export async function call(to, path, { method = "GET", body, cookie, client = "198.51.100.1", headers = {} } = {}) {
  const response = await fetch(`${to}${path}`, {
    method,
    redirect: "manual",
    headers: {
      "x-forwarded-for": client,
      ...(body ? { "content-type": "application/json", "sec-fetch-site": "same-origin", accept: "application/json" } : {}),
      ...(cookie ? { cookie } : {}),
      ...headers,
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return {
    status: response.status,
    json,
    text,
    retryAfter: response.headers.get("retry-after"),
    upstream: response.headers.get("x-upstream"),
    setCookie: response.headers.get("set-cookie"),
  };
}

/**
 * A deployment scaled out on loopback: Redis, the CMS fixture, every
 * instance at once (`startSite(n)` for each of `ports.sites`: whichever is
 * first makes what they share), then nginx balancing over them; resolves
 * once nginx answers.
 */
export async function startDeployment(ports, dir, startSite) {
  await startRedis(ports.redis, dir);
  await startFixtureCms(ports.cms, dir);
  await Promise.all(ports.sites.map((_, n) => startSite(n)));
  startNginx(dir, loadBalancerConfig({ dir, sites: ports.sites, port: ports.nginx }));
  await up(`http://127.0.0.1:${ports.nginx}/healthz`);
}
