import type { Media } from "../contract";
import { LocalLink } from "../app/site";

export interface HeroProps {
  title: string;
  subtitle?: string | null;
  image?: Media | null;
  cta?: { label: string; url: string } | null;
}

/** The first, largest block of a page; its title is the page's `<h1>`. */
export function Hero({ title, subtitle, image, cta }: HeroProps) {
  return (
    <section className="hero">
      <div className="hero-text">
        <h1>{title}</h1>
        {subtitle && <p>{subtitle}</p>}
        {cta && (
          <LocalLink to={cta.url} className="button">
            {cta.label}
          </LocalLink>
        )}
      </div>
      {image && (
        <img
          className="hero-image"
          src={image.url}
          alt={image.alternativeText ?? ""}
          width={image.width ?? undefined}
          height={image.height ?? undefined}
          fetchPriority="high"
        />
      )}
    </section>
  );
}
