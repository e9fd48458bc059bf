import { DataTable } from "./DataTable";

export interface TableRow {
  id?: number;
  cells: string[];
}

/** A CMS table: the first cell of each row heads it. */
export function Table({ title, columns, rows }: { title?: string | null; columns: string[]; rows: TableRow[] }) {
  return (
    <DataTable title={title} columns={columns}>
      {rows.map((row, rowIndex) => (
        <tr key={row.id ?? rowIndex}>
          {row.cells.map((cell, index) =>
            index === 0 ? (
              <th key={index} scope="row">
                {cell}
              </th>
            ) : (
              <td key={index}>{cell}</td>
            ),
          )}
        </tr>
      ))}
    </DataTable>
  );
}
