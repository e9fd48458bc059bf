/**
 * The trail from home to the current page, from the route's ancestors
 * (`routeTrail`): menu headings are plain text, clickable routes are links,
 * an item page ends with the item's title and `/faq/<item>` with the question.
 */
import type { TFunction } from "../i18n";
import type { PageData } from "../contract";
import { routeTrail } from "../routes";
import { itemSummary } from "../content/collections";
import { findFaqItem } from "../sections/faqItems";
import { navLabel } from "./menu";
import { routeHref } from "./paths";

export interface Crumb {
  label: string;
  /** Path without language prefix; absent for headings. The last crumb is the page itself. */
  path?: string;
}

/** Each page's trail, asked for by the page and by its head (the JSON-LD): made once per page data and translator. */
const trails = new WeakMap<PageData, { t: TFunction; crumbs: Crumb[] }>();

export function breadcrumbs(data: PageData, t: TFunction): Crumb[] {
  const kept = trails.get(data);
  if (kept?.t === t) return kept.crumbs;
  const crumbs = crumbsOf(data, t);
  trails.set(data, { t, crumbs });
  return crumbs;
}

function crumbsOf(data: PageData, t: TFunction): Crumb[] {
  if (data.route.name === "home") return [];
  const trail = routeTrail(data.route.name);
  const crumbs: Crumb[] = [{ label: navLabel(t, "home"), path: "/" }];
  trail.forEach((route, index) => {
    const last = index === trail.length - 1;
    if (!last) {
      crumbs.push({
        label: route.meta.navigation ? navLabel(t, route.meta.navigation) : route.name,
        path: routeHref(route),
      });
      return;
    }
    const item = itemSummary(data.content.item);
    const question = data.route.params.item ? findFaqItem(data.content.page, data.route.params.item) : undefined;
    if (item) {
      crumbs.push({ label: item.heading, path: data.path });
    } else if (question) {
      crumbs.push({ label: navLabel(t, route.meta.navigation ?? "faq"), path: routeHref(route) });
      crumbs.push({ label: question.question, path: data.path });
    } else {
      const label =
        data.status === 404
          ? t("notFound.title")
          : route.page === "offline"
            ? t("offline.title")
            : route.meta.navigation
              ? navLabel(t, route.meta.navigation)
              : (data.content.page?.title ?? "");
      crumbs.push({ label, path: data.path });
    }
  });
  return crumbs;
}
