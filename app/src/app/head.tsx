/**
 * `<head>` tags of a page: title, description, canonical, alternates, Open
 * Graph and schema.org JSON-LD. Rendered on the server only; link
 * navigation swaps them in with the next page (`enhance/main.ts`).
 */
import type { TFunction } from "../i18n";
import type { PageAssets, PageData } from "../contract";
import { breadcrumbs } from "../navigation/breadcrumbs";
import { navLabel } from "../navigation/menu";
import { canonicalPath, pagePath } from "../navigation/paths";
import { itemSummary, serviceList } from "../content/collections";
import { LANGS, DEFAULT_LANG, routeByName, type Lang } from "../routes";
import { enhanceStrings, STRINGS_ID } from "../enhance/strings";
import { InlineJson } from "../components/InlineJson";
import { ISLAND_FILES_ID } from "./island";
import { locatorPlace } from "../features/locator/place";
import {
  absoluteUrl,
  breadcrumbList,
  faqPage,
  jsonLdText,
  newsArticle,
  organization,
  pageUrl,
  type JsonLd,
} from "../seo/structuredData";

const OG_LOCALE = { en: "en_TZ", sw: "sw_TZ" } as const;

export function pageTitle(data: PageData, t: TFunction): string {
  const site = t("site.name");
  if (data.status === 404) return `${t("notFound.title")} | ${site}`;
  if (data.route.page === "offline") return `${t("offline.title")} | ${site}`;
  const item = itemSummary(data.content.item);
  if (item) return `${item.heading} | ${site}`;
  const place = locatorPlace(data);
  if (place) return `${t(data.locator?.kind === "shop" ? "locator.shopsIn" : "locator.agentsIn", { place })} | ${site}`;
  // A pass-through page shows its parent's content: its own label tells it
  // apart; so does it a page whose content failed, and a page with no
  // content of its own (a form).
  const route = routeByName(data.route.name);
  if ((route?.meta.isPassThrough || data.content.failed || !route?.content) && route?.meta.navigation)
    return `${navLabel(t, route.meta.navigation)} | ${site}`;
  const page = data.content.page;
  // The CMS's meta title is complete as written; a bare page title gets the site name.
  if (page?.seo?.metaTitle) return page.seo.metaTitle;
  return page?.title ? `${page.title} | ${site}` : site;
}

/**
 * The page's meta description: an item's summary, a business category's
 * own (its services: the category pages share the business page's
 * content), the CMS's, or the site's tagline.
 */
export function pageDescription(data: PageData, t: TFunction): string {
  const item = itemSummary(data.content.item);
  if (item?.summary) return item.summary;
  const navigation = routeByName(data.route.name)?.meta.navigation;
  const services = serviceList(data.content.list).map((service) => service.title);
  if (data.route.page === "businessCategory" && navigation && services.length > 0) {
    return t("visitor.businessCategoryDescription", {
      category: navLabel(t, navigation),
      services: services.join(", "),
    });
  }
  return data.content.page?.seo?.metaDescription || t("site.tagline");
}

function structuredData(data: PageData, url: string, t: TFunction): JsonLd[] {
  const all: (JsonLd | undefined)[] = [];
  if (data.route.name === "home") all.push(organization(data, t));
  if (data.route.page === "newsItem") all.push(newsArticle(data, url, t));
  if (data.route.page === "faq") all.push(faqPage(data));
  all.push(breadcrumbList(data, breadcrumbs(data, t), url));
  return all.filter((entry): entry is JsonLd => Boolean(entry));
}

/** The enhancement script's strings as the head carries them, by translator: the same on every page of a language. */
const stringsTexts = new WeakMap<TFunction, string>();

function enhanceStringsText(t: TFunction): string {
  let text = stringsTexts.get(t);
  if (text === undefined) {
    text = jsonLdText(enhanceStrings(t));
    stringsTexts.set(t, text);
  }
  return text;
}

export function Head({ data, assets, t }: { data: PageData; assets: PageAssets; t: TFunction }) {
  const page = data.content.page;
  const item = itemSummary(data.content.item);
  const title = pageTitle(data, t);
  const description = pageDescription(data, t);
  const url = (lang: Lang) => pageUrl(data, lang, canonicalPath(data, lang));
  // A place typed into the locator is a search's results: not for search engines.
  const indexable =
    data.status === 200 && !data.preview && !routeByName(data.route.name)?.meta.noindex && !data.locator?.query;
  const image = item?.image?.url ?? page?.seo?.shareImage?.url;
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={description} />
      {indexable ? (
        <>
          <link rel="canonical" href={url(data.lang)} />
          {LANGS.map((lang) => (
            <link key={lang} rel="alternate" hrefLang={lang} href={url(lang)} />
          ))}
          <link rel="alternate" hrefLang="x-default" href={url(DEFAULT_LANG)} />
          {data.pager && data.pager.page > 1 && (
            <link rel="prev" href={pageUrl(data, data.lang, pagePath(data.path, data.pager.page - 1))} />
          )}
          {data.pager && data.pager.page < data.pager.pages && (
            <link rel="next" href={pageUrl(data, data.lang, pagePath(data.path, data.pager.page + 1))} />
          )}
        </>
      ) : (
        <meta name="robots" content="noindex" />
      )}
      <meta property="og:type" content={item ? "article" : "website"} />
      <meta property="og:site_name" content={t("site.name")} />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url(data.lang)} />
      <meta property="og:locale" content={OG_LOCALE[data.lang]} />
      {image && <meta property="og:image" content={absoluteUrl(data.siteUrl, image)} />}
      {item?.publishDate && <meta property="article:published_time" content={item.publishDate} />}
      <meta name="twitter:card" content={image ? "summary_large_image" : "summary"} />
      <link rel="icon" href="/static/favicon.svg" type="image/svg+xml" />
      <link rel="manifest" href="/static/site.webmanifest" />
      <meta name="theme-color" content="#e60000" />
      {assets.stylesheets.map((href) => (
        <link key={href} rel="stylesheet" href={href} />
      ))}
      {assets.preload.map((href) => (
        <link key={href} rel="modulepreload" href={href} />
      ))}
      {assets.island.length > 0 && <InlineJson id={ISLAND_FILES_ID} value={assets.island} />}
      <script type="application/json" id={STRINGS_ID} dangerouslySetInnerHTML={{ __html: enhanceStringsText(t) }} />
      {indexable &&
        structuredData(data, url(data.lang), t).map((entry) => (
          <script
            key={String(entry["@type"])}
            type="application/ld+json"
            dangerouslySetInnerHTML={{ __html: jsonLdText(entry) }}
          />
        ))}
    </>
  );
}
