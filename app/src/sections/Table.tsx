import { useId } from "react";

export interface TableRow {
  id?: number;
  cells: string[];
}

/** A CMS table: the first cell of each row heads it. */
export function Table({ title, columns, rows }: { title?: string | null; columns: string[]; rows: TableRow[] }) {
  const heading = useId();
  return (
    <section className="data-table">
      {title && <h2 id={heading}>{title}</h2>}
      <div className="table-scroll">
        <table aria-labelledby={title ? heading : undefined}>
          <thead>
            <tr>
              {columns.map((column, index) => (
                <th key={index} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
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
          </tbody>
        </table>
      </div>
    </section>
  );
}
