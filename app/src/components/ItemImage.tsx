import type { Media } from "../contract";
import { Picture } from "./Picture";

/** The main picture of an article, device or service: part of the first view, so fetched first. */
export function ItemImage({ image }: { image?: Media | null }) {
  if (!image) return null;
  return <Picture className="item-image" image={image} slot="article" main />;
}
