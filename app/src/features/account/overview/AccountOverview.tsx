/**
 * The signed-in subscriber's details and balances (the operator's
 * authentication user): the account page's personal part. The server renders it alone for
 * each view (`AccountOverviewOf`) into the page it caches for every
 * subscriber of the same kind (`server/src/pages/account.rs`), so it reads
 * nothing but the language and the subscriber, and its heading ids are its
 * own rather than `useId`'s, which depend on where in a tree it renders.
 */
import * as ENDPOINTS from "../../../../generated/endpoints";
import { useEffect, useState } from "react";
import { LanguageProvider, useT, useTranslator } from "../../../i18n/context";
import type { Lang, Subscriber, SubscriberAnswer } from "../../../contract";
import { formatCount, formatDate, formatTzs, withFullStop } from "../../../format";
import { LocalLink, SiteProvider, siteIn, useSite } from "../../../app/site";
import { pathOf } from "../../../routes";
import { AccountProvider, useAccount } from "../AccountContext";
import { callApi } from "../../../app/api";
import { localMsisdn } from "../common/msisdn";

export function AccountOverview({ subscriber }: { subscriber: Subscriber }) {
  const { t, exists: known } = useTranslator();
  const { lang } = useSite();
  const detailsHeading = "account-details-heading";
  const balancesHeading = "account-balances-heading";
  const paymentType = `account.paymentTypes.${subscriber.paymentType}`;
  const paymentTypeText = !subscriber.paymentType
    ? t("balanceStatus.unknown")
    : known(paymentType)
      ? t(paymentType as "account.paymentTypes.PREPAID")
      : subscriber.paymentType;
  const { balance } = subscriber;
  return (
    <>
      <section className="account-section" aria-labelledby={detailsHeading}>
        <h2 id={detailsHeading}>{t("account.details")}</h2>
        <dl className="account-details">
          <dt>{t("account.name")}</dt>
          <dd>{subscriber.names}</dd>
          <dt>{t("account.msisdn")}</dt>
          <dd>{localMsisdn(subscriber.msisdn ?? "")}</dd>
          <dt>{t("account.paymentType")}</dt>
          <dd>{paymentTypeText}</dd>
        </dl>
      </section>
      <section className="account-section" aria-labelledby={balancesHeading}>
        <h2 id={balancesHeading}>{t("account.balances")}</h2>
        {balance ? (
          <>
            <dl className="account-details">
              <dt>{t("account.airtime")}</dt>
              <dd className="airtime-balance">{formatTzs(balance.mainBalance)}</dd>
              {balance.mpesaBalance != null && (
                <>
                  <dt>{t("checkout.mpesaBalance")}</dt>
                  <dd className="mpesa-balance">{formatTzs(balance.mpesaBalance)}</dd>
                </>
              )}
            </dl>
            <h3>{t("account.bundles")}</h3>
            {balance.bundle.length > 0 ? (
              <ul className="bundle-balances">
                {balance.bundle.map((bundle) => {
                  const unit = `account.units.${bundle.unit}`;
                  return (
                    <li key={`${bundle.bundleId ?? bundle.name} ${bundle.unit}`}>
                      <span className="bundle-name">{bundle.name}</span>{" "}
                      <span>
                        {t("account.remaining", {
                          amount: formatCount(bundle.remaining),
                          unit: known(unit) ? t(unit as "account.units.MB") : bundle.unit,
                        })}
                      </span>
                      {bundle.expiresAt && (
                        <>
                          {" "}
                          <time dateTime={bundle.expiresAt}>
                            {t("account.expires", { date: formatDate(bundle.expiresAt, lang) })}
                          </time>
                        </>
                      )}
                    </li>
                  );
                })}
              </ul>
            ) : (
              <p>{t("account.noBundles")}</p>
            )}
          </>
        ) : (
          <BalancesUnavailable />
        )}
      </section>
    </>
  );
}

const noToast = () => {};

/** `AccountOverview` alone, as the account page renders it for `subscriber` in `lang`. */
export function AccountOverviewOf({ lang, subscriber }: { lang: Lang; subscriber: Subscriber }) {
  return (
    <LanguageProvider lang={lang}>
      <SiteProvider value={siteIn(lang)}>
        <AccountProvider subscriber={subscriber} toast={noToast}>
          <AccountOverview subscriber={subscriber} />
        </AccountProvider>
      </SiteProvider>
    </LanguageProvider>
  );
}

/** Waits before asking for the balances again: 2 s, doubling to 15 s. */
function retryDelay(attempt: number): number {
  return Math.min(2000 * 2 ** attempt, 15_000);
}

/**
 * Balances the operator has not given (slow, down, failing): "Sorry an
 * Error occured", that they will show here, and a link that reads
 * the page again (without JavaScript the way to try again). With
 * JavaScript they are asked for again (`GET /api/account`) with growing
 * waits, and the answer that has them replaces the subscriber shown.
 */
function BalancesUnavailable() {
  const t = useT();
  const { lang } = useSite();
  const { failed, setSubscriber } = useAccount();
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let stopped = false;
    const timer = setTimeout(async () => {
      const answer = await callApi<SubscriberAnswer>("GET", ENDPOINTS.account, lang);
      if (stopped) return;
      // The session ended: signed out, as after any other call.
      if (answer.status === 401) return failed(answer);
      const subscriber = answer.body.subscriber;
      if (answer.ok && subscriber?.balance) return setSubscriber(subscriber);
      setAttempt((made) => made + 1);
    }, retryDelay(attempt));
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [attempt, lang, failed, setSubscriber]);
  return (
    <div className="notice-box notice-error balances-unavailable" role="status">
      <p>{`${withFullStop(t("notify.balanceError"))} ${t("balanceStatus.retrying")}`}</p>
      <LocalLink to={pathOf("account")}>{t("balanceStatus.tryAgain")}</LocalLink>
    </div>
  );
}
