// Starts the real server binary on a free loopback port for browser tests,
// and launches Debian's Chromium through playwright-core.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before } from "node:test";
import { chromium } from "playwright-core";

const root = resolve(import.meta.dirname, "../..");

export function freePort() {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => ok(port));
    });
  });
}

export async function startSite(env = {}) {
  const port = await freePort();
  const bin = process.env.SITE_BIN || join(root, "target/debug/site");
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(bin, [], {
    env: {
      RUST_LOG: "warn",
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: base,
      DATA_DIR: mkdtempSync(join(tmpdir(), "site-e2e-")),
      ...env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`site exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${base}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error("site did not start within 30 s");
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    /** The server's process id (its memory is in /proc/<pid>/status). */
    pid: child.pid,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

/** Debian's Chromium; `args` adds command-line switches (e.g. a forced connection type). */
export function launchBrowser(args = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...args,
    ],
  });
}

/** Collects console errors and uncaught exceptions of a page. */
export function watchErrors(page) {
  const errors = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(String(error)));
  return errors;
}

/**
 * Starts an interactive page's flow as a tap in its island does, once the
 * enhancement script has run: the island's code loads then (at once only on
 * a connection the page measured fast, which a loopback on a loaded machine
 * may not be). Nothing when the island is mounted or being mounted.
 */
export async function startIsland(page) {
  await page.waitForFunction(() => document.documentElement.hasAttribute("data-ready"));
  await page.evaluate(() =>
    document.getElementById("island")?.dispatchEvent(new Event("pointerdown", { bubbles: true })),
  );
}

/**
 * Resolves once the page's script has run: the enhancement script (it marks
 * `<html data-ready>`) and, on an interactive page, React hydrating its
 * island (up to the island's last element) and running its effects.
 */
export async function hydrated(page) {
  await startIsland(page);
  await page.waitForFunction(() => {
    if (!document.documentElement.hasAttribute("data-ready")) return false;
    const island = document.getElementById("island");
    if (!island) return true;
    const last = island.lastElementChild;
    return (
      Object.keys(island).some((key) => key.startsWith("__reactContainer")) &&
      last &&
      Object.keys(last).some((key) => key.startsWith("__reactFiber"))
    );
  });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

/** A page of a fresh context (with `contextOptions`) at `url`, its errors watched, once its island hydrated. */
export async function openHydrated(browser, url, contextOptions = {}) {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(url);
  await hydrated(page);
  return { context, page, errors };
}

/**
 * Starts the site and a browser before a file's tests and stops both after;
 * `assign` receives `{ site, browser }` once they are up.
 */
export function withSiteAndBrowser(assign, env = {}) {
  let started = {};
  before(async () => {
    started = { site: await startSite(env), browser: await launchBrowser() };
    assign(started);
  });
  after(async () => {
    await started.browser?.close();
    await started.site?.stop();
  });
}

/**
 * Signs `who` (`{ local, international, names }`) in through the account
 * page's own forms, reading the code the sandbox at `sandboxBase` "sent";
 * resolves once the header names them.
 */
export async function signInOnAccountPage(page, base, sandboxBase, who) {
  await page.goto(base + "/account");
  await hydrated(page);
  const main = page.getByRole("main");
  await main.getByLabel("Phone number", { exact: true }).fill(who.local);
  await main.getByRole("button", { name: "Send code" }).click();
  const code = main.getByLabel("Verification code");
  await code.waitFor();
  const inbox = await (await fetch(`${sandboxBase}/sandbox/inbox?msisdn=${who.international}`)).json();
  await code.fill(inbox.code);
  await main.getByRole("button", { name: "Log in", exact: true }).click();
  await page.getByRole("banner").getByRole("link", { name: who.names }).waitFor();
}
