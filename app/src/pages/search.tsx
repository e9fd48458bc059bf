import type { PageProps } from "./props";
import type { SearchHit } from "../contract";
import { useT } from "../i18n/context";
import { localePath, pathOf } from "../routes";
import { SearchForm } from "../components/SearchForm";

function Hits({ hits, lang }: { hits: SearchHit[]; lang?: string }) {
  return (
    <ol className="search-results" lang={lang}>
      {hits.map((hit) => (
        <li key={hit.href}>
          <a href={hit.href}>{hit.title}</a>
          <p>{hit.snippet}</p>
        </li>
      ))}
    </ol>
  );
}

/**
 * `/search?q=`: what the server's index of every page found, in the page's
 * language, then the other language's pages when it found little, marked and
 * labelled with their language; when nothing in its language matched, the
 * pages that come close, said so (the search's last resort, `close`: no page holds the words,
 * so they are not listed as left out). Server-rendered; the form is a plain
 * GET form, so it works without JavaScript. The status line is a paragraph: a
 * heading may not be a live region.
 */
export default function SearchPage({ data }: PageProps) {
  const t = useT();
  const search = data.search ?? { query: "", ready: true, hits: [] };
  const { query } = search;
  const own = search.hits.filter((hit) => !hit.otherLanguage);
  const other = search.hits.filter((hit) => hit.otherLanguage);
  const otherLang = data.lang === "sw" ? "en" : "sw";
  const suggestion = search.suggestion;
  return (
    <section className="search-page">
      <h1>{t("search.title")}</h1>
      <SearchForm lang={data.lang} query={query} id="search-page-q" />
      {!search.ready ? (
        <p role="status">{t("search.notReady")}</p>
      ) : query === "" ? null : (
        <>
          <p role="status" className="search-status">
            {t(search.hits.length === 0 ? "search.none" : search.close ? "search.close" : "search.results", { query })}
          </p>
          {suggestion && (
            <p>
              {t("search.suggestion")}{" "}
              <a href={`${localePath(data.lang, pathOf("search"))}?q=${encodeURIComponent(suggestion)}`}>
                {suggestion}
              </a>
            </p>
          )}
          {search.hits.length > 0 && !search.close && search.unmatched && search.unmatched.length > 0 && (
            <p>{t("search.unmatched", { words: search.unmatched.join(", ") })}</p>
          )}
          {own.length > 0 && <Hits hits={own} />}
          {other.length > 0 && (
            <>
              <h2>{t("search.otherLanguage")}</h2>
              <Hits hits={other} lang={otherLang} />
            </>
          )}
        </>
      )}
    </section>
  );
}
