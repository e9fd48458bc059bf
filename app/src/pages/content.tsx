import type { PageProps } from "../pages";
import { Sections } from "../sections";

/** A generic CMS page: its title (unless a hero carries it) and its sections. */
export default function ContentPage({ data }: PageProps) {
  const page = data.content.page;
  const hasHero = page?.sections.some((s) => s.__component === "sections.hero");
  return (
    <>
      {page && !hasHero && <h1 className="page-title">{page.title}</h1>}
      <Sections sections={page?.sections} />
    </>
  );
}
