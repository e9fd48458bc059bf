import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { pageData } from "../testing/pageData";
import { canonicalPath, fillPath, itemPath, languagePaths } from "./paths";

const data = pageData;

describe("paths", () => {
  it("fills route patterns, dropping optional parameters without a value", () => {
    assert.equal(fillPath("/devices/:id/:slug?", { id: 4, slug: "galaxy-a15" }), "/devices/4/galaxy-a15");
    assert.equal(fillPath("/devices/:id/:slug?", { id: 4 }), "/devices/4");
    assert.equal(fillPath("/devices/:id/:slug?"), undefined);
    assert.equal(fillPath("/faq/:item?"), "/faq");
    assert.equal(fillPath("/"), "/");
    assert.equal(fillPath("/*"), undefined);
  });

  it("addresses each collection's items by the route that shows them", () => {
    assert.equal(itemPath("news-updates", { id: 3, slug: "new-towers" }), "/news-event/3/new-towers");
    assert.equal(itemPath("sport-updates", { id: 7, slug: "derby" }), "/sport-news/7/derby");
    assert.equal(itemPath("foundation-updates", { id: 2, slug: "clinics" }), "/foundation-news/2/clinics");
    assert.equal(itemPath("device-updates", { id: 9, slug: "galaxy" }), "/devices/9/galaxy");
    assert.equal(itemPath("vbu-services", { id: 21, slug: "m2m" }), "/vodacom-business/21/m2m");
    assert.equal(itemPath("no-such-collection", { id: 1, slug: "x" }), undefined);
  });

  it("uses the server's alternates for items whose slugs differ by language", () => {
    const item = data({ path: "/news-event/3/new-towers", route: { name: "news-event", page: "newsItem", params: { id: "3", slug: "new-towers" } }, alternates: { en: "/news-event/3/new-towers", sw: "/news-event/3/minara-mipya" } });
    assert.deepEqual(languagePaths(item), { en: "/news-event/3/new-towers", sw: "/news-event/3/minara-mipya" });
    assert.equal(canonicalPath(item, "sw"), "/news-event/3/minara-mipya");
    assert.deepEqual(languagePaths(data({ path: "/voice-sms" })), { en: "/voice-sms", sw: "/voice-sms" });
  });

  it("makes the FAQ page canonical for one of its questions", () => {
    const question = data({ lang: "sw", path: "/faq/ninaangaliaje-salio", route: { name: "faq", page: "faq", params: { item: "ninaangaliaje-salio" } } });
    assert.equal(canonicalPath(question, "sw"), "/faq");
    assert.equal(canonicalPath(question, "en"), "/faq");
    assert.deepEqual(languagePaths(question), { en: "/faq", sw: "/faq/ninaangaliaje-salio" });
  });
});
