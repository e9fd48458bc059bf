import { LinkButton } from "../components/LinkButton";

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
      <LinkButton link={cta} className="button button-light" />
    </section>
  );
}
