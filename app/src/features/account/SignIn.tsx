/**
 * Signing in with a one-time code: the number,
 * then the 6-digit code with a resend countdown. The same forms serve the
 * login dialog, the account page (as plain HTML forms without JavaScript,
 * the step coming from `?step=code&msisdn=`) and the CPM pages.
 */
import * as ENDPOINTS from "../../../generated/endpoints";
import { useEffect, useId, useRef, useState } from "react";
import { useT } from "../../i18n/context";
import { FIELD_LENGTHS, type CodeForm, type CodeSent, type NumberForm, type SubscriberAnswer } from "../../contract";
import { localePath } from "../../routes";
import { useSite } from "../../app/site";
import { ApiForm, type Read } from "./ApiForm";
import { isOtpCode, localMsisdn, parseMsisdn } from "./msisdn";

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

/**
 * The subscriber's sign-in. `initial` is what a page address asks for (the
 * form posts of a browser without JavaScript): the code step for a number,
 * or the number step with the number typed before (a refused code request);
 * `keep` are the address's other parameters, kept on the way back (a bundle
 * chosen to buy). `onSignedIn` runs once the code is accepted and the
 * session cookie set.
 */
export function LoginFlow({
  initial,
  keep,
  onSignedIn,
}: {
  initial?: { msisdn: string; step: "number" | "code" };
  keep?: URLSearchParams;
  onSignedIn(): Promise<void>;
}) {
  const t = useT();
  const { lang, path } = useSite();
  const [msisdn, setMsisdn] = useState(initial?.msisdn ?? "");
  const [step, setStep] = useState<"number" | "code">(initial?.step ?? "number");
  const [left, startCountdown] = useCountdown(initial?.step === "code");
  const container = useRef<HTMLDivElement>(null);
  const stepShown = useRef(step);

  // A step shown after the first moves focus to its field.
  useEffect(() => {
    if (stepShown.current === step) return;
    stepShown.current = step;
    container.current?.querySelector<HTMLElement>("input:not([type=hidden])")?.focus();
  }, [step]);

  const page = localePath(lang, path);
  const address = (more: Record<string, string> = {}) => {
    const query = new URLSearchParams(keep);
    for (const [name, value] of Object.entries(more)) query.set(name, value);
    const text = query.toString();
    return text ? `${page}?${text}` : page;
  };
  return (
    <div className="login-flow" ref={container}>
      {step === "number" ? (
        <ApiForm<CodeSent>
          action={ENDPOINTS.signInRequestOtp}
          returnTo={address()}
          read={readNumber}
          onAnswer={(answer) => {
            if (!answer.ok) return answer.body.notice;
            setMsisdn(answer.body.msisdn ?? msisdn);
            setStep("code");
            startCountdown();
          }}
          submitLabel={t("account.sendCode")}
        >
          <NumberField label={t("account.number")} hint={t("account.numberHint")} defaultValue={msisdn} />
        </ApiForm>
      ) : (
        <>
          <ApiForm<SubscriberAnswer>
            action={ENDPOINTS.signInValidateOtp}
            returnTo={address({ step: "code", msisdn })}
            read={readCode}
            onAnswer={async (answer) => {
              if (!answer.ok) return answer.body.notice;
              await onSignedIn();
            }}
            submitLabel={t("account.verify")}
          >
            <input type="hidden" name="msisdn" value={msisdn} />
            <CodeField label={t("account.code")} hint={t("account.codeHint", { number: localMsisdn(msisdn) })} />
          </ApiForm>
          <ResendForm
            action={ENDPOINTS.signInRequestOtp}
            returnTo={address({ step: "code", msisdn })}
            fields={{ msisdn }}
            left={left}
            onSent={startCountdown}
          />
          <a
            href={address()}
            className="change-number"
            onClick={(event) => {
              event.preventDefault();
              setStep("number");
            }}
          >
            {t("account.changeNumber")}
          </a>
        </>
      )}
    </div>
  );
}
