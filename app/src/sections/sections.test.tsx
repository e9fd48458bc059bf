import { describe, it, mock } from "node:test";
import assert from "node:assert/strict";
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { Sections } from "./index";
import { formatTzs } from "./BundleTable";

const render = (node: ReactNode) => renderToStaticMarkup(<MemoryRouter>{node}</MemoryRouter>);

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
    assert.ok(html.indexOf("<h1>Karibu</h1>") < html.indexOf("<details>"), html);
    assert.ok(html.includes("<summary>Q?</summary>"), html);
  });

  it("skips an unknown component and logs it instead of failing", () => {
    const warn = mock.method(console, "warn", () => {});
    const html = render(
      <Sections sections={[{ __component: "sections.from-the-future" }, { __component: "sections.hero", title: "Still here" }]} />,
    );
    assert.ok(html.includes("Still here"));
    assert.equal(warn.mock.callCount(), 1);
    assert.match(String(warn.mock.calls[0].arguments[0]), /sections\.from-the-future/);
    warn.mock.restore();
  });

  it("renders nothing for a page without sections", () => {
    assert.equal(render(<Sections sections={undefined} />), "");
  });
});

describe("formatTzs", () => {
  it("groups thousands the same way on every engine", () => {
    assert.equal(formatTzs(500), "TSh 500");
    assert.equal(formatTzs(25000), "TSh 25,000");
    assert.equal(formatTzs(1250000), "TSh 1,250,000");
  });
});
