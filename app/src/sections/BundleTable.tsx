import { useId } from "react";
import { useT } from "../i18n/context";
import { formatTzs } from "../format";
import { LocalLink } from "../app/site";

export interface BundleRow {
  id?: number;
  name: string;
  /** Price in Tanzanian shillings. */
  price: number;
  validity: string;
  ussd?: string | null;
}

export function BundleTable({ title, bundles }: { title?: string | null; bundles: BundleRow[] }) {
  const t = useT();
  const heading = useId();
  return (
    <section className="bundle-table">
      {title && <h2 id={heading}>{title}</h2>}
      <div className="table-scroll">
        <table aria-labelledby={title ? heading : undefined}>
          <thead>
            <tr>
              <th scope="col">{t("bundles.bundle")}</th>
              <th scope="col">{t("bundles.price")}</th>
              <th scope="col">{t("bundles.validity")}</th>
              <th scope="col">{t("bundles.dial")}</th>
            </tr>
          </thead>
          <tbody>
            {bundles.map((b, index) => (
              <tr key={b.id ?? index}>
                <th scope="row">{b.name}</th>
                <td data-label={t("bundles.price")}>{formatTzs(b.price)}</td>
                <td data-label={t("bundles.validity")}>{b.validity}</td>
                <td data-label={t("bundles.dial")}>{b.ussd && <a className="contact contact-ussd" href={`tel:${b.ussd.replace(/#/g, "%23")}`}>{b.ussd}</a>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* A purchase link: for a signed-out visitor with JavaScript it opens the login dialog. */}
      <p className="bundle-buy">
        <LocalLink to="/account" data-purchase="">
          {t("account.buyOnline")}
        </LocalLink>
      </p>
    </section>
  );
}
