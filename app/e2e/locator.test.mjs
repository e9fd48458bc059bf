// The agent and shop locator in a browser: "near me" with the position
// granted (the nearest open places, nearest first, none of the position in
// the address or storage) and refused (the region form stays the way), in
// both languages; a locator page reached by the script's navigation from
// another page, whose document may not ask for a position, is loaded whole
// first; and the region form without JavaScript.
import { test } from "node:test";
import assert from "node:assert/strict";
import { hydrated, watchErrors, withSiteAndBrowser } from "./harness.mjs";

let site;
let browser;

withSiteAndBrowser((started) => ({ site, browser } = started));

/** Kariakoo, Dar es Salaam. */
const KARIAKOO = { latitude: -6.8187, longitude: 39.2775 };

test("near me with the position granted lists the nearest open places, nearest first, and keeps the position nowhere", async () => {
  const context = await browser.newContext({
    geolocation: KARIAKOO,
    permissions: ["geolocation"],
    viewport: { width: 390, height: 800 },
  });
  const page = await context.newPage();
  const errors = watchErrors(page);
  const asked = [];
  page.on("request", (request) => asked.push(request.url()));
  await page.goto(site.base + "/mpesa-agents");
  await hydrated(page);
  const button = page.getByRole("button", { name: "Find the nearest open to me" });
  await button.click();
  const list = page.locator("#near-me-list");
  await list.waitFor();
  const distances = await list.locator(".location-state").allTextContents();
  assert.ok(distances.length > 0);
  const metres = distances.map((text) => {
    const [, number, unit] = /([\d.]+) (m|km) away/.exec(text);
    return Number(number) * (unit === "km" ? 1000 : 1);
  });
  assert.deepEqual(
    [...metres].sort((a, b) => a - b),
    metres,
    "nearest first",
  );
  assert.ok(metres[0] < 5000, `the nearest is close to Kariakoo: ${metres[0]} m`);
  assert.ok((await list.locator('a[href^="tel:+255"]').count()) > 0);
  assert.ok((await list.locator('a[href^="geo:"]').count()) > 0);
  assert.ok(!page.url().includes("-6.81"), "not in the address");
  assert.ok(!asked.some((url) => url.includes("-6.81") || url.includes("39.27")), "not in any address asked");
  const stored = await page.evaluate(
    () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie,
  );
  assert.ok(!stored.includes("-6.81"), "not stored");
  assert.deepEqual(errors, []);
  await context.close();
});

test("near me refused in Swahili says so and leaves the region form", async () => {
  const context = await browser.newContext({ permissions: [], viewport: { width: 240, height: 320 } });
  const page = await context.newPage();
  await page.goto(site.base + "/sw/vodashop");
  await hydrated(page);
  await page.getByRole("button", { name: "Tafuta walio wazi karibu nami" }).click();
  await page.getByText("Hatukuweza kutumia mahali ulipo").waitFor();
  assert.ok(await page.locator("#locator-region").isVisible());
  await context.close();
});

test("a locator page reached by the script's navigation is loaded whole before it asks for the position", async () => {
  const context = await browser.newContext({ geolocation: KARIAKOO, permissions: ["geolocation"] });
  const page = await context.newPage();
  await page.goto(site.base + "/mpesa");
  await hydrated(page);
  // A link in the page, followed by the script (no full load).
  await page.evaluate(() => {
    const link = document.createElement("a");
    link.href = "/vodashop";
    link.id = "to-shops";
    link.textContent = "Vodashops";
    document.querySelector("main")?.prepend(link);
  });
  await page.click("#to-shops");
  await page.waitForURL("**/vodashop");
  await hydrated(page);
  await page.getByRole("button", { name: "Find the nearest open to me" }).click();
  await page.locator("#near-me-list, #near-me-results [role=status]").first().waitFor();
  await page.locator("#near-me-list").waitFor({ timeout: 15_000 });
  assert.ok(!page.url().includes("#near-me"), "the starting fragment is gone once it started");
  await context.close();
});

test("without JavaScript the region form finds a district's agents", async () => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 240, height: 320 } });
  const page = await context.newPage();
  await page.goto(site.base + "/mpesa-agents");
  assert.equal(await page.locator("#near-me").isVisible(), false, "no near me without the script");
  await page.locator("#locator-region").selectOption("dar-es-salaam");
  await page.getByRole("button", { name: "Show" }).click();
  await page.waitForURL("**/mpesa-agents/dar-es-salaam");
  await page.locator("#locator-district").selectOption("ilala");
  await page.getByRole("button", { name: "Show" }).click();
  await page.waitForURL("**/mpesa-agents/dar-es-salaam/ilala");
  assert.match(await page.locator("h1").textContent(), /M-Pesa agents in Ilala, Dar es Salaam/);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 240, `fits 240 px: ${width}`);
  await context.close();
});

test("the region form comes right after the heading, on a phone's first screen, in both languages", async () => {
  for (const javaScriptEnabled of [true, false]) {
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    for (const path of [
      "/mpesa-agents",
      "/sw/mpesa-agents",
      "/vodashop",
      "/sw/vodashop",
      "/mpesa-agents/dar-es-salaam",
      "/sw/vodashop/arusha",
    ]) {
      await page.goto(site.base + path);
      // Nothing shown between the heading and the region's label.
      const between = await page.evaluate(() => {
        const heading = document.querySelector("main h1");
        const label = document.querySelector('label[for="locator-region"]');
        const shown = [...document.querySelectorAll("main *")].filter((element) => {
          const box = element.getBoundingClientRect();
          return (
            box.height > 0 &&
            box.width > 1 &&
            !element.contains(label) &&
            !element.contains(heading) &&
            !heading.contains(element) &&
            heading.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING &&
            element.compareDocumentPosition(label) & Node.DOCUMENT_POSITION_FOLLOWING
          );
        });
        return shown.map((element) => element.outerHTML.slice(0, 80));
      });
      assert.deepEqual(between, [], `${path}: only the form after the heading`);
      const select = await page.locator("#locator-region").boundingBox();
      assert.ok(
        select.y + select.height <= 844,
        `${path}${javaScriptEnabled ? "" : " without JavaScript"}: the region on the first screen (${select.y} px)`,
      );
    }
    await context.close();
  }
});
