/**
 * The foundation partnership application. Without JavaScript it is one
 * long form (three applicant rows, five budget lines: blank ones are
 * ignored). With it, the same fields come in steps (applicants,
 * organisation, project, budget, review), rows can be added, the budget's
 * total shows as it is typed, and every keystroke is kept as a draft on the
 * phone, so a dropped connection or a closed tab loses nothing: the next
 * visit restores it (a chosen PDF excepted), with the fill's idempotency key.
 */
import * as ENDPOINTS from "../../../generated/endpoints";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useT } from "../../i18n/context";
import type { FormState } from "../../contract";
import { LocalLink } from "../../app/site";
import { formatTzs } from "../../format";
import {
  FormHead,
  FileField,
  FormValuesProvider,
  Honeypot,
  Received,
  Select,
  TextArea,
  TextField,
  fieldId,
} from "./Fields";
import { FIELD_LENGTHS, ORGANISATION_TYPES, REGIONS } from "../../contract";
import { fieldPairs, newKey } from "./send";
import { problemText } from "./problems";
import { useFormPost } from "./useFormPost";
import { clearDraft, useDraft } from "./foundationDraft";
import { STEPS, useSteps, type Step } from "./foundationSteps";

const ACTION = ENDPOINTS.foundationApplication;
/** The fields in the order the form asks them (rows as `[]`). */
const ORDER = [
  "applicants",
  "applicants[].name",
  "applicants[].email",
  "applicants[].phone",
  "applicants[].role",
  "organisation.name",
  "organisation.type",
  "organisation.registrationNumber",
  "project.title",
  "project.summary",
  "project.startDate",
  "project.endDate",
  "location.region",
  "location.district",
  "team.size",
  "team.description",
  "budget",
  "budget[].item",
  "budget[].amountTzs",
  "proposal",
];
/** Rows the long form offers without JavaScript. */
const APPLICANT_ROWS = 3;
const BUDGET_ROWS = 5;

/** Rows a list needs to show every row named in `names`. */
function rowsFor(names: string[], list: string, least: number): number {
  const rows = names
    .map((name) => new RegExp(`^${list}\\[(\\d+)\\]`).exec(name))
    .filter(Boolean)
    .map((m) => Number(m![1]) + 1);
  return Math.max(least, ...rows);
}

export function FoundationApplicationForm({ sentBack, reference }: { sentBack?: FormState; reference: string | null }) {
  const t = useT();
  const [enhanced, setEnhanced] = useState(false);
  const sentNames = Object.keys(sentBack?.values ?? {});
  const [applicants, setApplicants] = useState(() => rowsFor(sentNames, "applicants", APPLICANT_ROWS));
  const [lines, setLines] = useState(() => rowsFor(sentNames, "budget", BUDGET_ROWS));
  const [total, setTotal] = useState(0);
  const form = useRef<HTMLFormElement>(null);
  const steps = useSteps(form);
  const post = useFormPost(sentBack?.errors ?? {}, { onErrors: steps.showErrors, onSent: clearDraft });
  useEffect(() => setEnhanced(true), []);
  // The draft this phone kept, unless the server sent the form back or shows it received.
  const draft = useDraft(form, post, {
    skip: Boolean(sentBack || reference),
    onRows: (names) => {
      setApplicants((n) => Math.max(n, rowsFor(names, "applicants", 0)));
      setLines((n) => Math.max(n, rowsFor(names, "budget", 0)));
    },
    onFilled: () => changed(),
  });

  function changed() {
    if (!form.current) return;
    const pairs = fieldPairs(form.current);
    const amounts = pairs
      .filter(([name]) => /^budget\[\d+\]\.amountTzs$/.test(name))
      .map(([, value]) => Number(value.replace(/[,\s_]/g, "")));
    setTotal(amounts.filter((n) => Number.isInteger(n) && n > 0).reduce((a, b) => a + b, 0));
    if (enhanced) draft.keep(pairs);
  }

  function startOver() {
    draft.forget();
    form.current?.reset();
    post.setKey(newKey());
    steps.go(0);
    changed();
  }

  const shown = post.reference ?? reference;
  if (shown) {
    return (
      <Received
        title={t("forms.foundation.received")}
        text={t("forms.foundation.receivedText")}
        reference={shown}
        back={
          <LocalLink to="/foundation" className="button">
            {t("forms.foundation.back")}
          </LocalLink>
        }
      />
    );
  }

  const label = (path: string): string => {
    const row = /^(applicants|budget)\[(\d+)\]\.(\w+)$/.exec(path);
    if (row) {
      const [, list, index, field] = row;
      const number = Number(index) + 1;
      const fieldLabel =
        list === "budget"
          ? t(field === "item" ? "forms.foundation.item" : "forms.foundation.amount")
          : t(`forms.foundation.${field as "name" | "email" | "phone" | "role"}`);
      return `${list === "budget" ? t("forms.foundation.line", { number }) : t("forms.foundation.applicant", { number })}, ${fieldLabel}`;
    }
    const labels: Record<string, string> = {
      applicants: t("forms.foundation.step.applicants"),
      budget: t("forms.foundation.step.budget"),
      "organisation.name": t("forms.foundation.organisationName"),
      "organisation.type": t("forms.foundation.organisationType"),
      "organisation.registrationNumber": t("forms.foundation.registrationNumber"),
      "project.title": t("forms.foundation.projectTitle"),
      "project.summary": t("forms.foundation.summary"),
      "project.startDate": t("forms.foundation.startDate"),
      "project.endDate": t("forms.foundation.endDate"),
      "location.region": t("forms.foundation.region"),
      "location.district": t("forms.foundation.district"),
      "team.size": t("forms.foundation.teamSize"),
      "team.description": t("forms.foundation.teamDescription"),
      proposal: t("forms.foundation.proposal"),
    };
    return labels[path] ?? path;
  };
  const step = steps.step;
  const visible = (name: Step) => !enhanced || STEPS[step] === name;
  const fieldset = (name: Step, children: ReactNode) => (
    <fieldset className="form-group" data-step={name} hidden={!visible(name)}>
      <legend>{t(`forms.foundation.step.${name}`)}</legend>
      {children}
    </fieldset>
  );
  const listError = (name: "applicants" | "budget") =>
    post.errors[name] && (
      <p id={fieldId(name)} className="field-error" tabIndex={-1}>
        {problemText(post.errors[name], t)}
      </p>
    );

  return (
    <FormValuesProvider value={{ values: sentBack?.values ?? {}, errors: post.errors }}>
      {enhanced && (
        <ol className="form-steps" aria-label={t("forms.foundation.steps")}>
          {STEPS.map((name, index) => (
            <li key={name} aria-current={index === step ? "step" : undefined}>
              {t(`forms.foundation.step.${name}`)}
            </li>
          ))}
        </ol>
      )}
      {draft.restored && (
        <div className="form-notice" role="status">
          <p>{t("forms.foundation.draftRestored")}</p>
          <button type="button" className="button button-secondary" onClick={startOver}>
            {t("forms.foundation.startOver")}
          </button>
        </div>
      )}
      <form
        ref={form}
        method="post"
        action={ACTION}
        encType="multipart/form-data"
        className="site-form"
        noValidate
        onSubmit={post.submit}
        onInput={changed}
        onChange={changed}
      >
        <FormHead errors={post.errors} order={ORDER} label={label} onPick={enhanced ? steps.showField : undefined} />
        {enhanced && (
          <p className="form-step-count">{t("forms.foundation.stepOf", { step: step + 1, count: STEPS.length })}</p>
        )}
        {fieldset(
          "applicants",
          <>
            <p className="field-hint">{t("forms.foundation.applicantsHint")}</p>
            {listError("applicants")}
            {Array.from({ length: applicants }, (_, row) => (
              <fieldset key={row} className="form-row">
                <legend>{t("forms.foundation.applicant", { number: row + 1 })}</legend>
                <TextField
                  name={`applicants[${row}].name`}
                  label={t("forms.foundation.name")}
                  required={row < 2}
                  autoComplete={row === 0 ? "name" : "off"}
                  maxLength={FIELD_LENGTHS.short}
                />
                <TextField
                  name={`applicants[${row}].email`}
                  type="email"
                  label={t("forms.foundation.email")}
                  required={row < 2}
                  autoComplete={row === 0 ? "email" : "off"}
                  maxLength={FIELD_LENGTHS.email}
                />
                <TextField
                  name={`applicants[${row}].phone`}
                  type="tel"
                  inputMode="tel"
                  label={t("forms.foundation.phone")}
                  required={row < 2}
                  autoComplete={row === 0 ? "tel" : "off"}
                  maxLength={FIELD_LENGTHS.short}
                />
                <TextField
                  name={`applicants[${row}].role`}
                  label={t("forms.foundation.role")}
                  required={row < 2}
                  maxLength={FIELD_LENGTHS.short}
                />
              </fieldset>
            ))}
            {enhanced && applicants < 10 && (
              <button type="button" className="button button-secondary" onClick={() => setApplicants(applicants + 1)}>
                {t("forms.foundation.addApplicant")}
              </button>
            )}
          </>,
        )}
        {fieldset(
          "organisation",
          <>
            <TextField
              name="organisation.name"
              label={t("forms.foundation.organisationName")}
              required
              autoComplete="organization"
              maxLength={FIELD_LENGTHS.line}
            />
            <Select
              name="organisation.type"
              label={t("forms.foundation.organisationType")}
              required
              options={ORGANISATION_TYPES.map((type) => [type, t(`forms.foundation.types.${type}`)])}
            />
            <TextField
              name="organisation.registrationNumber"
              label={t("forms.foundation.registrationNumber")}
              required
              maxLength={FIELD_LENGTHS.short}
            />
          </>,
        )}
        {fieldset(
          "project",
          <>
            <TextField
              name="project.title"
              label={t("forms.foundation.projectTitle")}
              required
              maxLength={FIELD_LENGTHS.line}
            />
            <TextArea
              name="project.summary"
              label={t("forms.foundation.summary")}
              hint={t("forms.foundation.summaryHint")}
              required
              maxLength={FIELD_LENGTHS.long}
            />
            <TextField name="project.startDate" type="date" label={t("forms.foundation.startDate")} required />
            <TextField name="project.endDate" type="date" label={t("forms.foundation.endDate")} required />
            <fieldset className="form-subgroup">
              <legend>{t("forms.foundation.location")}</legend>
              <Select
                name="location.region"
                label={t("forms.foundation.region")}
                required
                options={REGIONS.map((region) => [region, region])}
              />
              <TextField
                name="location.district"
                label={t("forms.foundation.district")}
                required
                maxLength={FIELD_LENGTHS.short}
              />
            </fieldset>
            <fieldset className="form-subgroup">
              <legend>{t("forms.foundation.team")}</legend>
              <TextField
                name="team.size"
                inputMode="numeric"
                label={t("forms.foundation.teamSize")}
                required
                maxLength={FIELD_LENGTHS.count}
              />
              <TextArea
                name="team.description"
                label={t("forms.foundation.teamDescription")}
                required
                maxLength={FIELD_LENGTHS.long}
              />
            </fieldset>
          </>,
        )}
        {fieldset(
          "budget",
          <>
            <p className="field-hint">{t("forms.foundation.budgetHint")}</p>
            {listError("budget")}
            {Array.from({ length: lines }, (_, row) => (
              <fieldset key={row} className="form-row form-row-inline">
                <legend>{t("forms.foundation.line", { number: row + 1 })}</legend>
                <TextField
                  name={`budget[${row}].item`}
                  label={t("forms.foundation.item")}
                  required={row === 0}
                  maxLength={FIELD_LENGTHS.line}
                />
                <TextField
                  name={`budget[${row}].amountTzs`}
                  inputMode="numeric"
                  label={t("forms.foundation.amount")}
                  required={row === 0}
                  maxLength={FIELD_LENGTHS.amount}
                />
              </fieldset>
            ))}
            {enhanced && lines < 50 && (
              <button type="button" className="button button-secondary" onClick={() => setLines(lines + 1)}>
                {t("forms.foundation.addLine")}
              </button>
            )}
            {enhanced && (
              <p className="form-total" aria-live="polite">
                {t("forms.foundation.total")}: <strong>{formatTzs(total)}</strong>
              </p>
            )}
            <FileField
              name="proposal"
              label={t("forms.foundation.proposal")}
              hint={t("forms.foundation.proposalHint")}
              accept="application/pdf,.pdf"
            />
          </>,
        )}
        {enhanced && STEPS[step] === "review" && (
          <section className="form-group form-review" aria-labelledby="review-heading">
            <h2 id="review-heading">{t("forms.foundation.step.review")}</h2>
            <p>{t("forms.foundation.reviewHint")}</p>
            <dl>
              {steps.review.map(([name, value]) => (
                <div key={name} className="form-review-row">
                  <dt>{label(name)}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
              <div className="form-review-row">
                <dt>{t("forms.foundation.total")}</dt>
                <dd>{formatTzs(total)}</dd>
              </div>
            </dl>
          </section>
        )}
        <Honeypot />
        {post.offline && (
          <p className="form-message form-message-error" role="alert">
            {t("forms.offline")}
          </p>
        )}
        <p className="actions form-step-actions">
          {enhanced && step > 0 && (
            <button type="button" className="button button-secondary" onClick={() => steps.go(step - 1)}>
              {t("forms.foundation.previous")}
            </button>
          )}
          {/* Keys: a "Next" click that shows the last step must not become a submit click on the same element. */}
          {enhanced && step < STEPS.length - 1 ? (
            <button key="next" type="button" className="button" onClick={() => steps.go(step + 1)}>
              {t("forms.foundation.next")}
            </button>
          ) : (
            <button
              key="submit"
              type="submit"
              className="button"
              disabled={post.busy}
              aria-busy={post.busy || undefined}
            >
              {post.busy ? t("forms.sending") : t("forms.foundation.submit")}
            </button>
          )}
        </p>
      </form>
    </FormValuesProvider>
  );
}
