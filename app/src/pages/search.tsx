import type { PageProps } from "./props";
import { useT } from "../i18n/context";
import { SearchForm } from "../components/SearchForm";

/**
 * `/search?q=`: what the server's index of every page found, in the page's
 * language. Server-rendered; the form is a plain GET form, so it works
 * without JavaScript.
 */
export default function SearchPage({ data }: PageProps) {
  const t = useT();
  const search = data.search ?? { query: "", ready: true, hits: [] };
  const { query } = search;
  return (
    <section className="search-page">
      <h1>{t("search.title")}</h1>
      <SearchForm lang={data.lang} query={query} id="search-page-q" />
      {!search.ready ? (
        <p role="status">{t("search.notReady")}</p>
      ) : query === "" ? null : search.hits.length === 0 ? (
        <p role="status">{t("search.none", { query })}</p>
      ) : (
        <>
          <h2 role="status">{t("search.results", { query })}</h2>
          <ol className="search-results">
            {search.hits.map((hit) => (
              <li key={hit.href}>
                <a href={hit.href}>{hit.title}</a>
                <p>{hit.snippet}</p>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
