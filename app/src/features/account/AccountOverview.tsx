/** The signed-in subscriber's details and balances (spec §3 authentication user). */
import { useId } from "react";
import { useTranslator } from "../../i18n/context";
import type { Subscriber } from "../../contract";
import { formatCount, formatDate, formatTzs, withFullStop } from "../../format";
import { useSite } from "../../app/site";
import { localMsisdn } from "./msisdn";

export function AccountOverview({ subscriber }: { subscriber: Subscriber }) {
  const { t, exists: known } = useTranslator();
  const { lang } = useSite();
  const detailsHeading = useId();
  const balancesHeading = useId();
  const paymentType = `account.paymentTypes.${subscriber.paymentType}`;
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
          <dd>{known(paymentType) ? t(paymentType as "account.paymentTypes.PREPAID") : subscriber.paymentType}</dd>
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
                      <span>{t("account.remaining", { amount: formatCount(bundle.remaining), unit: known(unit) ? t(unit as "account.units.MB") : bundle.unit })}</span>
                      {bundle.expiresAt && (
                        <>
                          {" "}
                          <time dateTime={bundle.expiresAt}>{t("account.expires", { date: formatDate(bundle.expiresAt, lang) })}</time>
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
          <p className="notice-box notice-error">{withFullStop(t("notify.balanceError"))}</p>
        )}
      </section>
    </>
  );
}
