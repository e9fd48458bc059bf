/**
 * The foundation application's steps once JavaScript runs: the same fields
 * as the long form, shown a step at a time (applicants, organisation,
 * project, budget, review), the review listing what was typed, and a
 * refused field's step shown with the field focused.
 */
import { useState, type RefObject } from "react";
import { PROTOCOL } from "../../contract";
import { fieldId } from "./Fields";
import { fieldPairs, type Errors } from "./send";

export const STEPS = ["applicants", "organisation", "project", "budget", "review"] as const;
export type Step = (typeof STEPS)[number];

/** The step a field (`applicants[1].email`, `team.size`, `proposal`) is asked in. */
export function stepOf(path: string): Step {
  if (path.startsWith("applicants")) return "applicants";
  if (path.startsWith("organisation")) return "organisation";
  if (path.startsWith("budget") || path === "proposal") return "budget";
  return "project";
}

/** The first step with a field the server refused, if any. */
export function firstStepWith(errors: Errors): number | undefined {
  const first = STEPS.findIndex((s) => Object.keys(errors).some((name) => name !== "form" && stepOf(name) === s));
  return first >= 0 ? first : undefined;
}

export interface Steps {
  /** The step shown, an index into `STEPS`. */
  step: number;
  /** What the review step lists: the fields typed in, in the form's order. */
  review: [string, string][];
  /** Shows step `to`, scrolled to its top (the review read from the form first). */
  go(to: number): void;
  /** Shows the step a field is in, and focuses the field. */
  showField(name: string): void;
  /** Shows the first step with a refused field. */
  showErrors(errors: Errors): void;
}

export function useSteps(form: RefObject<HTMLFormElement | null>): Steps {
  const [step, setStep] = useState(0);
  const [review, setReview] = useState<[string, string][]>([]);
  return {
    step,
    review,
    go(to) {
      if (form.current && STEPS[to] === "review")
        setReview(fieldPairs(form.current).filter(([name, value]) => value.trim() && name !== PROTOCOL.honeypotField));
      setStep(to);
      requestAnimationFrame(() =>
        form.current
          ?.querySelector<HTMLElement>(`[data-step="${STEPS[to]}"] legend`)
          ?.scrollIntoView({ block: "start" }),
      );
    },
    showField(name) {
      setStep(STEPS.indexOf(stepOf(name)));
      requestAnimationFrame(() => document.getElementById(fieldId(name))?.focus());
    },
    showErrors(errors) {
      const first = firstStepWith(errors);
      if (first !== undefined) setStep(first);
    },
  };
}
