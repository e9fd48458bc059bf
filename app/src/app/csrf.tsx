/**
 * The browser session's form token (the server's `web/csrf.rs`): a hidden
 * field of every form that posts, and the header the page's scripts send.
 * It vouches for a post where the browser says nothing of where it comes
 * from (Lynx on an address with a query); pages for everyone have none,
 * and their posts rely on the browser's `Origin` or `Referer`.
 */
import { PROTOCOL } from "../contract";
import { useSite } from "./site";

/** The form field and the header the server reads the token from. */
export const CSRF_FIELD = PROTOCOL.csrfField;
export const CSRF_HEADER = PROTOCOL.csrfHeader;

export function CsrfField() {
  const { csrf } = useSite();
  return csrf ? <input type="hidden" name={CSRF_FIELD} value={csrf} /> : null;
}

/** The header carrying `token`, if there is one. */
export function csrfHeader(token: string | undefined): Record<string, string> {
  return token ? { [CSRF_HEADER]: token } : {};
}
