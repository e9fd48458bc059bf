/**
 * The translator (`./index`, i18next) as the app relies on it: every key
 * gives its string in each language (English where Swahili lacks one),
 * placeholders filled as the strings expect and never read again as
 * templates, counted strings in the right plural form, and an unknown key
 * read as itself.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Lang } from "../routes";
import { resources } from "./bundled";
import { translator, type StringKey } from "./index";

function leaves(tree: object, prefix = ""): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]): [string, string][] =>
    typeof value === "string" ? [[prefix + key, value]] : leaves(value, `${prefix}${key}.`),
  );
}

const english = leaves(resources.en);
const PLURAL_FORM = /_(one|other)$/;

/** Keys no string has: each reads as itself, and none exists. */
const unknownKeys = [
  "nope",
  "nav.nope",
  "",
  "nav.home.extra",
  "account.units.",
  "account.units.XYZ",
  "account.paymentTypes.undefined",
];

describe("translator", () => {
  for (const lang of ["en", "sw"] as const satisfies Lang[]) {
    const { t, exists } = translator(lang);
    const strings = new Map(leaves(resources[lang]));
    const untyped = t as (key: string, values?: Record<string, unknown>) => string;

    it(`${lang}: every key gives its string and exists`, () => {
      assert.notEqual(english.length, 0);
      const mismatches: string[] = [];
      for (const [key, text] of english) {
        if (PLURAL_FORM.test(key)) continue;
        const want = strings.get(key) ?? text;
        if (untyped(key) !== want)
          mismatches.push(`${key}: ${JSON.stringify(untyped(key))}, want ${JSON.stringify(want)}`);
        assert.ok(exists(key), key);
      }
      assert.deepEqual(mismatches, []);
    });

    it(`${lang}: is made once per realm`, () => {
      assert.equal(translator(lang), translator(lang));
      assert.equal(translator(lang).lang, lang);
    });

    it(`${lang}: an unknown key reads as itself`, () => {
      for (const key of unknownKeys) {
        assert.equal(untyped(key), key, key);
        assert.equal(untyped(key, { number: 1 }), key, key);
        assert.equal(exists(key), false, key);
      }
    });
  }

  it("fills placeholders with any value, as given", () => {
    const { t } = translator("en");
    assert.equal(t("pager.status", { page: 2, pages: 5 }), "Page 2 of 5");
    assert.equal(t("tariff.range", { min: "US$ 5 $& $1", max: "$$ $`" }), "US$ 5 $& $1 – $$ $`");
    assert.equal(t("search.results", { query: "" }), "Results for “”");
    assert.equal(t("search.results", { query: -1.5 }), "Results for “-1.5”");
    assert.equal(t("search.results", { query: null }), "Results for “”");
    assert.equal(t("search.results", { query: undefined }), "Results for “”");
    assert.equal(t("pager.status", { page: 2 }), "Page 2 of {{pages}}", "a name not given stays as written");
    assert.equal(t("search.results"), "Results for “{{query}}”");
    assert.equal(t("search.results", { query: "<b>&" }), "Results for “<b>&”", "React escapes, not the translator");
  });

  it("gives each call its own text, however often asked", () => {
    const { t } = translator("en");
    const cases: [Record<string, unknown> | undefined, string][] = [
      [{ query: undefined }, "Results for “”"],
      [{}, "Results for “{{query}}”"],
      [undefined, "Results for “{{query}}”"],
      [{ query: null }, "Results for “”"],
      [{ query: "null" }, "Results for “null”"],
      [{ query: NaN }, "Results for “NaN”"],
      [{ query: 1 }, "Results for “1”"],
      [{ query: "1" }, "Results for “1”"],
      [{ query: "a", other: "b" }, "Results for “a”"],
      [{ query: { toString: () => "x" } }, "Results for “x”"],
    ];
    for (let round = 0; round < 2; round++) {
      for (const [values, want] of cases) assert.equal(t("search.results", values), want, JSON.stringify(values));
    }
  });

  it("never reads a value as a template: what a visitor typed is shown as typed", () => {
    const { t } = translator("sw");
    for (const query of ["{{query}}", "$t(nav.home)", '{{pages}} $t(site.name, {"a": 1})']) {
      assert.equal(t("search.results", { query }), `Matokeo ya “${query}”`);
    }
  });

  it("picks a counted string's plural form by the language's rules", () => {
    const en = translator("en").t;
    assert.equal(en("account.resendIn", { count: 1 }), "Send a new code in 1 second");
    assert.equal(en("account.resendIn", { count: 59 }), "Send a new code in 59 seconds");
    assert.equal(en("account.resendIn", { count: 0 }), "Send a new code in 0 seconds");
    assert.equal(en("modem.sendCodeIn", { count: 1 }), "Send the code in 1 second");
    assert.equal(en("modem.sendModemCodeIn", { count: 2 }), "Send a code to the modem in 2 seconds");
    assert.equal(
      en("notify.codeWaitMinutes", { count: 1, minutes: "1" }),
      "Too many code requests. Please wait 1 minute before asking for a new code",
    );
    assert.equal(
      en("notify.codeWaitMinutes", { count: 4, minutes: "4" }),
      "Too many code requests. Please wait 4 minutes before asking for a new code",
    );
    const sw = translator("sw").t;
    assert.equal(sw("account.resendIn", { count: 1 }), "Tuma msimbo mpya baada ya sekunde 1");
    assert.equal(sw("account.resendIn", { count: 30 }), "Tuma msimbo mpya baada ya sekunde 30");
  });

  it("a count alone does not make a string counted", () => {
    assert.equal(translator("en").t("forms.foundation.stepOf", { step: 1, count: 1 }), "Step 1 of 1");
    assert.equal(translator("sw").t("forms.foundation.stepOf", { step: 2, count: 5 }), "Hatua 2 kati ya 5");
  });
});

describe("counted strings", () => {
  it("have every plural form in English", () => {
    const keys = new Set(english.map(([key]) => key));
    for (const key of keys) {
      const base = key.replace(PLURAL_FORM, "");
      if (base === key) continue;
      assert.ok(keys.has(`${base}_one`) && keys.has(`${base}_other`), `${base} has _one and _other`);
      assert.ok(!keys.has(base), `${base} is either counted or not`);
    }
  });

  it("are asked for by their key without the form, with a count", () => {
    // @ts-expect-error a counted key needs its count
    assert.equal(translator("en").t("account.resendIn"), "account.resendIn");
    // @ts-expect-error a plural form is not a key of its own
    const form: StringKey = "account.resendIn_one";
    assert.ok(form);
  });
});
