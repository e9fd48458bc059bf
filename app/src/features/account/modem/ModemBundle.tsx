/**
 * Buying a bundle for a modem or router: a modem cannot read
 * an SMS, so its code goes to the phone number registered as its
 * alternative. Check the modem's number (the server shows the alternative
 * number only masked, `2557•••••001`), ask for a code (modems false, otps
 * true), enter it; then the modem-bundle marker goes into session storage
 * and bundles can be bought for the modem.
 *
 * A modem without an alternative number gets the signed-in number
 * registered (registeringNewNumber) once the visitor shows the modem is
 * with them: a code goes to the modem's own number, they read it on the
 * modem's web page and enter it here (registering).
 *
 * Each step's answer lives only in the page, so this needs JavaScript. A
 * session that lapses on the way opens the login dialog over the step,
 * which stays as it was.
 */
import * as ENDPOINTS from "../../../../generated/endpoints";
import { useEffect, useId, useRef, useState, useSyncExternalStore } from "react";
import { useT } from "../../../i18n/context";
import type {
  BundleOffer,
  ModemAlternative,
  ModemRegistered,
  ModemSignedIn,
  NumberForm,
  RegistrationCodeSent,
} from "../../../contract";
import { SignedInAgain, useAccount } from "../AccountContext";
import { MODEM_BUNDLE_KEY } from "../common/ids";
import { ApiForm } from "../common/ApiForm";
import type { Failure } from "../../../app/api";
import { localMsisdn } from "../common/msisdn";
import { PurchaseForm } from "../purchase/PurchaseForm";
import { CodeField, NumberField, readCode, readNumber, ResendForm, useCountdown } from "../common/fields";

/** A modem and its alternative number as the server shows it: masked, and shown as given. */
type Alternative = Pick<ModemAlternative, "msisdn" | "alternativeMasked">;

export type Step =
  | { step: "number" }
  /** The modem has an alternative number (the `modems` flag). */
  | ({ step: "modems" } & Alternative)
  | { step: "registeringNewNumber"; msisdn: string }
  /** A code went to the modem's own number, to register the visitor's number with. */
  | { step: "registering"; msisdn: string }
  /** A code went to the alternative number (the `otps` flag). */
  | ({ step: "otps" } & Alternative)
  | { step: "modemBundle"; msisdn: string };

/** What a step may do with the flow. */
export interface Flow {
  go(step: Step): void;
  /** A call that did not work; a lapsed session keeps the step (see `Account.failed`). */
  failed(answer: Failure): Promise<void>;
  /**
   * Seconds before another code may go out: one a minute per number and
   * purpose (`key` is the modem's number, or `registrationKey` of it).
   */
  waitFor(key: string): number;
  codeSent(key: string): void;
}

/** The countdown of registration codes, apart from the modem's sign-in codes. */
const registrationKey = (msisdn: string) => `register:${msisdn}`;

/** What takes focus when a step is shown: its field, or the sentence that opens it. */
const STEP_FOCUS = "input:not([type=hidden]), .step-intro";

const noChange = () => () => {};

/** False on the server and while hydrating, true once the page's script runs. */
function useScripted(): boolean {
  return useSyncExternalStore(
    noChange,
    () => true,
    () => false,
  );
}

function storedModem(): string | null {
  try {
    return sessionStorage.getItem(MODEM_BUNDLE_KEY);
  } catch {
    return null;
  }
}

export function ModemBundle({ bundles }: { bundles: BundleOffer[] }) {
  const t = useT();
  const heading = useId();
  const scripted = useScripted();
  return (
    <section className="account-section modem-bundle" aria-labelledby={heading}>
      <h2 id={heading}>{t("modem.title")}</h2>
      <p>{t("modem.intro")}</p>
      {scripted ? <ModemFlow bundles={bundles} /> : <p className="field-hint">{t("modem.needsScript")}</p>}
    </section>
  );
}

function ModemFlow({ bundles }: { bundles: BundleOffer[] }) {
  const t = useT();
  const { failed } = useAccount();
  const [state, setState] = useState<Step>({ step: "number" });
  const [signedInAgain, setSignedInAgain] = useState(false);
  const [codeFor, setCodeFor] = useState<string | null>(null);
  const [left, startCountdown] = useCountdown();
  const container = useRef<HTMLDivElement>(null);
  const stepShown = useRef(state);

  // A modem signed in earlier in this tab (the page reloads after a purchase).
  useEffect(() => {
    const modem = storedModem();
    if (modem) {
      stepShown.current = { step: "modemBundle", msisdn: modem };
      setState(stepShown.current);
    }
  }, []);

  // A step shown after the first takes focus: the clicked button has gone with the last one.
  useEffect(() => {
    if (stepShown.current === state) return;
    stepShown.current = state;
    container.current?.querySelector<HTMLElement>(STEP_FOCUS)?.focus();
  }, [state]);

  const flow: Flow = {
    go: (next) => {
      setSignedInAgain(false);
      setState(next);
    },
    failed: (answer) => failed(answer, () => setSignedInAgain(true)),
    waitFor: (key) => (key === codeFor ? left : 0),
    codeSent: (key) => {
      setCodeFor(key);
      startCountdown();
    },
  };
  return (
    <div ref={container}>
      {signedInAgain && <SignedInAgain text={t("modem.signedInAgain")} />}
      <ModemStep state={state} flow={flow} bundles={bundles} />
    </div>
  );
}

/** One step of the flow. */
export function ModemStep({ state, flow, bundles }: { state: Step; flow: Flow; bundles: BundleOffer[] }) {
  const t = useT();
  const anotherModem = <AnotherModem onClick={() => flow.go({ step: "number" })} />;
  switch (state.step) {
    case "number":
      return (
        <ApiForm<ModemAlternative, NumberForm>
          action={ENDPOINTS.modemCheck}
          read={readNumber}
          onAnswer={(answer, sent) => {
            const { msisdn, alternativeMasked } = answer.body;
            if (answer.ok && msisdn && alternativeMasked) flow.go({ step: "modems", msisdn, alternativeMasked });
            else if (answer.body.notice?.key === "modemNotRegistered")
              flow.go({ step: "registeringNewNumber", msisdn: sent.msisdn });
            else return flow.failed(answer);
          }}
          submitLabel={t("modem.check")}
        >
          <NumberField label={t("modem.number")} />
        </ApiForm>
      );
    case "modems":
      return (
        <>
          <p className="step-intro" tabIndex={-1}>
            {t("modem.alternative", { number: state.alternativeMasked })}
          </p>
          <RequestModemCode alternative={state} flow={flow} />
          {anotherModem}
        </>
      );
    case "registeringNewNumber":
      return (
        <>
          <p className="step-intro" tabIndex={-1}>
            {t("modem.notRegistered")}
          </p>
          <p>{t("modem.registerIntro")}</p>
          <RequestRegistrationCode msisdn={state.msisdn} flow={flow} />
          {anotherModem}
        </>
      );
    case "registering":
      return (
        <>
          <RegistrationCode msisdn={state.msisdn} flow={flow} />
          {anotherModem}
        </>
      );
    case "otps":
      return (
        <>
          <ModemCode alternative={state} flow={flow} />
          {anotherModem}
        </>
      );
    case "modemBundle":
      return (
        <>
          <p className="step-intro" tabIndex={-1} role="status">
            {t("modem.signedIn", { number: localMsisdn(state.msisdn) })}
          </p>
          <PurchaseForm bundles={bundles} forModem={state.msisdn} />
          <AnotherModem
            label={t("modem.done")}
            onClick={() => {
              sessionStorage.removeItem(MODEM_BUNDLE_KEY);
              flow.go({ step: "number" });
            }}
          />
        </>
      );
  }
}

/** A code for the modem, to its alternative number, which the server looks up. */
function RequestModemCode({ alternative, flow }: { alternative: Alternative; flow: Flow }) {
  const t = useT();
  const { notify } = useAccount();
  const { msisdn } = alternative;
  const wait = flow.waitFor(msisdn);
  return (
    <ApiForm<ModemAlternative>
      action={ENDPOINTS.modemRequestOtp}
      read={() => ({ body: { msisdn } })}
      onAnswer={(answer) => {
        if (!answer.ok) return flow.failed(answer);
        notify(answer.body.notice ?? { type: "warning", key: "otpSent" });
        flow.codeSent(msisdn);
        flow.go({
          step: "otps",
          msisdn,
          alternativeMasked: answer.body.alternativeMasked ?? alternative.alternativeMasked,
        });
      }}
      disabled={wait > 0}
      submitLabel={wait > 0 ? t("modem.sendCodeIn", { count: wait }) : t("modem.sendCode")}
    />
  );
}

function ModemCode({ alternative, flow }: { alternative: Alternative; flow: Flow }) {
  const t = useT();
  const { msisdn } = alternative;
  return (
    <>
      <ApiForm<ModemSignedIn>
        action={ENDPOINTS.modemValidateOtp}
        read={readCode}
        onAnswer={(answer) => {
          if (!answer.ok) return flow.failed(answer);
          const modem = answer.body.modem ?? msisdn;
          try {
            sessionStorage.setItem(MODEM_BUNDLE_KEY, modem);
          } catch {
            // without storage the marker lasts as long as the page
          }
          flow.go({ step: "modemBundle", msisdn: modem });
        }}
        submitLabel={t("modem.verify")}
      >
        <input type="hidden" name="msisdn" value={msisdn} />
        <CodeField label={t("modem.code")} hint={t("account.codeHint", { number: alternative.alternativeMasked })} />
      </ApiForm>
      <ResendForm
        action={ENDPOINTS.modemRequestOtp}
        fields={{ msisdn }}
        left={flow.waitFor(msisdn)}
        onSent={() => flow.codeSent(msisdn)}
      />
    </>
  );
}

/** Registering, first step: a code to the modem's own number. */
function RequestRegistrationCode({ msisdn, flow }: { msisdn: string; flow: Flow }) {
  const t = useT();
  const { notify } = useAccount();
  const wait = flow.waitFor(registrationKey(msisdn));
  return (
    <ApiForm<RegistrationCodeSent>
      action={ENDPOINTS.alternativeNumberRequestOtp}
      read={() => ({ body: { msisdn } })}
      onAnswer={(answer) => {
        if (!answer.ok) return flow.failed(answer);
        notify(answer.body.notice ?? { type: "warning", key: "modemCodeSent" });
        flow.codeSent(registrationKey(msisdn));
        flow.go({ step: "registering", msisdn });
      }}
      disabled={wait > 0}
      submitLabel={wait > 0 ? t("modem.sendModemCodeIn", { count: wait }) : t("modem.sendModemCode")}
    />
  );
}

/** Registering, second step: the code read on the modem registers the visitor's number as its alternative. */
function RegistrationCode({ msisdn, flow }: { msisdn: string; flow: Flow }) {
  const t = useT();
  const { notify } = useAccount();
  return (
    <>
      <ApiForm<ModemRegistered>
        action={ENDPOINTS.alternativeNumber}
        read={readCode}
        onAnswer={(answer) => {
          const { alternativeMasked } = answer.body;
          if (!answer.ok || !alternativeMasked) return flow.failed(answer);
          notify(answer.body.notice ?? { type: "warning", key: "modemRegistered" });
          flow.go({ step: "modems", msisdn: answer.body.msisdn ?? msisdn, alternativeMasked });
        }}
        submitLabel={t("modem.register")}
      >
        <input type="hidden" name="msisdn" value={msisdn} />
        <CodeField label={t("modem.modemCode")} hint={t("modem.modemCodeHint", { number: localMsisdn(msisdn) })} />
      </ApiForm>
      <ResendForm
        action={ENDPOINTS.alternativeNumberRequestOtp}
        fields={{ msisdn }}
        left={flow.waitFor(registrationKey(msisdn))}
        onSent={() => flow.codeSent(registrationKey(msisdn))}
      />
    </>
  );
}

function AnotherModem({ label, onClick }: { label?: string; onClick(): void }) {
  const t = useT();
  return (
    <button type="button" className="link-button" onClick={onClick}>
      {label ?? t("account.changeNumber")}
    </button>
  );
}
