import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { pageData } from "../testing/pageData";
import { translator } from "../i18n";
import { breadcrumbs } from "./breadcrumbs";
import type { Page } from "../contract";

const data = pageData;

describe("breadcrumbs", () => {
  const { t } = translator("en");

  it("are empty on the home page", () => {
    assert.deepEqual(breadcrumbs(data({}), t), []);
  });

  it("start at home, show headings as text and end at the page", () => {
    assert.deepEqual(
      breadcrumbs(data({ path: "/songesha", route: { name: "songesha", page: "content", params: {} } }), t),
      [
        { label: "Home", path: "/" },
        { label: "M-Pesa", path: "/mpesa" },
        { label: "Loans & savings", path: "/loans-savings" },
        { label: "Songesha", path: "/songesha" },
      ],
    );
    assert.deepEqual(
      breadcrumbs(data({ path: "/internet-overview", route: { name: "internet", page: "content", params: {} } }), t),
      [
        { label: "Home", path: "/" },
        { label: "Personal", path: undefined },
        { label: "Internet", path: "/internet-overview" },
      ],
    );
  });

  it("end with the item's title on an item page", () => {
    const item = { id: 3, slug: "new-towers", title: "200 new towers in Dodoma" };
    const crumbs = breadcrumbs(
      data({
        path: "/news-event/3/new-towers",
        route: { name: "news-event", page: "newsItem", params: { id: "3", slug: "new-towers" } },
        content: { page: null, sidebar: null, item: { collection: "news-updates", item } },
      }),
      t,
    );
    assert.deepEqual(crumbs.slice(1), [
      { label: "Investors & about", path: undefined },
      { label: "News", path: "/news-events" },
      { label: "200 new towers in Dodoma", path: "/news-event/3/new-towers" },
    ]);
  });

  it("end with the question on /faq/<item>", () => {
    const page: Page = {
      title: "FAQ",
      sections: [
        {
          __component: "sections.faq",
          items: [{ question: "How do I check my data balance?", answer: "Dial *149*01#." }],
        },
      ],
    };
    const crumbs = breadcrumbs(
      data({
        path: "/faq/how-do-i-check-my-data-balance",
        route: { name: "faq", page: "faq", params: { item: "how-do-i-check-my-data-balance" } },
        content: { page, sidebar: null },
      }),
      t,
    );
    assert.deepEqual(crumbs.slice(-2), [
      { label: "FAQ", path: "/faq" },
      { label: "How do I check my data balance?", path: "/faq/how-do-i-check-my-data-balance" },
    ]);
  });

  it("name the not-found page", () => {
    const crumbs = breadcrumbs(
      data({ status: 404, path: "/nope", route: { name: "not-found", page: "notFound", params: {} } }),
      t,
    );
    assert.deepEqual(crumbs, [
      { label: "Home", path: "/" },
      { label: "Page not found", path: "/nope" },
    ]);
  });
});
