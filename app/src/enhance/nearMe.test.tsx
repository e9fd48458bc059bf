import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { renderToString } from "react-dom/server";
import { parseFragment } from "parse5";
import type { LocationHit } from "../contract";
import { LocationList } from "../features/locator/LocationList";
import { resources } from "../i18n/bundled";
import { LanguageProvider } from "../i18n/context";
import { counted, fill } from "./fill";
import { locationListHtml } from "./nearMe";
import { nearMeStrings } from "./strings";
import { AGENT_HIT } from "../testing/locationHit";

const open: LocationHit = {
  ...AGENT_HIT,
  name: 'Mama "Neema" <Shop> & Sons',
  services: ["cash-in", "lipa"],
};
const closed: LocationHit = {
  ...open,
  id: 8,
  name: "Vodashop (Mlimani City)",
  kind: "shop",
  landmark: undefined,
  street: undefined,
  services: [],
  openNow: false,
  distance: 420,
  phone: undefined,
};

type Node = { nodeName: string; value?: string; attrs?: { name: string; value: string }[]; childNodes?: Node[] };

/** A parsed list as elements, their attributes in order of name and their text joined (React separates texts with comments). */
function shape(node: Node): unknown {
  const children: unknown[] = [];
  for (const child of node.childNodes ?? []) {
    if (child.nodeName === "#comment") continue;
    if (child.nodeName === "#text") {
      if (typeof children.at(-1) === "string") children[children.length - 1] += child.value ?? "";
      else children.push(child.value ?? "");
    } else children.push(shape(child));
  }
  const attrs = (node.attrs ?? []).map(({ name, value }) => `${name}=${value}`).sort();
  return { name: node.nodeName, attrs, children };
}

describe("near me's list", () => {
  for (const lang of ["en", "sw"] as const) {
    it(`is the server's list of places, element for element and word for word (${lang})`, () => {
      const server = renderToString(
        <LanguageProvider lang={lang}>
          <LocationList hits={[open, closed]} id="near-me-list" />
        </LanguageProvider>,
      );
      const script = locationListHtml([open, closed], nearMeStrings(resources[lang]), "near-me-list");
      assert.deepEqual(shape(parseFragment(script) as Node), shape(parseFragment(server) as Node));
      assert.match(script, lang === "en" ? /1\.2 km away/ : /umbali wa mita 420/);
    });
  }
});

describe("the enhancement script's strings filled in", () => {
  it("replaces each named value and chooses a counted string's form", () => {
    assert.equal(fill("{{a}} and {{b}}, {{c}}", { a: 1, b: "two" }), "1 and two, {{c}}");
    const forms = { one: "{{count}} second", other: "{{count}} seconds" };
    assert.equal(counted(forms, 1), "1 second");
    assert.equal(counted(forms, 59), "59 seconds");
  });
});
