/**
 * Renders a CMS dynamic zone: one component per `__component` name. An
 * unknown component is skipped and logged, never a crash.
 */
import type { ComponentType } from "react";
import type { Section } from "../contract";
import { Hero } from "./Hero";
import { RichText } from "./RichText";
import { CardGrid } from "./CardGrid";
import { BundleTable } from "./BundleTable";
import { Faq } from "./Faq";
import { Table } from "./Table";
import { TariffBands } from "./TariffBands";
import { Steps } from "./Steps";
import { Documents } from "./Documents";
import { People } from "./People";
import { Events } from "./Events";
import { CtaBanner } from "./CtaBanner";

// Each component reads its own fields; the registry erases their types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const sectionComponents: Record<string, ComponentType<any>> = {
  "sections.hero": Hero,
  "sections.rich-text": RichText,
  "sections.card-grid": CardGrid,
  "sections.bundle-table": BundleTable,
  "sections.faq": Faq,
  "sections.table": Table,
  "sections.tariff-bands": TariffBands,
  "sections.steps": Steps,
  "sections.documents": Documents,
  "sections.people": People,
  "sections.events": Events,
  "sections.cta-banner": CtaBanner,
};

export function Sections({ sections }: { sections: Section[] | undefined }) {
  return (
    <>
      {(sections ?? []).map((section, index) => {
        const Component = sectionComponents[section.__component];
        if (!Component) {
          console.warn(`unknown section component skipped: ${section.__component}`);
          return null;
        }
        return <Component key={`${section.__component}-${section.id ?? index}`} {...section} />;
      })}
    </>
  );
}
