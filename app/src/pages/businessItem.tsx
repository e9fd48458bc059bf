import { ContentHtml } from "../content/contacts";
import { useT } from "../i18n/context";
import type { PageProps } from "./props";
import { LocalLink } from "../app/site";
import { ItemImage } from "../components/ItemImage";
import { navLabel } from "../navigation/menu";
import { routeHref } from "../navigation/paths";
import { routes } from "../routes";
import NotFoundPage from "./notFound";
import { serviceItem } from "../content/collections";

/** One business service, with the way back to its category and to sales. */
export default function BusinessItemPage({ data }: PageProps) {
  const t = useT();
  const service = serviceItem(data.content.item);
  if (!service) return <NotFoundPage />;
  const category = routes.find(
    (r) => r.page === "businessCategory" && r.list?.filter?.value === String(service.categoryId),
  );
  const categoryPath = category && routeHref(category);
  return (
    <article className="article">
      <h1>{service.title}</h1>
      <ItemImage image={service.image} />
      {service.summary && <p className="lead">{service.summary}</p>}
      {service.body && <ContentHtml className="article-body" html={service.body} />}
      <p className="actions">
        <LocalLink to="/vodacom-business/community" className="button">
          {t("business.talkToSales")}
        </LocalLink>
        {category?.meta.navigation && categoryPath && (
          <LocalLink to={`${categoryPath}?services=${encodeURIComponent(service.slug)}`} className="back-link">
            {t("business.back", { category: navLabel(t, category.meta.navigation) })}
          </LocalLink>
        )}
      </p>
    </article>
  );
}
