import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { renderToString } from "react-dom/server";
import { LanguageProvider } from "../../i18n/context";
import { LocationList } from "./LocationList";
import { distanceText, geoUri } from "./hits";
import { AGENT_HIT } from "../../testing/locationHit";

const hit = AGENT_HIT;

describe("the locator's list", () => {
  it("says what, where, when and how far, with a call link and directions, in both languages", () => {
    const en = renderToString(
      <LanguageProvider lang="en">
        <LocationList hits={[hit]} />
      </LanguageProvider>,
    );
    assert.match(en, /Open now/);
    assert.match(en, /1\.2 km away/);
    assert.match(en, /Cash in · Cash out/);
    assert.match(en, /Mon–Fri 07:30–21:00; Sat 08:00–14:00; Sun closed/);
    assert.match(en, /href="tel:\+255754000111"/);
    assert.match(en, /href="geo:-6\.8187,39\.2775\?q=-6\.8187,39\.2775\(Mama%20Neema%20Shop\)"/);
    assert.match(en, /itemType="https:\/\/schema.org\/FinancialService"/);
    const sw = renderToString(
      <LanguageProvider lang="sw">
        <LocationList hits={[{ ...hit, openNow: false, distance: 420 }]} />
      </LanguageProvider>,
    );
    assert.match(sw, /Imefungwa sasa/);
    assert.match(sw, /umbali wa mita 420/);
    assert.match(sw, /Kuweka pesa · Kutoa pesa/);
    assert.match(sw, /Jumapili imefungwa/);
  });

  it("rounds distances as a person says them", () => {
    assert.deepEqual(distanceText(3), { unit: "metres", distance: "10" });
    assert.deepEqual(distanceText(9_949), { unit: "kilometres", distance: "9.9" });
    assert.deepEqual(distanceText(37_400), { unit: "kilometres", distance: "37" });
    assert.equal(geoUri({ latitude: 1, longitude: 2, name: "A (b)" }), "geo:1,2?q=1,2(A%20%28b%29)");
  });
});
