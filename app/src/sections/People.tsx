import type { Media } from "../contract";
import { Picture } from "../components/Picture";
import { TitledList } from "../components/TitledSection";

export interface Person {
  id?: number;
  name: string;
  role?: string | null;
  bio?: string | null;
  photo?: Media | null;
}

/** The executive team, the board. */
export function People({ title, people }: { title?: string | null; people: Person[] }) {
  return (
    <TitledList
      className="people"
      title={title}
      items={people}
      itemClass="card"
      item={(person, Heading) => (
        <>
          {person.photo && <Picture image={person.photo} slot="card" lazy fallbackSize={[160, 160]} />}
          <Heading>{person.name}</Heading>
          {person.role && <p className="person-role">{person.role}</p>}
          {person.bio && <p>{person.bio}</p>}
        </>
      )}
    />
  );
}
