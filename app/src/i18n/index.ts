/**
 * The site's strings in each language, translated by i18next: `t("nav.home")`,
 * `{{name}}` filled from `values`, and a counted string (`key_one`,
 * `key_other` in the strings) chosen by `values.count` through the language's
 * plural rules. One i18next instance per language per JS realm (each server
 * engine, each browser tab), made when a render first asks for it, from the
 * strings loaded by then: the server's bundle and the unit tests load both
 * languages' when they start (`./bundled.ts`); an island loads its visitor's
 * language's alone, a chunk of its own, before it renders (`loadStrings`), so
 * that a visitor does not download the other language. Init is synchronous,
 * so a render never waits. Components read the page's translator with `useT`
 * (see `./context`).
 */
import i18next, { type i18n } from "i18next";
import { Kept } from "../kept";
import type { Lang } from "../routes";
import type { Strings } from "./en";

/** The languages' strings loaded so far. */
const loaded: Partial<Record<Lang, Strings>> = {};

export function addStrings(lang: Lang, strings: Strings) {
  loaded[lang] = strings;
}

/** Loads the strings of `lang` if they are not yet: in a browser, its chunk. */
export async function loadStrings(lang: Lang): Promise<void> {
  if (loaded[lang]) return;
  const { default: strings } = await (lang === "sw" ? import("./sw") : import("./en"));
  addStrings(lang, strings);
}

/** The strings of `lang`, which must be loaded. */
export function stringsOf(lang: Lang): Strings {
  const strings = loaded[lang];
  if (!strings) throw new Error(`the ${lang} strings are not loaded`);
  return strings;
}

/** The strings of a language loaded, whichever: for what asks which keys exist (every language has every key, `strings.test.ts`). */
export function someStrings(): Strings {
  const strings = loaded.en ?? loaded.sw;
  if (!strings) throw new Error("no strings are loaded");
  return strings;
}

/** The plural forms the site's languages use (English and Swahili: one, other). */
type PluralForm = "one" | "other";

/** Every string's key as written: `"site.name"`, `"account.resendIn_one"`, … */
type Leaves<T, Prefix extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
type Leaf = Leaves<Strings>;

/** Keys as asked for: a counted string's without its plural form (`"account.resendIn_other"` → `"account.resendIn"`). */
export type AskedKey<K extends string> = K extends `${infer Base}_other`
  ? Base
  : K extends `${string}_${PluralForm}`
    ? never
    : K;
/** The key of a counted string, without its plural form: `"account.resendIn"`. */
export type CountedKey = Leaf extends infer K ? (K extends `${infer Base}_other` ? Base : never) : never;
/** The key of a string that takes no count. */
export type StringKey = Exclude<Leaf, `${string}_${PluralForm}`>;

/** The text of `key`, `{{name}}` replaced by `values.name`; a counted key needs `values.count`. */
export interface TFunction {
  (key: StringKey, values?: Record<string, unknown>): string;
  (key: CountedKey, values: { count: number } & Record<string, unknown>): string;
}

export interface Translator {
  lang: Lang;
  /** i18next's `getFixedT(lang)`. */
  t: TFunction;
  /** Whether `key` (typed or not) names a string. */
  exists(key: string): boolean;
}

function createTranslator(lang: Lang): Translator {
  const instance = i18next.createInstance();
  instance.init({
    lng: lang,
    // A language's missing string falls back to English; a missing key reads as itself.
    fallbackLng: "en",
    supportedLngs: ["en", "sw"],
    resources: Object.fromEntries(Object.entries(loaded).map(([name, strings]) => [name, { translation: strings }])),
    // Synchronous: the strings are bundled, and a render cannot wait for a promise.
    initAsync: false,
    // React escapes what it renders; the head's JSON-LD is serialised as JSON.
    interpolation: { escapeValue: false },
    // Keys name strings only, never namespaces: a `:` in one is part of it.
    nsSeparator: false,
    returnNull: false,
    showSupportNotice: false,
  });
  return { lang, ...remembered(instance, lang) };
}

/**
 * The instance's `getFixedT(lang)` and `exists`, remembering what they gave:
 * an answer depends on the key and the values alone (the strings are bundled
 * and never change), and asking i18next costs some 20 µs a call in V8
 * (`getFixedT` copies the instance's options each call) and ~100 µs in
 * QuickJS, while a page asks for a hundred texts or more, mostly the same on
 * every page.
 */
function remembered(instance: i18n, lang: Lang): Pick<Translator, "t" | "exists"> {
  const fixedT = instance.getFixedT(lang) as (key: string, values?: Record<string, unknown>) => string;
  // Bounded: visitors' values (a search query, say) are not.
  const plain = new Kept<string>();
  const filled = new Kept<string>();
  const known = new Kept<boolean>();
  const t = (key: string, values?: Record<string, unknown>): string => {
    if (!values) return plain.get(key) ?? plain.keep(key, fixedT(key));
    const id = idOf(key, values);
    if (id === undefined) return fixedT(key, values);
    return filled.get(id) ?? filled.keep(id, fixedT(key, values));
  };
  return { t: t as TFunction, exists: (key) => known.get(key) ?? known.keep(key, instance.exists(key)) };
}

/** The letter `idOf` writes for each type of value it remembers. */
const TYPE_LETTERS: Partial<Record<string, string>> = { string: "s", number: "n", boolean: "b", undefined: "u" };

/**
 * What tells one call from another: the key, and each value with its type
 * (i18next counts only a number, and fills in `null` and `undefined` alike
 * but not an absent name); undefined for a value that is not a string,
 * number, boolean or nothing, whose text is not remembered. The key, names
 * and strings go in with their lengths, so no two calls share an id; it is
 * built by concatenation alone, as a page asks for tens of filled texts.
 */
function idOf(key: string, values: Record<string, unknown>): string | undefined {
  let id = `${key.length}:${key}`;
  for (const name of Object.keys(values)) {
    const value = values[name];
    const letter = value === null ? "l" : TYPE_LETTERS[typeof value];
    if (letter === undefined) return undefined;
    id += `|${name.length}:${name}${letter}${typeof value === "string" ? `${value.length}:${value}` : String(value)}`;
  }
  return id;
}

const translators: Partial<Record<Lang, Translator>> = {};

/** The translator of `lang`, whose strings must be loaded. */
export function translator(lang: Lang): Translator {
  stringsOf(lang);
  return (translators[lang] ??= createTranslator(lang));
}
