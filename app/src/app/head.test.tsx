import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
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
    expect(html).toContain('<link rel="canonical" href="https://example.co.tz/sw/voice-sms"/>');
    expect(html).toContain('hrefLang="en" href="https://example.co.tz/voice-sms"');
    expect(html).toContain('hrefLang="x-default" href="https://example.co.tz/voice-sms"');
    expect(html).toContain('content="Dakika &amp; SMS"');
    expect(html).toContain('<link rel="modulepreload" href="/c.js"/>');
  });

  it("keeps a not-found page out of the index", () => {
    const html = renderToStaticMarkup(<Head data={data({ status: 404 })} assets={{ stylesheets: [], preload: [] }} t={t} />);
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).not.toContain("canonical");
  });

  it("uses the CMS meta title as written, else the page title with the site name", () => {
    expect(pageTitle(data(), t)).toBe("Simu | Vodacom Tanzania");
    const seo = data({ content: { page: { title: "Simu", sections: [], seo: { metaTitle: "Dakika" } }, sidebar: null } });
    expect(pageTitle(seo, t)).toBe("Dakika");
  });
});
