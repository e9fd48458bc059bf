/**
 * Web APIs the server bundle's libraries use at module load (react-router
 * builds a `URL` at import time) and a bare JS engine lacks. Imported first
 * by `entry-server.tsx`; the browser has them natively.
 */
import "core-js/actual/url";
import "core-js/actual/url-search-params";
