/**
 * The slug of a text, as used in `/faq/<item>` (a question's slug) and
 * anchors. The Rust server implements the same rule to answer 404 for an
 * unknown question, so both must change together.
 */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
