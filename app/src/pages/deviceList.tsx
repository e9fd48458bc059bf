import { useT } from "../i18n/context";
import type { PageProps } from "./props";
import { LocalLink } from "../app/site";
import { PageBody } from "../components/PageBody";
import { Picture } from "../components/Picture";
import { formatTzs } from "../format";
import { itemPath } from "../navigation/paths";
import { deviceList } from "../content/collections";
import { CardList } from "../components/CardList";

/** The device catalogue: the page's sections, then every device as a card. */
export default function DeviceListPage({ data }: PageProps) {
  const t = useT();
  const devices = deviceList(data.content.list);
  return (
    <PageBody page={data.content.page}>
      <CardList heading={t("devices.all")} empty={t("devices.empty")} data={data}>
        {devices.map((device) => {
          const path = itemPath("device-updates", device);
          return (
            <li key={device.id} className="card device-card">
              {device.image && <Picture image={device.image} slot="card" lazy fallbackSize={[240, 240]} />}
              <h3>{path ? <LocalLink to={path}>{device.name}</LocalLink> : device.name}</h3>
              {device.brand && <p className="card-meta">{device.brand}</p>}
              {device.price != null && <p className="price">{formatTzs(device.price)}</p>}
            </li>
          );
        })}
      </CardList>
    </PageBody>
  );
}
