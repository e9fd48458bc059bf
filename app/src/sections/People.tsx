import type { Media } from "../contract";
import { Picture } from "../components/Picture";

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
    <section className="people">
      {title && <h2>{title}</h2>}
      <ul>
        {people.map((person, index) => (
          <li key={person.id ?? index} className="card">
            {person.photo && (
              <Picture image={person.photo} slot="card" lazy fallbackSize={[160, 160]} />
            )}
            <h3>{person.name}</h3>
            {person.role && <p className="person-role">{person.role}</p>}
            {person.bio && <p>{person.bio}</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}
