/**
 * Web APIs the server bundle's code uses and a bare JS engine lacks: pages
 * read an address's query with `URLSearchParams` (and core-js's builds it on
 * its `URL`), and i18next picks a counted string's plural form with
 * `Intl.PluralRules`. Imported first by
 * `entry-server.tsx`; the browser has them natively.
 */
import "core-js/actual/url";
import "core-js/actual/url-search-params";
import { installPluralRules } from "./i18n/pluralRules";

installPluralRules();
