/**
 * Customer permission management: its own sign-in, with
 * its own session, and the permission switches. Each switch is a one-button
 * form: without JavaScript it posts the opposite of the current choice; with
 * it the choice is sent with PUT and the switch flips in place.
 */
import * as ENDPOINTS from "../../../../generated/endpoints";
import { useState } from "react";
import { LanguageProvider, useT } from "../../../i18n/context";
import { AddressProvider, useLocation, useNavigate } from "../../../app/address";
import type { CpmCodeSent, CpmPermissions, Lang, Permission, PermissionForm, PermissionSet } from "../../../contract";
import { LocalLink, SiteProvider, useSite } from "../../../app/site";
import { localePath, pathOf } from "../../../routes";
import { LogoutForm } from "../AccountControl";
import { AccountProvider, useAccount } from "../AccountContext";
import { ApiForm } from "../common/ApiForm";
import { localMsisdn } from "../common/msisdn";
import { CodeField, NumberField, readCode, readNumber, ResendForm, useCountdown } from "../common/fields";

/**
 * `/cpm-login`: the number; the server sends the browser on to the code
 * page, or (refused, without JavaScript) back here with the number typed
 * (`?msisdn=`), kept in its field.
 */
export function CpmNumberForm() {
  const t = useT();
  const { notify } = useAccount();
  const navigate = useNavigate();
  const typed = new URLSearchParams(useLocation().search).get("msisdn") ?? undefined;
  return (
    <ApiForm<CpmCodeSent>
      action={ENDPOINTS.cpmRequestOtp}
      className="cpm-form"
      read={readNumber}
      onAnswer={(answer) => {
        if (!answer.ok || !answer.body.redirect) return answer.body.notice;
        if (answer.body.notice) notify(answer.body.notice);
        navigate(answer.body.redirect);
      }}
      submitLabel={t("account.sendCode")}
    >
      <NumberField label={t("account.number")} hint={t("account.numberHint")} defaultValue={typed} />
    </ApiForm>
  );
}

/** `/cpm-otp?msisdn=…`: the code sent to that number. */
export function CpmCodeForm({ msisdn }: { msisdn: string | null }) {
  const t = useT();
  const { lang, path } = useSite();
  const navigate = useNavigate();
  const [left, startCountdown] = useCountdown(Boolean(msisdn));
  if (!msisdn) {
    return (
      <p className="cpm-form">
        {t("cpm.missingNumber")} <LocalLink to={pathOf("cpmLogin")}>{t("account.changeNumber")}</LocalLink>
      </p>
    );
  }
  return (
    <div className="cpm-form">
      <ApiForm
        action={ENDPOINTS.cpmValidateOtp}
        returnTo={`${localePath(lang, path)}?${new URLSearchParams({ msisdn })}`}
        read={readCode}
        onAnswer={(answer) => {
          if (!answer.ok || !answer.body.redirect) return answer.body.notice;
          navigate(answer.body.redirect);
        }}
        submitLabel={t("account.verify")}
      >
        <input type="hidden" name="msisdn" value={msisdn} />
        <CodeField label={t("account.code")} hint={t("account.codeHint", { number: localMsisdn(msisdn) })} />
      </ApiForm>
      <ResendForm action={ENDPOINTS.cpmRequestOtp} fields={{ msisdn }} left={left} onSent={startCountdown} />
      <LocalLink to={pathOf("cpmLogin")} className="change-number">
        {t("account.changeNumber")}
      </LocalLink>
    </div>
  );
}

/**
 * `/customer-permission-management`: the signed-in number's permissions,
 * the page's personal part. The server renders it alone for each view
 * (`PermissionsOf`) into the page it caches for every CPM session
 * (`server/src/pages/account.rs`), so its ids are its own rather than
 * `useId`'s, which depend on where in a tree it renders.
 */
export function Permissions({ cpm }: { cpm: CpmPermissions }) {
  const t = useT();
  const navigate = useNavigate();
  const heading = "cpm-permissions-heading";
  return (
    <section className="account-section permissions" aria-labelledby={heading}>
      <h2 id={heading}>{t("cpm.permissions")}</h2>
      <p>{t("cpm.signedInAs", { number: localMsisdn(cpm.msisdn) })}</p>
      <ul>
        {cpm.permissions.map((permission) => (
          <PermissionSwitch key={permission.id} permission={permission} />
        ))}
      </ul>
      <LogoutForm action={ENDPOINTS.cpmLogout} label={t("cpm.logOut")} onLoggedOut={(redirect) => navigate(redirect)} />
    </section>
  );
}

function PermissionSwitch({ permission }: { permission: Permission }) {
  const t = useT();
  const { lang } = useSite();
  const { notify } = useAccount();
  const navigate = useNavigate();
  const [granted, setGranted] = useState(permission.granted);
  const id = `permission-${permission.id}`;
  return (
    <li className="permission">
      <div>
        <span id={`${id}-name`} className="permission-name">
          {permission.name}
        </span>
        <p id={`${id}-description`}>{permission.description}</p>
      </div>
      <ApiForm<PermissionSet, PermissionForm>
        action={`${ENDPOINTS.cpmPermissions}/${encodeURIComponent(permission.id)}`}
        method="PUT"
        // The server reads `granted` as form text ("true"/"false"), in JSON too.
        read={() => ({ body: { granted: granted ? "false" : "true" } })}
        onAnswer={(answer) => {
          notify(answer.body.notice ?? { type: "error", key: "somethingWentWrong" });
          if (answer.ok) setGranted(answer.body.granted ?? !granted);
          else if (answer.status === 401) navigate(localePath(lang, pathOf("cpmLogin")));
        }}
        submitLabel={granted ? t("cpm.on") : t("cpm.off")}
        submitAttributes={{
          // A toggle button, as a submit button may be (not a `switch`): it posts without
          // JavaScript too. Its name is the permission's and the "On"/"Off" it shows.
          id: `${id}-state`,
          "aria-pressed": granted,
          "aria-labelledby": `${id}-name ${id}-state`,
          "aria-describedby": `${id}-description`,
          className: "button switch",
        }}
      >
        <input type="hidden" name="granted" value={String(!granted)} />
      </ApiForm>
    </li>
  );
}

const noToast = () => {};

/** `Permissions` alone, as the CPM page at `path` renders it for `cpm` in `lang`. */
export function PermissionsOf({
  lang,
  path,
  cpm,
  csrf,
}: {
  lang: Lang;
  path: string;
  cpm: CpmPermissions;
  csrf?: string;
}) {
  return (
    <LanguageProvider lang={lang}>
      <SiteProvider
        value={{ lang, path, route: "customer-permission-management", paths: { en: path, sw: path }, csrf }}
      >
        <AccountProvider subscriber={null} toast={noToast}>
          <AddressProvider url={localePath(lang, path)}>
            <Permissions cpm={cpm} />
          </AddressProvider>
        </AccountProvider>
      </SiteProvider>
    </LanguageProvider>
  );
}
