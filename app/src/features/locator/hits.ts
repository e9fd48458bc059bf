/**
 * What a place found says besides its name, worked out once for both of its
 * lists: the server's (`LocationList`, React) and "near me"'s, which the
 * enhancement script writes without React (`enhance/nearMe.ts`). Nothing
 * here imports React or the translator.
 */
import type { LocationHit } from "../../contract";

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

/** `850 m`, `1.2 km`, `37 km`: the string's name under `locator.` and the number it fills in. */
export function distanceText(metres: number): { unit: "metres" | "kilometres"; distance: string } {
  if (metres < 1000) return { unit: "metres", distance: String(Math.max(10, Math.round(metres / 10) * 10)) };
  return {
    unit: "kilometres",
    distance: metres < 10_000 ? (metres / 1000).toFixed(1) : String(Math.round(metres / 1000)),
  };
}

/** schema.org's type of a place: a shop is a `LocalBusiness`, an agent the `FinancialService` kind of one. */
export const SCHEMA_TYPE = {
  shop: "https://schema.org/LocalBusiness",
  agent: "https://schema.org/FinancialService",
} as const;

/** schema.org's `openingHours` of a place: `Mo-Fr 08:00-20:00`. */
export function openingHours(hit: LocationHit): string[] {
  const spec = (days: string, hours?: string | null) => (hours ? [`${days} ${hours.replace("–", "-")}`] : []);
  return [...spec("Mo-Fr", hit.hours.weekdays), ...spec("Sa", hit.hours.saturday), ...spec("Su", hit.hours.sunday)];
}

/** Where a place is: its street, district and region, those it has. */
export function whereText(hit: LocationHit): string {
  return [hit.street, hit.district, hit.region].filter(Boolean).join(", ");
}

/** A place's hours, day by day: `Mon–Fri 07:30–21:00; Sat 08:00–14:00; Sun closed`, in the words given. */
export function hoursText(
  hit: LocationHit,
  words: { weekdays: string; saturday: string; sunday: string; closedDay: string },
): string {
  const days = [
    [words.weekdays, hit.hours.weekdays],
    [words.saturday, hit.hours.saturday],
    [words.sunday, hit.hours.sunday],
  ] as const;
  return days.map(([day, hours]) => `${day} ${hours ?? words.closedDay}`).join("; ");
}
