// Islands, navigation without React and offline, in the browser: a content
// page loads no React, "Log in" included (its dialog is the enhancement
// script's, a few KB); link navigation swaps the
// next page's server HTML in (overlay, focus, announcement, history); the
// service worker's offline page and its copies of pages read before.
import { test } from "node:test";
import assert from "node:assert/strict";
import { hydrated, launchBrowser, openHydrated, watchErrors, withSiteAndBrowser } from "./harness.mjs";

let site;
let browser;

withSiteAndBrowser((started) => ({ site, browser } = started));

/**
 * Collects the scripts a page loads, to tell whether React came with them.
 * Each response is recorded as it arrives (its body is read later), so a
 * count taken right after an action includes everything that action loaded;
 * `bodies()` waits for every body read so far, with the bytes each
 * transferred (its body as sent, compressed, and its headers).
 */
function watchScripts(page) {
  const pending = [];
  page.on("response", (response) => {
    if (response.request().resourceType() !== "script") return;
    pending.push(
      Promise.all([response.text(), response.request().sizes()]).then(
        ([body, sizes]) => ({ url: response.url(), body, bytes: sizes.responseBodySize + sizes.responseHeadersSize }),
        () => ({ url: response.url(), body: "", bytes: 0 }),
      ),
    );
  });
  return {
    get length() {
      return pending.length;
    },
    bodies: () => Promise.all(pending),
  };
}

const isReactDom = (script) => script.body.includes("__reactContainer$");

test("a content page loads no React, Log in included: its dialog comes with a few KB of script and works", async () => {
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  const errors = watchErrors(page);
  const scripts = watchScripts(page);
  await page.goto(site.base + "/mpesa");
  await hydrated(page);
  await page.waitForLoadState("networkidle");
  assert.ok(scripts.length > 0, "the enhancement script loaded");
  assert.deepEqual(
    (await scripts.bodies()).filter(isReactDom).map((s) => s.url),
    [],
    "no react-dom before Log in",
  );
  const firstView = scripts.length;
  assert.equal(await page.evaluate(() => document.documentElement.dataset.app), undefined);

  await page.getByRole("banner").getByRole("link", { name: "Log in" }).click();
  const dialog = page.getByRole("dialog", { name: "Log in with your phone number" });
  await dialog.waitFor();
  const loaded = await scripts.bodies();
  assert.deepEqual(
    loaded.filter(isReactDom).map((s) => s.url),
    [],
    "no react-dom with the dialog",
  );
  assert.equal(loaded.length, firstView + 1, "one script more: the dialog's");
  const bytes = loaded.reduce((sum, script) => sum + script.bytes, 0);
  assert.ok(bytes <= 20 * 1024, `Log in's scripts in all, the enhancement script's included: ${bytes} B`);
  assert.equal(page.url(), site.base + "/mpesa", "the page stays");
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("name")), "msisdn");
  await dialog.getByLabel("Phone number", { exact: true }).fill("12345");
  await dialog.getByRole("button", { name: "Send code" }).click();
  await dialog.getByRole("alert").filter({ hasText: "valid" }).waitFor();
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Log in", "focus went back to Log in");
  // Open again: no new download.
  const before = scripts.length;
  await page.getByRole("banner").getByRole("link", { name: "Log in" }).click();
  await dialog.waitFor();
  assert.equal(scripts.length, before);
  // The code step, as the server's page for it has it, with the countdown; "Change number" goes back.
  await dialog.getByLabel("Phone number", { exact: true }).fill("0754000005");
  await dialog.getByRole("button", { name: "Send code" }).click();
  await dialog.getByLabel("Verification code").waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("name")), "code");
  assert.ok(await dialog.getByRole("button", { name: /^Send a new code in \d+ seconds?$/ }).isDisabled());
  await dialog.getByRole("link", { name: "Change number" }).click();
  await dialog.getByLabel("Phone number", { exact: true }).waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("name")), "msisdn");
  assert.equal(page.url(), site.base + "/mpesa", "the page stays");
  assert.deepEqual(errors, []);
  await context.close();
});

test("an interactive page hydrates its island only: the header and footer stay server HTML and work through the enhancement script", async () => {
  const { context, page, errors } = await openHydrated(browser, site.base + "/sw/vodacom-business/community", {
    serviceWorkers: "block",
  });
  const reactKeys = (selector) =>
    page.evaluate(
      (s) => Object.keys(document.querySelector(s)).filter((key) => key.startsWith("__react")).length,
      selector,
    );
  assert.ok((await reactKeys("#island")) > 0, "the island is a React root");
  assert.ok((await reactKeys("#island form")) > 0, "its form is hydrated");
  for (const outside of ["header.site-header", "nav[aria-label]", "footer", "#main"])
    assert.equal(await reactKeys(outside), 0, `${outside} is not React's`);
  // The menu works without React: one group open at a time, Escape closes it.
  const menu = page.getByRole("navigation", { name: "Menyu kuu" });
  await menu.locator(".menu-group > summary").first().click();
  assert.equal((await page.locator("#menu details[open]").count()) > 0, true);
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.querySelector("#menu details[open]"));
  // The island's form still checks its fields in the page's language.
  await page.getByRole("main").getByRole("button", { name: /Tuma/ }).click();
  await page.getByRole("main").getByRole("alert").first().waitFor();
  assert.deepEqual(
    errors.filter((e) => !e.includes("422")),
    [],
    "only the server's refusal of the empty form",
  );
  await context.close();
});

test("on a slow link an island's code loads only when its flow starts, and what was typed before reaches React", async () => {
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  const errors = watchErrors(page);
  const scripts = watchScripts(page);
  const documents = [];
  page.on("request", (r) => r.resourceType() === "document" && documents.push(new URL(r.url()).pathname));
  // The 2G-like link of bench/budget.mjs, faster downloads: the page measures it slow by its first byte.
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 400,
    downloadThroughput: 500 * 1024,
    uploadThroughput: 500 * 1024,
  });
  // Kept whole first: DevTools' latency overlaps a slow render's time, which a real link's adds to.
  await fetch(site.base + "/account");
  await page.goto(site.base + "/account");
  await page.waitForFunction(() => document.documentElement.hasAttribute("data-ready"));
  await page.waitForLoadState("networkidle");
  assert.deepEqual(
    (await scripts.bodies()).filter(isReactDom).map((s) => s.url),
    [],
    "no react-dom on the first view",
  );
  const isRoot = () =>
    page.evaluate(() => Object.keys(document.getElementById("island")).some((key) => key.startsWith("__react")));
  assert.equal(await isRoot(), false, "the island is server HTML");
  // Typing in the number field starts the flow: React loads while the number is typed.
  const main = page.getByRole("main");
  await main.getByLabel("Phone number", { exact: true }).pressSequentially("0754000004");
  await hydrated(page);
  assert.ok((await scripts.bodies()).some(isReactDom), "react-dom came once the field was used");
  assert.equal(await main.getByLabel("Phone number", { exact: true }).inputValue(), "0754000004");
  // React has the number typed before it hydrated: its own flow sends it, without a page load.
  await main.getByRole("button", { name: "Send code" }).click();
  await main.getByLabel("Verification code").waitFor();
  assert.deepEqual(documents, ["/account"], "no document load");
  assert.deepEqual(errors, []);
  await context.close();
});

test("on a fast connection an island's code is fetched once the page is idle, and run only when its flow starts", async () => {
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  const errors = watchErrors(page);
  const scripts = watchScripts(page);
  const assets = [];
  page.on("request", (r) => new URL(r.url()).pathname.startsWith("/assets/") && assets.push(new URL(r.url()).pathname));
  // Wi-Fi without Save-Data is fast whatever the page's own load took (loopback on a busy machine may be slow).
  await page.addInitScript(() => Object.defineProperty(navigator, "connection", { value: { type: "wifi" } }));
  await page.goto(site.base + "/sw/account");
  await page.waitForFunction(() => document.documentElement.hasAttribute("data-ready"));
  const listed = await page.evaluate(() => JSON.parse(document.getElementById("island-files").textContent));
  // Every file the island's mount imports is preloaded, none of it run.
  await page.waitForFunction(
    (files) => files.every((href) => document.querySelector(`link[rel=modulepreload][href="${href}"]`)),
    listed,
  );
  await page.waitForLoadState("networkidle");
  for (const href of listed) assert.ok(assets.includes(href), `${href} fetched`);
  assert.ok((await scripts.bodies()).some(isReactDom), "react-dom fetched");
  const isRoot = () =>
    page.evaluate(() => Object.keys(document.getElementById("island")).some((key) => key.startsWith("__react")));
  assert.equal(await isRoot(), false, "nothing hydrated before the flow starts");
  // The flow started, the island mounts from what was fetched: nothing more is asked for.
  const before = assets.length;
  await hydrated(page);
  assert.deepEqual(assets.slice(before), [], "no script fetched when the flow starts");
  assert.deepEqual(errors, []);
  await context.close();
});

test("saving data (a 2G connection): the worker keeps the offline page of the visitor's language only, and no island code", async () => {
  const slow = await launchBrowser(["--force-effective-connection-type=2G"]);
  try {
    const context = await slow.newContext();
    const page = await context.newPage();
    await page.goto(site.base + "/sw/voice-sms");
    assert.equal(await page.evaluate(() => navigator.connection?.effectiveType), "2g");
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await hydrated(page);
    // The page tells the worker its language; the worker keeps that offline page.
    const cached = () =>
      page.evaluate(async () => {
        const all = {};
        for (const key of await caches.keys()) {
          const kind = key.replace(/-.*/, "");
          all[kind] = [
            ...(all[kind] ?? []),
            ...(await (await caches.open(key)).keys()).map((r) => new URL(r.url).pathname),
          ];
        }
        return all;
      });
    // Read until the worker has kept everything checked below and then
    // nothing more for half a second: one reading can land while a copy is
    // being written (seen under load), and "only" and "no" say something
    // only once the worker has stopped writing.
    const complete = (kept) => kept.offline?.length && kept.assets?.some((path) => path.includes("/enhance-"));
    let kept = {};
    for (let previous = "", until = Date.now() + 15_000; Date.now() < until;) {
      kept = await cached();
      const reading = JSON.stringify(kept);
      if (complete(kept) && reading === previous) break;
      previous = reading;
      await page.waitForTimeout(500);
    }
    assert.deepEqual((kept.offline ?? []).sort(), ["/sw/offline"], "the Swahili offline page only");
    assert.ok(
      kept.assets?.some((path) => path.includes("/enhance-")),
      "what the page itself loads",
    );
    assert.ok(!kept.assets.some((path) => /\/(login|page)-/.test(path)), `no island code: ${kept.assets}`);
    await context.close();
  } finally {
    await slow.close();
  }
});

test("link navigation: overlay, the next page's HTML swapped in, focus on its h1, announced, back and forward", async () => {
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  const errors = watchErrors(page);
  const documents = [];
  page.on("request", (r) => r.resourceType() === "document" && documents.push(new URL(r.url()).pathname));
  await page.goto(site.base + "/");
  await hydrated(page);
  await page.evaluate(() => {
    window.__sameDocument = true;
  });
  // Hold the next page back until the overlay has been seen.
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await page.route("**/voice-sms", async (route) => {
    await held;
    await route.continue();
  });
  // Scrolled down, a link is followed (a click that scrolls nothing into view).
  await page.evaluate(() => {
    window.scrollTo(0, 300);
    document.querySelector('nav[aria-label="Main menu"] a[href="/voice-sms"]').click();
  });
  const overlay = page.getByRole("progressbar", { name: "Loading…" });
  await overlay.waitFor();
  release();
  await page.getByRole("heading", { level: 1, name: "Voice & SMS bundles" }).waitFor();
  await overlay.waitFor({ state: "detached" });
  assert.equal(page.url(), site.base + "/voice-sms");
  assert.equal(await page.evaluate(() => window.__sameDocument), true, "no document load");
  assert.deepEqual(documents, ["/"]);
  assert.equal(await page.title(), "Voice & SMS bundles | Vodacom Tanzania");
  assert.equal(await page.evaluate(() => window.scrollY), 0, "scrolled to the top");
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), "H1", "focus on the new heading");
  const announced = await page.evaluate(() => document.querySelector("[aria-live=assertive]")?.textContent);
  assert.equal(announced, "Voice & SMS bundles | Vodacom Tanzania, page loaded");
  assert.equal(
    await page.evaluate(() => document.querySelector("main").style.backgroundColor),
    "rgb(255, 255, 255)",
    "white background",
  );

  await page.goBack();
  await page.getByRole("heading", { level: 1, name: "25 years of connecting Tanzania" }).waitFor();
  assert.equal(page.url(), site.base + "/");
  await page.waitForFunction(() => window.scrollY === 300);
  await page.goForward();
  await page.getByRole("heading", { level: 1, name: "Voice & SMS bundles" }).waitFor();
  assert.equal(await page.evaluate(() => window.__sameDocument), true);
  assert.deepEqual(documents, ["/"]);

  // The language switch, in place too, and remembered.
  await page.getByRole("link", { name: "Kiswahili" }).click();
  await page.getByRole("heading", { level: 1, name: "Vifurushi vya simu na SMS" }).waitFor();
  assert.equal(page.url(), site.base + "/sw/voice-sms");
  assert.equal(await page.getAttribute("html", "lang"), "sw");
  assert.equal((await context.cookies()).find((c) => c.name === "lang")?.value, "sw");
  assert.deepEqual(documents, ["/"]);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a page that fails to load: the content-failure toast, and the page shown stays", async () => {
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  await page.goto(site.base + "/");
  await hydrated(page);
  await page.route("**/voice-sms", (route) =>
    route.request().resourceType() === "fetch"
      ? route.fulfill({ status: 500, contentType: "text/html", body: "<h1>oops</h1>" })
      : route.continue(),
  );
  await page.getByRole("navigation", { name: "Main menu" }).locator("summary", { hasText: "Personal" }).click();
  await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Voice & SMS" }).click();
  const toast = page.locator(".toast-warning", { hasText: "Failed to Load Content." });
  await toast.waitFor();
  assert.equal(await toast.locator(".toast-title").textContent(), "Error");
  assert.equal(page.url(), site.base + "/");
  assert.ok(await page.getByRole("heading", { level: 1, name: "25 years of connecting Tanzania" }).isVisible());
  await context.close();
});

/**
 * Waits until the worker holds `path` in a cache whose name starts with
 * `cache`: it writes its copies after it has answered, so a test that goes
 * offline at once could find them missing.
 */
async function kept(page, cache, path) {
  await page.waitForFunction(
    async ([cache, path]) => {
      for (const key of await caches.keys())
        if (key.startsWith(cache) && (await (await caches.open(key)).match(path))) return true;
      return false;
    },
    [cache, path],
  );
}

/** A context whose page is controlled by the service worker, which has kept the offline page and a copy of the page. */
async function controlled(path) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(site.base + path);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await hydrated(page);
  // The worker keeps the offline pages (both languages when the page measured the connection fast).
  await kept(page, "offline-", path.startsWith("/sw") ? "/sw/offline" : "/offline");
  await kept(page, "pages", path);
  return { context, page };
}

test("offline: a page never read shows the offline page in its language, with a retry link and the pages kept", async () => {
  const { context, page } = await controlled("/sw/voice-sms");
  await context.setOffline(true);
  const response = await page.goto(site.base + "/sw/mpesa");
  assert.equal(response.status(), 503);
  await page.getByRole("heading", { level: 1, name: "Huna mtandao" }).waitFor();
  assert.equal(await page.getAttribute("html", "lang"), "sw");
  assert.equal(await page.getByRole("link", { name: "Jaribu tena" }).getAttribute("href"), "/sw/mpesa");
  const kept = page.locator(".offline-pages a");
  assert.deepEqual(await kept.evaluateAll((links) => links.map((a) => a.getAttribute("href"))), ["/sw/voice-sms"]);
  // A page kept opens from the list, from the copy, saying it may be out of date.
  await kept.first().click();
  await page.getByRole("heading", { level: 1, name: "Vifurushi vya simu na SMS" }).waitFor();
  await page.getByRole("status").filter({ hasText: "Huna mtandao: hii ni nakala iliyohifadhiwa awali" }).waitFor();
  // Back online, retry brings the page.
  await context.setOffline(false);
  await page.goto(site.base + "/sw/mpesa");
  assert.equal(await page.locator(".offline-copy").count(), 0);
  await context.close();
});

test("offline: a link tapped shows the offline page instead of the page before; a page read before opens from its copy", async () => {
  const { context, page } = await controlled("/");
  await page.getByRole("navigation", { name: "Main menu" }).locator("summary", { hasText: "Personal" }).click();
  await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Voice & SMS" }).click();
  await page.getByRole("heading", { level: 1, name: "Voice & SMS bundles" }).waitFor();
  await kept(page, "pages", "/voice-sms");
  await context.setOffline(true);
  await page.getByRole("navigation", { name: "Main menu" }).locator("summary", { hasText: "Personal" }).click();
  await page
    .getByRole("navigation", { name: "Main menu" })
    .getByRole("link", { name: "Internet", exact: true })
    .click();
  await page.getByRole("heading", { level: 1, name: "You are offline" }).waitFor();
  assert.equal(page.url(), site.base + "/internet-overview");
  assert.equal(await page.getByRole("link", { name: "Try again" }).getAttribute("href"), "/internet-overview");
  assert.equal(await page.locator(".offline-pages a", { hasText: "Voice & SMS bundles" }).count(), 1);
  await page.locator(".offline-pages a", { hasText: "Voice & SMS bundles" }).click();
  await page.getByRole("heading", { level: 1, name: "Voice & SMS bundles" }).waitFor();
  await page.getByRole("status").filter({ hasText: "You are offline: this is a copy saved earlier" }).waitFor();
  await context.setOffline(false);
  await context.close();
});

test("without JavaScript a content page is whole and its links are plain links", async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const documents = [];
  page.on("request", (r) => r.resourceType() === "document" && documents.push(new URL(r.url()).pathname));
  await page.goto(site.base + "/mpesa");
  assert.equal(await page.getByRole("banner").getByRole("link", { name: "Log in" }).getAttribute("href"), "/account");
  // The menu's toggle where the screen shows one: at this width the menu is
  // a bar, its toggle hidden (a click would wait for it to show, then fail).
  const toggle = page.locator("details.menu > summary");
  if (await toggle.isVisible()) await toggle.click();
  await page.goto(site.base + "/offline");
  await page.getByRole("heading", { level: 1, name: "You are offline" }).waitFor();
  assert.equal(await page.locator('meta[name="robots"]').getAttribute("content"), "noindex");
  await context.close();
});
