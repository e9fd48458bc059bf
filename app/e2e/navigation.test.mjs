// Navigation beyond plain pages: redirect routes (from a content page and
// from an interactive one: the same enhancement script navigates on both),
// an island's code that is gone (a new deploy), a page that fails under an
// island, and the service worker offline. islands.test.mjs has the rest.
import { test } from "node:test";
import assert from "node:assert/strict";
import { hydrated, watchErrors, withSiteAndBrowser } from "./harness.mjs";

let site;
let browser;

withSiteAndBrowser((started) => ({ site, browser } = started));

/** Navigates the way a router link does, without a document load. */
function clientNavigate(page, path) {
  return page.evaluate((to) => {
    history.pushState({}, "", to);
    dispatchEvent(new PopStateEvent("popstate"));
  }, path);
}

for (const from of ["/sw", "/sw/account"]) {
  test(`a redirect route followed from ${from}: the browser follows it, to another site too`, async () => {
    const context = await browser.newContext({ serviceWorkers: "block" });
    const page = await context.newPage();
    await page.goto(site.base + from);
    await hydrated(page);
    const documents = [];
    page.on("request", (r) => r.resourceType() === "document" && documents.push(r.url()));
    // The other site is out of reach here (a stand-in would not see a redirected request): its request is enough.
    const external = page.waitForRequest("https://fwa.vodacom.co.tz/");
    await clientNavigate(page, "/sw/5G");
    await external;
    assert.equal(documents[0], site.base + "/sw/5G", "a document load of the address, not a swap");
    await context.close();
  });
}

test("an island whose code fails to load makes a full page load of its page", async () => {
  // The service worker would fetch the code itself, out of the test's reach.
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  const errors = watchErrors(page);
  const documents = [];
  page.on("request", (r) => r.resourceType() === "document" && documents.push(new URL(r.url()).pathname));
  await page.goto(site.base + "/vodacom-business");
  await hydrated(page);
  // Refused until the page loads in full (its preload on a fast connection and its import alike).
  let failed = null;
  await page.route("**/assets/page-*.js", (route) => {
    if (documents.length > 1) return route.continue();
    failed = route.request().url();
    return route.abort();
  });
  await clientNavigate(page, "/vodacom-business/community");
  await page.getByRole("heading", { level: 1, name: "Join the Vodacom Business community" }).waitFor();
  await page.waitForURL(site.base + "/vodacom-business/community");
  // The island's code is asked for once its flow starts (preloaded before on
  // a fast connection: the page may be loading in full already).
  await page
    .evaluate(() => document.getElementById("island")?.dispatchEvent(new Event("pointerdown", { bubbles: true })))
    .catch(() => {});
  await page.waitForFunction(() =>
    performance.getEntriesByType("navigation")[0]?.name.endsWith("/vodacom-business/community"),
  );
  assert.ok(failed, "the island's code was refused");
  assert.deepEqual(documents, ["/vodacom-business", "/vodacom-business/community"], "the target was loaded in full");
  await hydrated(page);
  // What is logged is the refused code, nothing else.
  assert.deepEqual(
    errors.filter((e) => !e.includes("ERR_FAILED") && !e.includes(failed)),
    [],
  );
  await context.close();
});

test("a page that fails to load from an interactive page: the spec's warning toast titled Error, and the island shown stays and works", async () => {
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  await page.goto(site.base + "/vodacom-business/community");
  await hydrated(page);
  const form = page.getByRole("main");
  await form.getByLabel("Your name").fill("Neema Mushi");
  await page.route("**/voice-sms", (route) =>
    route.fulfill({ status: 500, contentType: "text/html", body: "<p>down</p>" }),
  );
  await clientNavigate(page, "/voice-sms");
  const toast = page.locator(".toast-warning", { hasText: "Failed to Load Content." });
  await toast.waitFor();
  assert.equal(await toast.locator(".toast-title").textContent(), "Error");
  assert.ok(
    await page.getByRole("heading", { level: 1, name: "Join the Vodacom Business community" }).isVisible(),
    "the page shown stays",
  );
  assert.equal(await form.getByLabel("Your name").inputValue(), "Neema Mushi", "what was typed stays");
  await context.close();
});

test("the service worker, scoped to the site, keeps a page read before readable offline", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(site.base + "/voice-sms");
  await page.evaluate(() => navigator.serviceWorker.ready);
  // The first visit installs the worker; the next load goes through it.
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.goto(site.base + "/sw/voice-sms");
  await context.setOffline(true);
  await page.goto(site.base + "/sw/voice-sms");
  assert.equal(await page.getAttribute("html", "lang"), "sw");
  assert.ok(await page.getByRole("main").isVisible(), "the page came from the worker's copy");
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).scope);
  assert.equal(scope, site.base + "/");
  await context.setOffline(false);
  await context.close();
});
