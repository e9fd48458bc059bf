import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { pageData } from "../testing/pageData";
import { canonicalPath, fillPath, itemPath, languagePaths, pagePath } from "./paths";
import { pageNumbers } from "../components/Pager";
import { routeHrefs } from "../testing/twins";

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

  it("fills every pattern in tests/twins as the server does", () => {
    for (const { pattern, params, href } of routeHrefs)
      assert.equal(fillPath(pattern, params) ?? null, href, `${pattern} ${JSON.stringify(params)}`);
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
    const item = data({
      path: "/news-event/3/new-towers",
      route: { name: "news-event", page: "newsItem", params: { id: "3", slug: "new-towers" } },
      alternates: { en: "/news-event/3/new-towers", sw: "/news-event/3/minara-mipya" },
    });
    assert.deepEqual(languagePaths(item), { en: "/news-event/3/new-towers", sw: "/news-event/3/minara-mipya" });
    assert.equal(canonicalPath(item, "sw"), "/news-event/3/minara-mipya");
    assert.deepEqual(languagePaths(data({ path: "/voice-sms" })), { en: "/voice-sms", sw: "/voice-sms" });
  });

  it("makes the FAQ page canonical for one of its questions", () => {
    const question = data({
      lang: "sw",
      path: "/faq/ninaangaliaje-salio",
      route: { name: "faq", page: "faq", params: { item: "ninaangaliaje-salio" } },
    });
    assert.equal(canonicalPath(question, "sw"), "/faq");
    assert.equal(canonicalPath(question, "en"), "/faq");
    assert.deepEqual(languagePaths(question), { en: "/faq", sw: "/faq/ninaangaliaje-salio" });
  });

  it("gives each page of a list past the first its own canonical address", () => {
    assert.equal(pagePath("/news-events", 1), "/news-events");
    assert.equal(pagePath("/news-events", 3), "/news-events?page=3");
    const second = data({
      path: "/news-events",
      route: { name: "news-events", page: "newsList", params: {} },
      pager: { page: 2, pages: 28 },
    });
    assert.equal(canonicalPath(second, "en"), "/news-events?page=2");
    assert.equal(canonicalPath({ ...second, pager: { page: 1, pages: 28 } }, "sw"), "/news-events");
  });

  it("shows the first, the last and the pages around the current one, with gaps", () => {
    assert.deepEqual(pageNumbers(1, 1), [1]);
    assert.deepEqual(pageNumbers(1, 28), [1, 2, 0, 28]);
    assert.deepEqual(pageNumbers(14, 28), [1, 0, 13, 14, 15, 0, 28]);
    assert.deepEqual(pageNumbers(28, 28), [1, 0, 27, 28]);
    assert.deepEqual(pageNumbers(3, 5), [1, 2, 3, 4, 5]);
  });
});
