/**
 * Data for the page's scripts as `<script type="application/json" id>`
 * (the enhancement script reads it with `inlineJson`), written so that no
 * value can end the element early (`jsonLdText`). A page's policy allows no
 * inline script to run; this one is data, never run.
 */
import { jsonLdText } from "../seo/structuredData";

export function InlineJson({ id, value }: { id: string; value: unknown }) {
  return <script type="application/json" id={id} dangerouslySetInnerHTML={{ __html: jsonLdText(value) }} />;
}
