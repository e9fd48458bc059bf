import { ContactText } from "../content/contacts";
import type { Media } from "../contract";
import { LocalLink } from "../app/site";
import { Picture } from "../components/Picture";

export interface Card {
  id?: number;
  title: string;
  text?: string | null;
  image?: Media | null;
  link?: { label: string; url: string } | null;
}

export function CardGrid({ title, cards }: { title?: string | null; cards: Card[] }) {
  return (
    <section className="card-grid">
      {title && <h2>{title}</h2>}
      <ul>
        {cards.map((card, index) => (
          <li key={card.id ?? index} className="card">
            {card.image && (
              <Picture image={card.image} slot="card" lazy fallbackSize={[96, 96]} />
            )}
            <h3>{card.title}</h3>
            {card.text && <p><ContactText text={card.text} /></p>}
            {card.link && <LocalLink to={card.link.url}>{card.link.label}</LocalLink>}
          </li>
        ))}
      </ul>
    </section>
  );
}
