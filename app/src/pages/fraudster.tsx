import { ContentHtml } from "../content/contacts";
import { useT } from "../i18n/context";
import type { PageProps } from "./props";
import { PageBody } from "../components/PageBody";
import { Picture } from "../components/Picture";
import { trickList } from "../content/collections";

/** Fraud awareness: the page's sections, then every trick fraudsters use, each with its own anchor. */
export default function FraudsterPage({ data }: PageProps) {
  const t = useT();
  const tricks = trickList(data.content.list);
  return (
    <PageBody page={data.content.page}>
      {tricks.length > 0 && (
        <section className="tricks" aria-labelledby="tricks">
          <h2 id="tricks">{t("fraud.tricks")}</h2>
          <nav aria-label={t("fraud.contents")}>
            <ul>
              {tricks.map((trick) => (
                <li key={trick.id}>
                  <a href={`#${trick.slug}`}>{trick.title}</a>
                </li>
              ))}
            </ul>
          </nav>
          {tricks.map((trick) => (
            <section key={trick.id} id={trick.slug} className="trick" aria-labelledby={`${trick.slug}-title`}>
              <h3 id={`${trick.slug}-title`}>{trick.title}</h3>
              {trick.image && <Picture image={trick.image} slot="wide" lazy fallbackSize={[320, 180]} />}
              {trick.summary && <p className="lead">{trick.summary}</p>}
              {trick.body && <ContentHtml className="article-body" html={trick.body} />}
            </section>
          ))}
        </section>
      )}
    </PageBody>
  );
}
