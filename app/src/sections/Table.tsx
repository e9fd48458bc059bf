import { DataTable, labelledCell } from "./DataTable";
import { ContactText, isCallHeader } from "../content/contacts";

export interface TableRow {
  id?: number;
  cells: string[];
}

/**
 * A CMS table: the first cell of each row heads it. A cell whose row or
 * column is headed "Call" (or "Simu", …) links a short code on its own.
 */
export function Table({ title, columns, rows }: { title?: string | null; columns: string[]; rows: TableRow[] }) {
  return (
    <DataTable title={title} columns={columns}>
      {rows.map((row, rowIndex) => {
        // A row that mentions WhatsApp makes its number a WhatsApp link.
        const context = row.cells.join(" ");
        return (
          <tr key={row.id ?? rowIndex}>
            {row.cells.map((cell, index) =>
              index === 0 ? (
                <th key={index} scope="row">
                  <ContactText text={cell} context={context} />
                </th>
              ) : (
                labelledCell(
                  columns[index] ?? "",
                  <ContactText
                    text={cell}
                    context={context}
                    callContext={isCallHeader(row.cells[0]) || isCallHeader(columns[index])}
                  />,
                  index,
                )
              ),
            )}
          </tr>
        );
      })}
    </DataTable>
  );
}
