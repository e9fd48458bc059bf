import { useT } from "../i18n/context";
import type { PageProps } from "./props";
import { LocalLink, useSite } from "../app/site";
import { PageBody } from "../components/PageBody";
import { formatDate } from "../format";
import { itemPath } from "../navigation/paths";
import { newsList } from "../content/collections";
import { CardList } from "../components/CardList";
import { Picture } from "../components/Picture";

/**
 * News, sport news or foundation news: the page's sections, then the latest
 * items as cards, a page of them at a time; on a phone each card's photo is a
 * thumbnail beside its title, as news apps show them.
 */
export default function NewsListPage({ data }: PageProps) {
  const t = useT();
  const { lang } = useSite();
  const list = data.content.list;
  const items = newsList(list);
  return (
    <PageBody page={data.content.page}>
      <CardList heading={t("news.latest")} empty={t("news.empty")} className="cards news-cards" data={data}>
        {items.map((item, index) => {
          const path = list && itemPath(list.collection, item);
          return (
            <li key={item.id} className="card">
              {item.image && <Picture image={item.image} slot="thumb" lazy={index > 0} fallbackSize={[320, 180]} />}
              <h3>{path ? <LocalLink to={path}>{item.title}</LocalLink> : item.title}</h3>
              {item.publishDate && (
                <p className="card-meta">
                  <time dateTime={item.publishDate}>{formatDate(item.publishDate, lang)}</time>
                </p>
              )}
              {item.summary && <p>{item.summary}</p>}
            </li>
          );
        })}
      </CardList>
    </PageBody>
  );
}
