/** Keys shared by the forms' markup and the enhancement script (no React here). */

/** Where the foundation application's draft is kept on this phone (`localStorage`), until it is sent. */
export const FOUNDATION_DRAFT_KEY = "draft:foundation-application";
