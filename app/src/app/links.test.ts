import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { clientTarget } from "./links";

/** A click on an anchor with `attributes`, in a minimal DOM stand-in. */
function click(href: string, attributes: Record<string, string> = {}, init: Partial<MouseEvent> = {}) {
  const anchor = {
    href: new URL(href, "https://site.example/voice-sms").href,
    target: attributes.target ?? "",
    hasAttribute: (name: string) => name === "href" || name in attributes,
    closest: () => anchor,
  };
  class FakeElement {}
  Object.setPrototypeOf(anchor, FakeElement.prototype);
  (globalThis as unknown as { Element: unknown }).Element = FakeElement;
  return {
    defaultPrevented: false,
    button: 0,
    metaKey: false,
    ctrlKey: false,
    shiftKey: false,
    altKey: false,
    target: anchor,
    ...init,
  } as unknown as MouseEvent;
}

const here = new URL("https://site.example/voice-sms") as unknown as Location;

describe("client-side navigation of plain anchors", () => {
  it("takes same-site page links", () => {
    assert.equal(clientTarget(click("/sw/internet-overview?x=1"), here), "/sw/internet-overview?x=1");
    assert.equal(clientTarget(click("/faq#top"), here), "/faq#top");
  });

  it("leaves everything else to the browser", () => {
    assert.equal(clientTarget(click("https://other.example/"), here), null, "another origin");
    assert.equal(clientTarget(click("/devices", { target: "_blank" }), here), null, "a new tab");
    assert.equal(clientTarget(click("/static/report.pdf", { download: "" }), here), null, "a download");
    assert.equal(clientTarget(click("/sandbox/inbox"), here), null, "a server page");
    assert.equal(clientTarget(click("/sitemap.xml"), here), null, "a file");
    assert.equal(clientTarget(click("#main"), here), null, "an in-page anchor");
    assert.equal(clientTarget(click("/devices", {}, { ctrlKey: true }), here), null, "ctrl-click");
    assert.equal(clientTarget(click("/devices", {}, { button: 1 }), here), null, "middle click");
    assert.equal(clientTarget(click("/devices", {}, { defaultPrevented: true }), here), null, "handled already");
  });
});
