import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { installPluralRules, SitePluralRules } from "./pluralRules";

const COUNTS = [0, 1, 2, 3, 5, 10, 11, 21, 100, 101, 1000000, 0.5, 1.5, 2.5, -1, -2];

describe("plural rules for the server's engine", () => {
  for (const lang of ["en", "sw", "en-TZ", "sw_TZ"]) {
    it(`${lang}: chooses the form node's Intl chooses`, () => {
      const ours = new SitePluralRules(lang);
      const intl = new Intl.PluralRules(lang.replace("_", "-"));
      for (const count of COUNTS) assert.equal(ours.select(count), intl.select(count), `${lang} ${count}`);
      assert.deepEqual(
        [...ours.resolvedOptions().pluralCategories].sort(),
        [...intl.resolvedOptions().pluralCategories].sort(),
      );
    });
  }

  it("refuses what it does not know, as i18next expects of an unknown language", () => {
    assert.throws(() => new SitePluralRules("fr"), RangeError);
    assert.throws(() => new SitePluralRules("en", { type: "ordinal" }), RangeError);
    assert.deepEqual(SitePluralRules.supportedLocalesOf(["sw", "fr", "en-GB"]), ["sw", "en-GB"]);
  });

  it("replaces an engine's stand-in that says 'other' to every count, and keeps a working one", () => {
    const intl = globalThis.Intl;
    const real = intl.PluralRules;
    try {
      installPluralRules();
      assert.equal(intl.PluralRules, real, "node's own is kept");
      const standIn = function PluralRules() {} as unknown as typeof Intl.PluralRules;
      standIn.prototype.select = () => "other";
      standIn.prototype.resolvedOptions = () => ({ locale: "en-US" });
      Object.defineProperty(intl, "PluralRules", { value: standIn, writable: true, configurable: true });
      installPluralRules();
      assert.equal(new Intl.PluralRules("sw").select(1), "one");
    } finally {
      Object.defineProperty(intl, "PluralRules", { value: real, writable: true, configurable: true });
    }
  });
});
