import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { renderToStaticMarkup } from "react-dom/server";
import type { PageData } from "../contract";
import { createI18n } from "../i18n";
import { Head, pageTitle } from "./head";

const data = (overrides: Partial<PageData> = {}): PageData => ({
  lang: "sw",
  path: "/voice-sms",
  status: 200,
  route: { name: "voice", page: "content", params: {} },
  content: { page: { title: "Simu", sections: [], seo: { metaDescription: "Dakika & SMS" } }, sidebar: null },
  subscriber: null,
  siteUrl: "https://example.co.tz",
  ...overrides,
});

describe("head", () => {
  const { t } = createI18n("sw");

  it("links the page in both languages with x-default English", () => {
    const html = renderToStaticMarkup(<Head data={data()} assets={{ stylesheets: ["/a.css"], preload: ["/c.js"] }} t={t} />);
    assert.ok(html.includes('<link rel="canonical" href="https://example.co.tz/sw/voice-sms"/>'), html);
    assert.ok(html.includes('hrefLang="en" href="https://example.co.tz/voice-sms"'), html);
    assert.ok(html.includes('hrefLang="x-default" href="https://example.co.tz/voice-sms"'), html);
    assert.ok(html.includes('content="Dakika &amp; SMS"'), html);
    assert.ok(html.includes('<link rel="modulepreload" href="/c.js"/>'), html);
  });

  it("keeps a not-found page out of the index", () => {
    const html = renderToStaticMarkup(<Head data={data({ status: 404 })} assets={{ stylesheets: [], preload: [] }} t={t} />);
    assert.ok(html.includes('<meta name="robots" content="noindex"/>'), html);
    assert.ok(!html.includes("canonical"), html);
  });

  it("uses the CMS meta title as written, else the page title with the site name", () => {
    assert.equal(pageTitle(data(), t), "Simu | Vodacom Tanzania");
    const seo = data({ content: { page: { title: "Simu", sections: [], seo: { metaTitle: "Dakika" } }, sidebar: null } });
    assert.equal(pageTitle(seo, t), "Dakika");
  });
});
