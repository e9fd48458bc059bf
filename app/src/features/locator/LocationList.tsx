import type { LocationHit, LocationService } from "../../contract";
import { useT } from "../../i18n/context";
import { SCHEMA_TYPE, distanceText, geoUri, hoursText, mapUrl, openingHours, whereText } from "./hits";

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
        const where = whereText(hit);
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
              {distance && <> · {t(`locator.${distance.unit}`, { distance: distance.distance })}</>}
            </p>
            <p itemProp="address">
              {where}
              {hit.landmark && <> ({hit.landmark})</>}
            </p>
            {hit.services.length > 0 && <p className="location-services">{hit.services.map(service).join(" · ")}</p>}
            <p className="location-hours">
              {hoursText(hit, {
                weekdays: t("locator.weekdays"),
                saturday: t("locator.saturday"),
                sunday: t("locator.sunday"),
                closedDay: t("locator.closedDay"),
              })}
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
