import type { Media } from "../contract";
import { LocalLink } from "../app/site";
import { Picture } from "../components/Picture";

export interface HeroProps {
  title: string;
  subtitle?: string | null;
  image?: Media | null;
  cta?: { label: string; url: string } | null;
}

/**
 * The first, largest block of a page; its title is the page's `<h1>`
 * (without one, the page gave its title an `<h1>` of its own).
 */
export function Hero({ title, subtitle, image, cta }: HeroProps) {
  return (
    <section className="hero">
      <div className="hero-text">
        {title && <h1>{title}</h1>}
        {subtitle && <p>{subtitle}</p>}
        {cta && (
          <LocalLink to={cta.url} className="button">
            {cta.label}
          </LocalLink>
        )}
      </div>
      {image && (
        <Picture className="hero-image" image={image} slot="hero" main />
      )}
    </section>
  );
}
