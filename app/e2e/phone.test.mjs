// A visitor on a 390 px phone, in both languages: nothing scrolls sideways
// (tables become cards), every phone number, USSD code and email in content
// is a link, and the header's search box finds pages with a typo.
import { test } from "node:test";
import assert from "node:assert/strict";
import { withSiteAndBrowser } from "./harness.mjs";

let site;
let browser;

withSiteAndBrowser((started) => ({ site, browser } = started));

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

const PAGES = [
  "/",
  "/internet-overview",
  "/vodacom-business",
  "/vodacom-business/1/large-mobile",
  "/customer-service",
  "/contact-us",
  "/mpesa",
  "/international-roaming",
  "/devices",
  "/devices/1/vodacom-smart-kitochi-4g",
  "/news-events",
  "/faq",
  "/fraudster",
  "/account",
  "/search?q=mpesa",
];

/** Elements whose right edge is past the viewport (visually hidden ones aside). */
function overflowing() {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const element of document.querySelectorAll("body *")) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || box.width <= 1) continue;
    let hidden = false;
    for (let at = element; at && !hidden; at = at.parentElement)
      hidden = getComputedStyle(at).clipPath === "inset(50%)";
    if (hidden) continue;
    if (box.right > width + 1)
      out.push(
        `${element.tagName.toLowerCase()}.${element.className} right ${Math.round(box.right)} > ${width}: ${element.textContent.trim().slice(0, 40)}`,
      );
  }
  return { out: out.slice(0, 5), scrolls: document.documentElement.scrollWidth > width };
}

test("at 390 px no page kind scrolls sideways, in either language", async () => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const failures = [];
  for (const path of PAGES) {
    for (const prefix of ["", "/sw"]) {
      const address = prefix && path === "/" ? "/sw" : prefix + path;
      const response = await page.goto(site.base + address);
      assert.equal(response.status(), 200, address);
      const { out, scrolls } = await page.evaluate(overflowing);
      if (out.length || scrolls) failures.push(`${address}: ${out.join("; ") || "the page scrolls sideways"}`);
    }
  }
  await page.screenshot({ path: "/tmp/phone-internet-overview-last.png" }).catch(() => {});
  await context.close();
  assert.deepEqual(failures, []);
});

test("every phone number, USSD code and email in content is a link, in both languages", async () => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  for (const path of [
    "/customer-service",
    "/sw/customer-service",
    "/contact-us",
    "/sw/contact-us",
    "/faq",
    "/internet-overview",
  ]) {
    await page.goto(site.base + path);
    const unlinked = await page.evaluate(() => {
      const contact = /(?:\+?255|\b0)[67]\d{2}[ -]?\d{3}[ -]?\d{3}|\*\d{2,4}(?:\*\d+)*#|[\w.+-]+@[\w-]+\.[\w.-]+/;
      const walker = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
      const out = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (contact.test(node.textContent) && !node.parentElement.closest("a"))
          out.push(node.textContent.trim().slice(0, 60));
      }
      return out;
    });
    assert.deepEqual(unlinked, [], path);
  }
  for (const path of ["/customer-service", "/sw/customer-service"]) {
    await page.goto(site.base + path);
    // "100" stands alone in the cell of the row headed "Call" ("Simu"): the heading makes it a number to call.
    assert.ok(await page.locator('main td a[href="tel:100"]').count(), `${path}: the short code in the Call row calls`);
  }
  await page.goto(site.base + "/customer-service");
  assert.ok(await page.locator('main a[href="tel:+255754100100"]').count(), "a number calls");
  assert.ok(
    await page.locator('main a[href="https://wa.me/255754100100"]').count(),
    "the WhatsApp number opens WhatsApp",
  );
  assert.ok(await page.locator('main a[href="mailto:customercare@vodacom.co.tz"]').count(), "an email writes");
  await page.goto(site.base + "/internet-overview");
  assert.ok(await page.locator('main a[href="tel:*149*01%23"]').count(), "a USSD code dials, # encoded");
  await context.close();
});

/**
 * Resolves once the site's first pre-render pass has ended (`/healthz?detail`
 * names it), after which the site builds its search index: minutes in a debug
 * build on a loaded machine.
 */
async function firstPassEnded(site) {
  for (const until = Date.now() + 600_000; ;) {
    const detail = await (await fetch(`${site.base}/healthz?detail`)).json();
    if (detail.pages.prerendered) return;
    assert.ok(Date.now() < until, "the first pre-render pass ended within 10 minutes");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

test("the header's search box finds M-Pesa for 'mpessa', and Swahili pages for a Swahili word", async () => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  for (const [start, query, expected] of [
    ["/", "mpessa", "/mpesa"],
    ["/sw", "vifurushi", "/sw/"],
  ]) {
    await firstPassEnded(site);
    await page.goto(site.base + start);
    // The index is built just after the pass: until then the page says so.
    for (let tries = 0; tries < 120; tries++) {
      await page.locator(".site-search input[name=q]").fill(query);
      await Promise.all([page.waitForLoadState("load"), page.locator(".site-search button").click()]);
      await page.waitForURL(/\/search\?q=/);
      if (await page.locator(".search-results a").count()) break;
      await page.waitForTimeout(500);
      await page.goto(site.base + start);
    }
    const found = await page
      .locator(".search-results a")
      .evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    assert.ok(
      found.some((href) => href.startsWith(expected) && (expected !== "/mpesa" || href === "/mpesa")),
      `${query}: ${found.join(", ")}`,
    );
  }
  await page.screenshot({ path: "/tmp/phone-search-sw.png" });
  await context.close();
});
