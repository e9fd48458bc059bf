import type { Media } from "../contract";

/** The main picture of an article, device or service: part of the first view, so not lazy. */
export function ItemImage({ image }: { image?: Media | null }) {
  if (!image) return null;
  return <img className="item-image" src={image.url} alt={image.alternativeText ?? ""} width={image.width ?? undefined} height={image.height ?? undefined} fetchPriority="high" />;
}
