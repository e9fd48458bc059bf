import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { renderToString } from "react-dom/server";
import { LanguageProvider } from "../../../i18n/context";
import type { Lang } from "../../../routes";
import { ModemStep, type Flow, type Step } from "./ModemBundle";

/** Markup with React's escaped apostrophes read back, to compare with the strings. */
function text(html: string): string {
  return html.replaceAll("&#x27;", "'");
}

/** A step of the modem flow as it first renders; `wait`: seconds before the next code for the modem. */
function renderModemStep(state: Step, { lang = "en", wait = 0 }: { lang?: Lang; wait?: number } = {}): string {
  const flow: Flow = { go: () => {}, failed: async () => {}, waitFor: () => wait, codeSent: () => {} };
  return text(
    renderToString(
      <LanguageProvider lang={lang}>
        <ModemStep state={state} flow={flow} bundles={[]} />
      </LanguageProvider>,
    ),
  );
}

describe("the modem flow's steps", () => {
  it("shows the alternative number masked as the server gave it, and asks for its code with the modem's number alone", () => {
    const html = renderModemStep({ step: "modems", msisdn: "255754000010", alternativeMasked: "2557•••••001" });
    assert.ok(html.includes("We will send the code to the number registered for this modem: 2557•••••001."), html);
    assert.match(html, /<form action="\/api\/modem\/request-otp" method="post">/);
    assert.ok(!html.includes("alternativeMsisdn"), "the page never names the alternative number");
    const waiting = renderModemStep(
      { step: "modems", msisdn: "255754000011", alternativeMasked: "2557•••••001" },
      { wait: 42 },
    );
    assert.match(waiting, /<button type="submit" class="button" disabled="">Send the code in 42 seconds<\/button>/);
  });

  it("hints at the masked number in the code step and resends with the modem's number alone", () => {
    const html = renderModemStep({ step: "otps", msisdn: "255754000010", alternativeMasked: "2557•••••001" });
    assert.ok(html.includes("The 6-digit code we sent by SMS to 2557•••••001."), html);
    assert.match(html, /<form class="resend-form" action="\/api\/modem\/request-otp" method="post">/);
    assert.equal(
      html.match(/type="hidden" name="msisdn" value="255754000010"/g)?.length,
      2,
      "validate and resend name the modem",
    );
    assert.ok(!html.includes("alternativeMsisdn"));
  });

  it("a modem without an alternative number: says why a code goes to the modem first", () => {
    const html = renderModemStep({ step: "registeringNewNumber", msisdn: "255754000011" });
    assert.ok(html.includes("No phone number is registered for this modem yet."), html);
    assert.ok(html.includes("we first send a code to the modem's own number"), html);
    assert.match(html, /<form action="\/api\/alternative-number\/request-otp" method="post">/);
    assert.match(html, /<button type="submit" class="button">Send a code to the modem<\/button>/);
  });

  it("registering: says where on the modem to read the code, which registers the number; a new code after the countdown", () => {
    const html = renderModemStep({ step: "registering", msisdn: "255754000011" }, { wait: 59 });
    assert.match(html, /<form action="\/api\/alternative-number" method="post">/);
    assert.ok(html.includes('<input type="hidden" name="msisdn" value="255754000011"/>'), html);
    assert.match(
      html,
      /<label for="([^"]+)">Code from the modem<\/label><p id="\1-hint" class="field-hint">We sent a code to the modem 0754 000 011\. Open the modem's web page \(usually http:\/\/192\.168\.8\.1, or the address on its label\) and read the code under Messages or SMS\.<\/p>/,
    );
    assert.match(html, /autoComplete="one-time-code"/);
    assert.match(html, /<button type="submit" class="button">Register my number for this modem<\/button>/);
    assert.match(html, /<form class="resend-form" action="\/api\/alternative-number\/request-otp" method="post">/);
    assert.match(html, /disabled="">Send a new code in 59 seconds<\/button>/);

    const sw = renderModemStep({ step: "registering", msisdn: "255754000011" }, { lang: "sw" });
    assert.ok(sw.includes("Tumetuma msimbo kwenye modemu 0754 000 011. Fungua ukurasa wa modemu kwenye kivinjari"), sw);
    assert.ok(
      sw.includes(">Msimbo kutoka kwenye modemu</label>") &&
        sw.includes(">Sajili namba yangu kwa ajili ya modemu hii</button>"),
      sw,
    );
  });
});
