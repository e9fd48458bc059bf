import type { ReactNode } from "react";
import type { PageData } from "../contract";
import { Pager } from "./Pager";

/**
 * A list page's items under their heading: the cards (each an `<li>`), or
 * what to say when the page has none, and the pager below either.
 */
export function CardList({
  heading,
  empty,
  className = "cards",
  data,
  children,
}: {
  heading: string;
  empty: string;
  className?: string;
  data: Pick<PageData, "pager" | "path">;
  children: ReactNode[];
}) {
  return (
    <section className="item-list">
      <h2>{heading}</h2>
      {children.length === 0 ? <p>{empty}</p> : <ul className={className}>{children}</ul>}
      <Pager pager={data.pager ?? undefined} path={data.path} />
    </section>
  );
}
