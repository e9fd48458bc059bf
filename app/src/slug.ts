/**
 * The slug of a text, as used in `/faq/<item>` (a question's slug) and
 * anchors. The Rust server implements the same rule to answer 404 for an
 * unknown question, so both must change together.
 */
export function slugify(text: string): string {
  let slug = slugs.get(text);
  if (slug === undefined) {
    // Questions repeat from render to render, and normalising is slow in the server's engine: each is slugged once per realm (up to a bound).
    if (slugs.size >= MAX_SLUGS) slugs.clear();
    slug = slugOf(text);
    slugs.set(text, slug);
  }
  return slug;
}

const MAX_SLUGS = 2000;
const slugs = new Map<string, string>();

function slugOf(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
