import { useEffect, useState } from "react";
import type { Lang, LocationHit, LocationKind, NearbyLocations } from "../../contract";
import { useT } from "../../i18n/context";
import { LocationList } from "./LocationList";

/** Where "near me" asks; the position goes in the body, never in an address. */
export const NEAR_ENDPOINT = "/api/locations/near";

type State = { step: "locating" } | { step: "refused" } | { step: "failed" } | { step: "found"; hits: LocationHit[] };

/**
 * "Near me": asks the browser for the visitor's position once (the browser
 * asks the visitor), sends it to the server for the nearest places open
 * now, and shows them. The position is kept nowhere: not in the address,
 * not in storage. Refused or unavailable, the region form stays the way.
 */
export function NearMe({ kind, lang }: { kind: LocationKind; lang: Lang }) {
  const t = useT();
  const [state, setState] = useState<State>({ step: "locating" });
  useEffect(() => {
    let live = true;
    const settle = (next: State) => live && setState(next);
    if (!("geolocation" in navigator)) {
      settle({ step: "refused" });
      return;
    }
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
          const found = (await response.json()) as NearbyLocations;
          settle({ step: "found", hits: found.results });
        } catch {
          settle({ step: "failed" });
        }
      },
      () => settle({ step: "refused" }),
      { enableHighAccuracy: false, timeout: 20_000, maximumAge: 60_000 },
    );
    return () => {
      live = false;
    };
  }, [kind, lang]);
  switch (state.step) {
    case "locating":
      return <p role="status">{t("locator.locating")}</p>;
    case "refused":
      return <p role="status">{t("locator.refused")}</p>;
    case "failed":
      return <p role="status">{t("locator.nearFailed")}</p>;
    case "found":
      return state.hits.length === 0 ? (
        <p role="status">{t("locator.nearNone")}</p>
      ) : (
        <>
          <div role="status">
            <h2>{t("locator.nearest", { count: state.hits.length })}</h2>
          </div>
          <LocationList hits={state.hits} id="near-me-list" />
        </>
      );
  }
}
