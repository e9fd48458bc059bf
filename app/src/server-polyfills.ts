/**
 * Web APIs the server bundle's libraries use and a bare JS engine lacks:
 * react-router builds a `URL` at import time, and i18next picks a counted
 * string's plural form with `Intl.PluralRules`. Imported first by
 * `entry-server.tsx`; the browser has them natively.
 */
import "core-js/actual/url";
import "core-js/actual/url-search-params";
import { installPluralRules } from "./i18n/pluralRules";

installPluralRules();
