// A smart feature phone (KaiOS: a 240×320 screen, a D-pad, often no
// JavaScript that runs): every page kind fits the screen's width in both
// languages, with and without JavaScript, and its heading shows on the first
// screen; the keyboard alone (Tab, Enter, Space, typing: no click) reaches
// every control with a visible focus ring, signs in with the sandbox's code,
// buys a bundle and sends the business form without JavaScript; and no page
// carries a classic script, which an old engine that skips module scripts
// would still run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { hydrated, launchBrowser, watchErrors, withSiteAndBrowser } from "./harness.mjs";

let site;
let browser;

withSiteAndBrowser((started) => ({ site, browser } = started));

const SCREEN = { viewport: { width: 240, height: 320 } };

/** One page of every page kind in `app/src/routes.ts` (English paths; Swahili under /sw). */
const KINDS = {
  content: "/",
  "content with a popup and tables": "/mpesa",
  newsList: "/soka",
  newsItem: "/news-event/12/vodacom-business-opens-a-cloud-region-in-dar-es-salaam",
  deviceList: "/devices",
  deviceItem: "/devices/1/vodacom-smart-kitochi-4g",
  faq: "/faq",
  businessCategory: "/vodacom-business/1/large-mobile",
  businessItem: "/vodacom-business/20",
  fraudster: "/fraudster",
  account: "/account",
  cpmLogin: "/cpm-login",
  cpmOtp: "/cpm-otp",
  cpm: "/customer-permission-management",
  businessCommunity: "/vodacom-business/community",
  foundationApplication: "/foundation/apply",
  search: "/search?q=mpesa",
  locator: "/mpesa-agents/dar-es-salaam/ilala",
  offline: "/offline",
  notFound: "/no-such-page",
};

const swahili = (path) => (path === "/" ? "/sw" : "/sw" + path);

/** The page's width and where its heading starts, at the top of the page. */
function measure() {
  const heading = document.querySelector("h1");
  return {
    width: document.documentElement.scrollWidth,
    heading: heading ? heading.getBoundingClientRect().top + window.scrollY : null,
  };
}

for (const javaScriptEnabled of [false, true]) {
  test(`at 240×320 ${javaScriptEnabled ? "with" : "without"} JavaScript every page kind fits the width and shows its heading on the first screen, in both languages`, async () => {
    const context = await browser.newContext({ ...SCREEN, javaScriptEnabled });
    const page = await context.newPage();
    const failures = [];
    for (const [kind, path] of Object.entries(KINDS)) {
      for (const address of [path, swahili(path)]) {
        await page.goto(site.base + address);
        if (javaScriptEnabled) await hydrated(page);
        const { width, heading } = await page.evaluate(measure);
        if (width > 240) failures.push(`${kind} ${address}: the page is ${width} px wide`);
        if (heading === null || heading >= 320)
          failures.push(`${kind} ${address}: the heading starts at ${heading} px`);
      }
    }
    await context.close();
    assert.deepEqual(failures, []);
  });
}

/** What has focus: enough to tell it apart, whether its focus ring shows and whether it is on screen. */
function focusedElement() {
  const element = document.activeElement;
  if (!element || element === document.body) return null;
  const style = getComputedStyle(element);
  const box = element.getBoundingClientRect();
  const label =
    element.getAttribute("aria-label") || (element.labels?.[0]?.textContent ?? "") || element.textContent || "";
  return {
    tag: element.tagName.toLowerCase(),
    type: element.getAttribute("type") || "",
    name: element.getAttribute("name") || "",
    href: element.getAttribute("href"),
    label: label.trim().replace(/\s+/g, " ").slice(0, 60),
    ring: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0,
    onScreen: box.left >= 0 && box.right <= window.innerWidth + 1 && box.bottom > 0 && box.top < window.innerHeight,
    inForm: element.closest("form")?.className ?? "",
    required: element.hasAttribute("required"),
    inputMode: element.getAttribute("inputmode") || "",
    value: "value" in element ? element.value : "",
    checked: Boolean(element.checked),
  };
}

const describe = (at) => at && `${at.tag}${at.name ? `[name=${at.name}]` : ""} "${at.label}"`;

/** Presses Tab until `wanted` has focus, checking every stop on the way has its ring and is on screen. */
async function tabTo(page, wanted, what, limit = 250) {
  for (let step = 0; step < limit; step++) {
    await page.keyboard.press("Tab");
    const at = await page.evaluate(focusedElement);
    if (!at) continue;
    assert.ok(at.ring, `${describe(at)} shows a focus ring`);
    assert.ok(at.onScreen, `${describe(at)} is scrolled onto the screen`);
    if (wanted(at)) return at;
  }
  throw new Error(`Tab never reached ${what}`);
}

/** Presses `key` (an arrow: Chromium's spatial navigation moves focus as a D-pad does) until `wanted` has focus. */
async function arrowTo(page, key, wanted, what, limit = 60) {
  for (let step = 0; step < limit; step++) {
    await page.keyboard.press(key);
    const at = await page.evaluate(focusedElement);
    if (!at) continue;
    assert.ok(at.ring, `${describe(at)} shows a focus ring`);
    // An arrow with nothing to move to on the screen scrolls it, focus staying behind.
    if (wanted(at)) {
      assert.ok(at.onScreen, `${describe(at)} is on the screen`);
      return at;
    }
  }
  throw new Error(`${key} never reached ${what}`);
}

/** Presses Enter and waits for the page it loads. */
async function enter(page) {
  await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
}

test("at 240×320 without JavaScript Tab visits every control once a round, each with its ring, and leads through the menu, its search and its language switch", async () => {
  const context = await browser.newContext({ ...SCREEN, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(site.base + "/sw/mpesa");
  const reachable = await page.evaluate(
    () =>
      Array.from(
        document.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea, summary"),
      ).filter((element) => element.checkVisibility({ visibilityProperty: true })).length,
  );
  let visited = 0;
  for (let step = 0; step < 400; step++) {
    await page.keyboard.press("Tab");
    const at = await page.evaluate(focusedElement);
    if (!at) {
      if (visited > 0) break;
      continue;
    }
    assert.ok(at.ring, `${describe(at)} shows a focus ring`);
    assert.ok(at.onScreen, `${describe(at)} is scrolled onto the screen`);
    if (visited === 0) assert.match(at.label, /Ruka|Skip/, "the skip link comes first");
    // Marks each stop, so that a second visit within the round shows.
    const again = await page.evaluate(() => {
      const element = document.activeElement;
      const seen = element.hasAttribute("data-tab-stop");
      element.setAttribute("data-tab-stop", "");
      return seen;
    });
    assert.ok(!again, `${describe(at)} is visited once a round`);
    visited += 1;
  }
  // The round ends past the last control (focus leaves the page), every control visited, nothing trapping focus.
  assert.equal(visited, reachable);

  // The popup's close hides it, without JavaScript, and Tab goes on.
  await page.goto(site.base + "/sw/mpesa");
  await tabTo(page, (at) => at.href === "#announcement", "the popup's close");
  await page.keyboard.press("Enter");
  assert.equal(await page.locator("#announcement").isVisible(), false);
  await tabTo(page, (at) => at.tag === "a", "a link after the popup");

  // The menu opens with Enter; the search and the language switch are behind it.
  await page.goto(site.base + "/sw/mpesa");
  await tabTo(page, (at) => at.tag === "summary", "the menu");
  await page.keyboard.press("Enter");
  await tabTo(page, (at) => at.tag === "input" && at.name === "q", "the menu's search field");
  await page.keyboard.type("bando");
  await enter(page);
  assert.equal(new URL(page.url()).pathname, "/sw/search");
  assert.equal(new URL(page.url()).searchParams.get("q"), "bando");
  await tabTo(page, (at) => at.tag === "summary", "the menu");
  await page.keyboard.press("Enter");
  await tabTo(page, (at) => at.label === "English", "the language switch");
  await enter(page);
  assert.equal(await page.getAttribute("html", "lang"), "en");
  await context.close();
});

/**
 * Makes `context`'s pages as an engine without `<details>` and older than `@supports selector()`
 * (KaiOS 2.5's Gecko 48) sees them: `details` and `summary` become elements it does not know, in
 * the HTML and in the stylesheets' selectors, so a disclosure's content always shows and its
 * summary is inert text; and the stylesheets' `@supports selector(…)` blocks do not apply.
 */
async function withoutDetails(context) {
  await context.route("**/*", async (route) => {
    const type = route.request().resourceType();
    if (type !== "document" && type !== "stylesheet") return route.continue();
    const response = await route.fetch();
    const text = await response.text();
    const body =
      type === "document"
        ? text.replace(/(<\/?)(details|summary)\b/g, "$1x-$2")
        : text
            .replace(/(?<![\w.:-])(details|summary)(?![\w-])/g, "x-$1")
            .replace(/@supports selector\(/g, "@supports x-selector(");
    await route.fulfill({ response, body });
  });
}

test("at 240×320 without JavaScript on an engine without <details> the menu is below the content, whole, and the header's Menu link leads to it by keyboard", async () => {
  const context = await browser.newContext({ ...SCREEN, javaScriptEnabled: false });
  await withoutDetails(context);
  const page = await context.newPage();
  const menu = page.getByRole("navigation", { name: "Menyu kuu" });
  for (const address of ["/", "/sw/mpesa"]) {
    await page.goto(site.base + address);
    assert.equal(await page.locator("details").count(), 0, "no <details> left");
    const { width, heading } = await page.evaluate(measure);
    assert.ok(width <= 240, `${address} is ${width} px wide`);
    assert.ok(heading !== null && heading < 320, `${address}: the heading starts at ${heading} px`);
    const [menuTop, mainBottom] = await page.evaluate(() => [
      document.getElementById("menu").getBoundingClientRect().top,
      document.getElementById("main").getBoundingClientRect().bottom,
    ]);
    assert.ok(menuTop >= mainBottom, `${address}: the menu (${menuTop} px) is below the content (${mainBottom} px)`);
  }

  await tabTo(page, (at) => at.href === "#menu", "the header's Menu link");
  await page.keyboard.press("Enter");
  const internet = menu.getByRole("link", { name: "Intaneti", exact: true });
  assert.ok(await internet.isVisible(), "every entry of the menu shows");
  assert.ok(
    await internet.evaluate((link) => link.getBoundingClientRect().top < window.innerHeight),
    "the menu is scrolled onto the screen",
  );
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 240);
  await tabTo(page, (at) => at.label === "Intaneti", "a link of the menu");
  await enter(page);
  assert.equal(new URL(page.url()).pathname, "/sw/internet-overview");

  // The language switch is in the header, reached by keyboard.
  await tabTo(page, (at) => at.label === "English", "the language switch");
  await enter(page);
  assert.equal(await page.getAttribute("html", "lang"), "en");
  await context.close();
});

test("an engine with <details> shows the menu at the top and the header's Menu link only while it has keyboard focus, closed or open, at any width", async () => {
  for (const width of [240, 390, 1280]) {
    const context = await browser.newContext({ viewport: { width, height: 800 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(site.base + "/");
    const link = page.locator('header a.menu-link[href="#menu"]');
    const onScreen = () =>
      link.evaluate(
        (element) =>
          element.getBoundingClientRect().right > 0 && element.getBoundingClientRect().left < window.innerWidth,
      );
    assert.equal(await onScreen(), false, `${width} px, closed`);
    const [menuTop, headingTop] = await page.evaluate(() => [
      document.getElementById("menu").getBoundingClientRect().top,
      document.querySelector("h1").getBoundingClientRect().top,
    ]);
    assert.ok(menuTop < headingTop, `${width} px: the menu (${menuTop} px) shows above the heading (${headingTop} px)`);
    if (await page.locator("details.menu > summary").isVisible()) {
      await page.locator("details.menu > summary").click();
      assert.equal(await page.locator("details.menu").getAttribute("open"), "");
      assert.equal(await onScreen(), false, `${width} px, open`);
    }
    await link.focus();
    assert.equal(await onScreen(), true, `${width} px, focused`);
    await context.close();
  }
});

test("at 240×320 without JavaScript the keyboard alone signs in with the sandbox's code and buys a bundle", async () => {
  const context = await browser.newContext({ ...SCREEN, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(site.base + "/internet-overview");
  await tabTo(
    page,
    (at) => at.tag === "a" && /bundleId=data-daily-1gb/.test(at.href ?? ""),
    "the Buy link of Daily Internet 1GB",
  );
  await enter(page);
  assert.equal(page.url(), `${site.base}/account?bundleId=data-daily-1gb`);

  await tabTo(page, (at) => at.tag === "input" && at.label === "Phone number", "the phone number");
  await page.keyboard.type("0754000001");
  await enter(page);
  assert.match(page.url(), /step=code/);
  const inbox = await (await fetch(`${site.base}/sandbox/inbox?msisdn=255754000001`)).json();
  await tabTo(page, (at) => at.tag === "input" && at.label === "Verification code", "the code");
  await page.keyboard.type(inbox.code);
  await enter(page);
  assert.equal(page.url(), `${site.base}/account?bundleId=data-daily-1gb`);
  assert.equal(await page.getByRole("banner").getByRole("link", { name: "Amina Mwakyusa" }).count(), 1);

  await tabTo(page, (at) => at.tag === "button" && at.label === "Continue", "Continue");
  await enter(page);
  assert.match(page.url(), /step=confirm&bundleId=data-daily-1gb/);
  await tabTo(page, (at) => at.tag === "button" && at.label.startsWith("Confirm and pay"), "Confirm and pay");
  await enter(page);
  assert.equal(page.url(), `${site.base}/account`);
  await page
    .getByRole("status")
    .filter({ hasText: "Your Request has being received. Daily Internet 1GB for 0754 000 001." })
    .waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 240);
  await context.close();
});

test("with a D-pad (arrow keys, Chromium's spatial navigation) and no JavaScript, the header's controls and the sign-in forms are reached and a subscriber signs in, in Swahili", async () => {
  const dpad = await launchBrowser(["--enable-spatial-navigation"]);
  try {
    const context = await dpad.newContext({ ...SCREEN, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(site.base + "/sw/account");
    await arrowTo(page, "ArrowDown", (at) => at.tag === "summary", "the menu");
    await arrowTo(page, "ArrowLeft", (at) => at.label === "Ingia", "Log in");
    await arrowTo(page, "ArrowDown", (at) => at.tag === "input" && at.name === "msisdn", "the phone number");
    await page.keyboard.type("0754000002");
    await arrowTo(page, "ArrowDown", (at) => at.tag === "button" && at.label === "Tuma msimbo", "Send code");
    await enter(page);
    assert.match(page.url(), /\/sw\/account\?step=code/);
    const inbox = await (await fetch(`${site.base}/sandbox/inbox?msisdn=255754000002`)).json();
    await arrowTo(page, "ArrowDown", (at) => at.tag === "input" && at.name === "code", "the code");
    await page.keyboard.type(inbox.code);
    await arrowTo(page, "ArrowDown", (at) => at.tag === "button" && at.label === "Ingia", "Log in");
    await enter(page);
    assert.equal(page.url(), `${site.base}/sw/account`);
    assert.equal(await page.getByRole("banner").getByRole("link", { name: "Juma Kassim" }).count(), 1);
    await context.close();
  } finally {
    await dpad.close();
  }
});

/** What the keyboard types into a required field of the site's forms. */
function answer(at) {
  const index = Number(/\[(\d+)\]/.exec(at.name)?.[1] ?? 0);
  if (at.type === "email") return `person${index}@example.co.tz`;
  if (at.type === "tel") return `075400000${index + 1}`;
  // Dates are typed as their segments are shown (en-US: month, day, year).
  if (at.type === "date") return /end/i.test(at.name) ? "06302027" : "07012026";
  if (at.inputMode === "numeric") return /amount/i.test(at.name) ? "1500000" : "12";
  return `Person ${index + 1}`;
}

for (const [path, received] of [
  ["/vodacom-business/community", /\/vodacom-business\/community\?reference=BC-/],
  ["/sw/foundation/apply", /\/sw\/foundation\/apply\?reference=FA-/],
]) {
  test(`at 240×320 without JavaScript the keyboard alone fills in and sends ${path}`, async () => {
    const context = await browser.newContext({ ...SCREEN, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(site.base + path);
    const answered = new Set();
    for (;;) {
      const at = await tabTo(page, (stop) => stop.inForm.includes("site-form"), "the next field of the form");
      if (at.tag === "button") break;
      const first = !answered.has(at.name);
      answered.add(at.name);
      // One choice of each group of radios and checkboxes, the first option of a list, every required text.
      if (at.tag === "input" && ["radio", "checkbox"].includes(at.type)) {
        if (first) await page.keyboard.press("Space");
      } else if (at.tag === "select") {
        if (at.required && !at.value) await page.keyboard.press("ArrowDown");
      } else if (at.required && !at.value) {
        await page.keyboard.type(answer(at));
      }
    }
    await enter(page);
    assert.match(
      page.url(),
      received,
      await page
        .locator(".error-summary")
        .textContent()
        .catch(() => ""),
    );
    await context.close();
  });
}

test("no page carries a classic script: an engine without modules runs nothing of the app", async () => {
  for (const path of Object.values(KINDS).flatMap((path) => [path, swahili(path)])) {
    const html = await (await fetch(site.base + path)).text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((match) => match[1]);
    assert.ok(scripts.length > 0, path);
    for (const attributes of scripts)
      assert.match(
        attributes,
        /type="(module|application\/json|application\/ld\+json)"/,
        `${path}: <script${attributes}>`,
      );
  }
});

test("an engine that runs modules but lacks newer APIs (no service worker, no replaceChildren) gets no error and keeps the page", async () => {
  const context = await browser.newContext(SCREEN);
  await context.addInitScript(() => {
    delete Navigator.prototype.serviceWorker;
    delete Element.prototype.replaceChildren;
  });
  const page = await context.newPage();
  const errors = watchErrors(page);
  // Outside golden minutes, whose notice is then emptied.
  await page.clock.setFixedTime(new Date("2026-06-01T20:30:00+03:00"));
  for (const path of ["/swipe-win", "/sw/mpesa", "/account"]) {
    await page.goto(site.base + path);
    // The fixed clock hides the page's own timing (the connection is not
    // measured fast): `hydrated` starts the island's flow.
    await hydrated(page);
    assert.equal(await page.evaluate(() => "serviceWorker" in navigator), false);
    assert.ok(await page.locator("h1").isVisible(), path);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
