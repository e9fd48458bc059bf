import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { renderToStaticMarkup } from "react-dom/server";
import type { PageData } from "../contract";
import { translator } from "../i18n";
import { pageData } from "../testing/pageData";
import { Head, pageTitle } from "./head";

const data = (overrides: Partial<PageData> = {}): PageData =>
  pageData({
    lang: "sw",
    path: "/voice-sms",
    route: { name: "voice", page: "content", params: {} },
    content: { page: { title: "Simu", sections: [], seo: { metaDescription: "Dakika & SMS" } }, sidebar: null },
    ...overrides,
  });

const assets = { stylesheets: [], preload: [], island: [] };

/** The JSON-LD objects of a head, by `@type`. */
function jsonLd(html: string): Record<string, Record<string, unknown>> {
  const found: Record<string, Record<string, unknown>> = {};
  for (const [, text] of html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)) {
    const value = JSON.parse(text);
    found[value["@type"]] = value;
  }
  return found;
}

describe("head", () => {
  const { t } = translator("sw");

  it("links the page in both languages with x-default English", () => {
    const html = renderToStaticMarkup(
      <Head data={data()} assets={{ stylesheets: ["/a.css"], preload: ["/c.js"], island: [] }} t={t} />,
    );
    assert.ok(html.includes('<link rel="canonical" href="https://example.co.tz/sw/voice-sms"/>'), html);
    assert.ok(html.includes('hrefLang="en" href="https://example.co.tz/voice-sms"'), html);
    assert.ok(html.includes('hrefLang="x-default" href="https://example.co.tz/voice-sms"'), html);
    assert.ok(html.includes('content="Dakika &amp; SMS"'), html);
    assert.ok(html.includes('<link rel="modulepreload" href="/c.js"/>'), html);
    assert.ok(!html.includes("island-files"), html);
  });

  it("lists an island's files as data, preloading none of them", () => {
    const island = ["/assets/page-1.js", "/assets/chunk-2.js"];
    const html = renderToStaticMarkup(<Head data={data()} assets={{ ...assets, island }} t={t} />);
    assert.ok(
      html.includes(
        '<script type="application/json" id="island-files">["/assets/page-1.js","/assets/chunk-2.js"]</script>',
      ),
      html,
    );
    assert.ok(!html.includes("modulepreload"), html);
  });

  it("keeps a not-found page out of the index", () => {
    const html = renderToStaticMarkup(<Head data={data({ status: 404 })} assets={assets} t={t} />);
    assert.ok(html.includes('<meta name="robots" content="noindex"/>'), html);
    assert.ok(!html.includes("canonical"), html);
    assert.ok(!html.includes("application/ld+json"), html);
  });

  it("uses the CMS meta title as written, else the page title with the site name", () => {
    assert.equal(pageTitle(data(), t), "Simu | Vodacom Tanzania");
    const seo = data({
      content: { page: { title: "Simu", sections: [], seo: { metaTitle: "Dakika" } }, sidebar: null },
    });
    assert.equal(pageTitle(seo, t), "Dakika");
  });

  it("describes the organisation on the home page", () => {
    const html = renderToStaticMarkup(
      <Head data={data({ path: "/", route: { name: "home", page: "content", params: {} } })} assets={assets} t={t} />,
    );
    assert.deepEqual(jsonLd(html).Organization, {
      "@context": "https://schema.org",
      "@type": "Organization",
      name: "Vodacom Tanzania",
      url: "https://example.co.tz/sw",
      logo: "https://example.co.tz/static/logo.svg",
    });
    assert.equal(jsonLd(html).BreadcrumbList, undefined);
  });

  const newsItem = data({
    path: "/news-event/3/minara-mipya",
    route: { name: "news-event", page: "newsItem", params: { id: "3", slug: "minara-mipya" } },
    content: {
      page: null,
      sidebar: null,
      item: {
        collection: "news-updates",
        item: {
          id: 3,
          slug: "minara-mipya",
          title: "Minara 200 mipya Dodoma",
          summary: "Mtandao zaidi </script> kwa wote",
          publishDate: "2025-03-05",
          image: { url: "/static/tower.jpg", alternativeText: "Mnara" },
        },
      },
    },
    alternates: { en: "/news-event/3/new-towers", sw: "/news-event/3/minara-mipya" },
  });

  it("gives a news item its own title, description, alternates and article markup", () => {
    const html = renderToStaticMarkup(<Head data={newsItem} assets={assets} t={t} />);
    assert.ok(html.includes("<title>Minara 200 mipya Dodoma | Vodacom Tanzania</title>"), html);
    assert.ok(html.includes('<meta name="description" content="Mtandao zaidi &lt;/script&gt; kwa wote"/>'), html);
    assert.ok(html.includes('<link rel="canonical" href="https://example.co.tz/sw/news-event/3/minara-mipya"/>'), html);
    assert.ok(html.includes('hrefLang="en" href="https://example.co.tz/news-event/3/new-towers"'), html);
    assert.ok(html.includes('<meta property="og:type" content="article"/>'), html);
    assert.ok(html.includes('<meta property="og:image" content="https://example.co.tz/static/tower.jpg"/>'), html);
    assert.ok(!html.includes("</script> kwa"), "the summary cannot close the JSON-LD script");
    const article = jsonLd(html).NewsArticle;
    assert.equal(article.headline, "Minara 200 mipya Dodoma");
    assert.equal(article.datePublished, "2025-03-05");
    assert.deepEqual(article.image, ["https://example.co.tz/static/tower.jpg"]);
    assert.equal(article.inLanguage, "sw");
    const trail = jsonLd(html).BreadcrumbList.itemListElement as { position: number; name: string; item: string }[];
    assert.deepEqual(
      trail.map((c) => [c.position, c.name, c.item]),
      [
        [1, "Mwanzo", "https://example.co.tz/sw"],
        [2, "Habari", "https://example.co.tz/sw/news-events"],
        [3, "Minara 200 mipya Dodoma", "https://example.co.tz/sw/news-event/3/minara-mipya"],
      ],
    );
  });

  it("lists every question of every FAQ section on an FAQ page", () => {
    const faq = data({
      path: "/faq",
      route: { name: "faq", page: "faq", params: {} },
      content: {
        page: {
          title: "Maswali",
          sections: [
            { __component: "sections.faq", items: [{ question: "Ninaangaliaje salio?", answer: "Piga *149*01#." }] },
            { __component: "sections.rich-text", body: "<p>x</p>" },
            { __component: "sections.faq", items: [{ question: "M-Pesa <ada>?", answer: "Tazama jedwali." }] },
          ],
        },
        sidebar: null,
      },
    });
    const html = renderToStaticMarkup(<Head data={faq} assets={assets} t={t} />);
    const questions = jsonLd(html).FAQPage.mainEntity as { name: string; acceptedAnswer: { text: string } }[];
    assert.deepEqual(
      questions.map((q) => [q.name, q.acceptedAnswer.text]),
      [
        ["Ninaangaliaje salio?", "Piga *149*01#."],
        ["M-Pesa <ada>?", "Tazama jedwali."],
      ],
    );
  });
});
