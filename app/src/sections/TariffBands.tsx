import { useT } from "../i18n/context";
import { formatTzs } from "../format";
import { DataTable, labelledCell } from "./DataTable";

export interface TariffBand {
  id?: number;
  /** Amounts and fees in TZS. */
  min: number;
  max: number;
  send: number;
  withdraw: number;
}

/** M-Pesa fees by amount sent or withdrawn. */
export function TariffBands({
  title,
  note,
  bands,
}: {
  title?: string | null;
  note?: string | null;
  bands: TariffBand[];
}) {
  const t = useT();
  const send = t("tariff.send");
  const withdraw = t("tariff.withdraw");
  return (
    <DataTable
      title={title}
      columns={[t("tariff.amount"), send, withdraw]}
      after={note && <p className="table-note">{note}</p>}
    >
      {bands.map((band, index) => (
        <tr key={band.id ?? index}>
          <th scope="row">{t("tariff.range", { min: formatTzs(band.min), max: formatTzs(band.max) })}</th>
          {labelledCell(send, formatTzs(band.send))}
          {labelledCell(withdraw, formatTzs(band.withdraw))}
        </tr>
      ))}
    </DataTable>
  );
}
