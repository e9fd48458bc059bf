import { describe, it, mock } from "node:test";
import assert from "node:assert/strict";
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { AddressProvider } from "../app/address";
import { SiteProvider } from "../app/site";
import { LanguageProvider } from "../i18n/context";
import type { Lang } from "../routes";
import { Sections } from "./index";
import { OpenQuestion } from "./Faq";
import { CatalogueBundles } from "./BundleTable";
import type { BundleOffer, Section } from "../contract";

const render = (node: ReactNode, lang: Lang = "en") =>
  renderToStaticMarkup(
    <LanguageProvider lang={lang}>
      <SiteProvider value={{ lang, path: "/", route: "home", paths: { en: "/", sw: "/" } }}>
        <AddressProvider url="/">{node}</AddressProvider>
      </SiteProvider>
    </LanguageProvider>,
  );

describe("Sections", () => {
  it("renders each known component in order", () => {
    const html = render(
      <Sections
        sections={[
          { __component: "sections.hero", id: 1, title: "Karibu" },
          { __component: "sections.faq", id: 2, items: [{ question: "Q?", answer: "A." }] },
        ]}
      />,
    );
    assert.ok(html.indexOf("<h1>Karibu</h1>") < html.indexOf("<details"), html);
    assert.ok(html.includes("<summary>Q?</summary>"), html);
  });

  it("skips an unknown component and logs it instead of failing", () => {
    const warn = mock.method(console, "warn", () => {});
    const html = render(
      <Sections
        sections={[
          { __component: "sections.from-the-future" } as unknown as Section,
          { __component: "sections.hero", title: "Still here" },
        ]}
      />,
    );
    assert.ok(html.includes("Still here"));
    assert.equal(warn.mock.callCount(), 1);
    assert.match(String(warn.mock.calls[0].arguments[0]), /sections\.from-the-future/);
    warn.mock.restore();
  });

  it("renders nothing for a page without sections", () => {
    assert.equal(render(<Sections sections={undefined} />), "");
  });

  it("makes a section only of a part with a heading, and skips no heading level without one", () => {
    const card = { title: "Daily", text: "1 GB" };
    const titled = render(
      <Sections
        sections={[
          { __component: "sections.rich-text", title: "About", body: "<p>Hi</p>" },
          { __component: "sections.card-grid", title: "Bundles", cards: [card] },
        ]}
      />,
    );
    assert.ok(titled.includes('<section class="rich-text"><h2>About</h2>'), titled);
    assert.ok(
      titled.includes('<section class="card-grid"><h2>Bundles</h2>') && titled.includes("<h3>Daily</h3>"),
      titled,
    );
    const untitled = render(
      <Sections
        sections={[
          { __component: "sections.rich-text", body: "<p>Hi</p>" },
          { __component: "sections.card-grid", cards: [card] },
        ]}
      />,
    );
    assert.ok(!untitled.includes("<section"), untitled);
    assert.ok(
      untitled.includes('<div class="rich-text">') &&
        untitled.includes('<div class="card-grid">') &&
        untitled.includes("<h2>Daily</h2>"),
      untitled,
    );
  });
});

describe("FAQ section", () => {
  const faq: Section = {
    __component: "sections.faq",
    title: "Data",
    items: [
      { question: "How do I check my data balance?", answer: "Dial *149*01#." },
      { question: "Other?", answer: "Yes." },
    ],
  };

  it("anchors every question by its slug, all closed by default", () => {
    const html = render(<Sections sections={[faq]} />);
    assert.ok(html.includes('<details id="how-do-i-check-my-data-balance"><summary>'), html);
    assert.ok(!html.includes("open"), html);
  });

  it("opens the question of /faq/<item>", () => {
    const html = render(
      <OpenQuestion.Provider value="how-do-i-check-my-data-balance">
        <Sections sections={[faq]} />
      </OpenQuestion.Provider>,
    );
    assert.ok(html.includes('<details id="how-do-i-check-my-data-balance" open="">'), html);
    assert.ok(html.includes('<details id="other"><summary>'), html);
  });
});

describe("table sections", () => {
  it("renders a CMS table with column and row headers, labelled by its heading", () => {
    const html = render(
      <Sections
        sections={[
          {
            __component: "sections.table",
            title: "Roaming rates",
            columns: ["Country", "Calls"],
            rows: [{ id: 1, cells: ["Kenya", "TSh 500/min"] }],
          },
        ]}
      />,
    );
    const id = /<h2 id="([^"]+)">Roaming rates<\/h2>/.exec(html)?.[1];
    assert.ok(id, html);
    assert.ok(html.includes(`<table aria-labelledby="${id}">`), html);
    assert.ok(html.includes('<th scope="col">Country</th><th scope="col">Calls</th>'), html);
    assert.ok(
      html.includes('<th scope="row">Kenya</th><td><span class="cell-label">Calls </span>TSh 500/min</td>'),
      html,
    );
  });

  it("writes tariff bands in shillings, in Swahili on Swahili pages", () => {
    const html = render(
      <Sections
        sections={[
          {
            __component: "sections.tariff-bands",
            title: "Ada",
            note: "Bei zinajumuisha VAT.",
            bands: [{ id: 1, min: 1000, max: 10000, send: 50, withdraw: 1500 }],
          },
        ]}
      />,
      "sw",
    );
    assert.ok(html.includes('<th scope="col">Kiasi</th><th scope="col">Ada ya kutuma</th>'), html);
    assert.ok(
      html.includes(
        '<th scope="row">TSh 1,000 – TSh 10,000</th><td><span class="cell-label">Ada ya kutuma </span>TSh 50</td><td><span class="cell-label">Ada ya kutoa </span>TSh 1,500</td>',
      ),
      html,
    );
    assert.ok(html.includes("Bei zinajumuisha VAT."), html);
  });

  it("lists events with their date written out", () => {
    const html = render(
      <Sections
        sections={[
          {
            __component: "sections.events",
            title: "Calendar",
            events: [
              { id: 1, title: "Annual general meeting", date: "2025-06-26", time: "10:00", location: "Dar es Salaam" },
            ],
          },
        ]}
      />,
    );
    assert.ok(
      html.includes(
        '<th scope="row">Annual general meeting</th><td><span class="cell-label">Date </span><time dateTime="2025-06-26">26 June 2025</time></td><td><span class="cell-label">Time </span>10:00</td><td><span class="cell-label">Venue </span>Dar es Salaam</td>',
      ),
      html,
    );
  });
});

describe("other sections", () => {
  it("numbers steps", () => {
    const html = render(
      <Sections
        sections={[
          {
            __component: "sections.steps",
            title: "Register",
            steps: [{ id: 1, title: "Visit a shop", text: "Bring your ID." }],
          },
        ]}
      />,
    );
    assert.ok(html.includes("<ol><li><h3>Visit a shop</h3><p>Bring your ID.</p></li></ol>"), html);
  });

  it("links documents to their files with their date", () => {
    const html = render(
      <Sections
        sections={[
          {
            __component: "sections.documents",
            title: "Reports",
            documents: [
              { id: 1, title: "Annual report 2024", publishDate: "2025-03-05", file: { url: "/static/report.pdf" } },
            ],
          },
        ]}
      />,
      "sw",
    );
    assert.ok(
      html.includes(
        '<a href="/static/report.pdf">Annual report 2024</a><time dateTime="2025-03-05">5 Machi 2025</time>',
      ),
      html,
    );
  });

  it("shows people with their photo's alternative text", () => {
    const html = render(
      <Sections
        sections={[
          {
            __component: "sections.people",
            title: "Board",
            people: [
              {
                id: 1,
                name: "Asha Mussa",
                role: "Chair",
                photo: { url: "/static/a.jpg", alternativeText: "Asha Mussa smiling" },
              },
            ],
          },
        ]}
      />,
    );
    assert.ok(html.includes('alt="Asha Mussa smiling"'), html);
    assert.ok(html.includes('<h3>Asha Mussa</h3><p class="person-role">Chair</p>'), html);
  });

  it("links a call to action in the page's language", () => {
    const html = render(
      <Sections
        sections={[
          {
            __component: "sections.cta-banner",
            title: "Go 5G",
            text: "Faster.",
            cta: { label: "See plans", url: "/internet-overview" },
          },
        ]}
      />,
      "sw",
    );
    assert.ok(html.includes("<h2>Go 5G</h2><p>Faster.</p>"), html);
    assert.ok(html.includes('href="/sw/internet-overview"'), html);
  });
});

describe("bundle tables from the catalogue", () => {
  const offer = (id: string, category: string, price: number, purchasable = true): BundleOffer => ({
    id,
    name: `Name of ${id}`,
    price,
    validity: "7 days",
    type: "DATA",
    category,
    ussd: "*149*01#",
    purchasable,
  });
  const catalogue = [
    offer("a", "daily", 500),
    offer("b", "daily", 1000),
    offer("c", "weekly", 5000),
    offer("s", "services", 300, false),
  ];
  const table = (fields: Partial<Extract<Section, { __component: "sections.bundle-table" }>>): Section => ({
    __component: "sections.bundle-table",
    title: "Bundles",
    ...fields,
  });
  const withCatalogue = (section: Section, bundles: BundleOffer[] | undefined, lang: Lang = "en") =>
    render(
      <CatalogueBundles.Provider value={bundles}>
        <Sections sections={[section]} />
      </CatalogueBundles.Provider>,
      lang,
    );

  it("lists a category's bundles with the catalogue's prices, each sold online with a Buy link to its purchase", () => {
    const html = withCatalogue(table({ category: "daily" }), catalogue);
    assert.ok(
      html.includes('<th scope="row">Name of a</th><td><span class="cell-label">Price </span>TSh 500</td>'),
      html,
    );
    assert.ok(html.includes("TSh 1,000") && !html.includes("Name of c"), html);
    assert.ok(
      html.includes(
        '<a href="/account?bundleId=a" data-purchase="" class="bundle-buy">Buy<span class="visually-hidden"> Name of a</span></a>',
      ),
      html,
    );
    assert.ok(html.includes('href="tel:*149*01%23"'), html);
  });

  it("lists named bundles in the order named, in Swahili too; a service sold only by its code has no Buy link", () => {
    const html = withCatalogue(table({ bundleIds: ["c", "s", "a", "gone"] }), catalogue, "sw");
    assert.ok(
      html.indexOf("Name of c") < html.indexOf("Name of s") && html.indexOf("Name of s") < html.indexOf("Name of a"),
      html,
    );
    assert.ok(
      !html.includes("bundleId=s") && html.includes('href="/sw/account?bundleId=c"') && html.includes(">Nunua<"),
      html,
    );
  });

  it("a table of services only has no Buy column", () => {
    const html = withCatalogue(table({ category: "services" }), catalogue);
    assert.ok(html.includes("Name of s") && !html.includes(">Buy<"), html);
  });

  it("says prices cannot be shown when the catalogue could not be read, and shows nothing for a category the catalogue lacks", () => {
    const html = withCatalogue(table({ category: "daily" }), undefined);
    assert.ok(html.includes("<h2") && html.includes("Bundle prices cannot be shown just now."), html);
    assert.ok(!html.includes("<table"), html);
    assert.equal(withCatalogue(table({ category: "none-such" }), catalogue), "");
  });
});
