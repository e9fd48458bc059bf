import { Kept } from "./kept";

/**
 * The slug of a text, as used in `/faq/<item>` (a question's slug) and
 * anchors. The Rust server implements the same rule to answer 404 for an
 * unknown question, so both must change together.
 */
export function slugify(text: string): string {
  // Questions repeat from render to render, and normalising is slow in the server's engine.
  return slugs.get(text) ?? slugs.keep(text, slugOf(text));
}

const slugs = new Kept<string>();

function slugOf(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
