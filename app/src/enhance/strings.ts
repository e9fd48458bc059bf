/**
 * The few strings the enhancement script shows, in the page's language. The
 * server renders them into the head (`<script type="application/json"
 * id="site-strings">`), so the script carries no translator.
 */
import type { TFunction } from "../i18n";

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
