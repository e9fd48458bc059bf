/**
 * Buying for a modem (spec §2 modem-bundle flow, §4): a modem cannot read
 * an SMS, so its code goes to the phone number registered as its
 * alternative. Check the modem's number, ask for a code (modems false, otps
 * true), enter it; then the modem-bundle marker goes into session storage
 * and bundles can be bought for the modem. A modem without an alternative
 * number gets the signed-in number registered (registeringNewNumber).
 *
 * Each step's answer lives only in the page, so this needs JavaScript.
 */
import { useEffect, useId, useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import type { Bundle } from "../../contract";
import { MODEM_BUNDLE_KEY, useAccount } from "./AccountContext";
import { ApiForm } from "./ApiForm";
import { localMsisdn, maskMsisdn } from "./msisdn";
import { PurchaseForm } from "./PurchaseForm";
import { CodeField, NumberField, readCode, readNumber, ResendForm, useCountdown } from "./SignIn";

type Step =
  | { step: "number" }
  /** The modem has an alternative number (the `modems` flag). */
  | { step: "modems"; msisdn: string; alternativeMsisdn: string }
  | { step: "registeringNewNumber"; msisdn: string }
  /** A code went to the alternative number (the `otps` flag). */
  | { step: "otps"; msisdn: string; alternativeMsisdn: string }
  | { step: "modemBundle"; msisdn: string };

interface Alternative {
  msisdn: string;
  alternativeMsisdn: string;
}

const noChange = () => () => {};

/** False on the server and while hydrating, true once the page's script runs. */
function useScripted(): boolean {
  return useSyncExternalStore(noChange, () => true, () => false);
}

function storedModem(): string | null {
  try {
    return sessionStorage.getItem(MODEM_BUNDLE_KEY);
  } catch {
    return null;
  }
}

export function ModemBundle({ bundles }: { bundles: Bundle[] }) {
  const { t } = useTranslation();
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

function ModemFlow({ bundles }: { bundles: Bundle[] }) {
  const { t } = useTranslation();
  const { failed } = useAccount();
  const [state, setState] = useState<Step>({ step: "number" });
  const [left, startCountdown] = useCountdown();

  // A modem signed in earlier in this tab (the page reloads after a purchase).
  useEffect(() => {
    const modem = storedModem();
    if (modem) setState({ step: "modemBundle", msisdn: modem });
  }, []);

  const codeSent = ({ msisdn, alternativeMsisdn }: Alternative) => {
    setState({ step: "otps", msisdn, alternativeMsisdn });
    startCountdown();
  };

  switch (state.step) {
    case "number":
      return (
        <ApiForm<Alternative>
          action="/api/modem/check"
          read={readNumber}
          onAnswer={(answer, sent) => {
            const { msisdn, alternativeMsisdn } = answer.body;
            if (answer.ok && msisdn && alternativeMsisdn) setState({ step: "modems", msisdn, alternativeMsisdn });
            else if (answer.status === 404) setState({ step: "registeringNewNumber", msisdn: String(sent.msisdn) });
            else return failed(answer);
          }}
          submitLabel={t("modem.check")}
        >
          <NumberField label={t("modem.number")} />
        </ApiForm>
      );
    case "modems":
      return (
        <>
          <p>{t("modem.alternative", { number: maskMsisdn(state.alternativeMsisdn) })}</p>
          <RequestModemCode alternative={state} onSent={codeSent} />
          <AnotherModem onClick={() => setState({ step: "number" })} />
        </>
      );
    case "registeringNewNumber":
      return (
        <>
          <p>{t("modem.notRegistered")}</p>
          <ApiForm<Alternative>
            action="/api/alternative-number"
            read={() => ({ body: { msisdn: state.msisdn } })}
            onAnswer={(answer) => {
              const { msisdn, alternativeMsisdn } = answer.body;
              if (answer.ok && msisdn && alternativeMsisdn) setState({ step: "modems", msisdn, alternativeMsisdn });
              else return failed(answer);
            }}
            submitLabel={t("modem.register")}
          >
            <input type="hidden" name="msisdn" value={state.msisdn} />
          </ApiForm>
          <AnotherModem onClick={() => setState({ step: "number" })} />
        </>
      );
    case "otps":
      return (
        <>
          <ApiForm<{ modem: string }>
            action="/api/modem/validate-otp"
            read={readCode}
            onAnswer={(answer) => {
              if (!answer.ok) return failed(answer);
              const modem = answer.body.modem ?? state.msisdn;
              try {
                sessionStorage.setItem(MODEM_BUNDLE_KEY, modem);
              } catch {
                // without storage the marker lasts as long as the page
              }
              setState({ step: "modemBundle", msisdn: modem });
            }}
            submitLabel={t("modem.verify")}
          >
            <input type="hidden" name="msisdn" value={state.msisdn} />
            <CodeField label={t("modem.code")} hint={t("account.codeHint", { number: maskMsisdn(state.alternativeMsisdn) })} />
          </ApiForm>
          <ResendForm
            action="/api/modem/request-otp"
            fields={{ msisdn: state.msisdn, alternativeMsisdn: state.alternativeMsisdn }}
            left={left}
            onSent={startCountdown}
          />
          <AnotherModem onClick={() => setState({ step: "number" })} />
        </>
      );
    case "modemBundle":
      return (
        <>
          <p role="status">{t("modem.signedIn", { number: localMsisdn(state.msisdn) })}</p>
          <PurchaseForm bundles={bundles} forModem={state.msisdn} />
          <AnotherModem
            label={t("modem.done")}
            onClick={() => {
              sessionStorage.removeItem(MODEM_BUNDLE_KEY);
              setState({ step: "number" });
            }}
          />
        </>
      );
  }
}

function RequestModemCode({ alternative, onSent }: { alternative: Alternative; onSent(alternative: Alternative): void }) {
  const { t } = useTranslation();
  const { notify, failed } = useAccount();
  return (
    <ApiForm
      action="/api/modem/request-otp"
      read={() => ({ body: { msisdn: alternative.msisdn, alternativeMsisdn: alternative.alternativeMsisdn } })}
      onAnswer={(answer) => {
        if (!answer.ok) return failed(answer);
        notify(answer.body.notice ?? { type: "warning", key: "otpSent" });
        onSent(alternative);
      }}
      submitLabel={t("modem.sendCode")}
    />
  );
}

function AnotherModem({ label, onClick }: { label?: string; onClick(): void }) {
  const { t } = useTranslation();
  return (
    <button type="button" className="link-button" onClick={onClick}>
      {label ?? t("account.changeNumber")}
    </button>
  );
}
