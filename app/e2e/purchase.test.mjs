// Buying what is advertised, on a 390 px phone, in both languages: a "Buy"
// link of a bundle table on /internet-overview opens the purchase of that
// bundle (after signing in in the login dialog) at the advertised price,
// the confirmation step shows what is bought for whom, paid by whom and
// how (axe finds no serious or critical violation on it), and the airtime
// balance moves by exactly that price. Without JavaScript the same link
// keeps its bundle through the sign-in forms.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { hydrated, launchBrowser, openHydrated, startSite } from "./harness.mjs";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/** Per language: the page prefix, the words of the page, who buys, and the bundle advertised. */
const VISITS = [
  {
    prefix: "",
    who: { local: "0754000001", international: "255754000001", names: "Amina Mwakyusa", number: "0754 000 001" },
    bundle: "Daily Internet 1GB",
    words: {
      number: "Phone number",
      send: "Send code",
      code: "Verification code",
      logIn: "Log in",
      dialog: "Log in with your phone number",
      continue: "Continue",
      title: "Check your purchase",
      received: "Your Request has being received.",
      success: "Success",
      yours: "Your number, 0754 000 001",
      airtime: "Airtime",
    },
  },
  {
    prefix: "/sw",
    who: { local: "0754000002", international: "255754000002", names: "Juma Kassim", number: "0754 000 002" },
    bundle: "Intaneti ya Siku 1GB",
    words: {
      number: "Namba ya simu",
      send: "Tuma msimbo",
      code: "Msimbo wa uthibitisho",
      logIn: "Ingia",
      dialog: "Ingia kwa namba yako ya simu",
      continue: "Endelea",
      title: "Hakikisha ununuzi wako",
      received: "Ombi Lako Limepokelewa.",
      success: "Imefanikiwa",
      yours: "Namba yako, 0754 000 002",
      airtime: "Salio la muda wa maongezi",
    },
  },
];

let site;
let browser;

before(async () => {
  site = await startSite();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await site?.stop();
});

/** `TSh 12,500` as 12500. */
const shillings = (text) => Number(/TSh ([\d,]+)/.exec(text)[1].replaceAll(",", ""));

async function inboxCode(msisdn) {
  const response = await fetch(`${site.base}/sandbox/inbox?msisdn=${msisdn}`);
  assert.equal(response.status, 200, `a code was sent to ${msisdn}`);
  return (await response.json()).code;
}

/** The row of `bundle` in the page's bundle tables: its advertised price and its Buy link. */
async function advertised(page, bundle) {
  const row = page.locator(".bundle-table tr", { has: page.locator(`th[scope=row]:text-is("${bundle}")`) });
  return {
    price: shillings(await row.locator("td").first().textContent()),
    buy: row.getByRole("link", { name: new RegExp(`${bundle}$`) }),
  };
}

async function audit(page) {
  await page.addScriptTag({ content: axeSource });
  const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

for (const { prefix, who, bundle, words } of VISITS) {
  test(`${prefix || "/"}: a Buy link on /internet-overview buys that bundle at its advertised price, through the confirmation step`, async () => {
    // The site's CSP (script-src 'self') would refuse the injected axe script.
    const { context, page, errors } = await openHydrated(browser, `${site.base}${prefix}/internet-overview`, {
      ...PHONE,
      bypassCSP: true,
    });
    const { price, buy } = await advertised(page, bundle);
    assert.ok(price > 0, "a price is advertised");

    // Signed out, Buy opens the login dialog in place; signed in, the purchase of that bundle.
    await buy.click();
    const dialog = page.getByRole("dialog", { name: words.dialog });
    await dialog.getByLabel(words.number, { exact: true }).fill(who.local);
    await dialog.getByRole("button", { name: words.send }).click();
    const code = dialog.getByLabel(words.code);
    await code.waitFor();
    await code.fill(await inboxCode(who.international));
    await dialog.getByRole("button", { name: words.logIn, exact: true }).click();
    await page.waitForURL(`${site.base}${prefix}/account?bundleId=data-daily-1gb`);
    await hydrated(page);
    const airtime = page.locator(".airtime-balance");
    await airtime.waitFor();
    const before = shillings(await airtime.textContent());
    const buying = page.locator("main form.purchase-form").first();
    assert.equal(
      await buying.locator('select[name="bundleId"]').inputValue(),
      "data-daily-1gb",
      "the bundle of the link is chosen",
    );
    await buying.getByRole("button", { name: words.continue }).click();

    const step = page.getByRole("region", { name: words.title });
    await step.waitFor();
    const shown = await step.locator(".purchase-summary").textContent();
    assert.ok(
      shown.includes(who.number.replace(/ /g, "\u00a0")),
      "numbers do not wrap: no-break spaces between their groups",
    );
    const summary = shown.replace(/\u00a0/g, " ");
    for (const part of [
      bundle,
      `TSh ${price.toLocaleString("en")}`,
      `${who.names}, ${who.number}`,
      words.yours,
      words.airtime,
    ]) {
      assert.ok(summary.includes(part), `${part} in ${summary}`);
    }
    assert.deepEqual(await audit(page), [], "axe on the confirmation step");
    await page.screenshot({ path: `/tmp/purchase-confirm${prefix.replace("/", "-")}.png` }).catch(() => {});

    const pay = step.getByRole("button", { name: new RegExp(`TSh ${price.toLocaleString("en")}$`) });
    await pay.click();
    const toast = page.locator(".toast-warning", { hasText: words.received });
    await toast.waitFor();
    assert.equal(await toast.locator(".toast-title").textContent(), words.success);
    assert.ok((await toast.locator(".toast-text").textContent()).includes(`${bundle}`), "what was bought, for whom");
    await airtime.filter({ hasText: `TSh ${(before - price).toLocaleString("en")}` }).waitFor();
    assert.equal(
      shillings(await airtime.textContent()),
      before - price,
      "the balance moved by exactly the advertised price",
    );
    // The page reloads; the balance stays moved.
    await page.waitForEvent("load", { timeout: 8000 });
    await airtime.filter({ hasText: `TSh ${(before - price).toLocaleString("en")}` }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test("without JavaScript the Buy link's bundle is kept through the sign-in forms, then confirmed and bought", async () => {
  const context = await browser.newContext({ ...PHONE, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${site.base}/internet-overview`);
  const { price, buy } = await advertised(page, "Daily Internet 2.5GB");
  await buy.click();
  await page.waitForURL(`${site.base}/account?bundleId=data-daily-2500mb`);
  const main = page.getByRole("main");
  await main.getByText(`Log in to buy Daily Internet 2.5GB (TSh ${price.toLocaleString("en")}).`).waitFor();
  await main.getByLabel("Phone number", { exact: true }).fill("0754000003");
  await main.getByRole("button", { name: "Send code" }).click();
  await page.waitForURL(`${site.base}/account?bundleId=data-daily-2500mb&step=code&msisdn=0754000003`);
  await main.getByLabel("Verification code").fill(await inboxCode("255754000003"));
  await main.getByRole("button", { name: "Log in", exact: true }).click();
  await page.waitForURL(`${site.base}/account?bundleId=data-daily-2500mb`);
  assert.equal(await main.locator('select[name="bundleId"]').inputValue(), "data-daily-2500mb");
  await main.getByRole("button", { name: "Continue" }).click();
  const step = page.getByRole("region", { name: "Check your purchase" });
  // Neema is postpaid: airtime goes on her bill.
  assert.ok((await step.locator(".purchase-summary").textContent()).includes("Airtime, on your bill"));
  await step.getByRole("button", { name: `Confirm and pay TSh ${price.toLocaleString("en")}` }).click();
  await page.waitForURL(`${site.base}/account`);
  await main
    .getByRole("status")
    .filter({ hasText: "Your Request has being received. Daily Internet 2.5GB for 0754 000 003." })
    .waitFor();
  await context.close();
});
