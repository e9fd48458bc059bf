import { ContactText } from "../content/contacts";
export interface Step {
  id?: number;
  title: string;
  text?: string | null;
}

/** Numbered instructions, e.g. how to register a SIM. */
export function Steps({ title, steps }: { title?: string | null; steps: Step[] }) {
  return (
    <section className="steps">
      {title && <h2>{title}</h2>}
      <ol>
        {steps.map((step, index) => (
          <li key={step.id ?? index}>
            <h3>{step.title}</h3>
            {step.text && <p><ContactText text={step.text} /></p>}
          </li>
        ))}
      </ol>
    </section>
  );
}
