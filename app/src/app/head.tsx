/** `<head>` tags of a page: title, description, canonical, alternates, Open Graph. */
import type { TFunction } from "i18next";
import type { PageAssets, PageData } from "../contract";
import { LANGS, DEFAULT_LANG, localePath } from "../routes";

const OG_LOCALE = { en: "en_TZ", sw: "sw_TZ" } as const;

export function pageTitle(data: PageData, t: TFunction): string {
  const site = t("site.name");
  if (data.status === 404) return `${t("notFound.title")} | ${site}`;
  const page = data.content.page;
  // The CMS's meta title is complete as written; a bare page title gets the site name.
  if (page?.seo?.metaTitle) return page.seo.metaTitle;
  return page?.title ? `${page.title} | ${site}` : site;
}

export function Head({ data, assets, t }: { data: PageData; assets: PageAssets; t: TFunction }) {
  const page = data.content.page;
  const title = pageTitle(data, t);
  const description = page?.seo?.metaDescription || t("site.tagline");
  const url = (lang: string) => `${data.siteUrl}${localePath(lang === "sw" ? "sw" : "en", data.path)}`;
  const indexable = data.status === 200;
  const image = page?.seo?.shareImage?.url;
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
        </>
      ) : (
        <meta name="robots" content="noindex" />
      )}
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content={t("site.name")} />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url(data.lang)} />
      <meta property="og:locale" content={OG_LOCALE[data.lang]} />
      {image && <meta property="og:image" content={image.startsWith("/") ? data.siteUrl + image : image} />}
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
    </>
  );
}
