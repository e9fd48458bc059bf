/**
 * The few strings the enhancement script shows, in the page's language. The
 * server renders them into the head (`<script type="application/json"
 * id="site-strings">`), so the script carries no translator.
 */
import type { LocationService } from "../contract";
import type { TFunction } from "../i18n";
import type { Strings } from "../i18n/en";
import { withFullStop } from "../format";

export interface EnhanceStrings {
  /** A toast's close button. */
  close: string;
  /** The content-failure toast: title and text. */
  error: string;
  failedToLoadContent: string;
  /** The loading overlay's label. */
  loading: string;
  goldenMinutesLive: string;
  /** Over a page the service worker served from its copy while offline. */
  staleCopy: string;
  /** Announced after a navigation; `{{title}}` is the new page's title. */
  loaded: string;
  /** The header's account control once a session has lapsed under the page. */
  logIn: string;
}

export const STRINGS_ID = "site-strings";

export function enhanceStrings(t: TFunction): EnhanceStrings {
  return {
    close: t("notify.close"),
    error: t("notify.error"),
    failedToLoadContent: t("notify.failedToLoadContent"),
    loading: t("loading"),
    goldenMinutesLive: t("goldenMinutes.live"),
    staleCopy: t("offline.staleCopy"),
    loaded: t("navigation.loaded"),
    logIn: t("account.logIn"),
  };
}

/** A counted string's forms (`{{count}}` in them), chosen by `counted` in `./fill`. */
export interface Counted {
  one: string;
  other: string;
}

/**
 * The login dialog's strings (`./login.ts`), carried by the account page
 * beside its sign-in forms: the dialog is made of that page's forms, so the
 * page it fetches brings them, and no other page pays for them.
 */
export interface SignInStrings {
  /** The dialog's close button. */
  close: string;
  invalidMsisdn: string;
  invalidCode: string;
  /** A form's answer that was not a page (the connection dropped). */
  failed: string;
  /** The resend button, and its countdown. */
  resend: string;
  resendIn: Counted;
}

export const SIGN_IN_STRINGS_ID = "sign-in-strings";

export function signInStrings({ account, notify }: Strings): SignInStrings {
  return {
    close: account.close,
    invalidMsisdn: withFullStop(notify.invalidMsisdn),
    invalidCode: withFullStop(notify.invalidCode),
    failed: withFullStop(notify.somethingWentWrong),
    resend: account.resend,
    resendIn: { one: account.resendIn_one, other: account.resendIn_other },
  };
}

/**
 * "Near me"'s strings (`./nearMe.ts`), carried by a locator page in its
 * "near me" part: the list of places found is written by the enhancement
 * script, in the page's language.
 */
export interface NearMeStrings {
  locating: string;
  refused: string;
  failed: string;
  none: string;
  nearest: Counted;
  openNow: string;
  closedNow: string;
  metres: string;
  kilometres: string;
  weekdays: string;
  saturday: string;
  sunday: string;
  closedDay: string;
  call: string;
  directions: string;
  map: string;
  services: Record<LocationService, string>;
}

export const NEAR_ME_STRINGS_ID = "near-me-strings";

export function nearMeStrings({ locator }: Strings): NearMeStrings {
  return {
    locating: locator.locating,
    refused: locator.refused,
    failed: locator.nearFailed,
    none: locator.nearNone,
    nearest: { one: locator.nearest_one, other: locator.nearest_other },
    openNow: locator.openNow,
    closedNow: locator.closedNow,
    metres: locator.metres,
    kilometres: locator.kilometres,
    weekdays: locator.weekdays,
    saturday: locator.saturday,
    sunday: locator.sunday,
    closedDay: locator.closedDay,
    call: locator.call,
    directions: locator.directions,
    map: locator.map,
    services: locator.services,
  };
}
