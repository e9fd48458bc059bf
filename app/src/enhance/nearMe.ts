/**
 * "Near me" on a locator page, without React: the browser asks the visitor
 * for their position once, the server answers the nearest places open now
 * as JSON, and the list is written into the page's `#near-me-results` in
 * the words the page carries (`NearMeStrings`). The position is kept
 * nowhere: not in an address, not in storage. Refused or unavailable, the
 * region form stays the way.
 *
 * The list is the server's list of places (`LocationList`) written as HTML
 * text, the same elements and words (`nearMe.test.ts` holds the two
 * together), so that finding a few places costs this script and a small
 * JSON answer rather than React.
 */
import * as ENDPOINTS from "../../generated/endpoints";
import type { LocationHit, LocationKind, Lang, NearbyLocations } from "../contract";
import {
  SCHEMA_TYPE,
  distanceText,
  geoUri,
  hoursText,
  mapUrl,
  openingHours,
  whereText,
} from "../features/locator/hits";
import { counted, fill } from "./fill";
import { inlineJson } from "./inline";
import { NEAR_ME_STRINGS_ID, type NearMeStrings } from "./strings";

/** Where "near me" asks; the position goes in the body, never in an address. */
export const NEAR_ENDPOINT = ENDPOINTS.locationsNear;

/** `text` safe as an element's text or an attribute's value in double quotes. */
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The places as the server's list has them: name, open or not and how far, where, what, when, then how to call and get there. */
export function locationListHtml(hits: LocationHit[], words: NearMeStrings, id: string): string {
  const items = hits.map((hit) => {
    const distance = hit.distance === undefined ? null : distanceText(hit.distance);
    const meta = (name: string, content: string) => `<meta itemprop="${name}" content="${escape(content)}"/>`;
    return [
      `<li class="location" itemscope="" itemtype="${SCHEMA_TYPE[hit.kind]}">`,
      `<h3 itemprop="name">${escape(hit.name)}</h3>`,
      `<span itemprop="geo" itemscope="" itemtype="https://schema.org/GeoCoordinates">`,
      meta("latitude", String(hit.latitude)),
      meta("longitude", String(hit.longitude)),
      `</span>`,
      ...openingHours(hit).map((spec) => meta("openingHours", spec)),
      hit.phone ? meta("telephone", hit.phone) : "",
      `<p class="location-state"><strong class="${hit.openNow ? "open" : "closed"}">`,
      escape(hit.openNow ? words.openNow : words.closedNow),
      `</strong>`,
      distance ? escape(` · ${fill(words[distance.unit], { distance: distance.distance })}`) : "",
      `</p>`,
      `<p itemprop="address">${escape(whereText(hit))}${hit.landmark ? escape(` (${hit.landmark})`) : ""}</p>`,
      hit.services.length > 0
        ? `<p class="location-services">${escape(hit.services.map((code) => words.services[code]).join(" · "))}</p>`
        : "",
      `<p class="location-hours">${escape(hoursText(hit, words))}</p>`,
      `<p class="location-actions">`,
      hit.phone ? `<a href="tel:${escape(hit.phone)}">${escape(fill(words.call, { phone: hit.phone }))}</a> ` : "",
      `<a href="${escape(geoUri(hit))}">${escape(words.directions)}</a> `,
      `<a href="${escape(mapUrl(hit))}" rel="external noopener">${escape(words.map)}</a>`,
      `</p></li>`,
    ].join("");
  });
  return `<ol class="locations" id="${id}">${items.join("")}</ol>`;
}

/** The answer's places, or null for an answer that is not the contract's. */
function placesOf(answer: unknown): LocationHit[] | null {
  const results = (answer as Partial<NearbyLocations> | null)?.results;
  return Array.isArray(results) ? results : null;
}

/** Each search of its own: a second tap asks for the position again, and an older answer is not shown over it. */
let searches = 0;

export function findNearMe(results: HTMLElement, kind: LocationKind, lang: Lang) {
  const words = inlineJson<NearMeStrings | null>(NEAR_ME_STRINGS_ID, null);
  if (!words) return;
  const search = ++searches;
  const show = (html: string) => {
    if (search === searches) results.innerHTML = html;
  };
  const status = (text: string) => show(`<p role="status">${escape(text)}</p>`);
  status(words.locating);
  navigator.geolocation.getCurrentPosition(
    async ({ coords }) => {
      try {
        const response = await fetch(NEAR_ENDPOINT, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ kind, lang, latitude: coords.latitude, longitude: coords.longitude }),
          cache: "no-store",
        });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const hits = placesOf(await response.json());
        if (!hits) throw new Error("near me: an answer without results");
        if (hits.length === 0) status(words.none);
        else
          show(
            `<div role="status"><h2>${escape(counted(words.nearest, hits.length))}</h2></div>` +
              locationListHtml(hits, words, "near-me-list"),
          );
      } catch (error) {
        console.error(error);
        status(words.failed);
      }
    },
    () => status(words.refused),
    { enableHighAccuracy: false, timeout: 20_000, maximumAge: 60_000 },
  );
}
