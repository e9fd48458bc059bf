import { useEffect } from "react";
import { useT } from "../i18n/context";
import { useSearchParams } from "../app/address";
import type { PageProps } from "./props";
import { LocalLink } from "../app/site";
import { PageBody } from "../components/PageBody";
import { navLabel } from "../navigation/menu";
import { itemPath } from "../navigation/paths";
import { routeByName } from "../routes";
import { serviceList } from "../content/collections";
import { Pager } from "../components/Pager";

/**
 * A business category (`/vodacom-business/<id>/<category>`): its services,
 * then the business page's sections. `?services=<slug>` opens and highlights
 * one service.
 */
export default function BusinessCategoryPage({ data }: PageProps) {
  const t = useT();
  const search = useSearchParams();
  const selected = search.get("services") ?? undefined;
  const route = routeByName(data.route.name);
  const title = route?.meta.navigation ? navLabel(t, route.meta.navigation) : data.content.page?.title;
  const services = serviceList(data.content.list);
  useEffect(() => {
    if (selected) document.getElementById(selected)?.scrollIntoView({ block: "start" });
  }, [selected]);
  return (
    <PageBody
      page={data.content.page}
      title={title ?? ""}
      lead={
        <section className="services">
          <h2>{t("business.services")}</h2>
          {services.length === 0 && <p>{t("business.empty")}</p>}
          {services.map((service) => {
            const path = itemPath("vbu-services", service);
            const highlighted = service.slug === selected;
            return (
              <details
                key={service.id}
                id={service.slug}
                open={highlighted}
                className={highlighted ? "service highlighted" : "service"}
              >
                <summary>{service.title}</summary>
                {service.summary && <p>{service.summary}</p>}
                {path && <LocalLink to={path}>{t("business.more", { title: service.title })}</LocalLink>}
              </details>
            );
          })}
          <Pager pager={data.pager} path={data.path} />
        </section>
      }
    />
  );
}
