/**
 * Buying a bundle (spec §3 purchase payload): which bundle, for whom (the
 * subscriber, a friend's number, or the modem signed in through the modem
 * flow) and paid how. With JavaScript the answer shows as a toast, the
 * balances are read again and the page reloads after `reloadAfterMs` (spec
 * §4: 5 s); without it the form posts and the next page shows the notice.
 *
 * A session that lapsed before the purchase (spec §8 "Your session has
 * expired") does not cost the visitor their choice: the login dialog opens
 * over the page and the form stays as it was.
 */
import { useEffect, useId, useRef, useState } from "react";
import { useT } from "../../i18n/context";
import type { Bundle, Subscriber } from "../../contract";
import { formatTzs } from "../../format";
import { useSite } from "../../app/site";
import { SignedInAgain, useAccount } from "./AccountContext";
import { ApiForm, type Read } from "./ApiForm";
import { callApi } from "./api";
import { parseMsisdn } from "./msisdn";
import { NumberField } from "./SignIn";

const CHANNELS = ["AIRTIME", "MPESA"] as const;
/** Spec §4, when the server does not say. */
const RELOAD_AFTER_MS = 5000;

export function readPurchase(fields: FormData, forModem: boolean): Read {
  const bundleId = String(fields.get("bundleId") ?? "");
  if (!bundleId) return { invalid: "chooseBundle", field: "bundleId" };
  const body: Record<string, unknown> = { bundleId, purchaseChannel: String(fields.get("purchaseChannel") ?? "AIRTIME") };
  // The server reads `forModem` as form text, in JSON too.
  if (forModem) body.forModem = "true";
  else if (fields.get("recipient") === "friend") {
    const friend = parseMsisdn(String(fields.get("subscriber") ?? ""));
    if (!friend) return { invalid: "invalidMsisdn", field: "subscriber" };
    body.subscriber = friend;
  }
  return { body };
}

export function PurchaseForm({ bundles, forModem }: { bundles: Bundle[]; forModem?: string }) {
  const t = useT();
  const { lang } = useSite();
  const account = useAccount();
  const [reloading, setReloading] = useState(false);
  const [signedInAgain, setSignedInAgain] = useState(false);
  const reloadTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const id = useId();
  useEffect(() => () => clearTimeout(reloadTimer.current), []);

  async function readBalances() {
    const answer = await callApi<{ subscriber: Subscriber }>("GET", "/api/account", lang);
    if (!answer.ok) return account.failed(answer);
    // "Sorry an Error occured" comes with the subscriber when only the balances failed.
    if (answer.body.notice) account.notify(answer.body.notice);
    if (answer.body.subscriber) account.setSubscriber(answer.body.subscriber);
  }

  return (
    <ApiForm<{ reloadAfterMs: number }>
      action="/api/bundles/purchase"
      className="purchase-form"
      read={(fields) => readPurchase(fields, Boolean(forModem))}
      onAnswer={async (answer) => {
        setSignedInAgain(false);
        // Spec §8: a purchase that fails unexpectedly (no answer at all) is "Something is not right!".
        if (answer.status === 0) answer.body.notice = { type: "error", key: "notRight" };
        // Signed in again after a lapsed session, the visitor presses Buy once
        // more, told so beside the button: the purchase is not sent by itself,
        // as it spends money, perhaps from another number than before, and
        // the visitor may have changed their mind while signing in. A modem's
        // sign-in ended with the session, so its purchase cannot go on: that
        // visitor is signed out as after any other lapsed call.
        if (!answer.ok) return account.failed(answer, forModem ? undefined : () => setSignedInAgain(true));
        account.notify(answer.body.notice ?? { type: "warning", key: "purchaseReceived" });
        setReloading(true);
        reloadTimer.current = setTimeout(() => window.location.reload(), answer.body.reloadAfterMs ?? RELOAD_AFTER_MS);
        await readBalances();
      }}
      disabled={reloading}
      submitLabel={t("purchase.submit")}
    >
      {forModem && <input type="hidden" name="forModem" value="true" />}
      <fieldset className="choice-list">
        <legend>{t("purchase.bundle")}</legend>
        {bundles.map((bundle) => (
          <label key={bundle.id} className="choice">
            <input type="radio" name="bundleId" value={bundle.id} required />
            <span>
              <span className="bundle-name">{bundle.name}</span>{" "}
              <span className="bundle-terms">{t("purchase.bundleOption", { price: formatTzs(bundle.price), validity: bundle.validity })}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {!forModem && (
        <fieldset className="choice-inline">
          <legend>{t("purchase.recipient")}</legend>
          <label className="choice">
            <input type="radio" name="recipient" value="self" defaultChecked /> {t("purchase.myself")}
          </label>
          <label className="choice">
            <input type="radio" name="recipient" value="friend" className="for-friend" aria-controls={`${id}-friend`} /> {t("purchase.friend")}
          </label>
          {/* Shown by CSS while "A friend" is chosen, so it works without JavaScript too. */}
          <div id={`${id}-friend`} className="friend-field">
            <NumberField name="subscriber" label={t("purchase.friendNumber")} required={false} />
          </div>
        </fieldset>
      )}
      <fieldset className="choice-inline">
        <legend>{t("purchase.channel")}</legend>
        {CHANNELS.map((channel, index) => (
          <label key={channel} className="choice">
            <input type="radio" name="purchaseChannel" value={channel} defaultChecked={index === 0} /> {t(`purchase.channels.${channel}`)}
          </label>
        ))}
      </fieldset>
      {signedInAgain && <SignedInAgain text={t("purchase.signedInAgain")} />}
    </ApiForm>
  );
}
