import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { route, routes, type RouteDef } from "../routes";
import { buildMenu, type MenuEntry } from "./menu";

const find = (entries: MenuEntry[], name: string): MenuEntry | undefined => {
  for (const entry of entries) {
    if (entry.name === name) return entry;
    const found = find(entry.children, name);
    if (found) return found;
  }
  return undefined;
};

describe("main menu", () => {
  const menu = buildMenu(routes);

  it("has the headings and clickable areas without a parent at the top, home left out", () => {
    assert.deepEqual(
      menu.map((e) => e.name),
      [
        "personal",
        "lifestyle",
        "sport-games",
        "entertainment-group",
        "services",
        "mpesa",
        "business",
        "investor",
        "purpose",
        "help",
      ],
    );
    assert.equal(menu[0].path, undefined, "a heading is not a link");
    assert.equal(find(menu, "mpesa")?.path, "/mpesa");
    assert.equal(find(menu, "business")?.path, "/vodacom-business");
  });

  it("nests grandchildren under their parent", () => {
    const mpesa = find(menu, "mpesa") as MenuEntry;
    assert.deepEqual(
      mpesa.children.map((e) => e.name),
      [
        "loans-savings",
        "digital-payments",
        "insurance",
        "financial-services",
        "international-money-transfer",
        "payment-services",
      ],
    );
    const loans = mpesa.children[0];
    assert.equal(loans.path, "/loans-savings");
    assert.ok(loans.children.some((e) => e.name === "songesha" && e.path === "/songesha"));
  });

  it("links external redirects out and leaves internal redirects and hidden routes out", () => {
    assert.deepEqual(find(menu, "fwa"), {
      name: "fwa",
      label: "fwa",
      path: undefined,
      externalUrl: "https://fwa.vodacom.co.tz",
      newTab: undefined,
      children: [],
    });
    assert.equal(find(menu, "connectu")?.newTab, true);
    for (const hidden of ["home", "5g", "business-community", "device", "news-event", "cpm-otp", "not-found"]) {
      assert.equal(find(menu, hidden), undefined, hidden);
    }
  });

  it("links a route with an optional parameter without it", () => {
    assert.equal(find(menu, "faq")?.path, "/faq");
  });

  it("hides the children of a route marked invisibleChildren, and headings left empty", () => {
    const table: RouteDef[] = [
      route("group", "", undefined, { meta: { isClickable: false } }),
      route("parent", "/parent", "content", { parent: "group", meta: { invisibleChildren: true } }),
      route("child", "/child", "content", { parent: "parent" }),
      route("empty", "", undefined, { meta: { isClickable: false } }),
      route("hidden", "/hidden", "content", { parent: "group", meta: { isVisible: false } }),
    ];
    assert.deepEqual(buildMenu(table), [
      {
        name: "group",
        label: "group",
        path: undefined,
        externalUrl: undefined,
        newTab: undefined,
        children: [
          { name: "parent", label: "parent", path: "/parent", externalUrl: undefined, newTab: undefined, children: [] },
        ],
      },
    ]);
  });
});
