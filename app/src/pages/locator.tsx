import { FIELD_LENGTHS, type LocatorPage as Locator, type Place } from "../contract";
import { useT } from "../i18n/context";
import type { PageProps } from "./props";
import { LocalLink } from "../app/site";
import { PageBody } from "../components/PageBody";
import { Pager } from "../components/Pager";
import { SearchField } from "../components/SearchField";
import { LocationList } from "../features/locator/LocationList";
import { fillPath } from "../navigation/paths";
import { locatorPlace } from "../features/locator/place";
import { localePath, routeByName } from "../routes";
import { InlineJson } from "../components/InlineJson";
import { NEAR_ME_STRINGS_ID, nearMeStrings } from "../enhance/strings";
import { stringsOf } from "../i18n";

/** The id of "near me"'s part of the page: the enhancement script shows its button and fills its results. */
export const NEAR_ME_ID = "near-me";

/**
 * `/mpesa-agents` and `/vodashop`, and a page per region and district
 * (`/mpesa-agents/dar-es-salaam/ilala`): right under the `<h1>` the forms
 * (a region, then its district; or a place name), so that they are on a
 * phone's first screen, then what they found as a paged list, then the
 * regions or districts as links (what crawlers follow). Plain GET forms and
 * links: all of it works without JavaScript. With it, "near me" (hidden
 * until the script shows it, after the forms) finds the nearest places
 * open. The page's own sections (the rest of its hero too) follow on the
 * first page only.
 */
export default function LocatorPage({ data }: PageProps) {
  const t = useT();
  const locator = data.locator;
  const route = routeByName(data.route.name);
  const base = (route && fillPath(route.path)) ?? data.path;
  if (!locator) return <PageBody page={data.content.page} />;
  const { region, district } = locator;
  const kinds = locator.kind === "agent" ? "agents" : "shops";
  const place = locatorPlace(data);
  const finder = <Finder locator={locator} base={base} lang={data.lang} />;
  if (!place) {
    return (
      <PageBody page={data.content.page} lead={finder} leadFirst>
        <RegionLinks places={locator.regions} base={base} title={t("locator.regions")} />
      </PageBody>
    );
  }
  return (
    <PageBody page={null} title={t(`locator.${kinds}In`, { place })}>
      {finder}
      {region && !district && (
        <RegionLinks
          places={locator.districts}
          base={`${base}/${region.slug}`}
          title={t("locator.districtsOf", { region: region.name })}
        />
      )}
      <p>
        {region && district && (
          <>
            <LocalLink to={`${base}/${region.slug}`}>{t(`locator.${kinds}In`, { place: region.name })}</LocalLink>
            {" · "}
          </>
        )}
        <LocalLink to={base}>{t("locator.allRegions")}</LocalLink>
      </p>
    </PageBody>
  );
}

/** The forms, "near me" and what was found; its heading is for screen readers' outline only, the page's `<h1>` says as much. */
function Finder({ locator, base, lang }: { locator: Locator; base: string; lang: PageProps["data"]["lang"] }) {
  const t = useT();
  const { region, district, query } = locator;
  const title = (
    <h2 id="locator-title" className="visually-hidden">
      {t(locator.kind === "agent" ? "locator.findAgent" : "locator.findShop")}
    </h2>
  );
  if (!locator.listed) {
    // The CMS lists no places yet: forms that could find none give way to saying so; the page's own words follow.
    return (
      <section className="locator" aria-labelledby="locator-title">
        {title}
        <p role="status">{t(locator.kind === "agent" ? "locator.noAgents" : "locator.noShops")}</p>
      </section>
    );
  }
  const action = localePath(lang, base);
  const address = query
    ? `${base}?q=${encodeURIComponent(query)}`
    : region
      ? `${base}/${region.slug}${district ? `/${district.slug}` : ""}`
      : base;
  return (
    <section className="locator" aria-labelledby="locator-title">
      {title}
      {!locator.ready && <p role="status">{t("locator.notReady")}</p>}
      <form method="get" action={action} className="locator-form">
        <label htmlFor="locator-region">{t("locator.region")}</label>
        <select id="locator-region" name="region" defaultValue={region?.slug ?? ""} required>
          <option value="" disabled>
            {t("locator.chooseRegion")}
          </option>
          {locator.regions.map((r) => (
            <option key={r.slug} value={r.slug}>
              {r.name}
            </option>
          ))}
        </select>
        {region && locator.districts.length > 0 && (
          <>
            <label htmlFor="locator-district">{t("locator.district")}</label>
            <select id="locator-district" name="district" defaultValue={district?.slug ?? ""}>
              <option value="">{t("locator.allDistricts")}</option>
              {locator.districts.map((d) => (
                <option key={d.slug} value={d.slug}>
                  {d.name}
                </option>
              ))}
            </select>
          </>
        )}
        <button type="submit">{t("locator.show")}</button>
      </form>
      <form method="get" action={action} className="locator-form" role="search">
        <SearchField
          id="locator-q"
          label={t("locator.place")}
          query={query}
          maxLength={FIELD_LENGTHS.placeQuery}
          placeholder={t("locator.placeHint")}
        />
        <button type="submit">{t("locator.find")}</button>
      </form>
      <div id={NEAR_ME_ID} data-kind={locator.kind} hidden>
        <button type="button" className="button">
          {t("locator.nearMe")}
        </button>
        <p className="hint">{t("locator.nearMeHint")}</p>
        <div id="near-me-results" />
        <InlineJson id={NEAR_ME_STRINGS_ID} value={nearMeStrings(stringsOf(lang))} />
      </div>
      {query && !locator.found && locator.ready && <p role="status">{t("locator.noPlace", { query })}</p>}
      {(locator.found || region) && (
        <>
          <div role="status">
            <h2>
              {locator.found
                ? t("locator.nearestTo", { place: locator.found, count: locator.total })
                : t("locator.found", { count: locator.total })}
            </h2>
          </div>
          {locator.results.length > 0 && <LocationList hits={locator.results} />}
          <Pager pager={locator.pager} path={address} />
        </>
      )}
    </section>
  );
}

/** Regions or districts as links, with how many places each has. */
function RegionLinks({ places, base, title }: { places: Place[]; base: string; title: string }) {
  if (places.length === 0) return null;
  return (
    <section className="locator-places" aria-label={title}>
      <h2>{title}</h2>
      <ul>
        {places.map((p) => (
          <li key={p.slug}>
            <LocalLink to={`${base}/${p.slug}`}>{p.name}</LocalLink> ({p.count})
          </li>
        ))}
      </ul>
    </section>
  );
}
