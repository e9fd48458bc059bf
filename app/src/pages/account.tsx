import { useId } from "react";
import { useT } from "../i18n/context";
import { useLocation } from "react-router";
import type { PageProps } from "../pages";
import { PageBody } from "../components/PageBody";
import { useSite } from "../app/site";
import { localePath } from "../routes";
import { useAccount } from "../features/account/AccountContext";
import { LogoutForm } from "../features/account/AccountControl";
import { AccountOverview } from "../features/account/AccountOverview";
import { ModemBundle } from "../features/account/ModemBundle";
import { PurchaseForm } from "../features/account/PurchaseForm";
import { LoginFlow } from "../features/account/SignIn";

/**
 * `/account`: signed out, the page's content and the sign-in forms (the
 * code step when the address says `?step=code&msisdn=…`); signed in, the
 * subscriber's details, balances, bundle purchase and modem bundles.
 */
export default function AccountPage({ data }: PageProps) {
  const t = useT();
  const { lang } = useSite();
  const { signedIn } = useAccount();
  const { search } = useLocation();
  const loginHeading = useId();
  const buyHeading = useId();
  const { subscriber, bundles } = data;

  if (!subscriber) {
    const query = new URLSearchParams(search);
    const msisdn = query.get("step") === "code" ? query.get("msisdn") : null;
    return (
      <PageBody page={data.content.page}>
        <section className="account-section account-login" aria-labelledby={loginHeading}>
          <h2 id={loginHeading}>{t("account.loginTitle")}</h2>
          <LoginFlow key={search} initial={msisdn ? { msisdn } : undefined} onSignedIn={() => signedIn(localePath(lang, "/account"))} />
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
        {bundles?.length ? <PurchaseForm bundles={bundles} /> : <p>{t("purchase.unavailable")}</p>}
      </section>
      {bundles?.length ? <ModemBundle bundles={bundles} /> : null}
      <LogoutForm action="/api/auth/logout" label={t("account.logOut")} />
    </>
  );
}
