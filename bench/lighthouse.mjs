// Lighthouse's mobile performance score of each page of the 2G budget run
// (bench/budget.mjs's pages: one of each page kind, the other pages of
// issue 46's table, and the account pages signed in), with its first
// contentful paint, largest contentful paint and total blocking time:
//
//   node bench/lighthouse.mjs <site-url> <lighthouse-cli> [path ...]
//
// Lighthouse is no dependency of the project; install it apart (version 12
// runs on Node 20: `npm i -E lighthouse@12.2.3` in a folder of its own) and
// give its CLI (`<folder>/node_modules/.bin/lighthouse`). Chromium is
// Debian's (CHROME_PATH, /usr/bin/chromium by default). Lighthouse's own
// defaults: a mid-range phone, its CPU slowed 4x, a simulated slow 4G link.
// Its scores move with the machine's load: say the load beside them.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { KIND_PATHS } from "./render-node.mjs";
import { MORE_PATHS, SIGNED_IN_PATHS, signIn } from "./budget.mjs";

const run = promisify(execFile);

async function score(cli, url, cookie) {
  const dir = mkdtempSync(join(tmpdir(), "lighthouse-"));
  try {
    const out = join(dir, "report.json");
    await run(
      cli,
      [
        url,
        "--only-categories=performance",
        "--output=json",
        `--output-path=${out}`,
        "--quiet",
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
        ...(cookie ? [`--extra-headers=${JSON.stringify({ Cookie: cookie })}`] : []),
      ],
      { env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH || "/usr/bin/chromium" }, timeout: 180_000 },
    );
    const report = JSON.parse(readFileSync(out, "utf8"));
    const ms = (id) => report.audits[id]?.numericValue ?? NaN;
    return {
      score: Math.round(report.categories.performance.score * 100),
      fcp: ms("first-contentful-paint"),
      lcp: ms("largest-contentful-paint"),
      tbt: ms("total-blocking-time"),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const [base, cli, ...given] = process.argv.slice(2);
if (!base || !cli) throw new Error("usage: node bench/lighthouse.mjs <site-url> <lighthouse-cli> [path ...]");
const cookie = given.length ? null : await signIn(base).catch(() => null);
const visits = given.length
  ? given.map((path) => ({ path }))
  : [
      ...[...new Set([...KIND_PATHS, ...MORE_PATHS])].map((path) => ({ path })),
      ...(cookie ? SIGNED_IN_PATHS.map((path) => ({ path, cookie })) : []),
    ];
console.log(`Lighthouse mobile, performance; load ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
console.log(`${"page".padEnd(50)} ${"score".padStart(5)} ${"fcp s".padStart(6)} ${"lcp s".padStart(6)} ${"tbt ms".padStart(7)}`);
for (const { path, cookie: session } of visits) {
  const label = session ? `${path} signed in` : path;
  // Lighthouse stops at a page answered with an error status (a page not found is 404, as it should be).
  const status = (await fetch(base + path, { headers: session ? { cookie: session } : {} })).status;
  if (status !== 200) {
    console.log(`${label.slice(0, 50).padEnd(50)} not scored: HTTP ${status}, which Lighthouse does not audit`);
    continue;
  }
  try {
    const m = await score(cli, base + path, session);
    console.log(
      `${label.slice(0, 50).padEnd(50)} ${String(m.score).padStart(5)} ${(m.fcp / 1000).toFixed(2).padStart(6)} ${(m.lcp / 1000).toFixed(2).padStart(6)} ${Math.round(m.tbt).toString().padStart(7)}`,
    );
  } catch (error) {
    console.log(`${label.slice(0, 50).padEnd(50)} failed: ${error.message.split("\n")[0]}`);
  }
}
