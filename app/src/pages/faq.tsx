import { useEffect } from "react";
import type { PageProps } from "./props";
import { PageBody } from "../components/PageBody";
import { OpenQuestion } from "../sections/Faq";

/**
 * An FAQ page. `/faq/<item>` opens the question whose slug is `item` (the
 * server answers 404 for an unknown one) and, once hydrated, scrolls to it.
 */
export default function FaqPage({ data }: PageProps) {
  const open = data.route.params.item;
  useEffect(() => {
    if (open) document.getElementById(open)?.scrollIntoView({ block: "start" });
  }, [open]);
  return (
    <OpenQuestion.Provider value={open}>
      <PageBody page={data.content.page} />
    </OpenQuestion.Provider>
  );
}
