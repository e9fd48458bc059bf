import { useId, type Key, type ReactNode } from "react";
import { TitledSection } from "../components/TitledSection";

/**
 * A body cell that carries its column's name as text: hidden while the table
 * shows as a table, shown where narrow screens make each row a card
 * (`styles/app.css`), and there for engines that read no CSS or no
 * generated content. A function rather than a component: tables have many
 * cells, and a component each cost the server's render as much again.
 */
export function labelledCell(label: string, children?: ReactNode, key?: Key) {
  return (
    <td key={key}>
      {label && <span className="cell-label">{`${label} `}</span>}
      {children}
    </td>
  );
}

/**
 * The frame every tabular section shares: an optional heading that labels
 * the table, horizontal scrolling on narrow screens, column headers, and
 * whatever follows the table (a note).
 */
export function DataTable({
  title,
  columns,
  children,
  after,
}: {
  title?: string | null;
  columns: ReactNode[];
  /** The body rows. */
  children: ReactNode;
  after?: ReactNode;
}) {
  const heading = useId();
  return (
    <TitledSection className="data-table" title={title} headingId={heading}>
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
          <tbody>{children}</tbody>
        </table>
      </div>
      {after}
    </TitledSection>
  );
}
