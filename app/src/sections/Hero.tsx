import { LinkButton } from "../components/LinkButton";
import type { Media } from "../contract";
import { Picture } from "../components/Picture";

export interface HeroProps {
  title: string;
  subtitle?: string | null;
  image?: Media | null;
  cta?: { label: string; url: string } | null;
}

/**
 * The first, largest block of a page; its title is the page's `<h1>`.
 * Without one (the page gave the title an `<h1>` of its own) it is no
 * section of its own, just the rest of the page's opening.
 */
export function Hero({ title, subtitle, image, cta }: HeroProps) {
  const Block = title ? "section" : "div";
  return (
    <Block className="hero">
      <div className="hero-text">
        {title && <h1>{title}</h1>}
        {subtitle && <p>{subtitle}</p>}
        <LinkButton link={cta} className="button" />
      </div>
      {image && <Picture className="hero-image" image={image} slot="hero" main />}
    </Block>
  );
}
