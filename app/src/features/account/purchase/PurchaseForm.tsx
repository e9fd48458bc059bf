/**
 * Buying a bundle in two steps. First the
 * choice: which bundle (the one a "Buy" link named is chosen already), for
 * whom (the subscriber, a friend's number, or the modem signed in through
 * the modem flow) and paid how (M-Pesa only for a number that has it).
 * Then, before any money moves, the confirmation: bundle, price, payer,
 * recipient and payment method. With JavaScript both steps stay on the
 * page; without it the choice is a GET of the account page's confirmation
 * step (`?step=confirm&bundleId=…`), whose form posts.
 *
 * After the purchase the answer shows as a toast (with what was
 * bought for whom), the balances are read again and the page reloads after
 * `reloadAfterMs` (5 s); without JavaScript the next page shows
 * the notice.
 *
 * Never bought twice by mistake: the button waits while a purchase is
 * under way; the server refuses the same bundle for the same number again
 * within two minutes until the visitor confirms it, which the confirmation
 * then asks for; an answer that never came is "not confirmed yet, check
 * your balance". A session that lapsed before the purchase ("Your
 * session has expired") does not cost the visitor their choice: the login
 * dialog opens over the page and the confirmation stays as it was.
 */
import * as ENDPOINTS from "../../../../generated/endpoints";
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useT } from "../../../i18n/context";
import {
  PROTOCOL,
  RELOAD_AFTER_MS,
  type BundleOffer,
  type Notice,
  type PurchaseForm as Purchase,
  type PurchaseReceived,
  type Subscriber,
  type SubscriberAnswer,
} from "../../../contract";
import { formatTzs } from "../../../format";
import { localePath, pathOf } from "../../../routes";
import { useSite } from "../../../app/site";
import { SignedInAgain, useAccount } from "../AccountContext";
import { ApiForm, checkedByScript, FormMessage, useFieldCheck, type Read } from "../common/ApiForm";
import { callApi, type Answer } from "../../../app/api";
import { localMsisdn, parseMsisdn } from "../common/msisdn";
import type { NoticeKey } from "../common/notices";
import { NumberField } from "../common/fields";

const CHANNELS = ["AIRTIME", "MPESA"] as const;
/** The choice list's groups, by the catalogue's bundle type. */
const GROUPS = ["DATA", "VOICE", "SMS", "MIXED"] as const;

/** The group a bundle is listed under: its type, or mixed. */
function groupOf(bundle: BundleOffer): (typeof GROUPS)[number] {
  return GROUPS.includes(bundle.type as (typeof GROUPS)[number]) ? (bundle.type as (typeof GROUPS)[number]) : "MIXED";
}

/** Fields as a form or a page address carries them. */
type Fields = Pick<FormData, "get">;

/** The purchase a choice asks for, as it is sent; or the field that is wrong. */
export function readPurchase(fields: Fields, forModem: boolean): Read<Purchase> {
  const bundleId = String(fields.get("bundleId") ?? "");
  if (!bundleId) return { invalid: "chooseBundle", field: "bundleId" };
  const channel = CHANNELS.find((method) => method === fields.get("purchaseChannel")) ?? "AIRTIME";
  const body: Purchase = { bundleId, purchaseChannel: channel };
  // The server reads `forModem` as form text, in JSON too.
  if (forModem) body.forModem = "true";
  else if (fields.get("recipient") === "friend") {
    const friend = parseMsisdn(String(fields.get("subscriber") ?? ""));
    if (!friend) return { invalid: "invalidMsisdn", field: "subscriber" };
    body.subscriber = friend;
  }
  return { body };
}

/** A purchase chosen and waiting for its confirmation. */
interface Chosen {
  body: Purchase;
  /** The server said the same was bought less than two minutes ago: confirming buys it again. */
  again: boolean;
}

/** What the confirmation step of a page address (without JavaScript) asks for, if anything. */
function chosenByAddress(query: URLSearchParams, forModem: boolean): Read<Purchase> | undefined {
  return query.get(PROTOCOL.stepParam) === PROTOCOL.confirmStep && !forModem ? readPurchase(query, false) : undefined;
}

export function PurchaseForm({
  bundles,
  payer,
  forModem,
  query = new URLSearchParams(),
}: {
  bundles: BundleOffer[];
  /** Who pays: the subscriber, or with `forModem` the modem itself. */
  payer?: Subscriber | null;
  forModem?: string;
  /** The page address's query: the bundle a "Buy" link chose, or the confirmation step without JavaScript. */
  query?: URLSearchParams;
}) {
  const t = useT();
  const { lang } = useSite();
  const account = useAccount();
  const byAddress = chosenByAddress(query, Boolean(forModem));
  const [chosen, setChosen] = useState<Chosen | null>(
    byAddress && "body" in byAddress ? { body: byAddress.body, again: query.get("again") === "true" } : null,
  );
  const [reloading, setReloading] = useState(false);
  const [signedInAgain, setSignedInAgain] = useState(false);
  const reloadTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(reloadTimer.current), []);
  // A modem pays from its own airtime.
  const methods = forModem ? ["AIRTIME"] : (payer?.paymentMethods ?? CHANNELS);
  const bundle = chosen && bundles.find((b) => b.id === chosen.body.bundleId);

  async function readBalances() {
    const answer = await callApi<SubscriberAnswer>("GET", ENDPOINTS.account, lang);
    if (!answer.ok) return account.failed(answer);
    // "Sorry an Error occured" comes with the subscriber when only the balances failed.
    if (answer.body.notice) account.notify(answer.body.notice);
    if (answer.body.subscriber) account.setSubscriber(answer.body.subscriber);
  }

  async function answered(answer: Answer<PurchaseReceived>): Promise<Notice | void> {
    setSignedInAgain(false);
    if (answer.status === 409 && answer.body.notice?.key === "purchaseRepeat") {
      setChosen((now) => now && { ...now, again: true });
      return;
    }
    // A purchase that fails unexpectedly (no answer at all) is "Something is not right!".
    if (answer.status === 0) answer.body.notice = { type: "error", key: "notRight" };
    if (!answer.ok) {
      // Signed in again after a lapsed session, the visitor confirms once
      // more, told so beside the button: the purchase is not sent by itself,
      // as it spends money, perhaps from another number than before. A
      // modem's sign-in ended with the session, so its purchase cannot go
      // on: that visitor is signed out as after any other lapsed call.
      await account.failed(answer, forModem ? undefined : () => setSignedInAgain(true));
      // "Not confirmed yet" stays beside the button, not only in a toast that goes.
      return answer.status === 504 ? answer.body.notice : undefined;
    }
    account.notify(answer.body.notice ?? { type: "warning", key: "purchaseReceived" });
    setChosen(null);
    setReloading(true);
    reloadTimer.current = setTimeout(() => window.location.reload(), answer.body.reloadAfterMs ?? RELOAD_AFTER_MS);
    await readBalances();
  }

  return (
    <>
      <ChoiceForm
        bundles={bundles}
        methods={methods}
        forModem={forModem}
        query={query}
        invalid={byAddress && "invalid" in byAddress ? byAddress.invalid : undefined}
        hidden={Boolean(chosen && bundle)}
        disabled={reloading}
        onChosen={(body) => setChosen({ body, again: false })}
      />
      {chosen && bundle && (
        <Confirmation
          key={String(chosen.again)}
          bundle={bundle}
          chosen={chosen}
          payer={payer}
          forModem={forModem}
          disabled={reloading}
          onAnswer={answered}
          onChange={() => {
            setChosen(null);
            setSignedInAgain(false);
          }}
        >
          {signedInAgain && <SignedInAgain text={t("purchase.signedInAgain")} />}
        </Confirmation>
      )}
    </>
  );
}

/** The first step: which bundle, for whom, paid how. Without JavaScript a GET of the confirmation step. */
function ChoiceForm({
  bundles,
  methods,
  forModem,
  query,
  invalid,
  hidden,
  disabled,
  onChosen,
}: {
  bundles: BundleOffer[];
  methods: readonly string[];
  forModem?: string;
  query: URLSearchParams;
  invalid?: NoticeKey;
  hidden: boolean;
  disabled: boolean;
  onChosen(body: Purchase): void;
}) {
  const t = useT();
  const { lang } = useSite();
  const id = useId();
  const { message, check } = useFieldCheck();
  const shown = message ?? (invalid ? { type: "error" as const, key: invalid } : null);
  const named = query.get("bundleId");
  const chosenBundle = bundles.some((b) => b.id === named) ? named! : "";
  const channel = methods.includes(query.get("purchaseChannel") ?? "") ? query.get("purchaseChannel") : methods[0];
  const forFriend = query.get("recipient") === "friend";
  const byGroup = new Map(GROUPS.map((group) => [group, [] as BundleOffer[]]));
  for (const bundle of bundles) byGroup.get(groupOf(bundle))?.push(bundle);

  function choose(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = check(event.currentTarget, (fields) => readPurchase(fields, Boolean(forModem)));
    if (body) onChosen(body);
  }

  return (
    <form
      method="get"
      action={localePath(lang, pathOf("account"))}
      className="purchase-form"
      hidden={hidden}
      onSubmit={choose}
      aria-describedby={shown ? `${id}-message` : undefined}
      ref={checkedByScript}
    >
      <input type="hidden" name={PROTOCOL.stepParam} value={PROTOCOL.confirmStep} />
      <div className="field">
        <label htmlFor={`${id}-bundle`}>{t("purchase.bundle")}</label>
        <select id={`${id}-bundle`} name="bundleId" required defaultValue={chosenBundle}>
          <option value="">{t("checkout.choose")}</option>
          {GROUPS.map((group) => {
            const inGroup = byGroup.get(group) ?? [];
            return (
              inGroup.length > 0 && (
                <optgroup key={group} label={t(`checkout.groups.${group}`)}>
                  {inGroup.map((bundle) => (
                    <option key={bundle.id} value={bundle.id}>
                      {`${bundle.name}: ${t("purchase.bundleOption", { price: formatTzs(bundle.price), validity: bundle.validity })}`}
                    </option>
                  ))}
                </optgroup>
              )
            );
          })}
        </select>
      </div>
      {!forModem && (
        <fieldset className="choice-inline">
          <legend>{t("purchase.recipient")}</legend>
          <label className="choice">
            <input type="radio" name="recipient" value="self" defaultChecked={!forFriend} /> {t("purchase.myself")}
          </label>
          <label className="choice">
            <input
              type="radio"
              name="recipient"
              value="friend"
              className="for-friend"
              aria-controls={`${id}-friend`}
              defaultChecked={forFriend}
            />{" "}
            {t("purchase.friend")}
          </label>
          {/* Shown by CSS while "A friend" is chosen, so it works without JavaScript too. */}
          <div id={`${id}-friend`} className="friend-field">
            <NumberField
              name="subscriber"
              label={t("purchase.friendNumber")}
              required={false}
              defaultValue={query.get("subscriber") ?? undefined}
            />
          </div>
        </fieldset>
      )}
      <fieldset className="choice-inline">
        <legend>{t("purchase.channel")}</legend>
        {methods.map((method) => (
          <label key={method} className="choice">
            <input type="radio" name="purchaseChannel" value={method} defaultChecked={method === channel} />{" "}
            {t(`purchase.channels.${method as (typeof CHANNELS)[number]}`)}
          </label>
        ))}
      </fieldset>
      {shown && <FormMessage id={`${id}-message`} message={shown} />}
      <button type="submit" className="button" disabled={disabled}>
        {t("checkout.continue")}
      </button>
    </form>
  );
}

/** The second step: what is about to be bought, for whom, paid by whom and how; then the purchase. */
function Confirmation({
  bundle,
  chosen,
  payer,
  forModem,
  disabled,
  onAnswer,
  onChange,
  children,
}: {
  bundle: BundleOffer;
  chosen: Chosen;
  payer?: Subscriber | null;
  forModem?: string;
  disabled: boolean;
  onAnswer(answer: Answer<PurchaseReceived>): Promise<Notice | void>;
  onChange(): void;
  children?: ReactNode;
}) {
  const t = useT();
  const { lang } = useSite();
  const heading = useId();
  const title = useRef<HTMLHeadingElement>(null);
  // Shown after the choice (or asking again), it takes focus, so it is read out.
  useEffect(() => title.current?.focus(), []);
  const { body, again } = chosen;
  const channel = body.purchaseChannel as (typeof CHANNELS)[number];
  const friend = body.subscriber;
  // Numbers never wrap across lines (no-break spaces between their groups).
  const number = (msisdn: string) => localMsisdn(msisdn).replace(/ /g, "\u00a0");
  const own = number(payer?.msisdn ?? "");
  const paidBy = forModem
    ? t("checkout.theModem", { number: number(forModem) })
    : t("checkout.person", { name: payer?.names ?? "", number: own });
  const paidFor = forModem
    ? t("checkout.theModem", { number: number(forModem) })
    : friend
      ? number(friend)
      : t("checkout.yourNumber", { number: own });
  const onBill = channel === "AIRTIME" && !forModem && payer?.paymentType === "POSTPAID";
  const sent: Purchase = again ? { ...body, again: "true" } : body;
  // The choice again, as the choice form's address (without JavaScript).
  const change = `${localePath(lang, pathOf("account"))}?${new URLSearchParams({
    bundleId: bundle.id,
    recipient: friend ? "friend" : "self",
    subscriber: friend ? localMsisdn(friend) : "",
    purchaseChannel: channel,
  })}`;
  return (
    <section className="purchase-confirm" aria-labelledby={heading}>
      <h3 id={heading} ref={title} tabIndex={-1}>
        {t("checkout.confirmTitle")}
      </h3>
      <dl className="purchase-summary">
        <dt>{t("purchase.bundle")}</dt>
        <dd>
          {bundle.name} <span className="bundle-terms">({bundle.validity})</span>
        </dd>
        <dt>{t("bundles.price")}</dt>
        <dd className="purchase-price">{formatTzs(bundle.price)}</dd>
        <dt>{t("checkout.payer")}</dt>
        <dd>{paidBy}</dd>
        <dt>{t("checkout.recipient")}</dt>
        <dd>{paidFor}</dd>
        <dt>{t("purchase.channel")}</dt>
        <dd>{onBill ? t("checkout.onBill") : t(`purchase.channels.${channel}`)}</dd>
      </dl>
      {again && (
        <p className="notice-box notice-error repeat-warning" role="alert">
          {t("notify.purchaseRepeat")}
        </p>
      )}
      <ApiForm<PurchaseReceived>
        action={ENDPOINTS.purchase}
        className="purchase-form"
        read={() => ({ body: sent })}
        onAnswer={onAnswer}
        disabled={disabled}
        submitLabel={again ? t("checkout.confirmAgain") : t("checkout.confirm", { price: formatTzs(bundle.price) })}
      >
        {Object.entries(sent).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={String(value)} />
        ))}
        {children}
      </ApiForm>
      <a
        href={change}
        className="change-purchase"
        onClick={(event) => {
          event.preventDefault();
          onChange();
        }}
      >
        {t("checkout.change")}
      </a>
    </section>
  );
}
