import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { slugify } from "./slug";
import { slugs } from "./testing/twins";

describe("slugify", () => {
  it("makes the same slugs as the server", () => {
    assert.equal(slugify("How do I check my data balance?"), "how-do-i-check-my-data-balance");
    assert.equal(slugify("Ninaangaliaje salio langu la data?"), "ninaangaliaje-salio-langu-la-data");
    assert.equal(slugify("  M-Pesa: Ada & Makato  "), "m-pesa-ada-makato");
    assert.equal(slugify("Café Zürich"), "cafe-zurich");
  });

  it("gives an empty slug for a text without letters or digits", () => {
    assert.equal(slugify(" ?! "), "");
  });

  it("makes the server's slug of every text in tests/twins", () => {
    for (const { text, slug } of slugs) assert.equal(slugify(text), slug, JSON.stringify(text));
  });
});
