import type { HTMLAttributes, ReactNode } from "react";

/**
 * A part of a page under its own heading: a `<section>` led by an `<h2>` of
 * `title`, or a `<div>` when it has none (the CMS's title is optional), as a
 * section without a heading is a nameless entry in the page's outline.
 */
export function TitledSection({
  title,
  headingId,
  children,
  ...attributes
}: { title?: string | null; headingId?: string; children: ReactNode } & Omit<HTMLAttributes<HTMLElement>, "title">) {
  if (!title) return <div {...attributes}>{children}</div>;
  return (
    <section {...attributes}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}

/**
 * The heading of each item of a part titled `title` (a card, a step, a
 * person): one level below the part's `<h2>`, or in its place when it has
 * none, so no level is skipped after the page's `<h1>`.
 */
function itemHeading(title?: string | null): "h2" | "h3" {
  return title ? "h3" : "h2";
}

/**
 * A titled part listing `items` (cards, steps, people), each an `<li>` of
 * `itemClass` whose content `item` lays out under the heading element it
 * is given.
 */
export function TitledList<T extends { id?: number }>({
  className,
  title,
  items,
  ordered = false,
  itemClass,
  item,
}: {
  className: string;
  title?: string | null;
  items: T[];
  ordered?: boolean;
  itemClass?: string;
  item(item: T, Heading: "h2" | "h3"): ReactNode;
}) {
  const Heading = itemHeading(title);
  const List = ordered ? "ol" : "ul";
  return (
    <TitledSection className={className} title={title}>
      <List>
        {items.map((one, index) => (
          <li key={one.id ?? index} className={itemClass}>
            {item(one, Heading)}
          </li>
        ))}
      </List>
    </TitledSection>
  );
}
