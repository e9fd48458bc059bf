import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { renderToStaticMarkup } from "react-dom/server";
import { ContactText, isCallHeader, linkContacts, linkContactsInHtml } from "./contacts";

const links = (text: string, whatsapp?: boolean) =>
  linkContacts(text, whatsapp).flatMap((piece) =>
    typeof piece === "string" ? [] : [`${piece.text} -> ${piece.href}`],
  );

describe("contacts in content", () => {
  it("links phone numbers, USSD codes, short codes after a call word and emails", () => {
    assert.deepEqual(links("Call 100 (free from Vodacom), 0754 100 100 from other networks"), [
      "100 -> tel:100",
      "0754 100 100 -> tel:+255754100100",
    ]);
    assert.deepEqual(links("Dial *149*01# to buy; or +255 754 100 200."), [
      "*149*01# -> tel:*149*01%23",
      "+255 754 100 200 -> tel:+255754100200",
    ]);
    assert.deepEqual(links("Piga 100 bure au tuma barua pepe kwa customercare@vodacom.co.tz."), [
      "100 -> tel:100",
      "customercare@vodacom.co.tz -> mailto:customercare@vodacom.co.tz",
    ]);
    assert.deepEqual(links("Chat with us on WhatsApp on 0754 100 100"), ["0754 100 100 -> https://wa.me/255754100100"]);
    assert.deepEqual(links("0754 100 100", true), ["0754 100 100 -> https://wa.me/255754100100"]);
  });

  it("leaves other numbers alone", () => {
    assert.deepEqual(
      links("More than 120 shops countrywide, TSh 25,000 for 10 GB, since 2000, 24/7, order 123456789012"),
      [],
    );
    assert.deepEqual(links("Shops open 100 days a year"), []);
  });

  it("in a table cell headed by a call word, a short code on its own is one too, and nothing else is", () => {
    const inCall = (text: string) =>
      linkContacts(text, false, true).flatMap((piece) =>
        typeof piece === "string" ? [] : [`${piece.text} -> ${piece.href}`],
      );
    assert.deepEqual(inCall("100 (free from Vodacom), 0754 100 100 from other networks"), [
      "100 -> tel:100",
      "0754 100 100 -> tel:+255754100100",
    ]);
    assert.deepEqual(inCall("100 (bure kutoka Vodacom)"), ["100 -> tel:100"]);
    assert.deepEqual(inCall("TSh 25,000, 1.500 or 24/7, *149*01#, 2025-100"), ["*149*01# -> tel:*149*01%23"]);
    assert.deepEqual(links("100 (free from Vodacom)"), [], "not without the heading");
    for (const heading of ["Call", "Simu", "Piga simu", "Phone", "Dial"]) assert.ok(isCallHeader(heading), heading);
    for (const heading of ["Shops", "Contact", "Maduka", "Mawasiliano", "Callertunes"])
      assert.ok(!isCallHeader(heading), heading);
  });

  it("links in rich text, never inside a link, and keeps the HTML as it was", () => {
    const html =
      '<p>Call <strong>0754 100 100</strong> or <a href="https://example.org">0754 100 200</a> &amp; write to a@b.co.tz.</p>';
    assert.equal(
      linkContactsInHtml(html),
      '<p>Call <strong><a href="tel:+255754100100" class="contact contact-tel">0754 100 100</a></strong> or <a href="https://example.org">0754 100 200</a> &amp; write to <a href="mailto:a@b.co.tz" class="contact contact-email">a@b.co.tz</a>.</p>',
    );
    assert.equal(linkContactsInHtml("<p>No contacts &lt;here&gt;</p>"), "<p>No contacts &lt;here&gt;</p>");
  });

  it("renders text as React nodes, a row mentioning WhatsApp making its number a WhatsApp link", () => {
    assert.equal(renderToStaticMarkup(<ContactText text="Plain text" />), "Plain text");
    assert.equal(
      renderToStaticMarkup(<ContactText text="0754 100 100" context="WhatsApp 0754 100 100 24/7" />),
      '<a href="https://wa.me/255754100100" class="contact contact-whatsapp">0754 100 100</a>',
    );
  });
});
