import { useId } from "react";
import { useTranslation } from "react-i18next";
import { formatTzs } from "../format";

export interface TariffBand {
  id?: number;
  /** Amounts and fees in TZS. */
  min: number;
  max: number;
  send: number;
  withdraw: number;
}

/** M-Pesa fees by amount sent or withdrawn. */
export function TariffBands({ title, note, bands }: { title?: string | null; note?: string | null; bands: TariffBand[] }) {
  const { t } = useTranslation();
  const heading = useId();
  return (
    <section className="data-table">
      {title && <h2 id={heading}>{title}</h2>}
      <div className="table-scroll">
        <table aria-labelledby={title ? heading : undefined}>
          <thead>
            <tr>
              <th scope="col">{t("tariff.amount")}</th>
              <th scope="col">{t("tariff.send")}</th>
              <th scope="col">{t("tariff.withdraw")}</th>
            </tr>
          </thead>
          <tbody>
            {bands.map((band, index) => (
              <tr key={band.id ?? index}>
                <th scope="row">{t("tariff.range", { min: formatTzs(band.min), max: formatTzs(band.max) })}</th>
                <td>{formatTzs(band.send)}</td>
                <td>{formatTzs(band.withdraw)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {note && <p className="table-note">{note}</p>}
    </section>
  );
}
