import type { Media } from "../contract";
import { useSite } from "../app/site";
import { formatDate } from "../format";
import { TitledSection } from "../components/TitledSection";

export interface DocumentEntry {
  id?: number;
  title: string;
  publishDate?: string | null;
  file?: Media | null;
}

/** Downloadable reports and notices, newest first as the CMS orders them. */
export function Documents({ title, documents }: { title?: string | null; documents: DocumentEntry[] }) {
  const { lang } = useSite();
  return (
    <TitledSection className="documents" title={title}>
      <ul>
        {documents.map((document, index) => (
          <li key={document.id ?? index}>
            {document.file ? <a href={document.file.url}>{document.title}</a> : <span>{document.title}</span>}
            {document.publishDate && (
              <time dateTime={document.publishDate}>{formatDate(document.publishDate, lang)}</time>
            )}
          </li>
        ))}
      </ul>
    </TitledSection>
  );
}
