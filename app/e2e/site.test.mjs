import { test } from "node:test";
import assert from "node:assert/strict";
import { hydrated, openHydrated, watchErrors, withSiteAndBrowser } from "./harness.mjs";

let site;
let browser;

withSiteAndBrowser((started) => ({ site, browser } = started));

test("home renders on the server and hydrates without console errors", async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.route("**/*", (route) => route.continue());
  const response = await page.goto(site.base + "/");
  assert.equal(response.status(), 200);
  const html = await response.text();
  assert.match(html, /<h1>25 years of connecting Tanzania<\/h1>/, "content is in the first HTML");
  await hydrated(page);
  assert.equal(await page.getAttribute("html", "lang"), "en");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a client-side navigation fetches the next page's HTML instead of reloading the page", async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  const documents = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document") documents.push(request.url());
  });
  await page.goto(site.base + "/");
  await hydrated(page);
  await page.evaluate(() => window.scrollTo(0, 200));
  await page.evaluate(() => {
    window.__sameDocument = true;
  });
  const data = page.waitForResponse(
    (r) => r.url().endsWith("/internet-overview") && r.request().resourceType() === "fetch",
  );
  const menu = page.getByRole("navigation", { name: "Main menu" });
  await menu.locator("summary", { hasText: "Personal" }).click();
  await menu.getByRole("link", { name: "Internet", exact: true }).click();
  assert.equal((await data).status(), 200);
  await page.getByRole("heading", { level: 1, name: "Internet bundles for every day" }).waitFor();
  assert.equal(page.url(), site.base + "/internet-overview");
  assert.equal(await page.evaluate(() => window.__sameDocument), true, "no full reload");
  assert.equal(documents.length, 1, "only the first document was loaded");
  assert.equal(await page.title(), "Internet bundles | Vodacom Tanzania");
  assert.equal(await page.evaluate(() => window.scrollY), 0, "scrolled to top");
  assert.equal(await menu.locator("details.menu-group[open]").count(), 0, "navigating closed the menu");
  await page.goBack();
  await page.getByRole("heading", { level: 1, name: "25 years of connecting Tanzania" }).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test("the language switch keeps the visitor on the same page and is remembered", async () => {
  const { context, page, errors } = await openHydrated(browser, site.base + "/internet-overview");
  await page.getByRole("link", { name: "Kiswahili" }).click();
  await page.getByRole("heading", { level: 1, name: "Vifurushi vya intaneti kwa kila siku" }).waitFor();
  assert.equal(page.url(), site.base + "/sw/internet-overview");
  assert.equal(await page.getAttribute("html", "lang"), "sw");
  assert.ok(await page.getByRole("navigation", { name: "Menyu kuu" }).isVisible());
  const cookies = await context.cookies();
  assert.equal(cookies.find((c) => c.name === "lang")?.value, "sw");
  // Coming back to the bare address takes the visitor to Swahili.
  await page.goto(site.base + "/");
  assert.equal(page.url(), site.base + "/sw");
  // And back to English, which is remembered too.
  await hydrated(page);
  await page.getByRole("link", { name: "English" }).click();
  await page.getByRole("heading", { level: 1, name: "25 years of connecting Tanzania" }).waitFor();
  await page.goto(site.base + "/");
  assert.equal(page.url(), site.base + "/");
  assert.deepEqual(errors, []);
  await context.close();
});

test("without JavaScript the pages and the language switch still work", async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(site.base + "/voice-sms");
  await page.getByRole("link", { name: "Kiswahili" }).click();
  await page.waitForURL(site.base + "/sw/voice-sms");
  assert.equal((await context.cookies()).find((c) => c.name === "lang")?.value, "sw");
  assert.ok(await page.getByRole("heading", { name: "Vifurushi vya dakika" }).isVisible());
  await context.close();
});

test("an unknown path shows the not-found page with status 404", async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  const response = await page.goto(site.base + "/sw/no-such-page");
  assert.equal(response.status(), 404);
  await page.getByRole("heading", { level: 1, name: "Ukurasa haujapatikana" }).waitFor();
  await hydrated(page);
  // The console reports the 404 document itself; nothing else may fail.
  assert.deepEqual(
    errors.filter((e) => !e.includes("404")),
    [],
  );
  await page.close();
});
