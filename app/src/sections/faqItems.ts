/** The questions of a page's FAQ sections, for the FAQ page, its breadcrumbs and its structured data. */
import type { PageContent } from "../contract";
import { slugify } from "../slug";

export interface FaqItem {
  id?: number;
  question: string;
  answer: string;
}

export function faqItems(page: PageContent | null | undefined): FaqItem[] {
  return (page?.sections ?? []).flatMap((section) =>
    section.__component === "sections.faq" && Array.isArray(section.items) ? (section.items as FaqItem[]) : [],
  );
}

/** The question whose slug (see `slugify`) is `slug`: the one `/faq/<slug>` opens. */
export function findFaqItem(page: PageContent | null | undefined, slug: string): FaqItem | undefined {
  return faqItems(page).find((item) => slugify(item.question) === slug);
}
