import { ContactText } from "../content/contacts";
import type { Media } from "../contract";
import { LocalLink } from "../app/site";
import { Picture } from "../components/Picture";
import { TitledList } from "../components/TitledSection";

export interface Card {
  id?: number;
  title: string;
  text?: string | null;
  image?: Media | null;
  link?: { label: string; url: string } | null;
}

export function CardGrid({ title, cards }: { title?: string | null; cards: Card[] }) {
  return (
    <TitledList
      className="card-grid"
      title={title}
      items={cards}
      itemClass="card"
      item={(card, Heading) => (
        <>
          {card.image && <Picture image={card.image} slot="card" lazy fallbackSize={[96, 96]} />}
          <Heading>{card.title}</Heading>
          {card.text && (
            <p>
              <ContactText text={card.text} />
            </p>
          )}
          {card.link && <LocalLink to={card.link.url}>{card.link.label}</LocalLink>}
        </>
      )}
    />
  );
}
