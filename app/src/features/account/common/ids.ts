/** Ids shared by the account feature's markup and the enhancement script (no React here). */

/** The header's account control ("Log in", or the subscriber's name): the login dialog gives focus back to it. */
export const ACCOUNT_CONTROL_ID = "account-control";

/** The modem-bundle marker in session storage; its value is the modem's number. Signing in again forgets it. */
export const MODEM_BUNDLE_KEY = "modemBundle";
