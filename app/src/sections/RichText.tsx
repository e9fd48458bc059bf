import { ContentHtml } from "../content/contacts";
import { TitledSection } from "../components/TitledSection";

export interface RichTextProps {
  title?: string | null;
  /** HTML produced and sanitised by the server from the CMS's rich text. */
  body: string;
}

export function RichText({ title, body }: RichTextProps) {
  return (
    <TitledSection className="rich-text" title={title}>
      <ContentHtml html={body} />
    </TitledSection>
  );
}
