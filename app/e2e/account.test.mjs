// Subscriber self-service in the browser, against the built-in operator
// sandbox: the login dialog, balances, a purchase for a friend through its
// confirmation step (with and without JavaScript), a session lapsing before
// a purchase, Swahili validation, customer permission management, modem
// bundles and registering a modem's alternative number.
// Each test starts its own server: a fresh sandbox, so no code was sent to
// any number yet (the server and the sandbox allow one code a minute per
// number and purpose; the test that needs a second sign-in code for one
// number runs its server with a short OTP_RESEND_SECS and waits that long).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import {
  hydrated,
  launchBrowser,
  openHydrated,
  signInOnAccountPage,
  startIsland,
  startSite,
  watchErrors,
} from "./harness.mjs";

const AMINA = { local: "0754000001", international: "255754000001", names: "Amina Mwakyusa" };
const JUMA = { local: "0754000002", international: "255754000002", names: "Juma Kassim" };
const BUNDLE = "Weekly Internet 5GB";

let browser;
/** The resend time of the test that signs one number in twice (OTP_RESEND_SECS). */
const RESEND_MS = 2000;

before(async () => {
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

/** Runs `body` against a server of its own (with `env` added to its settings). */
async function withSite(body, env = {}) {
  const site = await startSite(env);
  try {
    await body(site);
  } finally {
    await site.stop();
  }
}

/** The code the sandbox last "sent by SMS" to `msisdn` (call it once the page shows the code step). */
async function inboxCode(site, msisdn) {
  const response = await fetch(`${site.base}/sandbox/inbox?msisdn=${msisdn}`);
  assert.equal(response.status, 200, `a code was sent to ${msisdn}`);
  return (await response.json()).code;
}

/** Types the code sent to `msisdn` into `field` once the field is there (the code was sent by then). */
async function enterCode(site, field, msisdn) {
  await field.waitFor();
  await field.fill(await inboxCode(site, msisdn));
}

/** `TSh 12,500` as 12500. */
const shillings = (text) => Number(/TSh ([\d,]+)/.exec(text)[1].replaceAll(",", ""));

/** The account page's purchase ("Buy a bundle"), apart from the modem's. */
const purchase = (page) => page.getByRole("region", { name: /^(Buy a bundle|Nunua kifurushi)$/ });

/** Chooses the bundle whose name starts its option, inside `scope`, and goes on to the confirmation step; its price. */
async function choose(scope, bundle) {
  const select = scope.getByLabel(/^(Bundle|Kifurushi)$/);
  const option = select.locator("option", { hasText: bundle }).first();
  await select.selectOption((await option.getAttribute("value")) ?? "");
  const price = shillings(await option.textContent());
  await scope.getByRole("button", { name: /^(Continue|Endelea)$/ }).click();
  await scope.locator(".purchase-confirm").waitFor();
  return price;
}

/** Confirms the purchase shown in `scope` (also when asked to confirm buying it again). */
async function confirm(scope) {
  await scope
    .locator(".purchase-confirm")
    .getByRole("button", { name: /^(Confirm and pay|Thibitisha na ulipe|Yes, buy it again|Ndiyo, nunua tena)/ })
    .click();
}

/** Signs in through the number and code forms inside `scope` (the dialog, or the account page's main). */
async function signIn(site, scope, who, { verify = "Log in" } = {}) {
  await scope.getByLabel("Phone number", { exact: true }).fill(who.local);
  await scope.getByRole("button", { name: "Send code" }).click();
  await enterCode(site, scope.getByLabel("Verification code"), who.international);
  await scope.getByRole("button", { name: verify, exact: true }).click();
}

/**
 * A browser without JavaScript asking for a code for `who` on the account
 * page in `lang` (its prefix, "" or "/sw"): the plain form posts, and the
 * server sends the browser to the code step. Returns the page and its main.
 */
async function askCodeWithoutScript(site, who, { lang = "", label = "Phone number", send = "Send code" } = {}) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${site.base}${lang}/account`);
  const main = page.getByRole("main");
  await main.getByLabel(label, { exact: true }).fill(who.local);
  await main.getByRole("button", { name: send }).click();
  await page.waitForURL(`${site.base}${lang}/account?step=code&msisdn=${who.local}`);
  return { context, page, main };
}

test("with JavaScript: the login dialog, balances, a bundle for a friend, the friend's balance, log out", async () => {
  await withSite(async (site) => {
    const { context, page, errors } = await openHydrated(browser, site.base + "/");
    const header = page.getByRole("banner");
    const logIn = header.getByRole("link", { name: "Log in" });
    assert.equal(await logIn.getAttribute("href"), "/account", "without JavaScript it is a link to the account page");

    // An accessible modal: labelled, focus on its field, Escape closes it and focus returns.
    await logIn.click();
    const dialog = page.getByRole("dialog", { name: "Log in with your phone number" });
    await dialog.waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("name")), "msisdn");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    assert.equal(
      await page.evaluate(() => document.activeElement?.textContent),
      "Log in",
      "focus went back to the opener",
    );

    await logIn.click();
    await dialog.getByLabel("Phone number", { exact: true }).fill(AMINA.local);
    await dialog.getByRole("button", { name: "Send code" }).click();
    const code = dialog.getByLabel("Verification code");
    await code.waitFor();
    assert.equal(await code.getAttribute("inputmode"), "numeric");
    assert.equal(await code.getAttribute("autocomplete"), "one-time-code");
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute("name")),
      "code",
      "the code step takes focus",
    );
    const resend = dialog.getByRole("button", { name: /^Send a new code in \d+ seconds?$/ });
    assert.ok(await resend.isDisabled(), "a new code only after the countdown");
    await enterCode(site, code, AMINA.international);
    await dialog.getByRole("button", { name: "Log in", exact: true }).click();
    await dialog.waitFor({ state: "detached" });
    assert.equal(page.url(), site.base + "/", "signing in stays on the page");

    // The header now names the subscriber and leads to the account page.
    await header.getByRole("link", { name: AMINA.names }).click();
    await page.waitForURL(site.base + "/account");
    const airtime = page.locator(".airtime-balance");
    await airtime.filter({ hasText: "TSh 12,500" }).waitFor();
    const before = shillings(await airtime.textContent());

    await page.getByRole("radio", { name: "A friend" }).check();
    await page.getByLabel("Friend's phone number").fill("0754 000 002");
    await page.getByRole("radio", { name: "Airtime" }).check();
    const price = await choose(purchase(page), BUNDLE);
    const summary = await summaryText(page);
    for (const part of [
      BUNDLE,
      `TSh ${price.toLocaleString("en")}`,
      "Amina Mwakyusa, 0754 000 001",
      "0754 000 002",
      "Airtime",
    ])
      assert.ok(summary.includes(part), `${part} in ${summary}`);
    assert.equal(
      await page.evaluate(() => document.activeElement?.textContent),
      "Check your purchase",
      "the confirmation takes focus",
    );
    await confirm(purchase(page));
    const toast = page.locator(".toast-warning", { hasText: "Your Request has being received." });
    await toast.waitFor();
    assert.equal(await toast.locator(".toast-title").textContent(), "Success");
    assert.equal(
      await toast.locator(".toast-text").textContent(),
      `Your Request has being received. ${BUNDLE} for 0754 000 002.`,
    );
    await airtime.filter({ hasText: `TSh ${(before - price).toLocaleString("en")}` }).waitFor();
    // The page reloads 5 s after a purchase.
    await page.waitForEvent("load", { timeout: 8000 });
    await airtime.filter({ hasText: `TSh ${(before - price).toLocaleString("en")}` }).waitFor();
    assert.deepEqual(errors, []);

    // The friend, in a browser of their own, signs in on the account page itself.
    const friendContext = await browser.newContext();
    const friend = await friendContext.newPage();
    const friendErrors = watchErrors(friend);
    await friend.goto(site.base + "/account");
    await hydrated(friend);
    await signIn(site, friend.getByRole("main"), JUMA);
    await friend.locator(".bundle-balances li", { hasText: BUNDLE }).waitFor();
    await friend.getByRole("banner").getByRole("link", { name: JUMA.names }).waitFor();
    await friend.getByRole("banner").getByRole("button", { name: "Log out" }).click();
    await friend.waitForURL(site.base + "/");
    await friend.getByRole("banner").getByRole("link", { name: "Log in" }).waitFor();
    await friend.getByRole("heading", { level: 1, name: "25 years of connecting Tanzania" }).waitFor();
    assert.deepEqual(friendErrors, []);
    await friendContext.close();
    await context.close();
  });
});

test("a friend and a number chosen before the island's code arrives stay chosen once React takes the form", async () => {
  await withSite(async (site) => {
    // The service worker would fetch the island's code out of the test's reach.
    const context = await browser.newContext({ serviceWorkers: "block" });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signInOnAccountPage(page, site.base, site.base, AMINA);
    // The island's code held back, as on 2G, while the visitor fills the server's form.
    let release;
    const held = new Promise((resolve) => (release = resolve));
    await page.route("**/assets/page-*.js", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(site.base + "/account");
    await startIsland(page);
    await page.getByRole("radio", { name: "A friend" }).check();
    await page.getByLabel("Friend's phone number").fill("0754 000 002");
    assert.equal(
      await page.evaluate(() => Object.keys(document.getElementById("island")).some((k) => k.startsWith("__react"))),
      false,
      "chosen while the form is still the server's",
    );
    release();
    await hydrated(page);
    assert.ok(await page.getByRole("radio", { name: "A friend" }).isChecked(), "A friend is still chosen");
    assert.equal(await page.getByLabel("Friend's phone number").inputValue(), "0754 000 002");
    await choose(purchase(page), BUNDLE);
    assert.ok((await summaryText(page)).includes("0754 000 002"), "the purchase is for the friend");
    assert.deepEqual(errors, []);
    await context.close();
  });
});

test("without JavaScript: sign in and buy for a friend with plain forms; the outcome shows on the next page", async () => {
  await withSite(async (site) => {
    const { context, page, main } = await askCodeWithoutScript(site, AMINA);
    await main
      .getByRole("status")
      .filter({ hasText: "We have sent a verification code to your phone by SMS." })
      .waitFor();
    await enterCode(site, main.getByLabel("Verification code"), AMINA.international);
    await main.getByRole("button", { name: "Log in", exact: true }).click();
    await page.waitForURL(site.base + "/account");
    await page.getByRole("banner").getByRole("link", { name: AMINA.names }).waitFor();
    const airtime = page.locator(".airtime-balance");
    const before = shillings(await airtime.textContent());
    assert.equal(before, 12500);

    const friendNumber = page.getByLabel("Friend's phone number");
    assert.equal(await friendNumber.isVisible(), false, "the friend's number is asked for only for a friend");
    await page.getByRole("radio", { name: "A friend" }).check();
    await friendNumber.fill(JUMA.local);
    // The choice is a GET of the confirmation step; nothing is bought yet.
    const price = await choose(purchase(page), BUNDLE);
    assert.match(
      page.url(),
      /\/account\?step=confirm&bundleId=data-weekly-5gb&recipient=friend&subscriber=0754000002&purchaseChannel=AIRTIME$/,
    );
    assert.equal(shillings(await airtime.textContent()), before, "nothing bought yet");
    assert.ok((await summaryText(page)).includes("0754 000 002"));
    await confirm(purchase(page));
    await page.waitForURL(site.base + "/account");
    await main
      .getByRole("status")
      .filter({ hasText: `Your Request has being received. ${BUNDLE} for 0754 000 002.` })
      .waitFor();
    assert.equal(shillings(await airtime.textContent()), before - price);

    // The notice shows once: the next page no longer carries it.
    await page.reload();
    assert.equal(await main.locator(".notice-box").count(), 0);
    await page.getByRole("banner").getByRole("button", { name: "Log out" }).click();
    await page.waitForURL(site.base + "/");
    await context.close();
  });
});

test("in Swahili a purchase link opens the login dialog, and an invalid number is refused before any call, in Swahili", async () => {
  await withSite(async (site) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);
    const calls = [];
    page.on("request", (request) => request.url().includes("/api/auth/") && calls.push(request.url()));
    await page.goto(site.base + "/sw/internet-overview");
    await hydrated(page);
    // triggerAuthDialog: buying needs a signed-in subscriber, so the dialog opens in place.
    await page
      .getByRole("main")
      .getByRole("link", { name: /^Nunua / })
      .first()
      .click();
    const dialog = page.getByRole("dialog", { name: "Ingia kwa namba yako ya simu" });
    await dialog.waitFor();
    assert.equal(page.url(), site.base + "/sw/internet-overview");
    await dialog.getByLabel("Namba ya simu", { exact: true }).fill("12345");
    await dialog.getByRole("button", { name: "Tuma msimbo" }).click();
    await dialog
      .getByRole("alert")
      .filter({ hasText: "Weka namba sahihi ya simu ya mkononi ya Tanzania, kwa mfano 0754 123 456." })
      .waitFor();
    assert.equal(await dialog.getByLabel("Namba ya simu", { exact: true }).getAttribute("aria-invalid"), "true");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("name")), "msisdn");
    assert.deepEqual(calls, [], "nothing was sent");
    assert.deepEqual(errors, []);
    await context.close();

    // Without JavaScript the server refuses it, and says so in Swahili too.
    const plain = await browser.newContext({ javaScriptEnabled: false });
    const form = await plain.newPage();
    await form.goto(site.base + "/sw/account");
    await form.getByRole("main").getByLabel("Namba ya simu", { exact: true }).fill("12345");
    await form.getByRole("main").getByRole("button", { name: "Tuma msimbo" }).click();
    await form.waitForURL(site.base + "/sw/account?msisdn=12345");
    await form
      .getByRole("main")
      .getByRole("alert")
      .filter({ hasText: "Weka namba sahihi ya simu ya mkononi ya Tanzania, kwa mfano 0754 123 456." })
      .waitFor();
    assert.equal(
      await form.getByRole("main").getByLabel("Namba ya simu", { exact: true }).inputValue(),
      "12345",
      "what was typed stays in the field",
    );
    await plain.close();
  });
});

test("without JavaScript a code asked for again too soon says how long to wait, the number kept in its field", async () => {
  await withSite(async (site) => {
    const { context, page, main } = await askCodeWithoutScript(site, JUMA, {
      lang: "/sw",
      label: "Namba ya simu",
      send: "Tuma msimbo",
    });
    await page.goto(site.base + "/sw/account");
    await main.getByLabel("Namba ya simu", { exact: true }).fill(JUMA.local);
    await main.getByRole("button", { name: "Tuma msimbo" }).click();
    await page.waitForURL(`${site.base}/sw/account?msisdn=${JUMA.local}`);
    await main
      .getByRole("alert")
      .filter({
        hasText:
          /^Hitilafu Maombi mengi mno ya msimbo\. Tafadhali subiri (sekunde \d+|dakika 1) kabla ya kuomba msimbo mpya\.$/,
      })
      .waitFor();
    assert.equal(await main.getByLabel("Namba ya simu", { exact: true }).inputValue(), JUMA.local);
    await context.close();
  });
});

test("customer permission management: its own sign-in, a permission switched stays switched", async () => {
  await withSite(async (site) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(site.base + "/customer-permission-management");
    assert.equal(page.url(), site.base + "/cpm-login", "the guarded page sends a visitor to sign in first");
    await hydrated(page);
    const main = page.getByRole("main");
    await main.getByLabel("Phone number", { exact: true }).fill(AMINA.local);
    await main.getByRole("button", { name: "Send code" }).click();
    await page.waitForURL(`${site.base}/cpm-otp?msisdn=${AMINA.international}`);
    await page.locator(".toast-info", { hasText: "We have sent a verification code to your phone by SMS." }).waitFor();
    await enterCode(site, main.getByLabel("Verification code"), AMINA.international);
    await main.getByRole("button", { name: "Log in", exact: true }).click();
    await page.waitForURL(site.base + "/customer-permission-management");

    const first = main.locator(".switch").first();
    const name = await first.evaluate(
      (button) => document.getElementById(button.getAttribute("aria-labelledby").split(" ")[0]).textContent,
    );
    // Its name is the permission's, then the "On" or "Off" it shows.
    const named = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} `);
    const was = await first.getAttribute("aria-pressed");
    const now = was === "true" ? "false" : "true";
    await first.click();
    await page.locator(".toast-warning", { hasText: "Your choice has been saved." }).waitFor();
    await main.getByRole("button", { name: named, pressed: now === "true" }).waitFor();

    await page.reload();
    await hydrated(page);
    assert.equal(
      await main.getByRole("button", { name: named }).getAttribute("aria-pressed"),
      now,
      "the choice was stored",
    );

    await main.getByRole("button", { name: "Log out" }).click();
    await page.waitForURL(site.base + "/cpm-login");
    await page.goto(site.base + "/customer-permission-management");
    assert.equal(page.url(), site.base + "/cpm-login", "signed out of CPM");
    assert.deepEqual(errors, []);
    await context.close();
  });
});

/** The sandbox answers the next call of `path` with `status` and `body` (OPERATOR_API.md, sandbox only). */
async function failNext(site, path, status, body) {
  const response = await fetch(`${site.base}/sandbox/fail-next`, {
    method: "POST",
    // The switch is for the site's own pages only (same-origin guard).
    headers: { "content-type": "application/json", origin: site.base },
    body: JSON.stringify(body === undefined ? { status, path } : { status, path, body }),
  });
  assert.ok(response.ok, "fail-next armed");
}

/** Chooses `bundle` for the signed-in subscriber and confirms buying it. */
async function buy(page, bundle) {
  await choose(purchase(page), bundle);
  await confirm(purchase(page));
}

/** The toast of `type` saying `text` (behind a modal dialog too, where it cannot be clicked). */
async function seeToast(page, type, title, text) {
  const shown = page.locator(`.toast-${type}`, { hasText: text });
  await shown.waitFor();
  assert.equal(await shown.locator(".toast-title").textContent(), title);
  assert.equal(await shown.locator(".toast-text").textContent(), text);
  return shown;
}

/** The toast of `type` saying `text`; it closes itself, so it is closed here once seen. */
async function toast(page, type, title, text) {
  const shown = await seeToast(page, type, title, text);
  await shown.getByRole("button").click();
}

/** Errors the browser reports besides the answers that said no on purpose (`statuses`, e.g. "401|404"). */
function unexpected(errors, statuses) {
  return errors.filter((error) => !new RegExp(`status of (${statuses})`).test(error));
}

test("purchase outcomes as toasts: the operator's message, the fallbacks, balances failing, a lapsed session", async () => {
  await withSite(async (site) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(site.base + "/account");
    await hydrated(page);
    await signIn(site, page.getByRole("main"), AMINA);
    await page.locator(".airtime-balance").filter({ hasText: "TSh 12,500" }).waitFor();

    await failNext(site, "api/v1/gsm-static-bundles/purchase", 500, {});
    await buy(page, "Daily Internet 1GB");
    await toast(page, "error", "Error", "An Error Has occurred.");

    // The operator's failure may have bought it: the same again asks first.
    await failNext(site, "api/v1/gsm-static-bundles/purchase", 200, { unexpected: true });
    await confirm(purchase(page));
    await purchase(page)
      .getByRole("alert")
      .filter({ hasText: "You bought this bundle for this number less than 2 minutes ago." })
      .waitFor();
    await confirm(purchase(page));
    await toast(page, "error", "Error", "Something is not right!, Please try Again or contact Customer Support.");
    await purchase(page).getByRole("link", { name: "Change" }).click();

    // The operator's own refusal, in the visitor's language: 25,000 is more than the airtime.
    await buy(page, "Monthly Internet 30GB");
    await toast(page, "error", "Error", "Your airtime balance is too low for this bundle.");
    assert.equal(await page.locator(".airtime-balance").textContent(), "TSh 12,500", "nothing was taken");

    await purchase(page).getByRole("link", { name: "Change" }).click();
    // A number that cannot receive a bundle: one neutral message, which does not tell whose number it is.
    await page.getByRole("radio", { name: "A friend" }).check();
    await page.getByLabel("Friend's phone number").fill("0754 999 998");
    await buy(page, "Daily Internet 1GB");
    await toast(page, "error", "Error", "This bundle cannot be sent to that number. Check the number and try again.");
    await purchase(page).getByRole("link", { name: "Change" }).click();
    await page.getByRole("radio", { name: "Myself" }).check();

    await failNext(site, "api/v1/gsm-config/airtime-balance", 500);
    await page.reload();
    await page.getByRole("main").getByText("Sorry an Error occured.").waitFor();
    await page.reload();
    await page.locator(".airtime-balance").filter({ hasText: "TSh 12,500" }).waitFor();
    await hydrated(page);

    // The operator ending the session: the visitor stays on the page, asked to log in again.
    await failNext(site, "api/v1/gsm-static-bundles/purchase", 401);
    await buy(page, "Daily Internet 500MB");
    await seeToast(page, "error", "Error", "Your session has expired. Please log in again.");
    const dialog = page.getByRole("dialog", { name: "Log in with your phone number" });
    await dialog.getByText("Your session has expired. Please log in again.").waitFor();
    assert.equal(page.url(), site.base + "/account");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("banner").getByRole("link", { name: "Log in" }).waitFor();
    assert.ok(
      (await page.locator(".purchase-summary").textContent()).includes("Daily Internet 500MB"),
      "the purchase stays",
    );
    await context.close();
  });
});

test("notices in Swahili: a purchase received, an error without the operator's message", async () => {
  await withSite(async (site) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(site.base + "/sw/account");
    await hydrated(page);
    const main = page.getByRole("main");
    await main.getByLabel("Namba ya simu", { exact: true }).fill(JUMA.local);
    await main.getByRole("button", { name: "Tuma msimbo" }).click();
    await enterCode(site, main.getByLabel("Msimbo wa uthibitisho"), JUMA.international);
    await main.getByRole("button", { name: "Ingia", exact: true }).click();
    await page.locator(".airtime-balance").filter({ hasText: "TSh 3,000" }).waitFor();

    await failNext(site, "api/v1/gsm-static-bundles/purchase", 500, {});
    await buy(page, "Intaneti ya Siku 500MB");
    await toast(page, "error", "Hitilafu", "Kuna hitilafu imetokea.");
    await confirm(purchase(page));
    await purchase(page)
      .getByRole("alert")
      .filter({ hasText: "Ulinunua kifurushi hiki kwa namba hii chini ya dakika 2 zilizopita." })
      .waitFor();
    await confirm(purchase(page));
    await toast(page, "warning", "Imefanikiwa", "Ombi Lako Limepokelewa. Intaneti ya Siku 500MB kwa 0754 000 002.");
    await page.locator(".airtime-balance").filter({ hasText: "TSh 2,500" }).waitFor();
    await context.close();
  });
});

test("sign-in failures: the code request failing, a wrong code, customer details failing logs out", async () => {
  await withSite(
    async (site) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(site.base + "/");
      await hydrated(page);
      await page.getByRole("banner").getByRole("link", { name: "Log in" }).click();
      const dialog = page.getByRole("dialog");
      await failNext(site, "api/v1/auth/request-otp", 503, {});
      await dialog.getByLabel("Phone number", { exact: true }).fill(AMINA.local);
      await dialog.getByRole("button", { name: "Send code" }).click();
      await dialog.getByRole("alert").filter({ hasText: "Something went wrong." }).waitFor();

      await dialog.getByRole("button", { name: "Send code" }).click();
      await dialog.getByLabel("Verification code").fill("000000");
      await dialog.getByRole("button", { name: "Log in", exact: true }).click();
      await dialog
        .getByRole("alert")
        .filter({ hasText: "The code is not correct. Check the SMS and try again." })
        .waitFor();
      await enterCode(site, dialog.getByLabel("Verification code"), AMINA.international);
      await dialog.getByRole("button", { name: "Log in", exact: true }).click();
      await page.getByRole("banner").getByRole("link", { name: AMINA.names }).waitFor();

      // Customer details failing with 400 or more logs out, on the
      // page that asks for them: the account page (the others show no
      // balances and ask nothing; nothing is kept between pages here).
      await failNext(site, "api/v1/gsm-config/customer-details", 403);
      await page.goto(site.base + "/account");
      await page.getByRole("banner").getByRole("link", { name: "Log in" }).waitFor();
      await context.close();
    },
    { ACCOUNT_CACHE_SECS: "0" },
  );
});

test("modem bundles: the code goes to the masked alternative number, a bundle is bought for the modem", async () => {
  await withSite(async (site) => {
    const { context, page, errors } = await openHydrated(browser, site.base + "/account");
    await signIn(site, page.getByRole("main"), AMINA);
    const modem = page.getByRole("region", { name: "Bundles for a modem or router" });
    await modem.getByLabel("Modem number").fill("0754 000 010");

    await failNext(site, "alternative-number", 500);
    await modem.getByRole("button", { name: "Continue" }).click();
    await toast(page, "error", "Error", "Something went wrong.");

    await modem.getByRole("button", { name: "Continue" }).click();
    await modem.getByText("We will send the code to the number registered for this modem: 2557•••••001.").waitFor();
    await modem.getByRole("button", { name: "Send the code" }).click();
    await toast(page, "warning", "Success", "Sent The OTP to your Phone Number.");
    await enterCode(site, modem.getByLabel("Code for the modem"), AMINA.international);
    await modem.getByRole("button", { name: "Confirm" }).click();
    await modem.getByText("You can now buy a bundle for the modem 0754 000 010.").waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.getItem("modemBundle")), "255754000010");

    await choose(modem, "Daily Internet 1GB");
    assert.ok((await summaryText(modem)).includes("The modem 0754 000 010"), "the modem pays, for itself");
    await confirm(modem);
    await toast(page, "warning", "Success", "Your Request has being received. Daily Internet 1GB for 0754 000 010.");
    assert.equal(
      await page.locator(".airtime-balance").textContent(),
      "TSh 12,500",
      "the modem paid, not the subscriber",
    );
    // After the reload the marker still offers buying for the modem.
    await page.waitForEvent("load", { timeout: 8000 });
    await modem.getByText("You can now buy a bundle for the modem 0754 000 010.").waitFor();

    await modem.getByRole("button", { name: "Finish with this modem" }).click();
    assert.equal(await page.evaluate(() => sessionStorage.getItem("modemBundle")), null);
    await modem.getByLabel("Modem number").waitFor();
    // The browser reports the check that failed on purpose (the operator's 500 is a 502 to it); nothing else may fail.
    assert.deepEqual(unexpected(errors, "502"), []);
    await context.close();
  });
});

test("a modem without an alternative number: a code read on the modem registers this number, then the modem signs in with a code sent to it", async () => {
  await withSite(async (site) => {
    const MODEM = { local: "0754 000 011", international: "255754000011" };
    const { context, page, errors } = await openHydrated(browser, site.base + "/account");
    await signIn(site, page.getByRole("main"), AMINA);
    const modem = page.getByRole("region", { name: "Bundles for a modem or router" });
    await modem.getByLabel("Modem number").fill(MODEM.local);
    await modem.getByRole("button", { name: "Continue" }).click();
    await modem.getByText("No phone number is registered for this modem yet.").waitFor();
    await modem.getByText("we first send a code to the modem's own number").waitFor();

    await modem.getByRole("button", { name: "Send a code to the modem" }).click();
    const code = modem.getByLabel("Code from the modem");
    await code.waitFor();
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute("name")),
      "code",
      "the code step takes focus",
    );
    await toast(page, "warning", "Success", "We have sent a code to the modem. Read it on the modem's web page.");
    await modem
      .getByText(`We sent a code to the modem ${MODEM.local}. Open the modem's web page (usually http://192.168.8.1`)
      .waitFor();
    assert.ok(await modem.getByRole("button", { name: /^Send a new code in \d+ seconds?$/ }).isDisabled());
    // The code went to the modem's own line (its web page's SMS inbox), not to the visitor's phone.
    await enterCode(site, code, MODEM.international);
    await modem.getByRole("button", { name: "Register my number for this modem" }).click();
    await toast(page, "warning", "Success", "Your number is now registered for this modem.");
    await modem.getByText("We will send the code to the number registered for this modem: 2557•••••001.").waitFor();

    // The modem's sign-in code is another purpose than its registration code: no wait.
    await modem.getByRole("button", { name: "Send the code", exact: true }).click();
    await toast(page, "warning", "Success", "Sent The OTP to your Phone Number.");
    await modem.getByText("The 6-digit code we sent by SMS to 2557•••••001.").waitFor();
    await enterCode(site, modem.getByLabel("Code for the modem"), AMINA.international);
    await modem.getByRole("button", { name: "Confirm" }).click();
    await modem.getByText(`You can now buy a bundle for the modem ${MODEM.local}.`).waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.getItem("modemBundle")), MODEM.international);
    // The browser reports the check of the modem without an alternative number; nothing else may fail.
    assert.deepEqual(unexpected(errors, "404"), []);
    await context.close();
  });
});

/**
 * Ends the session of `context` as logging out in another tab does: the
 * server forgets it, while this browser keeps its (now dead) session cookie.
 */
async function endSessionElsewhere(context, site) {
  const cookies = await context.cookies();
  const response = await context.request.post(`${site.base}/api/auth/logout`, {
    headers: { origin: site.base },
    data: {},
  });
  assert.equal(response.status(), 200);
  await context.addCookies(cookies);
}

/** Whether the confirmation still shows `bundle`, for a friend numbered `friend`, paid with `channel`. */
/** The confirmation step's summary, its numbers' no-break spaces read as spaces. */
async function summaryText(scope) {
  return (await scope.locator(".purchase-summary").textContent()).replace(/\u00a0/g, " ");
}

async function assertChoiceKept(page, bundle, friend, channel) {
  const summary = await summaryText(page);
  for (const part of [bundle, friend, channel]) assert.ok(summary.includes(part), `${part} still in ${summary}`);
}

test("a session that ended before Buy: the login dialog opens on the page, the choice stays, and after signing in again the purchase goes through; in Swahili too", async () => {
  await withSite(
    async (site) => {
      const { context, page, errors } = await openHydrated(browser, site.base + "/account");
      await signIn(site, page.getByRole("main"), AMINA);
      // Taken once the first code has gone (the resend time counts from it).
      const firstCodeAt = Date.now();
      await page.locator(".airtime-balance").filter({ hasText: "TSh 12,500" }).waitFor();
      await page.getByRole("radio", { name: "A friend" }).check();
      await page.getByLabel("Friend's phone number").fill("0754 000 002");
      await page.getByRole("radio", { name: "M-Pesa" }).check();
      await choose(purchase(page), BUNDLE);

      await endSessionElsewhere(context, site);
      await confirm(purchase(page));
      await seeToast(page, "error", "Error", "Your session has expired. Please log in again.");
      const dialog = page.getByRole("dialog", { name: "Log in with your phone number" });
      await dialog.getByText("Your session has expired. Please log in again.").waitFor();
      assert.equal(page.url(), site.base + "/account", "the page stays");
      await assertChoiceKept(page, BUNDLE, "0754 000 002", "M-Pesa");

      // The same in Swahili, for Juma in a browser of his own.
      const swContext = await browser.newContext();
      const sw = await swContext.newPage();
      await sw.goto(site.base + "/sw/account");
      await hydrated(sw);
      const main = sw.getByRole("main");
      await main.getByLabel("Namba ya simu", { exact: true }).fill(JUMA.local);
      await main.getByRole("button", { name: "Tuma msimbo" }).click();
      await enterCode(site, main.getByLabel("Msimbo wa uthibitisho"), JUMA.international);
      await main.getByRole("button", { name: "Ingia", exact: true }).click();
      await choose(purchase(sw), "Intaneti ya Siku 500MB");
      await endSessionElsewhere(swContext, site);
      await confirm(purchase(sw));
      await seeToast(sw, "error", "Hitilafu", "Muda wako wa kuingia umekwisha. Tafadhali ingia tena.");
      await sw
        .getByRole("dialog", { name: "Ingia kwa namba yako ya simu" })
        .getByText("Muda wako wa kuingia umekwisha. Tafadhali ingia tena.")
        .waitFor();
      assert.equal(sw.url(), site.base + "/sw/account");
      await swContext.close();

      // Amina signs in again in the dialog, once her number may get another code.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, firstCodeAt + RESEND_MS + 100 - Date.now())));
      await signIn(site, dialog, AMINA);
      await dialog.waitFor({ state: "detached" });
      assert.equal(page.url(), site.base + "/account");
      await page.getByRole("banner").getByRole("link", { name: AMINA.names }).waitFor();
      const hint = page.getByRole("status").filter({
        hasText: "You are signed in again and nothing has been bought yet. Check your purchase and confirm it.",
      });
      await hint.waitFor();
      assert.equal(
        await page.evaluate(() => document.activeElement?.classList.contains("signed-in-again")),
        true,
        "the hint is read out where the visitor is",
      );
      await assertChoiceKept(page, BUNDLE, "0754 000 002", "M-Pesa");
      await confirm(purchase(page));
      await toast(page, "warning", "Success", `Your Request has being received. ${BUNDLE} for 0754 000 002.`);
      await hint.waitFor({ state: "detached" });
      assert.deepEqual(unexpected(errors, "401"), []);
      await context.close();
    },
    { OTP_RESEND_SECS: String(RESEND_MS / 1000) },
  );
});
