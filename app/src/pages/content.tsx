import type { PageProps } from "./props";
import { PageBody } from "../components/PageBody";
import { GoldenMinutes } from "../features/golden-minutes/GoldenMinutes";
import { PopupBanner } from "../features/popups/PopupBanner";

/** Shake-and-win pages tell when the golden minutes are. */
const GOLDEN_MINUTES_PAGES = new Set(["the-best", "swipe-win"]);

/** A generic CMS page: its title (unless a hero carries it), the route's popup, and its sections. */
export default function ContentPage({ data }: PageProps) {
  return (
    <PageBody
      page={data.content.page}
      banner={<PopupBanner popups={data.content.popups} />}
      lead={GOLDEN_MINUTES_PAGES.has(data.route.name) && <GoldenMinutes />}
    />
  );
}
