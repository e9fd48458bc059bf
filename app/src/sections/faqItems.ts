/** The questions of a page's FAQ sections, for the FAQ page, its breadcrumbs and its structured data. */
import type { FaqItem, Page } from "../contract";
import { slugify } from "../slug";

export function faqItems(page: Page | null | undefined): FaqItem[] {
  return (page?.sections ?? []).flatMap((section) => (section.__component === "sections.faq" ? section.items : []));
}

/** The question whose slug (see `slugify`) is `slug`: the one `/faq/<slug>` opens. */
export function findFaqItem(page: Page | null | undefined, slug: string): FaqItem | undefined {
  return faqItems(page).find((item) => slugify(item.question) === slug);
}
