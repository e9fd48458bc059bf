import { createContext, useContext } from "react";
import { ContactText } from "../content/contacts";
import { slugify } from "../slug";
import type { FaqItem } from "../contract";
import { TitledSection } from "../components/TitledSection";

/** The slug of the question `/faq/<item>` opens. */
export const OpenQuestion = createContext<string | undefined>(undefined);

/** `<details>` keeps every answer readable without JavaScript; each question is an anchor by its slug. */
export function Faq({ title, items }: { title?: string | null; items: FaqItem[] }) {
  const open = useContext(OpenQuestion);
  return (
    <TitledSection className="faq" title={title}>
      {items.map((item, index) => {
        const slug = slugify(item.question);
        return (
          <details key={item.id ?? index} id={slug || undefined} open={open !== undefined && slug === open}>
            <summary>{item.question}</summary>
            <p>
              <ContactText text={item.answer} />
            </p>
          </details>
        );
      })}
    </TitledSection>
  );
}
