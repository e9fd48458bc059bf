/**
 * The site's strings in each language, looked up by dotted key
 * (`t("nav.home")`), with `{{name}}` filled from `values`. A language's
 * translator is made once per JS realm (once per engine on the server, once
 * per tab in the browser): the strings are bundled, nothing is fetched, and
 * a lookup is one map read. Components read the page's translator with
 * `useT` (see `./context`).
 */
import type { Lang } from "../routes";
import en, { type Strings } from "./en";
import sw from "./sw";

export const resources: Record<Lang, Strings> = { en, sw };

/** Every key of the strings: `"site.name"`, `"nav.home"`, … */
type Keys<T, Prefix extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Keys<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
export type StringKey = Keys<Strings>;

/** The text of `key`, `{{name}}` replaced by `values.name`. */
export type TFunction = (key: StringKey, values?: Record<string, unknown>) => string;

export interface Translator {
  lang: Lang;
  t: TFunction;
  /** Whether `key` (typed or not) names a string. */
  exists(key: string): boolean;
}

function flatten(tree: object, prefix: string, into: Map<string, string>): Map<string, string> {
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === "string") into.set(prefix + key, value);
    else flatten(value, `${prefix}${key}.`, into);
  }
  return into;
}

const PLACEHOLDER = /\{\{\s*([\w.-]+)\s*\}\}/g;

/**
 * `text` with its placeholders filled as i18next filled them: a value given
 * as null or undefined reads as "", a name not given at all stays as written.
 */
function fill(text: string, values: Record<string, unknown>): string {
  return text.replace(PLACEHOLDER, (placeholder, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? (values[name] == null ? "" : String(values[name])) : placeholder,
  );
}

function createTranslator(lang: Lang): Translator {
  // A language's missing string falls back to English; a missing key reads as itself.
  const strings = flatten(resources[lang], "", lang === "en" ? new Map() : flatten(en, "", new Map()));
  return {
    lang,
    t: (key, values) => {
      const text = strings.get(key) ?? key;
      return values ? fill(text, values) : text;
    },
    exists: (key) => strings.has(key),
  };
}

const translators = new Map<Lang, Translator>();

/** The translator of `lang`, made on first use. */
export function translator(lang: Lang): Translator {
  let made = translators.get(lang);
  if (!made) {
    made = createTranslator(lang);
    translators.set(lang, made);
  }
  return made;
}
