import type { ReactNode } from "react";
import { useT } from "../i18n/context";
import type { Page } from "../contract";
import { useSite } from "../app/site";
import { navLabel } from "../navigation/menu";
import { routeByName } from "../routes";
import { Sections } from "../sections";

/**
 * A CMS page: its title as the `<h1>` unless a hero carries it, then
 * `banner` (a popup: after the heading, so that it never pushes the heading
 * off a small screen or down a text browser's page), `lead` (right below the
 * hero or title), the sections and `children`. With `leadFirst`, `lead` is
 * what follows the `<h1>` (a form a visitor came for, on a phone's first
 * screen): a hero's title is the `<h1>` then, and the rest of the hero
 * comes after the lead and the banner. With `title`,
 * the page shows another page's content (pass-through): `title` is the `<h1>`
 * and that page's hero, which would be a second `<h1>`, is left out. A page
 * the CMS left without a title or hero is headed by its menu label.
 */
export function PageBody({
  page,
  title,
  banner,
  lead,
  leadFirst,
  children,
}: {
  page: Page | null;
  title?: string;
  banner?: ReactNode;
  lead?: ReactNode;
  leadFirst?: boolean;
  children?: ReactNode;
}) {
  const sections = page?.sections ?? [];
  const heroAt = sections.findIndex((s) => s.__component === "sections.hero");
  const hero = title === undefined && heroAt >= 0 ? sections[heroAt] : undefined;
  const lifted = leadFirst && hero?.__component === "sections.hero" && hero.title ? hero.title : undefined;
  const intro = hero
    ? sections.slice(0, heroAt + 1).map((s) => (s === hero && lifted ? { ...hero, title: "" } : s))
    : [];
  const rest =
    title !== undefined ? sections.filter((s) => s.__component !== "sections.hero") : sections.slice(heroAt + 1);
  const t = useT();
  const navigation = routeByName(useSite().route)?.meta.navigation;
  const untitled = navigation ? navLabel(t, navigation) : undefined;
  const heading = title ?? lifted ?? (heroAt < 0 ? page?.title || untitled : undefined);
  return (
    <>
      {heading && <h1 className="page-title">{heading}</h1>}
      {lifted ? (
        <>
          {lead}
          {banner}
          <Sections sections={intro} />
        </>
      ) : (
        <>
          <Sections sections={intro} />
          {banner}
          {lead}
        </>
      )}
      <Sections sections={rest} />
      {children}
    </>
  );
}
