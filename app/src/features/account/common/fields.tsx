/**
 * The fields and steps every sign-in with a one-time code shares (the
 * subscriber's, the modem's and CPM's): a phone number, a 6-digit code, and
 * a request for a new code once its countdown ends; and reading both as the
 * contract's bodies, refusing a bad one before any call.
 */
import { useEffect, useId, useState } from "react";
import { useT } from "../../../i18n/context";
import { FIELD_LENGTHS, type CodeForm, type NumberForm } from "../../../contract";
import { ApiForm, type Read } from "./ApiForm";
import { isOtpCode, parseMsisdn } from "./msisdn";

/** A new code can be asked for this long after the last (OPERATOR_API.md). */
export const RESEND_AFTER_SECONDS = 60;

export function readNumber(fields: FormData): Read<NumberForm> {
  const msisdn = parseMsisdn(String(fields.get("msisdn") ?? ""));
  return msisdn ? { body: { msisdn } } : { invalid: "invalidMsisdn", field: "msisdn" };
}

export function readCode(fields: FormData): Read<CodeForm> {
  const code = String(fields.get("code") ?? "").trim();
  return isOtpCode(code)
    ? { body: { msisdn: String(fields.get("msisdn") ?? ""), code } }
    : { invalid: "invalidCode", field: "code" };
}

export function NumberField({
  label,
  hint,
  defaultValue,
  name = "msisdn",
  required = true,
}: {
  label: string;
  hint?: string;
  defaultValue?: string;
  name?: string;
  required?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      <input
        id={id}
        name={name}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        required={required}
        defaultValue={defaultValue}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
    </div>
  );
}

export function CodeField({ label, hint }: { label: string; hint: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <p id={`${id}-hint`} className="field-hint">
        {hint}
      </p>
      <input
        id={id}
        name="code"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern={`[0-9]{${FIELD_LENGTHS.otpCode}}`}
        maxLength={FIELD_LENGTHS.otpCode}
        required
        className="code-input"
        aria-describedby={`${id}-hint`}
      />
    </div>
  );
}

/**
 * Seconds left before a new code may be asked for, and a way to start
 * counting; `fromMount` starts at once (a page shown right after a code was sent).
 */
export function useCountdown(fromMount = false): [number, () => void] {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (fromMount) setLeft(RESEND_AFTER_SECONDS);
  }, [fromMount]);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft(left - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return [left, () => setLeft(RESEND_AFTER_SECONDS)];
}

/**
 * Asks for a new code (posting `fields` to `action` again), once the
 * countdown allows. Without JavaScript the server answers by sending the
 * browser back to the code step.
 */
export function ResendForm({
  action,
  returnTo,
  fields,
  left,
  onSent,
}: {
  action: string;
  returnTo?: string;
  fields: NumberForm;
  left: number;
  onSent(): void;
}) {
  const t = useT();
  return (
    <ApiForm
      action={action}
      returnTo={returnTo}
      className="resend-form"
      read={() => ({ body: fields })}
      onAnswer={(answer) => {
        if (answer.ok) onSent();
        return answer.body.notice;
      }}
      disabled={left > 0}
      submitLabel={left > 0 ? t("account.resendIn", { count: left }) : t("account.resend")}
    >
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </ApiForm>
  );
}
