import type { ReactNode } from "react";
import type { Media } from "../contract";
import { useT } from "../i18n/context";

/**
 * How wide each kind of slot is shown, as `sizes`, from the layout in
 * `styles/app.css`: `main` is 72rem at most with 1rem padding, `.article`
 * 46rem, `.hero` two fifths of the row from 48rem, `.cards` and card grids
 * columns of at least 14rem with 1rem gaps (one column below 31rem, two
 * below 46rem, three below 61rem, then four), the picture inside a card's
 * 1rem padding and 1px border, a news card's thumbnail 5rem in one column
 * and a card's picture in more, a popup's picture 4rem. A browser picks from
 * the server's widths the narrowest at least this wide times its pixel
 * ratio, so a slot said wider than it is costs bytes on every phone.
 */
const SIZES = {
  article: "(min-width: 48rem) 46rem, calc(100vw - 2rem)",
  wide: "(min-width: 74rem) 70rem, calc(100vw - 2rem)",
  hero: "(min-width: 74rem) 28rem, (min-width: 48rem) 40vw, calc(100vw - 2rem)",
  card: "(min-width: 74rem) 15.2rem, (min-width: 61rem) calc(25vw - 3.4rem), (min-width: 46rem) calc(33.4vw - 3.4rem), (min-width: 31rem) calc(50vw - 3.6rem), calc(100vw - 4rem - 2px)",
  thumb:
    "(max-width: 31rem) 5rem, (min-width: 74rem) 15.2rem, (min-width: 61rem) calc(25vw - 3.4rem), (min-width: 46rem) calc(33.4vw - 3.4rem), calc(50vw - 3.6rem)",
  icon: "4rem",
} as const;

export type Slot = keyof typeof SIZES;

export interface PictureProps {
  image: Media;
  slot: Slot;
  /** The page's main picture: fetched first (`fetchpriority="high"`). */
  main?: boolean;
  /** Below the first view: fetched once scrolled near. */
  lazy?: boolean;
  className?: string;
  /** Width and height when the CMS gives none, so nothing shifts. */
  fallbackSize?: [number, number];
}

/**
 * A picture of content. A photo the server resizes comes with its `srcset`
 * (the server's image endpoint at fixed widths, WebP where the browser takes
 * it) and the slot's `sizes`; anything else (SVG) keeps its own URL. A GIF
 * the server resizes is its first frame, linked to the animation where it is
 * a page's own picture.
 */
export function Picture(props: PictureProps) {
  const { image, slot } = props;
  if (image.mime !== "image/gif" || !image.srcset || STILL_ONLY.has(slot)) return <Photo {...props} />;
  return (
    <AnimationLink image={image}>
      <Photo {...props} />
    </AnimationLink>
  );
}

/** Slots whose still stands for a page the card links to (which offers the animation): no link of their own. */
const STILL_ONLY = new Set<Slot>(["card", "thumb", "icon"]);

/**
 * An animated GIF is shown as the server's still (its bytes predictable, and
 * every browser shows one); the visitor chooses to spend the animation's,
 * by a plain link to the CMS's file that says what it weighs.
 */
function AnimationLink({ image, children }: { image: Media; children: ReactNode }) {
  const t = useT();
  const label = image.size
    ? t("picture.playAnimationSize", { size: Math.max(1, Math.round(image.size)) })
    : t("picture.playAnimation");
  return (
    <a className="animation-link" href={image.url}>
      {children}
      <span className="animation-label">{label}</span>
    </a>
  );
}

function Photo({ image, slot, main, lazy, className, fallbackSize }: PictureProps) {
  const srcset = image.srcset ?? undefined;
  const fallback = srcset ? defaultCandidate(srcset) : undefined;
  const [width, height] = shownSize(image, fallback?.width) ?? fallbackSize ?? [];
  return (
    <img
      className={className}
      src={fallback?.url ?? image.url}
      srcSet={srcset}
      sizes={srcset ? SIZES[slot] : undefined}
      alt={image.alternativeText ?? ""}
      width={width}
      height={height}
      loading={lazy && !main ? "lazy" : undefined}
      fetchPriority={main ? "high" : undefined}
    />
  );
}

/** For browsers without `srcset`: the first candidate 640 pixels wide or more, else the widest. */
function defaultCandidate(srcset: string): { url: string; width: number } {
  const candidates = srcset.split(", ").map((candidate) => {
    const [url, descriptor] = candidate.split(" ");
    return { url, width: Number.parseInt(descriptor ?? "", 10) };
  });
  return candidates.find((c) => c.width >= 640) ?? candidates[candidates.length - 1];
}

/**
 * The size attributes: the photo's proportions at the width of what an engine
 * without `srcset` fetches, at most. An engine that reads the attributes but
 * not `max-width` (Dillo) then shows a camera's photo 640 pixels wide rather
 * than thousands; the others take only the proportions from them.
 */
function shownSize(image: Media, fetched: number | undefined): [number, number] | undefined {
  if (!image.width || !image.height) return undefined;
  if (!fetched || fetched >= image.width) return [image.width, image.height];
  return [fetched, Math.round((image.height * fetched) / image.width)];
}
