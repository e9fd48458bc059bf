/**
 * schema.org JSON-LD for search engines: the organisation on the home page,
 * the article on news items, the questions on FAQ pages and the breadcrumb
 * trail everywhere else.
 */
import type { TFunction } from "../i18n";
import type { PageData } from "../contract";
import type { Crumb } from "../navigation/breadcrumbs";
import { localePath, type Lang } from "../routes";
import { faqItems } from "../sections/faqItems";
import { itemSummary } from "../content/collections";

export type JsonLd = Record<string, unknown>;

const CONTEXT = "https://schema.org";

/**
 * JSON that is safe as the text of a `<script>` element: nothing in it can
 * close the element or open a comment, and U+2028/U+2029 are escaped.
 */
export function jsonLdText(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** A media URL or site path as an absolute address. */
export function absoluteUrl(siteUrl: string, url: string): string {
  return url.startsWith("/") ? siteUrl + url : url;
}

export function pageUrl(data: PageData, lang: Lang, path: string): string {
  return data.siteUrl + localePath(lang, path);
}

export function organization(data: PageData, t: TFunction): JsonLd {
  return {
    "@context": CONTEXT,
    "@type": "Organization",
    name: t("site.name"),
    url: pageUrl(data, data.lang, "/"),
    logo: absoluteUrl(data.siteUrl, "/static/logo.svg"),
  };
}

export function newsArticle(data: PageData, url: string, t: TFunction): JsonLd | undefined {
  const item = itemSummary(data.content.item);
  if (!item) return undefined;
  return {
    "@context": CONTEXT,
    "@type": "NewsArticle",
    headline: item.heading,
    ...(item.summary ? { description: item.summary } : {}),
    ...(item.publishDate ? { datePublished: item.publishDate } : {}),
    ...(item.image ? { image: [absoluteUrl(data.siteUrl, item.image.url)] } : {}),
    inLanguage: data.content.pageLang ?? data.lang,
    mainEntityOfPage: url,
    publisher: {
      "@type": "Organization",
      name: t("site.name"),
      logo: { "@type": "ImageObject", url: absoluteUrl(data.siteUrl, "/static/logo.svg") },
    },
  };
}

export function faqPage(data: PageData): JsonLd | undefined {
  const items = faqItems(data.content.page);
  if (items.length === 0) return undefined;
  return {
    "@context": CONTEXT,
    "@type": "FAQPage",
    mainEntity: items.map((item) => ({
      "@type": "Question",
      name: item.question,
      acceptedAnswer: { "@type": "Answer", text: item.answer },
    })),
  };
}

/** Headings (crumbs without an address) are left out: every entry but the last needs a URL. */
export function breadcrumbList(data: PageData, crumbs: Crumb[], url: string): JsonLd | undefined {
  const linked = crumbs.filter((crumb, index) => crumb.path || index === crumbs.length - 1);
  if (linked.length < 2) return undefined;
  return {
    "@context": CONTEXT,
    "@type": "BreadcrumbList",
    itemListElement: linked.map((crumb, index) => ({
      "@type": "ListItem",
      position: index + 1,
      name: crumb.label,
      item: index === linked.length - 1 ? url : pageUrl(data, data.lang, crumb.path as string),
    })),
  };
}
