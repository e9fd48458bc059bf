// A list's older items without JavaScript, on a 390 px phone, in both
// languages: the pager's links lead page after page (`?page=N`, each its
// own canonical address) and back, and a page past the last is a 404.
import { test } from "node:test";
import assert from "node:assert/strict";
import { withSiteAndBrowser } from "./harness.mjs";

let site;
let browser;

withSiteAndBrowser((started) => ({ site, browser } = started));

const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  javaScriptEnabled: false,
};

const LANGUAGES = [
  { prefix: "", label: "Pages", next: "Next", previous: "Previous" },
  { prefix: "/sw", label: "Kurasa", next: "Inayofuata", previous: "Iliyotangulia" },
];

for (const { prefix, label, next, previous } of LANGUAGES) {
  test(`news past the first page by the pager's links, without JavaScript (${prefix || "/"})`, async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const list = `${prefix}/news-events`;
    assert.equal((await page.goto(site.base + list)).status(), 200);
    const pager = page.getByRole("navigation", { name: label });
    const firstItems = await page.locator(".item-list .card h3 a").allTextContents();
    assert.equal(firstItems.length, 9, "page 1 keeps the page size");
    assert.equal(await pager.locator('[aria-current="page"]').textContent(), "1");
    // Every link of the pager is a finger wide and on screen.
    for (const box of await pager
      .getByRole("link")
      .evaluateAll((links) => links.map((a) => a.getBoundingClientRect().toJSON()))) {
      assert.ok(box.width >= 44 && box.height >= 44 && box.right <= 390, JSON.stringify(box));
    }

    await pager.getByRole("link", { name: next }).click();
    await page.waitForURL(`${site.base}${list}?page=2`);
    const secondItems = await page.locator(".item-list .card h3 a").allTextContents();
    assert.ok(secondItems.length >= 1, "older items on page 2");
    assert.ok(
      secondItems.every((title) => !firstItems.includes(title)),
      "other items than page 1",
    );
    assert.equal(await page.locator('link[rel="canonical"]').getAttribute("href"), `${site.base}${list}?page=2`);
    assert.equal(await pager.locator('[aria-current="page"]').textContent(), "2");
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
      "nothing scrolls sideways",
    );

    // An older item opens from there.
    await page.locator(".item-list .card h3 a").first().click();
    await page.waitForURL(/\/news-event\/\d+\//);
    await page.goBack();
    await page.getByRole("navigation", { name: label }).getByRole("link", { name: previous }).click();
    await page.waitForURL(`${site.base}${list}`);

    const past = await page.goto(`${site.base}${list}?page=3`);
    assert.equal(past.status(), 404);
    assert.ok(await page.locator("header.site-header").isVisible(), "the 404 is in the page frame");
    await context.close();
  });
}
