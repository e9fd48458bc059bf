// Navigation beyond plain pages: redirect routes (from a content page, whose
// enhancement script fetches HTML, and from an interactive page, whose React
// app asks /_data), a page chunk that is gone (a new deploy), page data that
// fails, and the service worker offline. islands.test.mjs has the rest.
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

test("a redirect route followed from a content page: the browser follows it, to another site too", async () => {
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  await page.goto(site.base + "/sw");
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

test("a redirect route followed client-side by the React app: site paths in place, other sites in full", async () => {
  const page = await browser.newPage();
  await page.route("https://fwa.vodacom.co.tz/**", (route) => route.fulfill({ contentType: "text/html", body: "<h1>Home internet</h1>" }));
  await page.goto(site.base + "/sw/account");
  await hydrated(page);
  const data = [];
  page.on("response", (r) => r.url().includes("/_data/") && data.push(new URL(r.url()).pathname));
  // /5G is a permanent redirect to /fwa, which sends the visitor to another site.
  await clientNavigate(page, "/sw/5G");
  await page.waitForURL("https://fwa.vodacom.co.tz/");
  assert.deepEqual(data, ["/_data/sw/5G", "/_data/sw/fwa"]);
  await page.close();
});

test("a page chunk that fails to load makes a full page load of the target", async () => {
  // The service worker would fetch the chunk itself, out of the test's reach.
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  const errors = watchErrors(page);
  const documents = [];
  page.on("request", (r) => r.resourceType() === "document" && documents.push(new URL(r.url()).pathname));
  await page.goto(site.base + "/vodacom-business/community");
  await hydrated(page);
  const loaded = new Set(await page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name)));
  let failed = null;
  await page.route("**/assets/*.js", (route) => {
    const url = route.request().url();
    if (!failed && !loaded.has(url)) {
      failed = url;
      return route.abort();
    }
    return route.continue();
  });
  await page.getByRole("navigation", { name: "Main menu" }).locator("summary", { hasText: "Investors & about" }).click();
  await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "News", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: "Newsroom" }).waitFor();
  assert.ok(failed, "a chunk was refused");
  assert.deepEqual(documents, ["/vodacom-business/community", "/news-events"], "the target was loaded in full");
  await hydrated(page);
  assert.deepEqual(errors.filter((e) => !e.includes("ERR_FAILED")), []);
  await context.close();
});

test("page data that fails to load in the React app shows the spec's warning toast titled Error, and the page stays", async () => {
  const page = await browser.newPage();
  await page.goto(site.base + "/vodacom-business/community");
  await hydrated(page);
  await page.route("**/_data/voice-sms", (route) => route.fulfill({ status: 500, contentType: "application/json", body: "{}" }));
  await clientNavigate(page, "/voice-sms");
  const toast = page.locator(".toast-warning", { hasText: "Failed to Load Content." });
  await toast.waitFor();
  assert.equal(await toast.locator(".toast-title").textContent(), "Error");
  assert.ok(await page.getByRole("heading", { level: 1, name: "Join the Vodacom Business community" }).isVisible(), "the page shown stays");
  await page.close();
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
