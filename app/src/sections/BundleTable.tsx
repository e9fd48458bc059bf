import { useSite } from "../app/site";

export interface BundleRow {
  id?: number;
  name: string;
  /** Price in Tanzanian shillings. */
  price: number;
  validity: string;
  ussd?: string | null;
}

const LABELS = {
  en: { bundle: "Bundle", price: "Price", validity: "Validity", dial: "Dial" },
  sw: { bundle: "Kifurushi", price: "Bei", validity: "Muda", dial: "Piga" },
} as const;

/**
 * `TSh 25,000`. Written out rather than through `Intl`, whose locale data
 * differs between the server's engine and browsers and would break hydration.
 */
export function formatTzs(amount: number): string {
  return `TSh ${Math.round(amount).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`;
}

export function BundleTable({ title, bundles }: { title?: string | null; bundles: BundleRow[] }) {
  const { lang } = useSite();
  const labels = LABELS[lang];
  return (
    <section className="bundle-table">
      {title && <h2>{title}</h2>}
      <div className="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">{labels.bundle}</th>
              <th scope="col">{labels.price}</th>
              <th scope="col">{labels.validity}</th>
              <th scope="col">{labels.dial}</th>
            </tr>
          </thead>
          <tbody>
            {bundles.map((b, index) => (
              <tr key={b.id ?? index}>
                <th scope="row">{b.name}</th>
                <td>{formatTzs(b.price)}</td>
                <td>{b.validity}</td>
                <td>{b.ussd && <a href={`tel:${encodeURIComponent(b.ussd)}`}>{b.ussd}</a>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
