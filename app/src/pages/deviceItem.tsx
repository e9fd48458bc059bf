import { ContentHtml } from "../content/contacts";
import { useT } from "../i18n/context";
import type { PageProps } from "./props";
import { LocalLink } from "../app/site";
import { ItemImage } from "../components/ItemImage";
import { formatTzs } from "../format";
import NotFoundPage from "./notFound";
import { deviceItem } from "../content/collections";

/** Specification rows in this order; the CMS may leave any of them out. */
const SPECIFICATION = ["display", "camera", "battery", "storage", "network", "os"] as const;

/**
 * One device: picture, price, specification and how to get it: a visitor
 * buys it in a Vodacom shop, a business orders in bulk.
 */
export default function DeviceItemPage({ data }: PageProps) {
  const t = useT();
  const device = deviceItem(data.content.item);
  if (!device) return <NotFoundPage />;
  const specification = SPECIFICATION.filter((key) => device.specification?.[key]);
  return (
    <article className="article device">
      <h1>{device.name}</h1>
      {device.brand && <p className="article-meta">{device.brand}</p>}
      <ItemImage image={device.image} />
      {device.price != null && (
        <p className="price">
          {t("devices.price")}: <strong>{formatTzs(device.price)}</strong>
        </p>
      )}
      {device.summary && <p className="lead">{device.summary}</p>}
      {specification.length > 0 && (
        <section className="data-table">
          <h2 id="specification">{t("devices.specification")}</h2>
          <table aria-labelledby="specification">
            <tbody>
              {specification.map((key) => (
                <tr key={key}>
                  <th scope="row">{t(`devices.spec.${key}`)}</th>
                  <td>{device.specification?.[key]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {device.body && <ContentHtml className="article-body" html={device.body} />}
      <p className="actions">
        <LocalLink to="/vodashop" className="button">
          {t("visitor.buyPhone")}
        </LocalLink>
        <LocalLink to="/device-ordering">{t("visitor.orderForBusiness")}</LocalLink>
        <LocalLink to="/devices" className="back-link">
          {t("devices.back")}
        </LocalLink>
      </p>
    </article>
  );
}
