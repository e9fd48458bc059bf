// The account page while the operator API fails, in the browser: one `site`
// serves the operator sandbox, a fault-injecting proxy stands in front of
// its API (`tools/operator-proxy.mjs`) and the site under test calls the
// proxy (`DIGITAL_API_URL`). With the balance calls hung, the page comes at
// once with the subscriber's names and the balances unavailable (in the
// visitor's language); once the API answers again the page fills them in
// by itself, without a reload.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { hydrated, launchBrowser, signInOnAccountPage, startSite, watchErrors } from "./harness.mjs";
import { startOperatorProxy } from "../../tools/operator-proxy.mjs";

const AMINA = { local: "0754000001", international: "255754000001", names: "Amina Mwakyusa" };
const quiet = { RENDER_WORKERS: "1", PRERENDER: "false", METRICS_ADDR: "off" };

let sandbox, proxy, site, browser;

before(async () => {
  sandbox = await startSite(quiet);
  proxy = await startOperatorProxy(`${sandbox.base}/sandbox/digital`);
  // Nothing kept between pages, and a hung call given up after 2 s.
  site = await startSite({
    ...quiet,
    DIGITAL_API_URL: `${proxy.url}/`,
    ACCOUNT_CACHE_SECS: "0",
    DIGITAL_API_TIMEOUT_MS: "2000",
  });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await site?.stop();
  await proxy?.stop();
  await sandbox?.stop();
});

test("balances unavailable while the operator API hangs, filled in once it answers", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = watchErrors(page);
  await signInOnAccountPage(page, site.base, sandbox.base, AMINA);
  const main = page.getByRole("main");
  const airtime = page.locator(".airtime-balance");
  await airtime.filter({ hasText: "TSh 12,500" }).waitFor();

  proxy.behave("hang", { only: /gsm-config/ });
  await page.reload();
  await hydrated(page);
  const unavailable = main
    .getByRole("status")
    .filter({ hasText: "Sorry an Error occured. Your balances will show here as soon as they can be read." });
  await unavailable.waitFor();
  await page.getByRole("banner").getByRole("link", { name: AMINA.names }).waitFor();
  assert.equal(await main.getByRole("link", { name: "Try again" }).getAttribute("href"), "/account");
  assert.equal(await airtime.count(), 0);
  await page.evaluate(() => {
    window.stillThisDocument = true;
  });

  // In Swahili the same, without JavaScript too.
  const plain = await browser.newContext({ javaScriptEnabled: false });
  await plain.addCookies(await context.cookies());
  const swahili = await plain.newPage();
  await swahili.goto(site.base + "/sw/account");
  await swahili
    .getByRole("main")
    .getByRole("status")
    .filter({ hasText: "Salio lako litaonekana hapa mara litakaposomeka." })
    .waitFor();
  await swahili.getByRole("main").getByRole("link", { name: "Jaribu tena" }).waitFor();
  await plain.close();

  // The API answers again: the page asks by itself and shows the balances.
  proxy.behave("pass");
  await airtime.filter({ hasText: "TSh 12,500" }).waitFor({ timeout: 30_000 });
  assert.equal(await unavailable.count(), 0);
  assert.equal(await page.evaluate(() => window.stillThisDocument), true, "no reload");
  assert.equal(page.url(), site.base + "/account");
  assert.deepEqual(errors, []);
  await context.close();
});
