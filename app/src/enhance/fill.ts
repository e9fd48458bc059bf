/**
 * The enhancement script's own strings filled in, as the translator fills
 * the app's: `{{name}}` replaced by its value, and a counted string's form
 * chosen by the count. The strings come in the page (`./strings.ts`), so no
 * translator is loaded for a few texts.
 */
import { SitePluralRules } from "../i18n/pluralRules";
import type { Counted } from "./strings";

/** `text` with each `{{name}}` replaced by `values.name`; a name without a value stays as it is. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/{{(\w+)}}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** The form of `forms` for `count`, by the rule both site languages share, filled with `count` and `values`. */
export function counted(forms: Counted, count: number, values: Record<string, string | number> = {}): string {
  const form = new SitePluralRules("en").select(count) === "one" ? forms.one : forms.other;
  return fill(form, { ...values, count });
}
