import type { LocationHit, LocationService } from "../../contract";
import { useT } from "../../i18n/context";

/** A map site's page of a point, for phones whose browser has no maps app to hand a `geo:` link to. */
export function mapUrl(hit: Pick<LocationHit, "latitude" | "longitude">): string {
  return `https://www.openstreetmap.org/?mlat=${hit.latitude}&mlon=${hit.longitude}#map=17/${hit.latitude}/${hit.longitude}`;
}

/** The `geo:` URI (RFC 5870) KaiOS and Android open in their maps, with the place's name as its label. */
export function geoUri(hit: Pick<LocationHit, "latitude" | "longitude" | "name">): string {
  // The label sits in parentheses: those of a name are escaped too.
  const label = encodeURIComponent(hit.name).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `geo:${hit.latitude},${hit.longitude}?q=${hit.latitude},${hit.longitude}(${label})`;
}

/** `850 m`, `1.2 km`, `37 km`. */
export function distanceText(metres: number): { key: "locator.metres" | "locator.kilometres"; distance: string } {
  if (metres < 1000) return { key: "locator.metres", distance: String(Math.max(10, Math.round(metres / 10) * 10)) };
  return {
    key: "locator.kilometres",
    distance: metres < 10_000 ? (metres / 1000).toFixed(1) : String(Math.round(metres / 1000)),
  };
}

/** schema.org's type of a place: a shop is a `LocalBusiness`, an agent the `FinancialService` kind of one. */
const SCHEMA_TYPE = { shop: "https://schema.org/LocalBusiness", agent: "https://schema.org/FinancialService" } as const;

/** schema.org's `openingHours` of a place: `Mo-Fr 08:00-20:00`. */
function openingHours(hit: LocationHit): string[] {
  const spec = (days: string, hours?: string | null) => (hours ? [`${days} ${hours.replace("–", "-")}`] : []);
  return [...spec("Mo-Fr", hit.hours.weekdays), ...spec("Sa", hit.hours.saturday), ...spec("Su", hit.hours.sunday)];
}

/**
 * Places found, as a list a text browser reads top to bottom: name, open
 * or not and how far, where, what it does, its hours, then a call link and
 * directions (`geo:` and a map site's page). Each is marked up as
 * schema.org microdata (no script: the page's policy allows none inline).
 */
export function LocationList({ hits, id }: { hits: LocationHit[]; id?: string }) {
  const t = useT();
  const service = (code: LocationService) => t(`locator.services.${code}`);
  return (
    <ol className="locations" id={id}>
      {hits.map((hit) => {
        const distance = hit.distance === undefined ? null : distanceText(hit.distance);
        const where = [hit.street, hit.district, hit.region].filter(Boolean).join(", ");
        const days = [
          [t("locator.weekdays"), hit.hours.weekdays],
          [t("locator.saturday"), hit.hours.saturday],
          [t("locator.sunday"), hit.hours.sunday],
        ] as const;
        return (
          <li key={hit.id} className="location" itemScope itemType={SCHEMA_TYPE[hit.kind]}>
            <h3 itemProp="name">{hit.name}</h3>
            <span itemProp="geo" itemScope itemType="https://schema.org/GeoCoordinates">
              <meta itemProp="latitude" content={String(hit.latitude)} />
              <meta itemProp="longitude" content={String(hit.longitude)} />
            </span>
            {openingHours(hit).map((spec) => (
              <meta key={spec} itemProp="openingHours" content={spec} />
            ))}
            {hit.phone && <meta itemProp="telephone" content={hit.phone} />}
            <p className="location-state">
              <strong className={hit.openNow ? "open" : "closed"}>
                {hit.openNow ? t("locator.openNow") : t("locator.closedNow")}
              </strong>
              {distance && <> · {t(distance.key, { distance: distance.distance })}</>}
            </p>
            <p itemProp="address">
              {where}
              {hit.landmark && <> ({hit.landmark})</>}
            </p>
            {hit.services.length > 0 && <p className="location-services">{hit.services.map(service).join(" · ")}</p>}
            <p className="location-hours">
              {days.map(([day, hours]) => `${day} ${hours ?? t("locator.closedDay")}`).join("; ")}
            </p>
            <p className="location-actions">
              {hit.phone && (
                <>
                  <a href={`tel:${hit.phone}`}>{t("locator.call", { phone: hit.phone })}</a>{" "}
                </>
              )}
              <a href={geoUri(hit)}>{t("locator.directions")}</a>{" "}
              <a href={mapUrl(hit)} rel="external noopener">
                {t("locator.map")}
              </a>
            </p>
          </li>
        );
      })}
    </ol>
  );
}
