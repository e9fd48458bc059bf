import type { PageProps } from "./props";
import { PageBody } from "../components/PageBody";
import { GoldenMinutes } from "../features/golden-minutes/GoldenMinutes";

/** Shake-and-win pages tell when the golden minutes are. */
const GOLDEN_MINUTES_PAGES = new Set(["the-best", "swipe-win"]);

/** A generic CMS page: its title (unless a hero carries it) and its sections. */
export default function ContentPage({ data }: PageProps) {
  return <PageBody page={data.content.page} lead={GOLDEN_MINUTES_PAGES.has(data.route.name) && <GoldenMinutes />} />;
}
