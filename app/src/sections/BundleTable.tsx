/**
 * A bundle table: bundles of the operator's catalogue, named by the CMS
 * (ids, or a category) and filled in by the server from the same catalogue
 * the purchase uses (`data.bundles`), so the price shown is the price sold.
 * Each bundle sold online has a "Buy" link that opens the purchase with it
 * chosen (for a signed-out visitor with JavaScript, the login dialog first).
 */
import { createContext, useContext, useId } from "react";
import { useT } from "../i18n/context";
import type { BundleOffer, BundleTableSection } from "../contract";
import { formatTzs } from "../format";
import { Kept } from "../kept";
import { localAnchor, useSite } from "../app/site";
import { pathOf } from "../routes";
import { labelledCell } from "./DataTable";
import { TitledSection } from "../components/TitledSection";

/** The page's catalogue bundles; undefined when the catalogue could not be read. */
export const CatalogueBundles = createContext<BundleOffer[] | undefined>(undefined);

/** The rows of `section`: its ids in their order, or its category's bundles. */
export function tableRows(
  section: Pick<BundleTableSection, "bundleIds" | "category">,
  catalogue: BundleOffer[],
): BundleOffer[] {
  const ids = section.bundleIds ?? [];
  if (ids.length === 0) return catalogue.filter((bundle) => bundle.category === section.category);
  return ids.flatMap((id) => catalogue.filter((bundle) => bundle.id === id));
}

/** Where "Buy" leads: the account page's purchase, this bundle chosen. */
export function purchaseHref(bundleId: string): string {
  // URLSearchParams is a script of its own in the server's engine (core-js) and in node.
  return (
    purchaseHrefs.get(bundleId) ??
    purchaseHrefs.keep(bundleId, `${pathOf("account")}?${new URLSearchParams({ bundleId })}`)
  );
}

const purchaseHrefs = new Kept<string>();

export function BundleTable({ title, bundleIds, category }: BundleTableSection) {
  const t = useT();
  const heading = useId();
  const catalogue = useContext(CatalogueBundles);
  const { lang } = useSite();
  const rows = catalogue ? tableRows({ bundleIds, category }, catalogue) : [];
  if (catalogue && rows.length === 0) return null;
  const sold = rows.some((bundle) => bundle.purchasable);
  const [price, validity, dial, buyColumn] = [
    t("bundles.price"),
    t("bundles.validity"),
    t("bundles.dial"),
    t("checkout.buyColumn"),
  ];
  return (
    <TitledSection
      className="bundle-table"
      title={title}
      headingId={heading}
      aria-labelledby={title ? heading : undefined}
    >
      {!catalogue ? (
        <p className="notice-box notice-info">{t("checkout.pricesUnavailable")}</p>
      ) : (
        <div className="table-scroll">
          <table aria-labelledby={title ? heading : undefined}>
            <thead>
              <tr>
                <th scope="col">{t("bundles.bundle")}</th>
                <th scope="col">{price}</th>
                <th scope="col">{validity}</th>
                <th scope="col">{dial}</th>
                {sold && <th scope="col">{buyColumn}</th>}
              </tr>
            </thead>
            <tbody>
              {rows.map((bundle) => (
                <tr key={bundle.id}>
                  <th scope="row">{bundle.name}</th>
                  {labelledCell(price, formatTzs(bundle.price))}
                  {labelledCell(validity, bundle.validity)}
                  {labelledCell(
                    dial,
                    bundle.ussd && (
                      <a className="contact contact-ussd" href={`tel:${bundle.ussd.replace(/#/g, "%23")}`}>
                        {bundle.ussd}
                      </a>
                    ),
                  )}
                  {sold &&
                    labelledCell(
                      buyColumn,
                      bundle.purchasable &&
                        // For a signed-out visitor with JavaScript it opens the login dialog first.
                        localAnchor(lang, purchaseHref(bundle.id), undefined, {
                          "data-purchase": "",
                          className: "bundle-buy",
                          children: (
                            <>
                              {t("checkout.buy")}
                              <span className="visually-hidden"> {bundle.name}</span>
                            </>
                          ),
                        }),
                    )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </TitledSection>
  );
}
