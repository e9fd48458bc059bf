import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { Sections } from "./index";
import { formatTzs } from "./BundleTable";

const render = (node: React.ReactNode) => renderToStaticMarkup(<MemoryRouter>{node}</MemoryRouter>);

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
    expect(html.indexOf("<h1>Karibu</h1>")).toBeLessThan(html.indexOf("<details>"));
    expect(html).toContain("<summary>Q?</summary>");
  });

  it("skips an unknown component and logs it instead of failing", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const html = render(
      <Sections sections={[{ __component: "sections.from-the-future" }, { __component: "sections.hero", title: "Still here" }]} />,
    );
    expect(html).toContain("Still here");
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("sections.from-the-future"));
    warn.mockRestore();
  });

  it("renders nothing for a page without sections", () => {
    expect(render(<Sections sections={undefined} />)).toBe("");
  });
});

describe("formatTzs", () => {
  it("groups thousands the same way on every engine", () => {
    expect(formatTzs(500)).toBe("TSh 500");
    expect(formatTzs(25000)).toBe("TSh 25,000");
    expect(formatTzs(1250000)).toBe("TSh 1,250,000");
  });
});
