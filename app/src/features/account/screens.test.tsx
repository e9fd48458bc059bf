import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter } from "react-router";
import { App } from "../../app/App";
import type { PageData, Subscriber } from "../../contract";
import { createI18n } from "../../i18n";
import { loadPage } from "../../pages";
import { readPurchase } from "./PurchaseForm";
import { readCode, readNumber } from "./SignIn";
import { pageData } from "../../testing/pageData";

const amina: Subscriber = {
  msisdn: "255754000001",
  names: "Amina Mwakyusa",
  paymentType: "PREPAID",
  minor: false,
  registrationStatus: "REGISTERED",
  scopes: [],
  balance: { mainBalance: 12500, bundle: [{ name: "Weekly Internet 2GB", remaining: 1229, unit: "MB", expiresAt: "2026-11-30T07:00:00Z" }] },
};

const account = pageData({
  path: "/account",
  route: { name: "account", page: "account", params: {} },
  content: { page: { title: "My account", sections: [] }, sidebar: null },
});

/**
 * The page as the server renders it for `url` (without JavaScript, this is
 * what the visitor gets): the header's account control and the main part.
 */
async function render(data: PageData, url: string): Promise<string> {
  const { default: Page } = await loadPage(data.route.page);
  const html = renderToString(
    <I18nextProvider i18n={createI18n(data.lang)}>
      <MemoryRouter initialEntries={[url]}>
        <App shown={{ data, Page }} loading={false} />
      </MemoryRouter>
    </I18nextProvider>,
  );
  const control = html.slice(html.indexOf('<div class="header-tools">'), html.indexOf('<ul class="lang-switch"'));
  return control + html.slice(html.indexOf("<main"), html.indexOf("</main>"));
}

describe("self-service screens without JavaScript", () => {
  it("signed out: a Log in link to the account page, whose form posts the number with its language and address", async () => {
    const html = await render({ ...account, lang: "sw" }, "/sw/account");
    assert.match(html, /<a href="\/sw\/account" id="account-control" class="account-link"[^>]*>Ingia<\/a>/);
    assert.match(html, /<form action="\/api\/auth\/request-otp" method="post">/);
    assert.ok(html.includes('<input type="hidden" name="lang" value="sw"/>'), html);
    assert.ok(html.includes('<input type="hidden" name="returnTo" value="/sw/account"/>'), html);
    assert.match(html, /<input [^>]*type="tel" inputMode="tel" autoComplete="tel" required=""[^>]*name="msisdn"/);
  });

  it("takes the code step from the address, coming back to it on a wrong code", async () => {
    const html = await render(account, "/account?step=code&msisdn=0754000001");
    assert.match(html, /action="\/api\/auth\/validate-otp"/);
    assert.ok(html.includes('value="/account?step=code&amp;msisdn=0754000001"'), html);
    assert.ok(html.includes('<input type="hidden" name="msisdn" value="0754000001"/>'), html);
    assert.match(html, /inputMode="numeric" autoComplete="one-time-code" pattern="\[0-9\]\{6\}" maxLength="6"/);
    assert.ok(html.includes("0754 000 001"), "the code hint names the number");
    assert.match(html, /<a href="\/account" class="change-number">Change number<\/a>/);
  });

  it("signed in: names in the header, details, balances and the purchase form", async () => {
    const html = await render(
      { ...account, subscriber: amina, bundles: [{ id: "data-daily-1gb", name: "Daily Internet 1GB", price: 1000, validity: "24 hours", type: "DATA" }] },
      "/account",
    );
    assert.match(html, /<a href="\/account" id="account-control" class="account-link"[^>]*>Amina Mwakyusa<\/a>/);
    assert.match(html, /action="\/api\/auth\/logout"/);
    assert.ok(html.includes("TSh 12,500"), html);
    assert.ok(html.includes("1,229 MB left") && html.includes("until 30 November 2026"), html);
    assert.ok(html.includes("Prepaid"));
    assert.match(html, /action="\/api\/bundles\/purchase"/);
    assert.match(html, /<input type="radio" required="" name="bundleId" value="data-daily-1gb"\/>/);
    assert.ok(html.includes("TSh 1,000, 24 hours"));
    assert.ok(html.includes('name="subscriber"') && html.includes('value="MPESA"'));
    assert.ok(html.includes("Buying for a modem needs JavaScript."), "the modem flow says why it is missing");
  });

  it("says 'Sorry an Error occured' when the balances could not be read", async () => {
    const html = await render({ ...account, lang: "en", subscriber: { ...amina, balance: null } }, "/account");
    assert.ok(html.includes("Sorry an Error occured."), html);
    assert.ok(!html.includes("TSh 12,500"));
  });

  it("shows what a form post left for the page as an alert inside main", async () => {
    const html = await render({ ...account, subscriber: amina, notice: { type: "warning", key: "purchaseReceived" } }, "/account");
    assert.match(html, /<main[^>]*><div class="notice-box notice-warning" role="status"><strong>Success<\/strong> (<!-- -->)?Your Request has being received.<\/div>/);
    const error = await render({ ...account, lang: "sw", notice: { type: "error", key: "invalidMsisdn" } }, "/sw/account");
    assert.match(error, /role="alert"><strong>Hitilafu<\/strong> (<!-- -->)?Weka namba sahihi ya simu ya mkononi ya Tanzania, kwa mfano 0754 123 456\.</);
  });

  it("renders each CPM permission as a switch in its own form", async () => {
    const html = await render(
      {
        ...account,
        path: "/customer-permission-management",
        route: { name: "customer-permission-management", page: "cpm", params: {} },
        cpm: { msisdn: "255754000001", permissions: [{ id: "marketing-sms", name: "Marketing SMS", description: "Offers by SMS", granted: true }] },
      },
      "/customer-permission-management",
    );
    assert.match(html, /<form action="\/api\/cpm\/permissions\/marketing-sms" method="post">/);
    assert.ok(html.includes('<input type="hidden" name="granted" value="false"/>'), html);
    assert.match(html, /<button type="submit" class="button switch" role="switch" aria-checked="true" aria-labelledby="[^"]+-name" aria-describedby="[^"]+-description">On<\/button>/);
    assert.match(html, /action="\/api\/cpm\/logout"/);
  });
});

describe("reading the forms", () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.set(name, value);
    return data;
  };

  it("sends numbers in international form and refuses bad ones before any call", () => {
    assert.deepEqual(readNumber(form({ msisdn: "0754 000 001" })), { body: { msisdn: "255754000001" } });
    assert.deepEqual(readNumber(form({ msisdn: "12345" })), { invalid: "invalidMsisdn", field: "msisdn" });
    assert.deepEqual(readCode(form({ msisdn: "255754000001", code: "12a456" })), { invalid: "invalidCode", field: "code" });
  });

  it("buys for a friend only when a friend is chosen", () => {
    const chosen = { bundleId: "data-daily-1gb", purchaseChannel: "MPESA", subscriber: "0754000002" };
    assert.deepEqual(readPurchase(form({ ...chosen, recipient: "self" }), false), { body: { bundleId: "data-daily-1gb", purchaseChannel: "MPESA" } });
    assert.deepEqual(readPurchase(form({ ...chosen, recipient: "friend" }), false), {
      body: { bundleId: "data-daily-1gb", purchaseChannel: "MPESA", subscriber: "255754000002" },
    });
    assert.deepEqual(readPurchase(form({ ...chosen, recipient: "friend", subscriber: "07" }), false), { invalid: "invalidMsisdn", field: "subscriber" });
    assert.deepEqual(readPurchase(form({ purchaseChannel: "AIRTIME" }), false), { invalid: "chooseBundle", field: "bundleId" });
    assert.deepEqual(readPurchase(form({ ...chosen, recipient: "friend" }), true), { body: { bundleId: "data-daily-1gb", purchaseChannel: "MPESA", forModem: "true" } });
  });
});
