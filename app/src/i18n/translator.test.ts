/**
 * The translator (`./index`) gives what i18next gave the app before it was
 * replaced (b2fac46): an instance made with the options the app used, asked
 * for every key of the English strings in each language, with and without
 * values for the placeholders. i18next is a devDependency for this test
 * only; no bundle imports it.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import i18next from "i18next";
import type { Lang } from "../routes";
import { resources, translator, type StringKey } from "./index";

/** An i18next instance as `createI18n` made it before b2fac46 (less `initReactI18next`, which only binds React). */
function i18nextOf(lng: Lang) {
  const instance = i18next.createInstance();
  instance.init({
    lng,
    fallbackLng: "en",
    supportedLngs: ["en", "sw"],
    resources: { en: { translation: resources.en }, sw: { translation: resources.sw } },
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
  });
  return instance;
}

function leaves(tree: object, prefix = ""): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]): [string, string][] =>
    typeof value === "string" ? [[prefix + key, value]] : leaves(value, `${prefix}${key}.`),
  );
}

const english = leaves(resources.en);
const swahili = new Map(leaves(resources.sw));

/** The placeholder names of `key` in either language. */
function namesOf(key: string, text: string): string[] {
  const both = `${text} ${swahili.get(key) ?? ""}`;
  return [...new Set([...both.matchAll(/\{\{(.+?)\}\}/g)].map((match) => match[1].trim()))];
}

/** The values each placeholder string is filled with: every kind of value, none, and each name left out in turn. */
function valueSets(names: string[]): Record<string, unknown>[] {
  const each = (value: (name: string, index: number) => unknown) =>
    Object.fromEntries(names.map((name, index) => [name, value(name, index)]));
  return [
    each((name) => `«${name}»`),
    each((name) => `US$ 5 $& $1 $$ $\` ${name}`),
    each((_, index) => [0, 42, -1.5][index % 3]),
    each(() => ""),
    each(() => null),
    each(() => undefined),
    {},
    { unrelated: "x" },
    ...names.map((left) => Object.fromEntries(names.filter((name) => name !== left).map((name) => [name, `«${name}»`]))),
  ];
}

/** Keys no string has: both give the key back, and neither says it exists. */
const unknownKeys = ["nope", "nav.nope", "", "nav.home.extra", "account.units.", "account.units.XYZ", "account.paymentTypes.undefined"];

describe("translator matches i18next", () => {
  for (const lang of ["en", "sw"] as const) {
    const expected = i18nextOf(lang);
    const actual = translator(lang);
    const mismatches: string[] = [];
    const compare = (key: string, values?: Record<string, unknown>) => {
      const want = values ? expected.t(key, values) : expected.t(key);
      const got = actual.t(key as StringKey, values);
      if (got !== want) mismatches.push(`${key} ${values ? JSON.stringify(values) : ""}: ${JSON.stringify(got)}, i18next ${JSON.stringify(want)}`);
    };

    it(`${lang}: every key gives i18next's string and exists`, () => {
      assert.notEqual(english.length, 0);
      for (const [key] of english) {
        compare(key);
        assert.equal(actual.exists(key), expected.exists(key), key);
      }
      assert.deepEqual(mismatches.splice(0), []);
    });

    it(`${lang}: placeholders are filled as i18next fills them`, () => {
      let cases = 0;
      for (const [key, text] of english) {
        const names = namesOf(key, text);
        if (names.length === 0) continue;
        for (const values of valueSets(names)) {
          compare(key, values);
          cases++;
        }
      }
      assert.notEqual(cases, 0);
      assert.deepEqual(mismatches.splice(0), []);
    });

    it(`${lang}: an unknown key reads as itself`, () => {
      for (const key of unknownKeys) {
        compare(key);
        compare(key, { number: 1 });
        assert.equal(actual.exists(key), false, key);
        assert.equal(expected.exists(key), false, key);
      }
      assert.deepEqual(mismatches.splice(0), []);
    });
  }
});
