import type { Media } from "../contract";
import { Picture } from "../components/Picture";
import { TitledSection, itemHeading } from "../components/TitledSection";

export interface Person {
  id?: number;
  name: string;
  role?: string | null;
  bio?: string | null;
  photo?: Media | null;
}

/** The executive team, the board. */
export function People({ title, people }: { title?: string | null; people: Person[] }) {
  const Heading = itemHeading(title);
  return (
    <TitledSection className="people" title={title}>
      <ul>
        {people.map((person, index) => (
          <li key={person.id ?? index} className="card">
            {person.photo && <Picture image={person.photo} slot="card" lazy fallbackSize={[160, 160]} />}
            <Heading>{person.name}</Heading>
            {person.role && <p className="person-role">{person.role}</p>}
            {person.bio && <p>{person.bio}</p>}
          </li>
        ))}
      </ul>
    </TitledSection>
  );
}
