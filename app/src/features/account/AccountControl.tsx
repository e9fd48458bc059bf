/**
 * The header's account control: "Log in" (a link to the account page, which
 * with JavaScript opens the login dialog), or the subscriber's names linking
 * to the account page and "Log out".
 */
import * as ENDPOINTS from "../../../generated/endpoints";
import { useT } from "../../i18n/context";
import { LocalLink } from "../../app/site";
import { pathOf } from "../../routes";
import { useAccount } from "./AccountContext";
import { ApiForm } from "./common/ApiForm";
import { ACCOUNT_CONTROL_ID } from "./common/ids";
import { localMsisdn } from "./common/msisdn";

export function AccountControl() {
  const t = useT();
  const { subscriber, openLogin } = useAccount();
  if (!subscriber) {
    return (
      <LocalLink
        to={pathOf("account")}
        id={ACCOUNT_CONTROL_ID}
        className="account-link"
        onClick={(event) => {
          if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
          event.preventDefault();
          openLogin();
        }}
      >
        {t("account.logIn")}
      </LocalLink>
    );
  }
  return (
    <div className="account-control">
      <LocalLink to={pathOf("account")} id={ACCOUNT_CONTROL_ID} className="account-link">
        {subscriber.names || localMsisdn(subscriber.msisdn ?? "")}
      </LocalLink>
      <LogoutForm action={ENDPOINTS.logout} label={t("account.logOut")} />
    </div>
  );
}

/**
 * Logs out of the subscriber session (`/api/auth/logout`) or the CPM one
 * (`/api/cpm/logout`); the server says where the browser goes next.
 */
export function LogoutForm({
  action,
  label,
  onLoggedOut,
}: {
  action: string;
  label: string;
  onLoggedOut?(redirect: string): Promise<void> | void;
}) {
  const { signedOut } = useAccount();
  return (
    <ApiForm
      action={action}
      className="logout-form"
      read={() => ({ body: {} })}
      onAnswer={async (answer) => {
        if (!answer.ok || !answer.body.redirect)
          return answer.body.notice ?? { type: "error", key: "somethingWentWrong" };
        await (onLoggedOut ?? signedOut)(answer.body.redirect);
      }}
      submitLabel={label}
    />
  );
}
