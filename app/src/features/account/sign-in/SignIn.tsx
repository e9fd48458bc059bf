/**
 * The subscriber's sign-in with a one-time code: the number, then the
 * 6-digit code with a resend countdown. The same flow serves the login
 * dialog and the account page (as plain HTML forms without JavaScript, the
 * step coming from `?step=code&msisdn=`); its fields are shared with the
 * modem's and CPM's sign-ins (`../common/fields.tsx`).
 */
import * as ENDPOINTS from "../../../../generated/endpoints";
import { useEffect, useRef, useState } from "react";
import { useT } from "../../../i18n/context";
import { PROTOCOL, type CodeSent, type SubscriberAnswer } from "../../../contract";
import { localePath } from "../../../routes";
import { useSite } from "../../../app/site";
import { ApiForm } from "../common/ApiForm";
import { CodeField, NumberField, readCode, readNumber, ResendForm, useCountdown } from "../common/fields";
import { localMsisdn } from "../common/msisdn";

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
            returnTo={address({ [PROTOCOL.stepParam]: PROTOCOL.codeStep, msisdn })}
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
            returnTo={address({ [PROTOCOL.stepParam]: PROTOCOL.codeStep, msisdn })}
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
