/**
 * The fields of the site's forms, each with its label, hint and the
 * server's message beside it (`aria-invalid`, `aria-describedby`). Values
 * and messages come from `FormValues`: what a form posted without
 * JavaScript typed (the server sends the page back with them), or what the
 * script got back. Forms are `noValidate`: `required` marks a field for
 * assistive technology, and the server checks every field, in the page's
 * language, where a browser would in its own. Inputs are uncontrolled, so text typed before the
 * page's script has loaded on a slow connection is never reset.
 */
import { PROTOCOL } from "../../contract";
import { createContext, useContext, useEffect, useRef, type ReactNode } from "react";
import { CsrfField } from "../../app/csrf";
import { useSite } from "../../app/site";
import { localePath } from "../../routes";
import type { TFunction } from "../../i18n";
import { useT } from "../../i18n/context";
import { problemText } from "./problems";
import type { Errors } from "./send";

export interface FormValues {
  values: Record<string, string[] | undefined>;
  errors: Errors;
}

const FormValuesContext = createContext<FormValues>({ values: {}, errors: {} });

export const FormValuesProvider = FormValuesContext.Provider;

/** The element id of the input named `name` (error summaries link to it). */
export function fieldId(name: string): string {
  return `field-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;
}

function useField(name: string) {
  const t = useT();
  const { values, errors } = useContext(FormValuesContext);
  const id = fieldId(name);
  const problem = errors[name];
  return { t, id, value: values[name]?.[0] ?? "", all: values[name] ?? [], error: problem && problemText(problem, t) };
}

type Field = ReturnType<typeof useField>;

function describedBy(id: string, hint?: ReactNode, error?: string): string | undefined {
  return [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
}

/*
 * A field's label, hint and error message are functions rather than
 * components: a form has tens of fields, and a component each cost the
 * server's render more than its markup.
 */

function fieldLabel(id: string, label: ReactNode, required: boolean | undefined, t: TFunction) {
  return (
    <label htmlFor={id}>
      {label}
      {!required && <span className="field-optional"> {t("forms.optional")}</span>}
    </label>
  );
}

function fieldHint(id: string, hint?: ReactNode) {
  return hint ? (
    <p id={`${id}-hint`} className="field-hint">
      {hint}
    </p>
  ) : null;
}

function fieldMessage(id: string, error?: string) {
  return error ? (
    <p id={`${id}-error`} className="field-error">
      {error}
    </p>
  ) : null;
}

/** A field's control with its label and hint above and its message below. */
function fieldFrame(
  field: Field,
  { label, hint, required }: { label: ReactNode; hint?: ReactNode; required?: boolean },
  control: ReactNode,
  className = "field",
) {
  return (
    <div className={className}>
      {fieldLabel(field.id, label, required, field.t)}
      {fieldHint(field.id, hint)}
      {control}
      {fieldMessage(field.id, field.error)}
    </div>
  );
}

/** What a control says of itself to assistive technology: refused, and what describes it. */
function controlState(field: Field, hint?: ReactNode) {
  return {
    "aria-invalid": field.error ? true : undefined,
    "aria-describedby": describedBy(field.id, hint, field.error),
  } as const;
}

interface InputProps {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  required?: boolean;
  type?: "text" | "email" | "tel" | "date";
  autoComplete?: string;
  inputMode?: "text" | "numeric" | "tel" | "email";
  maxLength?: number;
}

export function TextField({
  name,
  label,
  hint,
  required = false,
  type = "text",
  autoComplete,
  inputMode,
  maxLength,
}: InputProps) {
  const field = useField(name);
  return fieldFrame(
    field,
    { label, hint, required },
    <input
      id={field.id}
      name={name}
      type={type}
      defaultValue={field.value}
      required={required}
      autoComplete={autoComplete}
      inputMode={inputMode}
      maxLength={maxLength}
      {...controlState(field, hint)}
    />,
  );
}

export function TextArea({
  name,
  label,
  hint,
  required = false,
  maxLength,
}: Omit<InputProps, "type" | "autoComplete" | "inputMode">) {
  const field = useField(name);
  return fieldFrame(
    field,
    { label, hint, required },
    <textarea
      id={field.id}
      name={name}
      rows={5}
      defaultValue={field.value}
      required={required}
      maxLength={maxLength}
      {...controlState(field, hint)}
    />,
    "field field-wide",
  );
}

export function Select({
  name,
  label,
  hint,
  required = false,
  options,
  onChange,
}: Omit<InputProps, "type"> & { options: [string, string][]; onChange?(value: string): void }) {
  const field = useField(name);
  return fieldFrame(
    field,
    { label, hint, required },
    <select
      id={field.id}
      name={name}
      defaultValue={field.value}
      required={required}
      {...controlState(field, hint)}
      onChange={onChange && ((event) => onChange(event.currentTarget.value))}
    >
      <option value="">{field.t("forms.choose")}</option>
      {options.map(([code, text]) => (
        <option key={code} value={code}>
          {text}
        </option>
      ))}
    </select>,
  );
}

/** A file input (the foundation's proposal PDF). */
export function FileField({
  name,
  label,
  hint,
  accept,
}: {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  accept: string;
}) {
  const field = useField(name);
  return fieldFrame(
    field,
    { label, hint },
    <input id={field.id} name={name} type="file" accept={accept} {...controlState(field, hint)} />,
  );
}

/** Radio buttons (one of) or checkboxes (any of), in a fieldset named by its legend. */
export function Choices({
  name,
  legend,
  options,
  multiple = false,
  required = false,
  onChange,
}: {
  name: string;
  legend: ReactNode;
  options: [string, string][];
  multiple?: boolean;
  required?: boolean;
  onChange?(value: string): void;
}) {
  const { id, all, error } = useField(name);
  return (
    <fieldset className="choice-list" id={id} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      {options.map(([code, text]) => (
        <label key={code} className="choice">
          <input
            type={multiple ? "checkbox" : "radio"}
            name={name}
            value={code}
            defaultChecked={all.includes(code)}
            required={required && !multiple}
            onChange={onChange && ((event) => onChange(event.currentTarget.value))}
          />
          <span>{text}</span>
        </label>
      ))}
      {fieldMessage(id, error)}
    </fieldset>
  );
}

/** A field people leave empty and form-filling bots do not. */
export function Honeypot() {
  const t = useT();
  return (
    <div className="form-trap" aria-hidden="true">
      <label>
        {t("forms.leaveEmpty")}
        <input name={PROTOCOL.honeypotField} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}

/**
 * `errors` in the order of the form: `order` lists its fields, rows written
 * `applicants[].email`; rows of one list come in their own order.
 */
export function inFormOrder<T>(errors: Record<string, T>, order: string[]): [string, T][] {
  const place = (name: string): [number, number] => {
    const row = /\[(\d+)\]/.exec(name);
    const index = order.indexOf(name.replace(/\[\d+\]/, "[]"));
    return [index < 0 ? order.length : index, row ? Number(row[1]) : 0];
  };
  const rank = (name: string) => {
    const [index, row] = place(name);
    const list = order.findIndex((field) => (field.endsWith("[]") ? false : name.startsWith(`${field}[`)));
    // Fields of a list's rows sort with the list, row by row.
    return list >= 0 ? [list, row, index] : [index, 0, 0];
  };
  return Object.entries(errors).sort(([a], [b]) => {
    const [x, y] = [rank(a), rank(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
}

interface SummaryProps {
  errors: Errors;
  order: string[];
  label: (name: string) => string;
  onPick?(name: string): void;
}

/**
 * What every form posts besides its fields (the session's token, the
 * page's language, the address to come back to), then the server's
 * messages, focused each time they change so that a screen reader reads
 * them out.
 */
export function FormHead(summaryProps: SummaryProps) {
  const { lang, path } = useSite();
  const summary = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (Object.keys(summaryProps.errors).length) summary.current?.querySelector<HTMLElement>(".error-summary")?.focus();
  }, [summaryProps.errors]);
  return (
    <>
      <CsrfField />
      <input type="hidden" name="lang" value={lang} />
      <input type="hidden" name="returnTo" value={localePath(lang, path)} />
      <div ref={summary}>
        <ErrorSummary {...summaryProps} />
      </div>
    </>
  );
}

/** The server's messages, linked to their fields, at the top of the form, in its order. */
function ErrorSummary({ errors, order, label, onPick }: SummaryProps) {
  const t = useT();
  const entries = inFormOrder(errors, order);
  if (!entries.length) return null;
  const whole = errors.form;
  return (
    <div className="error-summary" role="alert" tabIndex={-1}>
      <p className="form-message form-message-error">{whole ? problemText(whole, t) : t("forms.correct")}</p>
      {!whole && (
        <ul>
          {entries.map(([name, message]) => (
            <li key={name}>
              <a
                href={`#${fieldId(name)}`}
                onClick={
                  onPick &&
                  ((event) => {
                    event.preventDefault();
                    onPick(name);
                  })
                }
              >
                {label(name)}: {problemText(message, t)}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A received form's reference, big enough to write down. */
export function Received({
  title,
  text,
  reference,
  back,
}: {
  title: string;
  text: string;
  reference: string;
  back: ReactNode;
}) {
  const t = useT();
  return (
    <section className="form-received" aria-live="polite">
      <h2>{title}</h2>
      <p className="form-reference">{t("forms.reference", { reference })}</p>
      <p>{t("forms.keepReference")}</p>
      <p>{text}</p>
      <p className="actions">{back}</p>
    </section>
  );
}

/** A reference as the server makes them (`BC-7K3M9Q2X`); anything else in an address is ignored. */
export function referenceIn(search: string): string | null {
  const reference = new URLSearchParams(search).get("reference");
  return reference && /^(BC|FA)-[0-9A-HJKMNP-TV-Z]{8}$/.test(reference) ? reference : null;
}
