//! Site search (`/search?q=`, `/sw/search?q=`): every page of the sitemap,
//! by its title, headings and text as a visitor reads them, in its language.
//!
//! - The index (tantivy, in memory) is built from the pages each pre-render
//!   pass has rendered (`pages::prerender`), so it holds what the pages
//!   show, and the items of every collection it did not render by their
//!   heading (from the collections' indexes), and is built again after
//!   every pass: at start, after a webhook, and when content has changed on
//!   refresh.
//! - Words are split, lowercased and folded to ASCII (`Intaneti`,
//!   `intanéti` and `INTANETI` are one word); each word of a query must be
//!   found (in a title, a heading or the text), exactly or within one typo
//!   (two for words of seven letters or more): "mpessa" finds M-Pesa.
//! - A hyphenated word is found whole too: "mpesa" (and "mpessa") finds
//!   "M-Pesa".
//! - A hit is the page's title, its address and the words around the first
//!   match.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use contract::Lang;
use contract::page::{SearchHit, SearchResults};
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, BoostQuery, FuzzyTermQuery, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions, Value};
use tantivy::tokenizer::{AsciiFoldingFilter, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer};
use tantivy::{Index, IndexReader, TantivyDocument, Term};

/// Longest query kept, in characters.
pub const MAX_QUERY: usize = 100;
/// Words of a query that count.
const MAX_WORDS: usize = 8;
/// Hits shown.
const MAX_HITS: usize = 20;
/// Words around the first match in a snippet.
const SNIPPET_WORDS: usize = 30;
const TOKENIZER: &str = "folded";

/// A page as a visitor reads it.
pub struct Page {
    pub lang: Lang,
    pub href: String,
    pub title: String,
    pub headings: String,
    pub text: String,
}

impl Page {
    /// The title (the first `<h1>` of `<main>`, else `<title>`), headings and
    /// text of `<main>` in `html`; none for a page with no `<main>`.
    pub fn from_html(lang: Lang, href: String, html: &str) -> Option<Page> {
        let document = scraper::Html::parse_document(html);
        let select = |selector: &str| scraper::Selector::parse(selector).expect("a valid selector");
        let main = document.select(&select("main")).next()?;
        let words =
            |element: scraper::ElementRef| element.text().flat_map(str::split_whitespace).collect::<Vec<_>>().join(" ");
        let headings: Vec<String> = main.select(&select("h1, h2, h3")).map(words).collect();
        let title = headings
            .first()
            .cloned()
            .filter(|title| !title.is_empty())
            .or_else(|| document.select(&select("title")).next().map(words))?;
        Some(Page { lang, href, title, headings: headings.join(" "), text: words(main) })
    }

    /// A page known by its title alone (an item not rendered: found by
    /// its heading).
    pub fn titled(lang: Lang, href: String, title: String) -> Page {
        Page { lang, href, headings: title.clone(), text: title.clone(), title }
    }
}

#[derive(Clone, Copy)]
struct Fields {
    lang: Field,
    href: Field,
    title: Field,
    headings: Field,
    text: Field,
}

struct Built {
    index: Index,
    reader: IndexReader,
    fields: Fields,
    /// Bytes its segments hold in memory, and pages, for `/metrics`.
    bytes: u64,
    pages: u64,
}

/// The current index, swapped whole when a new one is built.
#[derive(Clone, Default)]
pub struct Search {
    built: Arc<RwLock<Option<Arc<Built>>>>,
    /// Indexes built since the start: part of a search page's cache key.
    builds: Arc<AtomicU64>,
}

impl Search {
    /// Builds an index of `pages` and makes it the current one. CPU work:
    /// call it off the async threads.
    pub fn rebuild(&self, pages: Vec<Page>) -> tantivy::Result<usize> {
        let mut schema = Schema::builder();
        let text = TextOptions::default().set_indexing_options(
            TextFieldIndexing::default().set_tokenizer(TOKENIZER).set_index_option(IndexRecordOption::WithFreqs),
        );
        let fields = Fields {
            lang: schema.add_text_field("lang", STRING),
            href: schema.add_text_field("href", STRING | STORED),
            title: schema.add_text_field("title", text.clone().set_stored()),
            headings: schema.add_text_field("headings", text.clone()),
            text: schema.add_text_field("text", text.set_stored()),
        };
        let index = Index::create_in_ram(schema.build());
        index.tokenizers().register(TOKENIZER, analyzer());
        let mut writer: tantivy::IndexWriter = index.writer_with_num_threads(1, 15_000_000)?;
        let count = pages.len();
        for page in pages {
            let mut document = TantivyDocument::default();
            document.add_text(fields.lang, page.lang.code());
            document.add_text(fields.href, &page.href);
            for (field, text) in
                [(fields.title, &page.title), (fields.headings, &page.headings), (fields.text, &page.text)]
            {
                document.add_text(field, text);
                // "M-Pesa" is found as "mpesa" too (the stored value is the first).
                let joined = joined(text);
                if joined != *text {
                    document.add_text(field, &joined);
                }
            }
            writer.add_document(document)?;
        }
        writer.commit()?;
        let reader = index.reader()?;
        let bytes = reader.searcher().space_usage().map_or(0, |usage| usage.total().get_bytes());
        let built = Built { index, reader, fields, bytes, pages: count as u64 };
        *crate::locks::write(&self.built) = Some(Arc::new(built));
        self.builds.fetch_add(1, Ordering::AcqRel);
        Ok(count)
    }

    /// Bytes and pages the current index holds (nothing before the first).
    pub fn held(&self) -> (u64, u64) {
        crate::locks::read(&self.built).as_ref().map_or((0, 0), |built| (built.bytes, built.pages))
    }

    /// Indexes built so far (0: none yet).
    pub fn builds(&self) -> u64 {
        self.builds.load(Ordering::Acquire)
    }

    /// What `query` finds in `lang`.
    pub fn search(&self, lang: Lang, query: &str) -> SearchResults {
        let query: String = query.trim().chars().take(MAX_QUERY).collect();
        let Some(built) = crate::locks::read(&self.built).clone() else {
            return SearchResults { query, ready: false, hits: Vec::new() };
        };
        let hits = built.search(lang, &query).unwrap_or_else(|error| {
            tracing::warn!(%error, %query, "search failed");
            Vec::new()
        });
        SearchResults { query, ready: true, hits }
    }
}

fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

/// The words of `text` as the index holds them.
fn words(text: &str) -> Vec<String> {
    let mut analyzer = analyzer();
    let mut stream = analyzer.token_stream(text);
    let mut words = Vec::new();
    while let Some(token) = stream.next() {
        words.push(token.text.clone());
    }
    words
}

/// `text` with the hyphens inside words left out: "M-Pesa" → "MPesa".
fn joined(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    chars
        .iter()
        .enumerate()
        .filter(|&(i, &c)| {
            !(c == '-'
                && i > 0
                && chars[i - 1].is_alphanumeric()
                && chars.get(i + 1).is_some_and(|next| next.is_alphanumeric()))
        })
        .map(|(_, &c)| c)
        .collect()
}

/// Typos forgiven in a word of `letters`.
fn typos(letters: usize) -> u8 {
    match letters {
        0..=3 => 0,
        4..=6 => 1,
        _ => 2,
    }
}

impl Built {
    fn search(&self, lang: Lang, query: &str) -> tantivy::Result<Vec<SearchHit>> {
        let mut wanted: Vec<String> = words(query);
        wanted.dedup();
        wanted.truncate(MAX_WORDS);
        if wanted.is_empty() {
            return Ok(Vec::new());
        }
        let fields = self.fields;
        let mut must: Vec<(Occur, Box<dyn Query>)> = vec![(
            Occur::Must,
            Box::new(TermQuery::new(Term::from_field_text(fields.lang, lang.code()), IndexRecordOption::Basic)),
        )];
        for word in &wanted {
            let mut any: Vec<(Occur, Box<dyn Query>)> = Vec::new();
            for (field, boost) in [(fields.title, 4.0), (fields.headings, 2.0), (fields.text, 1.0)] {
                let term = Term::from_field_text(field, word);
                any.push((
                    Occur::Should,
                    Box::new(BoostQuery::new(
                        Box::new(TermQuery::new(term.clone(), IndexRecordOption::WithFreqs)),
                        boost,
                    )),
                ));
                let typos = typos(word.chars().count());
                if typos > 0 {
                    let fuzzy = FuzzyTermQuery::new(term, typos, true);
                    any.push((Occur::Should, Box::new(BoostQuery::new(Box::new(fuzzy), boost / 4.0))));
                }
            }
            must.push((Occur::Must, Box::new(BooleanQuery::new(any))));
        }
        let searcher = self.reader.searcher();
        let found = searcher.search(&BooleanQuery::new(must), &TopDocs::with_limit(MAX_HITS).order_by_score())?;
        let mut hits = Vec::with_capacity(found.len());
        for (_, address) in found {
            let document: TantivyDocument = searcher.doc(address)?;
            let stored = |field| document.get_first(field).and_then(|value| value.as_str()).unwrap_or("").to_owned();
            hits.push(SearchHit {
                title: stored(fields.title),
                href: stored(fields.href),
                snippet: snippet(&stored(fields.text), &wanted),
            });
        }
        let _ = &self.index;
        Ok(hits)
    }
}

/// About [`SNIPPET_WORDS`] words of `text` around the first that matches
/// one of `wanted` (folded as the index folds them, typos forgiven alike).
fn snippet(text: &str, wanted: &[String]) -> String {
    let all: Vec<&str> = text.split_whitespace().collect();
    let matches = |word: &str| {
        words(word).into_iter().chain(words(&joined(word))).any(|folded| {
            wanted.iter().any(|want| {
                folded == *want
                    || strsim::damerau_levenshtein(&folded, want) <= usize::from(typos(want.chars().count()))
            })
        })
    };
    let first = all.iter().position(|word| matches(word)).unwrap_or(0);
    let start = first.saturating_sub(SNIPPET_WORDS / 3);
    let end = (start + SNIPPET_WORDS).min(all.len());
    let mut snippet = all[start..end].join(" ");
    if start > 0 {
        snippet.insert_str(0, "… ");
    }
    if end < all.len() {
        snippet.push_str(" …");
    }
    snippet
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(lang: Lang, href: &str, title: &str, text: &str) -> Page {
        Page { lang, href: href.into(), title: title.into(), headings: title.into(), text: text.into() }
    }

    fn index() -> Search {
        let search = Search::default();
        search
            .rebuild(vec![
                page(Lang::En, "/mpesa", "M-Pesa", "Send money, pay bills and buy airtime with M-Pesa on any phone."),
                page(Lang::En, "/internet-overview", "Internet bundles", "Daily, weekly and monthly internet bundles."),
                page(
                    Lang::Sw,
                    "/sw/internet-overview",
                    "Vifurushi vya intaneti",
                    "Vifurushi vya siku, wiki na mwezi. Piga *149*01#.",
                ),
                page(Lang::Sw, "/sw/mpesa", "M-Pesa", "Tuma pesa, lipa bili na nunua muda wa maongezi kwa M-Pesa."),
            ])
            .unwrap();
        search
    }

    fn hrefs(results: &SearchResults) -> Vec<&str> {
        results.hits.iter().map(|hit| hit.href.as_str()).collect()
    }

    #[test]
    fn finds_pages_in_the_visitors_language_with_typos_case_and_accents_forgiven() {
        let search = index();
        assert_eq!(hrefs(&search.search(Lang::En, "mpessa")), ["/mpesa"]);
        assert_eq!(hrefs(&search.search(Lang::En, "M-PESA")), ["/mpesa"]);
        assert_eq!(hrefs(&search.search(Lang::Sw, "vifurushi")), ["/sw/internet-overview"]);
        assert_eq!(hrefs(&search.search(Lang::Sw, "vífurúshi")), ["/sw/internet-overview"]);
        assert_eq!(hrefs(&search.search(Lang::En, "internet bundles")), ["/internet-overview"]);
        assert!(search.search(Lang::En, "vifurushi").hits.is_empty(), "English pages only");
        assert!(search.search(Lang::En, "internet kangaroo").hits.is_empty(), "every word must be found");
    }

    #[test]
    fn a_hit_has_its_title_and_the_words_around_the_match() {
        let search = index();
        let found = search.search(Lang::En, "airtime");
        assert_eq!(found.hits[0].title, "M-Pesa");
        assert!(found.hits[0].snippet.contains("airtime"), "{}", found.hits[0].snippet);
    }

    #[test]
    fn odd_queries_find_nothing_and_fail_nothing() {
        let search = index();
        for query in ["", "   ", "*", "\"", "(", "AND OR NOT", "a:b", &"x".repeat(10_000), "🙂", "\u{0}"] {
            let found = search.search(Lang::En, query);
            assert!(found.ready);
            assert!(found.query.chars().count() <= MAX_QUERY);
        }
        assert!(!Search::default().search(Lang::En, "mpesa").ready, "no index yet");
    }

    #[test]
    fn a_page_is_read_from_its_main_region() {
        let html = "<html><head><title>M-Pesa | Vodacom Tanzania</title></head><body><nav>Menu Home</nav>\
                    <main><h1>M-Pesa</h1><p>Send   money</p><h2>Fees</h2><p>Low fees.</p></main><footer>x</footer></body></html>";
        let page = Page::from_html(Lang::En, "/mpesa".into(), html).unwrap();
        assert_eq!(page.title, "M-Pesa");
        assert_eq!(page.headings, "M-Pesa Fees");
        assert_eq!(page.text, "M-Pesa Send money Fees Low fees.");
        assert!(Page::from_html(Lang::En, "/x".into(), "<p>no main</p>").is_none());
    }
}
