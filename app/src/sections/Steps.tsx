import { ContactText } from "../content/contacts";
import { TitledSection, itemHeading } from "../components/TitledSection";
export interface Step {
  id?: number;
  title: string;
  text?: string | null;
}

/** Numbered instructions, e.g. how to register a SIM. */
export function Steps({ title, steps }: { title?: string | null; steps: Step[] }) {
  const Heading = itemHeading(title);
  return (
    <TitledSection className="steps" title={title}>
      <ol>
        {steps.map((step, index) => (
          <li key={step.id ?? index}>
            <Heading>{step.title}</Heading>
            {step.text && (
              <p>
                <ContactText text={step.text} />
              </p>
            )}
          </li>
        ))}
      </ol>
    </TitledSection>
  );
}
