/**
 * `Intl.PluralRules` for the site's two languages, for the server's engine:
 * QuickJS has no Intl of its own, and the engine binding installs a stand-in
 * whose `select` answers "other" for every number and names no plural
 * categories, so i18next would write "1 seconds" there and "1 second" in the
 * browser. English and Swahili share one CLDR cardinal rule (one: i = 1 and
 * v = 0), which for a JS number is "one" for 1 and -1 and "other" for any other.
 * Browsers have the real `Intl.PluralRules` and keep it (`pluralRules.test.ts`
 * holds this one to node's).
 */
const LANGUAGES = ["en", "sw"];

export class SitePluralRules {
  readonly #locale: string;

  constructor(locales?: string | readonly string[], options?: { type?: "cardinal" | "ordinal" }) {
    const locale = [locales ?? "en"].flat()[0];
    if (!LANGUAGES.includes(locale.split(/[-_]/)[0])) throw new RangeError(`no plural rules for ${locale}`);
    if (options?.type === "ordinal") throw new RangeError("no ordinal plural rules");
    this.#locale = locale;
  }

  select(count: number): "one" | "other" {
    return Math.abs(Number(count)) === 1 ? "one" : "other";
  }

  resolvedOptions() {
    return { locale: this.#locale, type: "cardinal", pluralCategories: ["one", "other"] };
  }

  static supportedLocalesOf(locales: string | readonly string[]): string[] {
    return [locales].flat().filter((locale) => LANGUAGES.includes(locale.split(/[-_]/)[0]));
  }
}

/** Whether the engine's `Intl.PluralRules` tells "one" from "other" (the stand-in does not). */
function engineHasPluralRules(): boolean {
  try {
    const rules = new Intl.PluralRules("en");
    return rules.select(1) === "one" && Array.isArray(rules.resolvedOptions().pluralCategories);
  } catch {
    return false;
  }
}

/** Puts `SitePluralRules` in `Intl` unless the engine's own works. */
export function installPluralRules(): void {
  if (engineHasPluralRules()) return;
  const global = globalThis as { Intl?: object };
  global.Intl ??= {};
  Object.defineProperty(global.Intl, "PluralRules", { value: SitePluralRules, writable: true, configurable: true });
}
