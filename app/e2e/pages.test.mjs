// Page kinds in the browser: hydration without errors, and what only the
// browser does (golden minutes, popup dismissal, opening an FAQ question).
import { test } from "node:test";
import assert from "node:assert/strict";
import { hydrated, openHydrated, watchErrors, withSiteAndBrowser } from "./harness.mjs";

let site;
let browser;

withSiteAndBrowser((started) => ({ site, browser } = started));

const PAGES = [
  "/sw",
  "/international-roaming",
  "/sw/soka",
  "/news-event/12/vodacom-business-opens-a-cloud-region-in-dar-es-salaam",
  "/sw/devices",
  "/devices/1/vodacom-smart-kitochi-4g",
  "/sw/faq",
  "/vodacom-business/16/connectivity?services=dedicated-internet-access",
  "/sw/vodacom-business/20",
  "/fraudster",
  "/sw/foundation",
  "/the-best",
];

test("every page kind hydrates without console errors", async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  for (const path of PAGES) {
    const response = await page.goto(site.base + path);
    assert.equal(response.status(), 200, path);
    await hydrated(page);
    assert.deepEqual(errors, [], path);
  }
  await page.close();
});

test("golden minutes: the schedule from the server, 'on now' in the browser during 19:00-20:00 EAT", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.clock.setFixedTime(new Date("2026-06-01T19:30:00+03:00"));
  const response = await page.goto(site.base + "/swipe-win");
  assert.match(await response.text(), /Golden minutes every day 19:00–20:00 EAT/);
  await page.getByText("Golden minutes are on now").waitFor();
  await page.clock.setFixedTime(new Date("2026-06-01T20:00:00+03:00"));
  await page.goto(site.base + "/sw/swipe-win");
  await hydrated(page);
  assert.equal(await page.getByText("Dakika za dhahabu zinaendelea sasa hivi").count(), 0);
  await context.close();
});

test("a dismissed popup stays dismissed for the session", async () => {
  const { context, page, errors } = await openHydrated(browser, site.base + "/");
  const banner = page.getByRole("complementary", { name: "Announcement" });
  assert.ok(await banner.isVisible());
  await banner.getByRole("link", { name: "Dismiss announcement" }).click();
  assert.equal(await banner.count(), 0);
  await page.reload();
  await hydrated(page);
  assert.equal(await banner.count(), 0, "remembered after a reload");
  assert.deepEqual(errors, []);
  const other = await context.newPage();
  await other.goto(site.base + "/");
  await hydrated(other);
  assert.ok(await other.getByRole("complementary", { name: "Announcement" }).isVisible(), "a new tab is a new session");
  await context.close();

  // Without JavaScript the close works too (the banner is hidden as the link's target).
  const plain = await browser.newContext({ javaScriptEnabled: false });
  const still = await plain.newPage();
  await still.goto(site.base + "/");
  const shown = still.getByRole("complementary", { name: "Announcement" });
  assert.ok(await shown.isVisible());
  await shown.getByRole("link", { name: "Dismiss announcement" }).click();
  await shown.waitFor({ state: "hidden" });
  await plain.close();
});

test("/faq/<question> opens that question and scrolls to it", async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 600 } });
  await page.goto(site.base + "/sw/faq");
  const slug = await page.locator("main details").last().getAttribute("id");
  await page.goto(`${site.base}/sw/faq/${slug}`);
  await hydrated(page);
  const question = page.locator(`details#${slug}`);
  assert.equal(await question.getAttribute("open"), "");
  assert.ok(await question.locator("p").isVisible(), "its answer shows");
  const top = await question.evaluate((el) => el.getBoundingClientRect().top);
  assert.ok(top >= 0 && top < 600, `in view (top ${top})`);
  assert.equal((await page.goto(`${site.base}/sw/faq/no-such-question`)).status(), 404);
  await page.close();
});

test("the language switch on an item page goes to the item's slug in the other language", async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(site.base + "/news-event/12/vodacom-business-opens-a-cloud-region-in-dar-es-salaam");
  await hydrated(page);
  await page.getByRole("link", { name: "Kiswahili" }).click();
  await page.waitForURL(site.base + "/sw/news-event/12/vodacom-business-yafungua-huduma-ya-wingu-dar-es-salaam");
  await page
    .getByRole("heading", { level: 1, name: "Vodacom Business yafungua huduma ya wingu Dar es Salaam" })
    .waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});
