import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { renderToString } from "react-dom/server";
import { AddressProvider } from "../app/address";
import { App } from "../app/App";
import type { PageData } from "../contract";
import { LanguageProvider } from "../i18n/context";
import { loadPage } from "../pages";
import { pageData } from "../testing/pageData";

const base = pageData();

/** The whole page as the server renders it for `url`. */
async function render(data: PageData, url: string): Promise<string> {
  const { default: Page } = await loadPage(data.route.page);
  return renderToString(
    <LanguageProvider lang={data.lang}>
      <AddressProvider url={url}>
        <App shown={{ data, Page }} />
      </AddressProvider>
    </LanguageProvider>,
  );
}

const h1Count = (html: string) => html.match(/<h1[ >]/g)?.length ?? 0;

describe("pages", () => {
  it("lists news as cards linking to their article in the page's language", async () => {
    const html = await render(
      {
        ...base,
        lang: "sw",
        path: "/soka",
        route: { name: "soka", page: "newsList", params: {} },
        content: {
          page: { title: "Soka", sections: [] },
          sidebar: null,
          list: {
            collection: "sport-updates",
            items: [
              { id: 7, slug: "dabi", title: "Dabi ya Kariakoo", publishDate: "2025-04-20", summary: "Mabao matatu." },
            ],
          },
        },
      },
      "/sw/soka",
    );
    assert.match(html, /<h3><a href="\/sw\/sport-news\/7\/dabi"[^>]*>Dabi ya Kariakoo<\/a><\/h3>/);
    assert.ok(html.includes("20 Aprili 2025"), html);
    assert.equal(h1Count(html), 1);
  });

  it("opens the service named by ?services= on a business category page, under one h1", async () => {
    const html = await render(
      {
        ...base,
        path: "/vodacom-business/1/large-mobile",
        route: { name: "business-large-mobile", page: "businessCategory", params: {} },
        content: {
          page: { title: "Vodacom Business", sections: [{ __component: "sections.hero", title: "Business" }] },
          sidebar: null,
          list: {
            collection: "vbu-services",
            items: [
              { id: 31, slug: "fleet-sim", title: "Fleet SIM", categoryId: 1 },
              { id: 32, slug: "red-business", title: "Red Business", categoryId: 1 },
            ],
          },
        },
      },
      "/vodacom-business/1/large-mobile?services=red-business",
    );
    assert.ok(html.includes('<details id="red-business" open="" class="service highlighted">'), html);
    assert.ok(html.includes('<details id="fleet-sim" class="service">'), html);
    assert.ok(html.includes('href="/vodacom-business/32/red-business"'), html);
    assert.ok(html.includes('<h1 class="page-title">Large business mobile</h1>'), html);
    assert.equal(h1Count(html), 1);
  });

  it("shows the newest popup right after the page's heading, then the golden minutes on the-best", async () => {
    const html = await render(
      {
        ...base,
        path: "/the-best",
        route: { name: "the-best", page: "content", params: {} },
        content: {
          page: { title: "The best", sections: [{ __component: "sections.hero", title: "The best of entertainment" }] },
          sidebar: null,
          popups: [
            { id: 9, type: "home", title: "Shake & win tonight" },
            { id: 8, type: "home", title: "Older" },
          ],
        },
      },
      "/the-best",
    );
    // After the heading (here the hero that carries it), so that it never pushes the heading off a small screen.
    assert.match(
      html,
      /The best of entertainment<\/h1><\/div><\/section><aside class="popup-banner" id="announcement" aria-label="Announcement" data-popup="\d+">.*Shake &amp; win tonight/,
    );
    // Its close links to the banner itself, which CSS hides as the target: it closes without JavaScript.
    assert.ok(html.includes('<a href="#announcement" class="popup-close" aria-label="Dismiss announcement">'), html);
    assert.ok(!html.includes("Older"), html);
    assert.ok(html.indexOf("Shake &amp; win tonight") < html.indexOf("Golden minutes every day 19:00–20:00 EAT"), html);
    assert.ok(!html.includes("Golden minutes are on now"), "the server does not know the visitor's clock");
  });

  it("puts the locator's form right after the heading, the rest of the hero after it, under one h1", async () => {
    const regions = [{ slug: "arusha", name: "Arusha", count: 16 }];
    const html = await render(
      {
        ...base,
        path: "/mpesa-agents",
        route: { name: "mpesa-agents", page: "locator", params: {} },
        content: {
          page: {
            title: "M-Pesa agents",
            sections: [
              {
                __component: "sections.hero",
                title: "More than 180,000 agents near you",
                subtitle: "In every region.",
              },
            ],
          },
          sidebar: null,
        },
        locator: { kind: "agent", regions, districts: [], query: "", results: [], total: 0, ready: true, listed: true },
      },
      "/mpesa-agents",
    );
    assert.match(
      html,
      /<h1 class="page-title">More than 180,000 agents near you<\/h1><section class="locator"[^>]*><h2 id="locator-title" class="visually-hidden">[^<]*<\/h2><form class="locator-form" action="\/mpesa-agents"/,
    );
    assert.ok(html.indexOf('id="locator-region"') < html.indexOf('id="near-me"'), "the form before near me");
    assert.ok(html.indexOf('id="near-me"') < html.indexOf("In every region."), "the hero's subtitle after the finder");
    assert.equal(h1Count(html), 1);
  });

  it("says no places are listed yet where the CMS has none, and keeps the page's own words", async () => {
    const page = (lang: "en" | "sw", kind: "agent" | "shop", path: string) =>
      render(
        {
          ...base,
          lang,
          path,
          route: { name: kind === "agent" ? "mpesa-agents" : "vodashop", page: "locator", params: {} },
          content: {
            page: {
              title: "Where to go",
              sections: [{ __component: "sections.hero", title: "Where to go", subtitle: "Look for the red sign." }],
            },
            sidebar: null,
          },
          locator: { kind, regions: [], districts: [], query: "", results: [], total: 0, ready: true, listed: false },
        },
        path,
      );
    const agents = await page("en", "agent", "/mpesa-agents");
    assert.ok(agents.includes('<p role="status">No M-Pesa agents are listed here yet.'), agents);
    assert.ok(agents.includes("Look for the red sign."), "the page's own words");
    assert.ok(
      !agents.includes('id="locator-region"') && !agents.includes('id="near-me"'),
      "no form that could find none",
    );
    const shops = await page("sw", "shop", "/sw/vodashop");
    assert.ok(shops.includes("Bado hakuna maduka ya Vodashop yaliyoorodheshwa hapa."), shops);
    assert.equal(h1Count(shops), 1);
  });

  it("lists every trick with its own anchor on the fraudster page", async () => {
    const html = await render(
      {
        ...base,
        path: "/fraudster",
        route: { name: "fraudster", page: "fraudster", params: {} },
        content: {
          page: { title: "Fraud awareness", sections: [] },
          sidebar: null,
          list: {
            collection: "trick-mobiles",
            items: [{ id: 1, slug: "fake-agent", title: "The fake agent", body: "<p>Never share your PIN.</p>" }],
          },
        },
      },
      "/fraudster",
    );
    assert.ok(html.includes('<a href="#fake-agent">The fake agent</a>'), html);
    assert.ok(
      html.includes(
        '<section id="fake-agent" class="trick" aria-labelledby="fake-agent-title"><h3 id="fake-agent-title">The fake agent</h3>',
      ),
      html,
    );
    assert.ok(html.includes("<p>Never share your PIN.</p>"), html);
  });

  it("puts the content before the main menu, which the header's Menu link leads to, and the search and language switch once", async () => {
    const html = await render(
      {
        ...base,
        path: "/songesha",
        route: { name: "songesha", page: "content", params: {} },
        content: { page: { title: "Songesha", sections: [] }, sidebar: null },
      },
      "/songesha",
    );
    const menu = html.indexOf(
      '<nav class="site-menu" id="menu" aria-label="Main menu"><details class="menu"><summary>Menu</summary>',
    );
    assert.ok(menu > 0, html);
    assert.ok(
      html.indexOf('<header class="site-header">') < html.indexOf('<a class="menu-link" href="#menu">Menu</a>'),
      html,
    );
    assert.ok(html.indexOf('<h1 class="page-title">Songesha</h1>') < html.indexOf("</main>"), html);
    assert.ok(html.indexOf("</main>") < menu && menu < html.indexOf('<footer class="site-footer">'), html);
    assert.equal(html.match(/<form role="search"/g)?.length, 1, html);
    assert.equal(html.match(/<ul class="lang-switch"/g)?.length, 1, html);
  });

  it("marks the current page in the menu and the breadcrumbs", async () => {
    const html = await render(
      {
        ...base,
        path: "/songesha",
        route: { name: "songesha", page: "content", params: {} },
        content: { page: { title: "Songesha", sections: [] }, sidebar: null },
      },
      "/songesha",
    );
    assert.match(html, /<a href="\/songesha" aria-current="page"[^>]*>Songesha<\/a>/);
    assert.match(
      html,
      /<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li><a href="\/"[^>]*>Home<\/a><\/li><li><a href="\/mpesa"[^>]*>M-Pesa<\/a><\/li>/,
    );
    assert.ok(html.includes('<span aria-current="page">Songesha</span>'), html);
  });
  it("says what search found in a status paragraph, offers the spelling pages use, and marks the other language's pages", async () => {
    const html = await render(
      {
        ...base,
        path: "/search",
        route: { name: "search", page: "search", params: {} },
        content: { page: null, sidebar: null },
        search: {
          query: "salamu borow",
          ready: true,
          hits: [
            { title: "Voda Njiwa", href: "/sw/voda-njiwa", snippet: "Tuma salamu za sauti.", otherLanguage: true },
          ],
          unmatched: ["borow"],
          suggestion: "salamu borrow",
        },
      },
      "/search?q=salamu+borow",
    );
    assert.ok(html.includes('<p role="status" class="search-status">Results for “salamu borow”</p>'), html);
    assert.doesNotMatch(html, /<h\d[^>]*role="status"/, "a heading is no live region");
    assert.match(html, /Did you mean(<!-- -->)? <a href="\/search\?q=salamu%20borrow">salamu borrow<\/a>/);
    assert.ok(html.includes("No page holds “borow”"), html);
    assert.ok(html.includes('<h2>In Swahili</h2><ol class="search-results" lang="sw">'), html);
    assert.ok(html.includes('<a href="/sw/voda-njiwa">Voda Njiwa</a>'), html);
  });
});
