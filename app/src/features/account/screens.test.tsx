import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { renderToString } from "react-dom/server";
import { AddressProvider } from "../../app/address";
import { App } from "../../app/App";
import type { BundleOffer, PageData, Subscriber } from "../../contract";
import { LanguageProvider } from "../../i18n/context";
import { loadPage } from "../../pages";
import { pageData } from "../../testing/pageData";

const amina: Subscriber = {
  msisdn: "255754000001",
  names: "Amina Mwakyusa",
  paymentType: "PREPAID",
  minor: false,
  registrationStatus: "REGISTERED",
  scopes: [],
  balance: {
    mainBalance: 12500,
    mpesaBalance: 48000,
    bundle: [
      {
        bundleId: "data-weekly-2gb",
        name: "Weekly Internet 2GB",
        remaining: 1229,
        unit: "MB",
        expiresAt: "2026-11-30T07:00:00Z",
      },
    ],
  },
  paymentMethods: ["AIRTIME", "MPESA"],
};

const daily: BundleOffer = {
  id: "data-daily-1gb",
  name: "Daily Internet 1GB",
  price: 1000,
  validity: "24 hours",
  type: "DATA",
  category: "internet-daily",
  purchasable: true,
};
const weekly: BundleOffer = {
  id: "data-weekly-2gb",
  name: "Weekly Internet 2GB",
  price: 2000,
  validity: "7 days",
  type: "DATA",
  category: "internet-weekly-monthly",
  purchasable: true,
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
    <LanguageProvider lang={data.lang}>
      <AddressProvider url={url}>
        <App shown={{ data, Page }} />
      </AddressProvider>
    </LanguageProvider>,
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

  it("signed in: names in the header, details, balances with the M-Pesa wallet, and the purchase's first step as a GET form", async () => {
    const html = await render({ ...account, subscriber: amina, bundles: [daily, weekly] }, "/account");
    assert.match(html, /<a href="\/account" id="account-control" class="account-link"[^>]*>Amina Mwakyusa<\/a>/);
    assert.match(html, /action="\/api\/auth\/logout"/);
    assert.ok(html.includes("TSh 12,500"), html);
    assert.match(html, /<dt>M-Pesa balance<\/dt><dd class="mpesa-balance">TSh 48,000<\/dd>/);
    assert.ok(html.includes("1,229 MB left") && html.includes("until 30 November 2026"), html);
    assert.ok(html.includes("Prepaid"));
    assert.match(html, /<form class="purchase-form" action="\/account" method="get">/);
    assert.ok(html.includes('<input type="hidden" name="step" value="confirm"/>'), html);
    assert.match(
      html,
      /<select [^>]*name="bundleId" required=""><option value="" selected="">Choose a bundle<\/option><optgroup label="Internet">/,
    );
    assert.ok(html.includes('<option value="data-daily-1gb">Daily Internet 1GB: TSh 1,000, 24 hours</option>'), html);
    assert.ok(html.includes('name="subscriber"') && html.includes('value="MPESA"'));
    assert.ok(!html.includes('action="/api/bundles/purchase"'), "nothing is bought before the confirmation");
    assert.ok(html.includes("Buying for a modem needs JavaScript."), "the modem flow says why it is missing");
  });

  it("a Buy link's bundle is chosen; without M-Pesa only airtime is offered", async () => {
    const html = await render(
      { ...account, subscriber: { ...amina, paymentMethods: ["AIRTIME"] }, bundles: [daily, weekly] },
      "/account?bundleId=data-weekly-2gb",
    );
    assert.ok(html.includes('<option value="data-weekly-2gb" selected="">'), html);
    assert.ok(!html.includes('value="MPESA"'), html);
  });

  it("signed out, a Buy link's bundle is named above the sign-in, and kept through it", async () => {
    const html = await render({ ...account, bundles: [daily] }, "/account?bundleId=data-daily-1gb");
    assert.ok(html.includes("Log in to buy Daily Internet 1GB (TSh 1,000)."), html);
    assert.ok(html.includes('<input type="hidden" name="returnTo" value="/account?bundleId=data-daily-1gb"/>'), html);
  });

  it("a refused code request keeps the number typed in its field", async () => {
    const html = await render(account, "/account?msisdn=0754000001");
    assert.match(html, /action="\/api\/auth\/request-otp"/);
    assert.match(html, /name="msisdn" value="0754000001"/);
  });

  it("the confirmation step from the address: bundle, price, payer, recipient and payment method, then a form that posts", async () => {
    const html = await render(
      { ...account, subscriber: amina, bundles: [daily, weekly] },
      "/account?step=confirm&bundleId=data-daily-1gb&recipient=friend&subscriber=0754000002&purchaseChannel=MPESA",
    );
    assert.match(html, /<h3 [^>]*>Check your purchase<\/h3>/);
    const summary = html.slice(
      html.indexOf('<dl class="purchase-summary">'),
      html.indexOf("</dl>", html.indexOf('<dl class="purchase-summary">')),
    );
    const text = summary.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, "|");
    for (const part of [
      "Daily Internet 1GB",
      "(24 hours)",
      "TSh 1,000",
      "Paid by",
      "Amina Mwakyusa, 0754\u00a0000\u00a0001",
      "For",
      "0754\u00a0000\u00a0002",
      "Pay with",
      "M-Pesa",
    ]) {
      assert.ok(text.includes(part), `${part} in ${text}`);
    }
    assert.match(html, /<form class="purchase-form" action="\/api\/bundles\/purchase" method="post">/);
    for (const [name, value] of [
      ["bundleId", "data-daily-1gb"],
      ["purchaseChannel", "MPESA"],
      ["subscriber", "255754000002"],
    ]) {
      assert.ok(html.includes(`<input type="hidden" name="${name}" value="${value}"/>`), `${name} in ${html}`);
    }
    assert.ok(html.includes(">Confirm and pay TSh 1,000</button>"), html);
    assert.ok(
      html.includes(
        '<a href="/account?bundleId=data-daily-1gb&amp;recipient=friend&amp;subscriber=0754+000+002&amp;purchaseChannel=MPESA" class="change-purchase">Change</a>',
      ),
      html,
    );
    assert.match(
      html,
      /<form class="purchase-form" hidden="" action="\/account" method="get">/,
      "the choice is kept, hidden",
    );
  });

  it("asked to confirm again (the same bundle for the same number within 2 minutes), in Swahili, the form says so and sends the flag", async () => {
    const html = await render(
      { ...account, lang: "sw", subscriber: amina, bundles: [daily] },
      "/sw/account?step=confirm&bundleId=data-daily-1gb&purchaseChannel=AIRTIME&again=true",
    );
    assert.ok(html.includes('role="alert">Ulinunua kifurushi hiki kwa namba hii chini ya dakika 2 zilizopita.'), html);
    assert.ok(html.includes('<input type="hidden" name="again" value="true"/>'), html);
    assert.ok(html.includes(">Ndiyo, nunua tena</button>"), html);
    assert.ok(html.includes("Namba yako, 0754\u00a0000\u00a0001"), html);
  });

  it("says 'Sorry an Error occured' when the balances could not be read, that they will show, and how to try again", async () => {
    const html = await render({ ...account, lang: "en", subscriber: { ...amina, balance: null } }, "/account");
    assert.ok(html.includes("Sorry an Error occured. Your balances will show here as soon as they can be read."), html);
    assert.match(
      html,
      /<div class="notice-box notice-error balances-unavailable" role="status">.*<a href="\/account">Try again<\/a><\/div>/,
    );
    assert.ok(!html.includes("TSh 12,500"));
  });

  it("before the operator answers: names and number from the session, details not known yet, in Swahili too", async () => {
    const fromSession: Subscriber = {
      msisdn: "255754000001",
      names: "Amina Mwakyusa",
      balance: null,
      paymentMethods: ["AIRTIME", "MPESA"],
    };
    const html = await render({ ...account, lang: "sw", subscriber: fromSession }, "/sw/account");
    assert.match(html, /class="account-link"[^>]*>Amina Mwakyusa<\/a>/);
    assert.ok(html.includes("<dd>0754 000 001</dd>") && html.includes("<dd>Bado haijulikani</dd>"), html);
    assert.ok(
      html.includes("Salio lako litaonekana hapa mara litakaposomeka.") &&
        html.includes('<a href="/sw/account">Jaribu tena</a>'),
      html,
    );
  });

  it("shows what a form post left for the page as an alert inside main", async () => {
    const notice = {
      type: "warning" as const,
      key: "purchaseReceivedFor",
      params: { bundle: "Daily Internet 1GB", recipient: "0754 000 002" },
    };
    const html = await render({ ...account, subscriber: amina, notice }, "/account");
    assert.match(
      html,
      /<main[^>]*><div class="notice-box notice-warning flash-notice" role="status"><strong>Success<\/strong> (<!-- -->)?Your Request has being received. Daily Internet 1GB for 0754 000 002.<\/div>/,
    );
    const error = await render(
      { ...account, lang: "sw", notice: { type: "error", key: "invalidMsisdn" } },
      "/sw/account",
    );
    assert.match(
      error,
      /role="alert"><strong>Hitilafu<\/strong> (<!-- -->)?Weka namba sahihi ya simu ya mkononi ya Tanzania, kwa mfano 0754 123 456\.</,
    );
  });

  it("renders each CPM permission as a switch in its own form", async () => {
    const html = await render(
      {
        ...account,
        path: "/customer-permission-management",
        route: { name: "customer-permission-management", page: "cpm", params: {} },
        cpm: {
          msisdn: "255754000001",
          permissions: [{ id: "marketing-sms", name: "Marketing SMS", description: "Offers by SMS", granted: true }],
        },
      },
      "/customer-permission-management",
    );
    assert.match(html, /<form action="\/api\/cpm\/permissions\/marketing-sms" method="post">/);
    assert.ok(html.includes('<input type="hidden" name="granted" value="false"/>'), html);
    assert.match(
      html,
      /<button type="submit" class="button switch" id="([^"]+)-state" aria-pressed="true" aria-labelledby="\1-name \1-state" aria-describedby="[^"]+-description">On<\/button>/,
    );
    assert.match(html, /action="\/api\/cpm\/logout"/);
  });

  it("every form that posts carries the page's form token first, and a page for everyone none", async () => {
    const token = "tPq8Zr0Kc5bY3mWvN1sXa7LdE2fGh4Jk";
    const html = await render(
      { ...account, subscriber: amina, csrf: token },
      "/account?step=confirm&bundleId=data-daily-1gb&purchaseChannel=AIRTIME",
    );
    const posting = html.match(/<form[^>]*method="post"[^>]*>/g) ?? [];
    assert.ok(posting.length >= 2, "the purchase and the logout post");
    const fields =
      html.match(/<form[^>]*method="post"[^>]*><input type="hidden" name="csrf" value="([^"]+)"\/>/g) ?? [];
    assert.equal(fields.length, posting.length, html);
    assert.ok(fields.every((field) => field.includes(token)));
    const anonymous = await render(account, "/account");
    assert.ok(anonymous.includes('method="post"') && !anonymous.includes('name="csrf"'), anonymous);
  });
});
