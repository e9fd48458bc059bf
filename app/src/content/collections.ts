/**
 * The items of a page's list or its one item, by the shape of their
 * collection. The server tags both with their collection (`ItemList`,
 * `CollectionItem` in the contract); a page asks for the shape it shows and
 * gets nothing from a collection of another shape.
 */
import type { BusinessService, CollectionItem, Device, ItemList, Media, NewsItem, Trick } from "../contract";

/** The collections of news: the newsroom's, sport's and the foundation's. */
const NEWS = ["news-updates", "sport-updates", "foundation-updates"] as const;
type News<T> = Extract<T, { collection: (typeof NEWS)[number] }>;

function isNews<T extends { collection: string }>(value: T): value is News<T> {
  return (NEWS as readonly string[]).includes(value.collection);
}

export function newsList(list: ItemList | undefined): NewsItem[] {
  return list && isNews(list) ? list.items : [];
}

export function deviceList(list: ItemList | undefined): Device[] {
  return list?.collection === "device-updates" ? list.items : [];
}

export function serviceList(list: ItemList | undefined): BusinessService[] {
  return list?.collection === "vbu-services" ? list.items : [];
}

export function trickList(list: ItemList | undefined): Trick[] {
  return list?.collection === "trick-mobiles" ? list.items : [];
}

export function newsItem(entry: CollectionItem | undefined): NewsItem | undefined {
  return entry && isNews(entry) ? entry.item : undefined;
}

export function deviceItem(entry: CollectionItem | undefined): Device | undefined {
  return entry?.collection === "device-updates" ? entry.item : undefined;
}

export function serviceItem(entry: CollectionItem | undefined): BusinessService | undefined {
  return entry?.collection === "vbu-services" ? entry.item : undefined;
}

/** What every item has, for titles, descriptions, breadcrumbs and structured data. */
export interface ItemSummary {
  /** The title, or a device's name. */
  heading: string;
  summary?: string;
  image?: Media;
  publishDate?: string;
}

export function itemSummary(entry: CollectionItem | undefined): ItemSummary | undefined {
  if (!entry) return undefined;
  const item = entry.item;
  return {
    heading: "name" in item ? item.name : item.title,
    summary: item.summary,
    image: item.image,
    publishDate: item.publishDate,
  };
}
