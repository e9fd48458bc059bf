import * as ENDPOINTS from "../../generated/endpoints";
import { useId } from "react";
import { useT } from "../i18n/context";
import { useLocation } from "../app/address";
import type { PageProps } from "./props";
import { PageBody } from "../components/PageBody";
import { useSite } from "../app/site";
import { formatTzs } from "../format";
import { PROTOCOL } from "../contract";
import { localePath, pathOf } from "../routes";
import { useAccount } from "../features/account/AccountContext";
import { LogoutForm } from "../features/account/AccountControl";
import { AccountOverview } from "../features/account/overview/AccountOverview";
import { ModemBundle } from "../features/account/modem/ModemBundle";
import { PurchaseForm } from "../features/account/purchase/PurchaseForm";
import { LoginFlow } from "../features/account/sign-in/SignIn";
import { InlineJson } from "../components/InlineJson";
import { SIGN_IN_STRINGS_ID, signInStrings } from "../enhance/strings";
import { stringsOf } from "../i18n";

/** Parameters of the sign-in steps; every other one the address carries is kept through them. */
const SIGN_IN_PARAMS = ["step", "msisdn"];

/**
 * `/account`: signed out, the page's content and the sign-in forms (the
 * code step when the address says `?step=code&msisdn=…`, the number kept
 * with `?msisdn=…`), saying which bundle a "Buy" link chose
 * (`?bundleId=…`, kept through signing in); signed in, the subscriber's
 * details, balances, bundle purchase (that bundle chosen; its confirmation
 * step without JavaScript at `?step=confirm&…`) and modem bundles.
 */
export default function AccountPage({ data }: PageProps) {
  const t = useT();
  const { lang } = useSite();
  const { signedIn } = useAccount();
  const { search } = useLocation();
  const loginHeading = useId();
  const buyHeading = useId();
  const { subscriber, bundles } = data;
  const query = new URLSearchParams(search);

  if (!subscriber) {
    const msisdn = query.get("msisdn");
    const keep = new URLSearchParams([...query].filter(([name]) => !SIGN_IN_PARAMS.includes(name)));
    const chosen = bundles?.find((bundle) => bundle.id === query.get("bundleId"));
    return (
      <PageBody page={data.content.page}>
        <section className="account-section account-login" aria-labelledby={loginHeading}>
          <h2 id={loginHeading}>{t("account.loginTitle")}</h2>
          {chosen && (
            <p className="notice-box notice-info">
              {t("checkout.signInToBuy", { name: chosen.name, price: formatTzs(chosen.price) })}
            </p>
          )}
          <LoginFlow
            key={search}
            initial={
              msisdn
                ? { msisdn, step: query.get(PROTOCOL.stepParam) === PROTOCOL.codeStep ? "code" : "number" }
                : undefined
            }
            keep={keep}
            onSignedIn={() => signedIn(`${localePath(lang, pathOf("account"))}${keep.toString() ? `?${keep}` : ""}`)}
          />
          {/* For the login dialog of every other page, which is made of these forms (`enhance/login.ts`). */}
          <InlineJson id={SIGN_IN_STRINGS_ID} value={signInStrings(stringsOf(lang))} />
        </section>
      </PageBody>
    );
  }

  return (
    <>
      <h1 className="page-title">{data.content.page?.title ?? t("account.myAccount")}</h1>
      <AccountOverview subscriber={subscriber} />
      <section className="account-section" aria-labelledby={buyHeading}>
        <h2 id={buyHeading}>{t("purchase.title")}</h2>
        {bundles?.length ? (
          <PurchaseForm key={search} bundles={bundles} payer={subscriber} query={query} />
        ) : (
          <p>{t("purchase.unavailable")}</p>
        )}
      </section>
      {bundles?.length ? <ModemBundle bundles={bundles} /> : null}
      <LogoutForm action={ENDPOINTS.logout} label={t("account.logOut")} />
    </>
  );
}
