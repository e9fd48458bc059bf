/**
 * What the server says is wrong with a form, in the page's language: it
 * names each problem by key (`contract::feedback::Problem`), with the
 * values its text names, and the words are the strings' `forms.problems`,
 * in the server's render (a form sent back without JavaScript) and in the
 * browser alike.
 */
import type { TFunction } from "../../i18n";
import type { Problem } from "../../contract";
import type { Strings } from "../../i18n/en";

/**
 * Every problem the server names has a text: `tsc` fails here, naming the
 * key, while `en.ts` has none (and `sw.ts` must have every key `en.ts` has).
 */
export type ProblemsHaveTexts = HasText<Problem["key"]>;
type HasText<K extends keyof Strings["forms"]["problems"]> = K;

/** The words of `problem`. */
export function problemText(problem: Problem, t: TFunction): string {
  return t(`forms.problems.${problem.key}`, "params" in problem ? problem.params : undefined);
}
