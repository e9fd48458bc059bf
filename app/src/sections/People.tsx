import type { Media } from "../contract";

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
              <img src={person.photo.url} alt={person.photo.alternativeText ?? ""} width={person.photo.width ?? 160} height={person.photo.height ?? 160} loading="lazy" />
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
