export interface FaqItem {
  id?: number;
  question: string;
  answer: string;
}

/** `<details>` keeps every answer readable without JavaScript. */
export function Faq({ title, items }: { title?: string | null; items: FaqItem[] }) {
  return (
    <section className="faq">
      {title && <h2>{title}</h2>}
      {items.map((item, index) => (
        <details key={item.id ?? index}>
          <summary>{item.question}</summary>
          <p>{item.answer}</p>
        </details>
      ))}
    </section>
  );
}
