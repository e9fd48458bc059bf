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
export function itemHeading(title?: string | null): "h2" | "h3" {
  return title ? "h3" : "h2";
}
