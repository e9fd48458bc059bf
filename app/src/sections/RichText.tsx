import { ContentHtml } from "../content/contacts";

export interface RichTextProps {
  title?: string | null;
  /** HTML produced and sanitised by the server from the CMS's rich text. */
  body: string;
}

export function RichText({ title, body }: RichTextProps) {
  return (
    <section className="rich-text">
      {title && <h2>{title}</h2>}
      <ContentHtml html={body} />
    </section>
  );
}
