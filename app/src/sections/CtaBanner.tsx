import { LocalLink } from "../app/site";

/** A call to action between sections. */
export function CtaBanner({
  title,
  text,
  cta,
}: {
  title: string;
  text?: string | null;
  cta?: { label: string; url: string } | null;
}) {
  return (
    <section className="cta-banner">
      <h2>{title}</h2>
      {text && <p>{text}</p>}
      {cta && (
        <LocalLink to={cta.url} className="button button-light">
          {cta.label}
        </LocalLink>
      )}
    </section>
  );
}
