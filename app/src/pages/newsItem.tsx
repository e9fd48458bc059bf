import { ContentHtml } from "../content/contacts";
import { useT } from "../i18n/context";
import type { PageProps } from "./props";
import { LocalLink, useSite } from "../app/site";
import { ItemImage } from "../components/ItemImage";
import { formatDate } from "../format";
import { navLabel } from "../navigation/menu";
import { routeHref } from "../navigation/paths";
import { routeByName } from "../routes";
import NotFoundPage from "./notFound";
import { newsItem } from "../content/collections";

/** One news, sport or foundation article. */
export default function NewsItemPage({ data }: PageProps) {
  const t = useT();
  const { lang } = useSite();
  const item = newsItem(data.content.item);
  if (!item) return <NotFoundPage />;
  const list = routeByName(routeByName(data.route.name)?.parent ?? "");
  const listPath = list && routeHref(list);
  return (
    <article className="article">
      <h1>{item.title}</h1>
      {item.publishDate && (
        <p className="article-meta">
          <time dateTime={item.publishDate}>{formatDate(item.publishDate, lang)}</time>
        </p>
      )}
      <ItemImage image={item.image} />
      {item.summary && <p className="lead">{item.summary}</p>}
      {item.body && <ContentHtml className="article-body" html={item.body} />}
      {list?.meta.navigation && listPath && (
        <p>
          <LocalLink to={listPath} className="back-link">
            {t("news.back", { page: navLabel(t, list.meta.navigation) })}
          </LocalLink>
        </p>
      )}
    </article>
  );
}
