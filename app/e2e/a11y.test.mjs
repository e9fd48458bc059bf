// axe-core on one page of each kind, in English and Swahili: no violation of
// impact serious or critical. Item pages are found through their list page.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { hydrated, launchBrowser, startSite } from "./harness.mjs";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const FAILING = new Set(["serious", "critical"]);

/** Paths without language prefix; `{ from, link }` is the first item link of a list page. */
const PAGES = [
  "/",
  "/about-us",
  "/international-roaming",
  "/news-events",
  { from: "/news-events", link: 'a[href*="/news-event/"]' },
  "/devices",
  { from: "/devices", link: 'a[href*="/devices/"]' },
  "/faq",
  "/vodacom-business/1/large-mobile",
  { from: "/vodacom-business/1/large-mobile", link: 'a[href*="/vodacom-business/"]:not([href*="/1/large-mobile"])' },
  "/fraudster",
  "/vodacom-business/community",
  "/foundation/apply",
  "/search?q=mpesa",
  "/customer-service",
  "/no-such-page",
];

let site;
let browser;
let context;

before(async () => {
  site = await startSite();
  browser = await launchBrowser();
  // The site's CSP (script-src 'self') would refuse the injected axe script.
  context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
});

after(async () => {
  await context?.close();
  await browser?.close();
  await site?.stop();
});

async function audit(page) {
  await page.addScriptTag({ content: axeSource });
  const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  return results.violations;
}

function report(url, violations) {
  const failing = violations.filter((v) => FAILING.has(v.impact));
  for (const v of violations) {
    const nodes = v.nodes
      .map((n) => `      ${n.target.join(" ")}\n        ${(n.failureSummary || "").replace(/\n/g, "\n        ")}`)
      .join("\n");
    const line = `${v.impact} ${v.id}: ${v.help} (${url})\n${nodes}`;
    if (FAILING.has(v.impact)) console.error(line);
    else console.log(`not failing: ${line.split("\n")[0]}`);
  }
  return failing;
}

for (const lang of ["en", "sw"]) {
  const prefix = lang === "sw" ? "/sw" : "";
  for (const entry of PAGES) {
    const name = typeof entry === "string" ? entry : `first item of ${entry.from}`;
    test(`${lang} ${name} has no serious or critical accessibility violation`, async () => {
      const page = await context.newPage();
      let path = typeof entry === "string" ? entry : entry.from;
      if (typeof entry !== "string") {
        await page.goto(site.base + prefix + entry.from);
        const href = await page.locator(`main ${entry.link}`).first().getAttribute("href");
        assert.ok(href, `an item link on ${entry.from}`);
        path = href.slice(prefix.length);
      }
      const response = await page.goto(site.base + prefix + (path === "/" && prefix ? "" : path));
      assert.equal(response.status(), path === "/no-such-page" ? 404 : 200, path);
      await hydrated(page);
      const failing = report(page.url(), await audit(page));
      assert.deepEqual(
        failing.map((v) => `${v.impact} ${v.id}`),
        [],
      );
      await page.close();
    });
  }
}

/**
 * Signs `browserContext` in through the endpoints, the way the page's
 * script does: a subscriber session for Amina and a CPM session for Juma
 * (a number gets one code a minute, whatever it is for).
 */
async function signIn(browserContext) {
  const send = (path, data) => browserContext.request.post(site.base + path, { data, headers: { origin: site.base } });
  const code = async (msisdn) =>
    (await (await browserContext.request.get(`${site.base}/sandbox/inbox?msisdn=${msisdn}`)).json()).code;
  for (const [request, validate, msisdn] of [
    ["/api/auth/request-otp", "/api/auth/validate-otp", "255754000001"],
    ["/api/cpm/request-otp", "/api/cpm/validate-otp", "255754000002"],
  ]) {
    assert.equal((await send(request, { msisdn })).status(), 200, request);
    assert.equal((await send(validate, { msisdn, code: await code(msisdn) })).status(), 200, validate);
  }
}

test("the self-service pages of a signed-in subscriber have no serious or critical accessibility violation", async () => {
  const signedIn = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
  await signIn(signedIn);
  const failing = [];
  for (const prefix of ["", "/sw"]) {
    for (const path of ["/account", "/customer-permission-management"]) {
      const page = await signedIn.newPage();
      const response = await page.goto(site.base + prefix + path);
      assert.equal(response.status(), 200, path);
      assert.equal(page.url(), site.base + prefix + path, "signed in, not sent to a sign-in page");
      await hydrated(page);
      failing.push(...report(page.url(), await audit(page)).map((v) => `${page.url()}: ${v.impact} ${v.id}`));
      await page.close();
    }
  }
  await signedIn.close();
  assert.deepEqual(failing, []);
});

for (const lang of ["en", "sw"]) {
  test(`${lang} the open login dialog, at its code step, has no serious or critical accessibility violation`, async () => {
    const page = await context.newPage();
    await page.goto(
      site.base + (lang === "sw" ? "/sw/account?step=code&msisdn=0754000002" : "/account?step=code&msisdn=0754000002"),
    );
    await hydrated(page);
    const failing = report(page.url() + " (code step)", await audit(page));
    await page.locator("#account-control").click();
    await page.getByRole("dialog").waitFor();
    failing.push(...report(page.url() + " (login dialog)", await audit(page)));
    assert.deepEqual(
      failing.map((v) => `${v.impact} ${v.id}`),
      [],
    );
    await page.close();
  });
}

test("an open menu panel has no serious or critical accessibility violation", async () => {
  const page = await context.newPage();
  await page.goto(site.base + "/");
  await hydrated(page);
  await page.getByRole("navigation", { name: "Main menu" }).locator("summary", { hasText: "M-Pesa" }).click();
  const failing = report(page.url() + " (M-Pesa panel open)", await audit(page));
  assert.deepEqual(
    failing.map((v) => `${v.impact} ${v.id}`),
    [],
  );
  await page.close();
});
