import { ContactText } from "../content/contacts";
import { TitledList } from "../components/TitledSection";
export interface Step {
  id?: number;
  title: string;
  text?: string | null;
}

/** Numbered instructions, e.g. how to register a SIM. */
export function Steps({ title, steps }: { title?: string | null; steps: Step[] }) {
  return (
    <TitledList
      className="steps"
      title={title}
      items={steps}
      ordered
      item={(step, Heading) => (
        <>
          <Heading>{step.title}</Heading>
          {step.text && (
            <p>
              <ContactText text={step.text} />
            </p>
          )}
        </>
      )}
    />
  );
}
