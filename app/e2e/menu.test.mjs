// The main menu by keyboard only, with and without JavaScript, wide and narrow.
import { test } from "node:test";
import assert from "node:assert/strict";
import { hydrated, watchErrors, withSiteAndBrowser } from "./harness.mjs";

let site;
let browser;

withSiteAndBrowser((started) => ({ site, browser } = started));

const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 375, height: 740 };

/** Presses Tab until the focused element's text is `text` (at most 40 times). */
async function tabTo(page, text) {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => document.activeElement?.textContent?.trim());
    if (focused === text) return;
  }
  throw new Error(`Tab never reached "${text}"`);
}

const openGroups = (page) => page.locator("details.menu-group[open] > summary").allTextContents();
const focusedText = (page) => page.evaluate(() => document.activeElement?.textContent?.trim());

test("wide screens: open a menu panel with the keyboard, close it with Escape, follow a link", async () => {
  const page = await browser.newPage({ viewport: WIDE });
  const errors = watchErrors(page);
  await page.goto(site.base + "/");
  await hydrated(page);
  await tabTo(page, "Personal");
  await page.keyboard.press("Enter");
  assert.deepEqual(await openGroups(page), ["Personal"]);
  await page.keyboard.press("Tab");
  assert.equal(await focusedText(page), "Digital services");
  await page.keyboard.press("Escape");
  assert.deepEqual(await openGroups(page), [], "Escape closes the panel");
  assert.equal(await focusedText(page), "Personal", "focus goes back to its summary");
  await page.keyboard.press("Enter");
  await tabTo(page, "Internet");
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { level: 1, name: "Internet bundles for every day" }).waitFor();
  assert.equal(page.url(), site.base + "/internet-overview");
  assert.deepEqual(await openGroups(page), [], "navigating closes the panel");
  const current = page.getByRole("navigation", { name: "Main menu" }).locator('[aria-current="page"]');
  assert.equal(await current.textContent(), "Internet");
  assert.deepEqual(errors, []);
  await page.close();
});

test("one panel at a time; a click outside closes it", async () => {
  const page = await browser.newPage({ viewport: WIDE });
  await page.goto(site.base + "/");
  await hydrated(page);
  const menu = page.getByRole("navigation", { name: "Main menu" });
  await menu.locator("summary", { hasText: "Personal" }).click();
  await menu.locator("summary", { hasText: "M-Pesa" }).click();
  assert.deepEqual(await openGroups(page), ["M-Pesa"]);
  // A clickable area is the first link of its own panel; grandchildren are nested under their parent.
  const panel = menu.locator("details.menu-group[open] .menu-panel");
  assert.equal(await panel.locator("> li > a").first().textContent(), "M-Pesa");
  assert.equal(await panel.locator("li:has(> a:text-is('Loans & savings')) > ul a").first().textContent(), "Songesha");
  await page.mouse.click(5, 700);
  assert.deepEqual(await openGroups(page), []);
  await page.close();
});

test("narrow screens: the whole menu is behind the Menu toggle, by keyboard", async () => {
  const page = await browser.newPage({ viewport: NARROW });
  await page.goto(site.base + "/sw");
  await hydrated(page);
  assert.equal(await page.getByRole("link", { name: "Intaneti", exact: true }).isVisible(), false, "closed at first");
  await tabTo(page, "Menyu");
  await page.keyboard.press("Enter");
  await tabTo(page, "Binafsi");
  await page.keyboard.press("Enter");
  await tabTo(page, "Intaneti");
  await page.keyboard.press("Enter");
  await page.waitForURL(site.base + "/sw/internet-overview");
  await page.getByRole("heading", { level: 1, name: "Vifurushi vya intaneti kwa kila siku" }).waitFor();
  assert.equal(await page.locator("details.menu").getAttribute("open"), null, "navigating closes the menu");
  await page.close();
});

test("without JavaScript the menu opens and its links work", async () => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: NARROW });
  const page = await context.newPage();
  await page.goto(site.base + "/");
  await page.locator("details.menu > summary").click();
  const menu = page.getByRole("navigation", { name: "Main menu" });
  await menu.locator("summary", { hasText: "Personal" }).click();
  await menu.getByRole("link", { name: "Voice & SMS" }).click();
  await page.waitForURL(site.base + "/voice-sms");
  assert.ok(await page.getByRole("heading", { level: 1 }).first().isVisible());
  await context.close();
});

test("the page's heading comes before the menu in the document, and the menu shows right under the header: a bar on wide screens, a toggle on narrow ones", async () => {
  for (const [viewport, javaScriptEnabled] of [
    [WIDE, true],
    [NARROW, true],
    [WIDE, false],
    [NARROW, false],
  ]) {
    const context = await browser.newContext({ viewport, javaScriptEnabled });
    const page = await context.newPage();
    for (const path of ["/", "/sw/mpesa", "/news-events"]) {
      await page.goto(site.base + path);
      const where = `${viewport.width} px ${javaScriptEnabled ? "with" : "without"} JavaScript, ${path}`;
      const layout = await page.evaluate(() => {
        const menu = document.getElementById("menu");
        const box = (element) => element.getBoundingClientRect();
        return {
          headingFirst: Boolean(
            document.querySelector("h1").compareDocumentPosition(menu) & Node.DOCUMENT_POSITION_FOLLOWING,
          ),
          headerBottom: box(document.querySelector("header.site-header")).bottom,
          menuTop: box(menu).top,
          menuBottom: box(menu).bottom,
          mainTop: box(document.getElementById("main")).top,
        };
      });
      assert.ok(layout.headingFirst, `${where}: the heading comes first in the document`);
      assert.ok(
        Math.abs(layout.menuTop - layout.headerBottom) < 1 && layout.menuBottom <= layout.mainTop + 1,
        `${where}: ${JSON.stringify(layout)}`,
      );
    }
    const menu = page.getByRole("navigation", { name: "Main menu" });
    assert.equal(
      await menu.locator("summary", { hasText: "Personal" }).isVisible(),
      viewport === WIDE,
      `${viewport.width} px: the top-level entries`,
    );
    assert.equal(
      await page.locator("details.menu > summary").isVisible(),
      viewport === NARROW,
      `${viewport.width} px: the toggle`,
    );
    await context.close();
  }
});

test("with JavaScript the header's Menu link opens the narrow screens' menu and moves focus to it; on wide screens it leads to the menu", async () => {
  const page = await browser.newPage({ viewport: NARROW });
  await page.goto(site.base + "/");
  await hydrated(page);
  await tabTo(page, "Menu");
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute("href")), "#menu");
  await page.keyboard.press("Enter");
  assert.equal(await page.locator("details.menu").getAttribute("open"), "");
  assert.equal(await page.evaluate(() => document.activeElement.matches("details.menu > summary")), true);
  await page.keyboard.press("Escape");
  assert.equal(await page.locator("details.menu").getAttribute("open"), null, "Escape closes it");
  await page.setViewportSize(WIDE);
  await page.locator("header .menu-link").focus();
  await page.keyboard.press("Enter");
  assert.equal(new URL(page.url()).hash, "#menu");
  await page.keyboard.press("Tab");
  assert.equal(await focusedText(page), "Personal");
  await page.close();
});
