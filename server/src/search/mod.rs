//! Site search (`/search?q=`, `/sw/search?q=`): every page of the sitemap,
//! by what it is called and what it says, in its language.
//!
//! - The index (tantivy, in memory) is built from the pages each pre-render
//!   pass has rendered (`pages::prerender`), so it holds what the pages
//!   show, and the items of every collection it did not render by their
//!   heading (from the collections' indexes), and is built again after
//!   every pass: at start, after a webhook, and when content has changed on
//!   refresh.
//! - A page is read (`page.rs`) by its name (the breadcrumb's last item and
//!   its `<title>`), its meta description, its headings (not the hero's
//!   slogan, which is text) and its text, weighted in that order; a hit
//!   shows the name and the words of the text around the first match.
//! - Words are read alike in pages and queries (`words.rs`): folded
//!   ("INTANÉTI" is "intaneti"), hyphenated words found whole too ("mpesa",
//!   and "m pesa", find "M-Pesa"), the little words of a question left out
//!   ("how", "jinsi", "ya"), a USSD code or number to dial one word
//!   ("*150*00#").
//! - Each word of a query is found, in this order of score: as typed; by its
//!   stem (English by Snowball, Swahili by `swahili.rs`: "nimelipa" finds
//!   "kulipa"); by a synonym or loanword of either language
//!   (`synonyms.rs`, the CMS's or an embedded list: "bundle" finds
//!   "vifurushi"); within one typo, or two in
//!   a long word, each typo word scored by its own rarity. Pages holding
//!   more of the query's words come first, then by score, which the
//!   query's words side by side on the page raise.
//! - A word no page holds, as typed or by its stem, that splits into two
//!   words the pages hold is found as those two (`parts.rs`: "bigdata" finds
//!   "big data").
//! - The answer says which words no page holds, offers "did you mean" for a
//!   word found only with a typo (or split), and when the visitor's language
//!   finds fewer than [`FEW`] pages, adds the other language's, marked.
//! - When the visitor's language finds no page, a last resort ranks its
//!   pages holding the words that the longest piece of each of the query's
//!   words begins (`parts.rs`: "telemedicine" finds "medicine"), before the
//!   other language's pages found (or, with none, that come close), and the
//!   answer is marked `close`: the page says no page matched and these come
//!   close.
//!   Only a query none of whose pieces of three letters begins a word of the
//!   index (punctuation, "qwxzv") finds nothing.

mod page;
mod parts;
mod swahili;
mod synonyms;
mod words;

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, RwLock};

use contract::Lang;
use contract::page::{SearchHit, SearchResults};
use levenshtein_automata::{DFA, Distance, LevenshteinAutomatonBuilder, SINK_STATE};
use tantivy::collector::TopDocs;
use tantivy::indexer::NoMergePolicy;
use tantivy::query::{BooleanQuery, BoostQuery, EnableScoring, Occur, PhraseQuery, Query, TermQuery};
use tantivy::schema::{FAST, Field, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions, Value};
use tantivy::{DocSet, Index, IndexReader, Searcher, TERMINATED, TantivyDocument, Term};

pub use page::Page;
pub use synonyms::Synonyms;
pub use words::codes;
use words::{TOKENIZER, is_code, is_stop_word, joined, stem, stems, typos};

/// Longest query kept, in characters (the search field's length).
pub const MAX_QUERY: usize = contract::protocol::field_lengths::SEARCH_QUERY;
/// Words of a query that count.
const MAX_WORDS: usize = 8;
/// Hits shown.
const MAX_HITS: usize = 20;
/// Pages scored before the ones holding the most words are kept.
const CANDIDATES: usize = 100;
/// Fewer hits than this in the visitor's language add the other's.
pub const FEW: usize = 3;
/// The other language's hits added.
const OTHER_HITS: usize = 5;
/// Words around the first match in a snippet.
const SNIPPET_WORDS: usize = 30;

/// A word found by its stem, a synonym or a typo scores this part of the
/// word as typed; a typo's part is divided by its typos.
const STEMMED: f32 = 0.5;
const SYNONYM: f32 = 0.4;
const TYPO: f32 = 0.25;
/// A word typed as one found as the two the pages write (`parts::split`):
/// as sure as a stem.
const SPLIT: f32 = STEMMED;
/// The last resort's words (`parts::pieces`), times the share of the typed
/// word their piece is: below anything the query finds otherwise.
const CLOSE: f32 = 0.2;
/// A code found whole: above any word.
const CODE: f32 = 20.0;
/// The query is the page's name, whole ("m pesa" and "MPESA" are "M-Pesa").
const WHOLE: f32 = 30.0;
/// A page's score is multiplied by this for each part of its address past
/// the first: a region's agents after the agents' page, when both hold the
/// same words.
const DEEPER: f32 = 0.9;
/// The query's words side by side in the page's text (or name).
const PHRASE: f32 = 2.0;
/// Typo words tried per word and field, the closest first.
const TYPO_WORDS: usize = 8;
/// The fast field of a page's depth: the parts of its address past the first.
const DEPTH: &str = "depth";

/// A field as typed and as stemmed, and its weight.
#[derive(Clone, Copy)]
struct Weighted {
    exact: Field,
    stemmed: Field,
    weight: f32,
}

#[derive(Clone, Copy)]
struct Fields {
    lang: Field,
    href: Field,
    /// Stored: what a hit shows.
    title: Field,
    body: Field,
    /// Name, description, headings, text.
    weighted: [Weighted; 4],
    codes: Field,
    /// The page's names written whole: [`whole`].
    whole: Field,
    /// [`DEPTH`]: read for every candidate, where a stored field would be
    /// read from the documents' store.
    depth: Field,
}

impl Fields {
    fn name(&self) -> Weighted {
        self.weighted[0]
    }

    fn text(&self) -> Weighted {
        self.weighted[3]
    }
}

struct Built {
    reader: IndexReader,
    fields: Fields,
    /// What queries are read with: the synonyms of the content the pages
    /// were built from.
    synonyms: Synonyms,
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
    /// Builds an index of `pages`, to be searched with `synonyms`, and makes
    /// it the current one. CPU work: call it off the async threads.
    pub fn rebuild(&self, pages: Vec<Page>, synonyms: Synonyms) -> tantivy::Result<usize> {
        let mut schema = Schema::builder();
        let indexed = |record| {
            TextOptions::default()
                .set_indexing_options(TextFieldIndexing::default().set_tokenizer(TOKENIZER).set_index_option(record))
        };
        let mut weighted = |name: &str, weight| Weighted {
            exact: schema.add_text_field(name, indexed(IndexRecordOption::WithFreqs)),
            // Positions: for the query's words side by side.
            stemmed: schema.add_text_field(&format!("{name}_stem"), indexed(IndexRecordOption::WithFreqsAndPositions)),
            weight,
        };
        let weighted =
            [weighted("name", 8.0), weighted("description", 3.0), weighted("headings", 2.0), weighted("text", 1.0)];
        let fields = Fields {
            lang: schema.add_text_field("lang", STRING),
            href: schema.add_text_field("href", STRING | STORED),
            title: schema.add_text_field("title", STORED),
            body: schema.add_text_field("body", STORED),
            weighted,
            codes: schema.add_text_field("codes", STRING),
            whole: schema.add_text_field("whole", STRING),
            depth: schema.add_u64_field(DEPTH, FAST),
        };
        let index = Index::create_in_ram(schema.build());
        index.tokenizers().register(TOKENIZER, words::analyzer());
        let mut writer: tantivy::IndexWriter = index.writer_with_num_threads(1, 15_000_000)?;
        // Merged into one segment once written (below), not meanwhile.
        writer.set_merge_policy(Box::new(NoMergePolicy));
        let count = pages.len();
        for page in pages {
            let mut document = TantivyDocument::default();
            document.add_text(fields.lang, page.lang.code());
            document.add_text(fields.href, &page.href);
            document.add_u64(fields.depth, depth(&page.href));
            document.add_text(fields.title, &page.title);
            document.add_text(fields.body, &page.text);
            // A name of two words is found as one too: "vodanjiwa", "smartbango".
            let name = format!("{} {} {}", page.title, page.names, pairs(&page.title).join(" "));
            let short = [&name, &page.description, &page.headings];
            for (field, text) in fields.weighted.iter().zip(short) {
                // "M-Pesa" is found as "mpesa" too, and "mpesa agents" as a phrase.
                let joined = joined(text);
                let variants = if joined == *text { vec![text.as_str()] } else { vec![text.as_str(), &joined] };
                for text in variants {
                    document.add_text(field.exact, text);
                    document.add_text(field.stemmed, stems(page.lang, text));
                }
            }
            // The text, long, is written once, and its hyphenated words a
            // second time joined: the whole text again would double its part
            // of the index for the few words it changes.
            let text = fields.text();
            for variant in [page.text.clone(), hyphenated(&page.text)] {
                if !variant.is_empty() {
                    document.add_text(text.exact, &variant);
                    document.add_text(text.stemmed, stems(page.lang, &variant));
                }
            }
            for code in &page.codes {
                document.add_text(fields.codes, code);
            }
            for name in [&page.title, &page.names] {
                document.add_text(fields.whole, whole(&words::words(&joined(name))));
            }
            writer.add_document(document)?;
        }
        writer.commit()?;
        // One segment: each of a query's words is looked up, and its typos
        // walked, once per segment, and a large site's pages are written in
        // a score of them.
        let segments = index.searchable_segment_ids()?;
        if segments.len() > 1 {
            writer.merge(&segments).wait()?;
        }
        writer.wait_merging_threads()?;
        let reader = index.reader()?;
        let bytes = reader.searcher().space_usage().map_or(0, |usage| usage.total().get_bytes());
        let built = Built { reader, fields, synonyms, bytes, pages: count as u64 };
        *crate::infra::locks::write(&self.built) = Some(Arc::new(built));
        self.builds.fetch_add(1, Ordering::AcqRel);
        Ok(count)
    }

    /// Bytes and pages the current index holds (nothing before the first).
    pub fn held(&self) -> (u64, u64) {
        crate::infra::locks::read(&self.built).as_ref().map_or((0, 0), |built| (built.bytes, built.pages))
    }

    /// The current index's bytes by part: what `site-bench search` prints
    /// beside [`Search::held`]'s total.
    pub fn parts(&self) -> tantivy::Result<Vec<(&'static str, u64)>> {
        let Some(built) = crate::infra::locks::read(&self.built).clone() else { return Ok(Vec::new()) };
        let usage = built.reader.searcher().space_usage()?;
        let sum = |part: fn(&tantivy::space_usage::SegmentSpaceUsage) -> u64| usage.segments().iter().map(part).sum();
        Ok(vec![
            ("terms", sum(|segment| segment.termdict().total().get_bytes())),
            ("postings", sum(|segment| segment.postings().total().get_bytes())),
            ("positions", sum(|segment| segment.positions().total().get_bytes())),
            ("store", sum(|segment| segment.store().total().get_bytes())),
            (
                "fast fields and norms",
                sum(|segment| segment.fast_fields().total().get_bytes() + segment.fieldnorms().total().get_bytes()),
            ),
        ])
    }

    /// Indexes built so far (0: none yet).
    pub fn builds(&self) -> u64 {
        self.builds.load(Ordering::Acquire)
    }

    /// What `query` finds in `lang`.
    pub fn search(&self, lang: Lang, query: &str) -> SearchResults {
        let query: String = query.trim().chars().take(MAX_QUERY).collect();
        let Some(built) = crate::infra::locks::read(&self.built).clone() else {
            return SearchResults { query, ready: false, ..SearchResults::default() };
        };
        let mut results = built.answer(lang, &query).unwrap_or_else(|error| {
            tracing::warn!(%error, %query, "search failed");
            SearchResults::default()
        });
        results.query = query;
        results.ready = true;
        results
    }
}

/// Words written as one, without their spaces and hyphens: a page's name
/// and a query compared whole.
fn whole(words: &[String]) -> String {
    words.concat()
}

/// The parts of `href`'s path past the first ("/sw" aside): a region's
/// agents (`/mpesa-agents/arusha`) are one deeper than the agents' page.
fn depth(href: &str) -> u64 {
    let parts = href.split('/').filter(|part| !part.is_empty() && *part != "sw").count();
    u64::try_from(parts.saturating_sub(1)).unwrap_or(u64::MAX)
}

/// The words of `text` written with a hyphen inside, joined ("M-Pesa"
/// gives "MPesa"); empty when it has none.
fn hyphenated(text: &str) -> String {
    text.split_whitespace()
        .filter_map(|run| Some(joined(run)).filter(|joined| joined != run))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The words of `text` two by two, written as one.
fn pairs(text: &str) -> Vec<String> {
    words::words(text).windows(2).map(|pair| pair.concat()).collect()
}

/// The words the index holds within a typo or two of a word, with their typos.
type Near = Vec<(String, u8)>;

/// [`Near`] each word of a query.
type TypoWords = HashMap<String, Near>;

/// What a query finds in a language: its hits, the words no page holds, the
/// words found with typos, and the words found as two.
struct Found {
    hits: Vec<SearchHit>,
    unmatched: Vec<String>,
    typo_words: TypoWords,
    splits: HashMap<String, [String; 2]>,
}

/// What finds a word of a query, and what the answer says of it.
struct WordQuery {
    query: Box<dyn Query>,
    /// The words found within a typo or two.
    near: Near,
    /// The two words it was split into.
    split: Option<[String; 2]>,
    /// The other words a snippet is placed by: the split's, the last resort's.
    also: Vec<String>,
}

/// How a query's words are found: as typed, by stem, synonym, typo or
/// split; or, when that finds nothing, by the last resort's pieces, each
/// word's looked up once for both languages (the index's words are both's).
#[derive(Clone, Copy)]
enum Reading<'a> {
    Words,
    /// With the pieces of each length down to the one given (1: the longest only).
    Close(&'a RefCell<HashMap<String, Pieces>>, usize),
}

/// A word's longest pieces that begin words of the index, and those words.
type Pieces = Vec<(usize, Vec<String>)>;

/// A word of a query, and what else finds it.
struct Word {
    /// As typed (folded).
    text: String,
    stem: String,
    /// A USSD code or number to dial, as the index holds codes.
    code: Option<String>,
    /// The word written together with its neighbour ("m pesa": "mpesa").
    together: Vec<String>,
    /// Synonyms and loanwords, each a phrase of stems.
    synonyms: Vec<Vec<String>>,
}

/// A query read: the words that count, and every word as typed (for "did
/// you mean").
struct Read {
    words: Vec<Word>,
    typed: Vec<String>,
}

fn read(lang: Lang, query: &str, synonyms: &Synonyms) -> Read {
    let mut typed = Vec::new();
    let mut codes = HashMap::new();
    for run in query.split_whitespace() {
        if is_code(run) {
            let code = words::code(run);
            typed.push(code.clone());
            codes.insert(code.clone(), code);
        } else {
            typed.extend(words::words(&joined(run)));
        }
    }
    let mut kept: Vec<String> = typed.iter().filter(|word| !is_stop_word(word)).cloned().collect();
    if kept.is_empty() {
        kept = typed.clone();
    }
    let mut seen = HashSet::new();
    kept.retain(|word| seen.insert(word.clone()));
    kept.truncate(MAX_WORDS);
    let synonyms = synonyms.alternatives(lang, &kept);
    let words = kept
        .iter()
        .enumerate()
        .map(|(at, text)| {
            let neighbours = [at.checked_sub(1).map(|before| (before, at)), Some((at, at + 1))];
            let together = neighbours
                .into_iter()
                .flatten()
                .filter_map(|(one, other)| Some(format!("{}{}", kept.get(one)?, kept.get(other)?)))
                .collect();
            // A number alone may be one to dial ("100").
            let code = codes.get(text).cloned().or_else(|| {
                (text.len() >= 2 && text.len() <= 6 && text.bytes().all(|c| c.is_ascii_digit())).then(|| text.clone())
            });
            Word {
                stem: if codes.contains_key(text) { text.clone() } else { stem(lang, text) },
                text: text.clone(),
                code,
                together,
                synonyms: synonyms[at].clone(),
            }
        })
        .collect();
    Read { words, typed }
}

static TYPO_AUTOMATA: LazyLock<[LevenshteinAutomatonBuilder; 2]> =
    LazyLock::new(|| [LevenshteinAutomatonBuilder::new(1, true), LevenshteinAutomatonBuilder::new(2, true)]);

/// The words within `typos` of a word, as the term dictionary walks them.
struct Typos<'a>(&'a DFA);

impl tantivy_fst::Automaton for Typos<'_> {
    type State = u32;

    fn start(&self) -> u32 {
        self.0.initial_state()
    }

    fn is_match(&self, state: &u32) -> bool {
        matches!(self.0.distance(*state), Distance::Exact(_))
    }

    fn can_match(&self, state: &u32) -> bool {
        *state != SINK_STATE
    }

    fn accept(&self, state: &u32, byte: u8) -> u32 {
        self.0.transition(*state, byte)
    }
}

fn term(field: Field, text: &str, boost: f32) -> (Occur, Box<dyn Query>) {
    let query = TermQuery::new(Term::from_field_text(field, text), IndexRecordOption::WithFreqs);
    (Occur::Should, Box::new(BoostQuery::new(Box::new(query), boost)))
}

/// The automaton of the words within the typos `word` is forgiven; none
/// for a short word.
fn typo_automaton(word: &str) -> Option<DFA> {
    let allowed = typos(word.chars().count());
    (allowed > 0).then(|| TYPO_AUTOMATA[usize::from(allowed) - 1].build_dfa(word))
}

/// The words of `field` that `dfa` accepts but `word`, the closest first,
/// with their typos.
fn near(searcher: &Searcher, field: Field, word: &str, dfa: &DFA) -> tantivy::Result<Near> {
    let mut near = Vec::new();
    for segment in searcher.segment_readers() {
        let inverted = segment.inverted_index(field)?;
        let mut stream = inverted.terms().search(Typos(dfa)).into_stream()?;
        while stream.advance() {
            let Ok(found) = std::str::from_utf8(stream.key()) else { continue };
            if found != word
                && let Distance::Exact(distance) = dfa.eval(found)
            {
                near.push((found.to_owned(), distance));
            }
        }
    }
    near.sort_by(|one, other| one.1.cmp(&other.1).then_with(|| one.0.cmp(&other.0)));
    near.dedup();
    near.truncate(TYPO_WORDS);
    Ok(near)
}

impl Built {
    /// What finds `word` in `lang`'s pages.
    fn word_query(&self, searcher: &Searcher, lang: Lang, word: &Word) -> tantivy::Result<WordQuery> {
        let weighted = &self.fields.weighted;
        let mut any: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        let mut typo_words = Vec::new();
        // A word the pages hold is not looked for with typos: its typo words
        // would be other words, and cost a walk of every field's words.
        let held = weighted.iter().any(|field| {
            searcher.doc_freq(&Term::from_field_text(field.exact, &word.text)).is_ok_and(|count| count > 0)
        });
        let dfa = (word.code.is_none() && !held).then(|| typo_automaton(&word.text)).flatten();
        // Nor split, as typed or by its stem.
        let split = if word.code.is_none() && !held && parts::pages_holding(searcher, weighted, lang, &word.text)? == 0
        {
            parts::split(searcher, weighted, lang, &word.text)?
        } else {
            None
        };
        for field in weighted {
            any.push(term(field.exact, &word.text, field.weight));
            any.push(term(field.stemmed, &word.stem, field.weight * STEMMED));
            for together in &word.together {
                any.push(term(field.exact, together, field.weight));
            }
            for synonym in &word.synonyms {
                any.push(phrase(field.stemmed, synonym, 2, field.weight * SYNONYM));
            }
            if let Some(dfa) = &dfa {
                for (near, distance) in near(searcher, field.exact, &word.text, dfa)? {
                    any.push(term(field.exact, &near, field.weight * TYPO / f32::from(distance)));
                    typo_words.push((near, distance));
                }
            }
        }
        if let Some(parts) = &split {
            // Both words anywhere in the page, higher side by side.
            let stems: Vec<String> = parts.iter().map(|part| stem(lang, part)).collect();
            let both = stems
                .iter()
                .map(|stem| {
                    let anywhere =
                        weighted.iter().map(|field| term(field.stemmed, stem, field.weight * SPLIT)).collect();
                    (Occur::Must, Box::new(BooleanQuery::new(anywhere)) as Box<dyn Query>)
                })
                .collect();
            any.push((Occur::Should, Box::new(BooleanQuery::new(both))));
            for field in weighted {
                any.push(phrase(field.stemmed, &stems, 1, field.weight * SPLIT));
            }
        }
        if let Some(code) = &word.code {
            any.push(term(self.fields.codes, code, CODE));
        }
        let also = split.iter().flatten().cloned().collect();
        Ok(WordQuery { query: Box::new(BooleanQuery::new(any)), near: typo_words, split, also })
    }

    /// The last resort's query for `word`: the words of the index its
    /// longest pieces (of `lengths` lengths) begin, each scored by the share
    /// of the word its piece is.
    fn close_query(
        &self,
        searcher: &Searcher,
        word: &Word,
        pieces: &RefCell<HashMap<String, Pieces>>,
        lengths: usize,
    ) -> tantivy::Result<WordQuery> {
        let letters = word.text.chars().count();
        let kept = if word.code.is_some() || letters < 3 {
            Vec::new()
        } else if let Some(kept) = pieces.borrow().get(&word.text) {
            kept.clone()
        } else {
            let kept = parts::pieces(searcher, &self.fields.weighted, &word.text)?;
            pieces.borrow_mut().insert(word.text.clone(), kept.clone());
            kept
        };
        let (mut any, mut also) = (Vec::new(), Vec::new());
        for (piece, found) in kept.into_iter().take(lengths) {
            let share = piece as f32 / letters.max(1) as f32;
            for field in self.fields.weighted {
                for found in &found {
                    any.push(term(field.exact, found, field.weight * CLOSE * share));
                }
            }
            for word in found {
                if !also.contains(&word) {
                    also.push(word);
                }
            }
        }
        Ok(WordQuery { query: Box::new(BooleanQuery::new(any)), near: Vec::new(), split: None, also })
    }

    fn answer(&self, lang: Lang, query: &str) -> tantivy::Result<SearchResults> {
        let read = read(lang, query, &self.synonyms);
        if read.words.is_empty() {
            return Ok(SearchResults::default());
        }
        let other = if lang == Lang::En { Lang::Sw } else { Lang::En };
        let searcher = self.reader.searcher();
        let Found { mut hits, unmatched, typo_words, splits } = self.hits(&searcher, lang, &read, Reading::Words)?;
        let suggestion = self.suggestion(&searcher, &read, &typo_words, &splits)?;
        if hits.len() < FEW {
            let found = self.hits(&searcher, other, &self::read(other, query, &self.synonyms), Reading::Words)?;
            hits.extend(found.hits.into_iter().take(OTHER_HITS).map(|hit| SearchHit { other_language: true, ..hit }));
        }
        // Nothing found in the visitor's language: its pages that come
        // closest, said so, before the other language's found; with
        // neither, the other language's pages that come closest.
        let mut close = false;
        if hits.iter().all(|hit| hit.other_language) {
            let pieces = RefCell::new(HashMap::new());
            // The longest pieces first; shorter ones only where those find
            // none of the visitor's pages (they bring words less like it).
            let mut near = self.hits(&searcher, lang, &read, Reading::Close(&pieces, 1))?.hits;
            if near.is_empty() {
                near = self.hits(&searcher, lang, &read, Reading::Close(&pieces, parts::PIECE_LENGTHS))?.hits;
            }
            if near.is_empty() && hits.is_empty() {
                let other_read = self::read(other, query, &self.synonyms);
                let found = self.hits(&searcher, other, &other_read, Reading::Close(&pieces, 1))?;
                near.extend(
                    found.hits.into_iter().take(OTHER_HITS).map(|hit| SearchHit { other_language: true, ..hit }),
                );
            }
            close = !near.is_empty();
            near.append(&mut hits);
            hits = near;
        }
        Ok(SearchResults { hits, unmatched, suggestion, close, ..SearchResults::default() })
    }

    /// What `read` finds in `lang`.
    fn hits(&self, searcher: &Searcher, lang: Lang, read: &Read, reading: Reading) -> tantivy::Result<Found> {
        let fields = self.fields;
        let in_lang: Box<dyn Query> =
            Box::new(TermQuery::new(Term::from_field_text(fields.lang, lang.code()), IndexRecordOption::Basic));
        let mut any: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        let mut queries = Vec::with_capacity(read.words.len());
        let mut typo_words = HashMap::new();
        let mut splits = HashMap::new();
        let mut also = Vec::new();
        for word in &read.words {
            let found = match reading {
                Reading::Words => self.word_query(searcher, lang, word)?,
                Reading::Close(pieces, lengths) => self.close_query(searcher, word, pieces, lengths)?,
            };
            typo_words.insert(word.text.clone(), found.near);
            if let Some(split) = found.split {
                splits.insert(word.text.clone(), split);
            }
            also.extend(found.also);
            any.push((Occur::Should, found.query.box_clone()));
            queries.push(found.query);
        }
        // Words no page holds are neither a page's name nor side by side in one.
        if matches!(reading, Reading::Words) {
            any.push(term(fields.whole, &whole(&read.typed), WHOLE));
            let stems: Vec<String> = read.words.iter().map(|word| word.stem.clone()).collect();
            if stems.len() > 1 {
                any.push(phrase(fields.text().stemmed, &stems, 3, PHRASE));
                any.push(phrase(fields.name().stemmed, &stems, 1, PHRASE * fields.name().weight));
            }
        }
        let query = BooleanQuery::new(vec![
            (Occur::Must, in_lang.box_clone()),
            (Occur::Must, Box::new(BooleanQuery::new(any))),
        ]);
        let found = searcher.search(&query, &TopDocs::with_limit(CANDIDATES).order_by_score())?;
        // How many of the words each candidate holds, and the words no page
        // of the language holds: each word's matches walked to the
        // candidates only, in the order of the index.
        let mut held = vec![0usize; found.len()];
        let mut order: Vec<usize> = (0..found.len()).collect();
        order.sort_by_key(|&at| (found[at].1.segment_ord, found[at].1.doc_id));
        let mut unmatched = Vec::new();
        for (word, query) in read.words.iter().zip(queries) {
            let both = BooleanQuery::new(vec![(Occur::Must, in_lang.box_clone()), (Occur::Must, query)]);
            let weight = both.weight(EnableScoring::disabled_from_searcher(searcher))?;
            let mut anywhere = false;
            for (segment_ord, segment) in searcher.segment_readers().iter().enumerate() {
                let mut matches = weight.scorer(segment, 1.0)?;
                anywhere |= matches.doc() != TERMINATED;
                for &at in order.iter().filter(|&&at| found[at].1.segment_ord as usize == segment_ord) {
                    let doc = found[at].1.doc_id;
                    if matches.doc() < doc {
                        matches.seek(doc);
                    }
                    held[at] += usize::from(matches.doc() == doc);
                }
            }
            if !anywhere {
                unmatched.push(word.text.clone());
            }
        }
        // Ranked by depth from its fast field; only the hits shown are read
        // from the store.
        let depths = searcher
            .segment_readers()
            .iter()
            .map(|segment| segment.fast_fields().u64(DEPTH))
            .collect::<tantivy::Result<Vec<_>>>()?;
        let mut ranked = Vec::with_capacity(found.len());
        for ((score, address), held) in found.into_iter().zip(held) {
            let depth = depths[address.segment_ord as usize].first(address.doc_id).unwrap_or(0);
            let score = score * DEEPER.powi(i32::try_from(depth).unwrap_or(i32::MAX));
            ranked.push((held, score, address));
        }
        ranked.sort_by(|(held, score, _), (other_held, other_score, _)| {
            other_held.cmp(held).then_with(|| other_score.total_cmp(score))
        });
        let mut hits = Vec::new();
        let also = also.into_iter().collect();
        let mut wanted =
            Wanted { lang, words: &read.words, typo_words: &typo_words, also: &also, seen: HashMap::new() };
        for (_, _, address) in ranked.into_iter().take(MAX_HITS) {
            let document: TantivyDocument = searcher.doc(address)?;
            let stored = |field| document.get_first(field).and_then(|value| value.as_str()).unwrap_or("").to_owned();
            hits.push(SearchHit {
                title: stored(fields.title),
                href: stored(fields.href),
                snippet: snippet(&stored(fields.body), &mut wanted),
                other_language: false,
            });
        }
        Ok(Found { hits, unmatched, typo_words, splits })
    }

    /// The query with each word no page holds as typed (nor by its stem)
    /// replaced by the commonest word a typo away, else by the two words it
    /// was split into; none when no word is.
    fn suggestion(
        &self,
        searcher: &Searcher,
        read: &Read,
        typo_words: &TypoWords,
        splits: &HashMap<String, [String; 2]>,
    ) -> tantivy::Result<Option<String>> {
        let mut changed = false;
        let mut suggested = Vec::with_capacity(read.typed.len());
        for typed in &read.typed {
            let word = read.words.iter().find(|word| word.text == *typed);
            let known = |word: &Word| -> tantivy::Result<bool> {
                for field in self.fields.weighted {
                    if searcher.doc_freq(&Term::from_field_text(field.exact, &word.text))? > 0
                        || searcher.doc_freq(&Term::from_field_text(field.stemmed, &word.stem))? > 0
                    {
                        return Ok(true);
                    }
                }
                Ok(word.code.is_some())
            };
            let replacement = match word {
                Some(word) if !known(word)? => {
                    let text = self.fields.text().exact;
                    let mut best: Option<(u8, u64, &str)> = None;
                    for (near, distance) in typo_words.get(&word.text).into_iter().flatten() {
                        let common = searcher.doc_freq(&Term::from_field_text(text, near))?;
                        if best
                            .is_none_or(|(d, c, _)| (*distance, std::cmp::Reverse(common)) < (d, std::cmp::Reverse(c)))
                        {
                            best = Some((*distance, common, near));
                        }
                    }
                    best.map(|(_, _, near)| near.to_owned())
                        .or_else(|| splits.get(&word.text).map(|split| split.join(" ")))
                }
                _ => None,
            };
            changed |= replacement.is_some();
            suggested.push(replacement.unwrap_or_else(|| typed.clone()));
        }
        Ok(changed.then(|| suggested.join(" ")))
    }
}

/// The stems of `phrase` side by side in `field` (within `slop` other
/// words); a term query for one word.
fn phrase(field: Field, phrase: &[String], slop: u32, boost: f32) -> (Occur, Box<dyn Query>) {
    let query: Box<dyn Query> = match phrase {
        [one] => Box::new(TermQuery::new(Term::from_field_text(field, one), IndexRecordOption::WithFreqs)),
        _ => Box::new(PhraseQuery::new_with_offset_and_slop(
            phrase.iter().enumerate().map(|(at, word)| (at, Term::from_field_text(field, word))).collect(),
            slop,
        )),
    };
    (Occur::Should, Box::new(BoostQuery::new(query, boost)))
}

/// The words a snippet is placed by: the query's, by its word, stem or a
/// typo word, each word of the pages read once per query however many hits
/// hold it (reading one is folding it and stemming it).
struct Wanted<'a> {
    lang: Lang,
    words: &'a [Word],
    typo_words: &'a TypoWords,
    /// The words a split or the last resort found the query's by.
    also: &'a HashSet<String>,
    seen: HashMap<String, bool>,
}

impl Wanted<'_> {
    /// Whether `word`, as a page writes it (between spaces), is wanted.
    fn wants(&mut self, word: &str) -> bool {
        if let Some(&wanted) = self.seen.get(word) {
            return wanted;
        }
        let mut folded = words::words(word);
        if word.contains('-') {
            folded.extend(words::words(&joined(word)));
        }
        let wanted =
            folded.iter().any(|folded| {
                self.also.contains(folded)
                    || self.words.iter().any(|want| {
                        *folded == want.text
                            || self
                                .typo_words
                                .get(&want.text)
                                .is_some_and(|near| near.iter().any(|(near, _)| near == folded))
                            || stem(self.lang, folded) == want.stem
                    })
            }) || words::codes(word).iter().any(|code| self.words.iter().any(|want| want.code.as_ref() == Some(code)));
        self.seen.insert(word.to_owned(), wanted);
        wanted
    }
}

/// About [`SNIPPET_WORDS`] words of `text` around the first that is wanted.
fn snippet(text: &str, wanted: &mut Wanted) -> String {
    let all: Vec<&str> = text.split_whitespace().collect();
    let first = all.iter().position(|word| wanted.wants(word)).unwrap_or(0);
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
        Page {
            lang,
            href: href.into(),
            title: title.into(),
            names: String::new(),
            description: String::new(),
            headings: title.into(),
            text: text.into(),
            codes: words::codes(text),
        }
    }

    fn index() -> Search {
        let search = Search::default();
        search
            .rebuild(
                vec![
                    page(
                        Lang::En,
                        "/mpesa",
                        "M-Pesa",
                        "Send money, pay bills and buy airtime with M-Pesa. Dial *150*00#.",
                    ),
                    page(
                        Lang::En,
                        "/internet-overview",
                        "Internet bundles",
                        "Daily, weekly and monthly internet bundles.",
                    ),
                    page(Lang::En, "/nipige-tafu", "Nipige Tafu", "Borrow airtime when you run out. Dial *149*55#."),
                    page(Lang::En, "/customer-service", "Customer service", "Call 100 for help with your bundles."),
                    page(
                        Lang::Sw,
                        "/sw/internet-overview",
                        "Vifurushi vya intaneti",
                        "Vifurushi vya siku, wiki na mwezi.",
                    ),
                    page(Lang::Sw, "/sw/mpesa", "M-Pesa", "Tuma pesa, lipa bili na nunua muda wa maongezi kwa M-Pesa."),
                    page(Lang::Sw, "/sw/digital-payments", "Malipo", "Malipo ya LUKU na maji kwa M-Pesa."),
                    page(Lang::Sw, "/sw/voda-njiwa", "Voda Njiwa", "Tuma salamu za sauti."),
                    page(Lang::En, "/business", "Vodacom Business", "Cloud hosting and smart meters for your company."),
                    page(Lang::En, "/afya-call", "Afya Call", "A doctor on the phone, and the medicine you need."),
                ],
                Synonyms::default(),
            )
            .unwrap();
        search
    }

    fn hrefs(results: &SearchResults) -> Vec<&str> {
        results.hits.iter().filter(|hit| !hit.other_language).map(|hit| hit.href.as_str()).collect()
    }

    #[test]
    fn finds_pages_in_the_visitors_language_with_typos_case_and_accents_forgiven() {
        let search = index();
        assert_eq!(hrefs(&search.search(Lang::En, "mpessa"))[0], "/mpesa");
        assert_eq!(hrefs(&search.search(Lang::En, "M-PESA"))[0], "/mpesa");
        assert_eq!(hrefs(&search.search(Lang::En, "m pesa"))[0], "/mpesa");
        assert_eq!(hrefs(&search.search(Lang::Sw, "vífurúshi")), ["/sw/internet-overview"]);
        assert_eq!(hrefs(&search.search(Lang::Sw, "vodanjiwa")), ["/sw/voda-njiwa"]);
        assert!(hrefs(&search.search(Lang::En, "vifurushi")).iter().all(|href| !href.starts_with("/sw")));
    }

    #[test]
    fn pages_holding_more_of_the_words_come_first_and_the_others_follow() {
        let search = index();
        let found = search.search(Lang::En, "how to borrow airtime");
        assert_eq!(hrefs(&found)[0], "/nipige-tafu", "stop words left out, both words on the page");
        assert!(hrefs(&found).contains(&"/mpesa"), "one word of two is enough");
        let found = search.search(Lang::En, "internet kangaroo");
        assert_eq!(hrefs(&found), ["/internet-overview"]);
        assert_eq!(found.unmatched, ["kangaroo"], "the word no page holds is said");
    }

    #[test]
    fn words_are_found_by_their_stems_in_either_language() {
        let search = index();
        assert_eq!(hrefs(&search.search(Lang::En, "borrowing"))[0], "/nipige-tafu");
        assert_eq!(hrefs(&search.search(Lang::Sw, "kifurushi cha intaneti"))[0], "/sw/internet-overview");
        let paid = search.search(Lang::Sw, "nimelipa");
        assert!(hrefs(&paid).contains(&"/sw/mpesa") && hrefs(&paid).contains(&"/sw/digital-payments"), "lipa, malipo");
    }

    #[test]
    fn synonyms_and_loanwords_find_the_other_languages_word() {
        let search = index();
        assert_eq!(hrefs(&search.search(Lang::Sw, "bundles"))[0], "/sw/internet-overview");
        assert_eq!(hrefs(&search.search(Lang::En, "vifurushi"))[0], "/internet-overview");
    }

    #[test]
    fn codes_and_numbers_are_found_whole() {
        let search = index();
        assert_eq!(hrefs(&search.search(Lang::En, "*149*55#")), ["/nipige-tafu"]);
        assert_eq!(hrefs(&search.search(Lang::En, "*150*00"))[0], "/mpesa");
        assert_eq!(hrefs(&search.search(Lang::En, "100"))[0], "/customer-service");
    }

    #[test]
    fn a_word_found_with_a_typo_offers_did_you_mean() {
        let search = index();
        assert_eq!(
            search.search(Lang::En, "how to borow airtime").suggestion.as_deref(),
            Some("how to borrow airtime")
        );
        assert_eq!(search.search(Lang::En, "borrow airtime").suggestion, None);
    }

    #[test]
    fn little_found_in_the_visitors_language_adds_the_others_marked() {
        let search = index();
        let found = search.search(Lang::En, "salamu");
        assert!(found.hits.iter().all(|hit| hit.other_language), "{:?}", found.hits);
        assert_eq!(found.hits[0].href, "/sw/voda-njiwa");
        let found = search.search(Lang::En, "bundles");
        let own = found.hits.iter().filter(|hit| !hit.other_language).count();
        assert_eq!(own, 2, "{:?}", found.hits);
        assert!(found.hits[own..].iter().all(|hit| hit.other_language), "the visitor's language first");
    }

    #[test]
    fn a_hit_has_its_name_and_the_words_around_the_match() {
        let search = index();
        let found = search.search(Lang::En, "airtime");
        let hit = found.hits.iter().find(|hit| hit.href == "/mpesa").unwrap();
        assert_eq!(hit.title, "M-Pesa");
        assert!(hit.snippet.contains("airtime"), "{}", hit.snippet);
    }

    #[test]
    fn a_word_typed_as_one_is_found_as_the_two_the_pages_write() {
        let search = index();
        let found = search.search(Lang::En, "smartmeters");
        assert_eq!(hrefs(&found), ["/business"]);
        assert!(!found.close, "found as the pages write it, not by the last resort");
        assert_eq!(found.suggestion.as_deref(), Some("smart meters"));
        assert_eq!(hrefs(&search.search(Lang::Sw, "lipabili")), ["/sw/mpesa"]);
    }

    #[test]
    fn a_query_that_finds_nothing_gets_the_pages_that_come_close_marked() {
        let search = index();
        let found = search.search(Lang::En, "telemedicine");
        assert!(found.close);
        assert_eq!(hrefs(&found), ["/afya-call"], "the piece \"medicine\"");
        assert_eq!(found.unmatched, ["telemedicine"]);
        let found = search.search(Lang::Sw, "vifurushivyote");
        assert!(found.close);
        assert_eq!(hrefs(&found), ["/sw/internet-overview"]);
        // Nothing in the visitor's language but in the other's: the
        // visitor's pages that come close first, then the other's found.
        let found = search.search(Lang::En, "salamu herbalmedicine");
        assert!(found.close);
        assert_eq!(hrefs(&found), ["/afya-call"]);
        assert_eq!(
            found.hits.last().map(|hit| (hit.href.as_str(), hit.other_language)),
            Some(("/sw/voda-njiwa", true))
        );
        // Found otherwise: not marked.
        assert!(!search.search(Lang::En, "airtime").close);
        assert!(!search.search(Lang::En, "salamu").close, "the other language's pages are found, not close");
        // Nothing to come close to.
        for query in ["qwxzv", "#", "zz"] {
            let found = search.search(Lang::En, query);
            assert!(found.hits.is_empty() && !found.close, "{query}: {found:?}");
        }
    }

    /// A joined word whose longest piece only the other language's pages
    /// hold ("points"): the visitor's pages come close by a shorter one.
    #[test]
    fn a_shorter_piece_finds_the_visitors_pages_where_the_longest_finds_only_the_others() {
        let search = Search::default();
        let pages = vec![
            page(Lang::En, "/tuzo-points", "Tuzo points", "Earn points with every bundle."),
            page(Lang::Sw, "/sw/tuzo-points", "Pointi za Tuzo", "Pata pointi kwa kila kifurushi."),
            page(Lang::Sw, "/sw/voice-sms", "Simu na SMS", "Vifurushi vya dakika."),
        ];
        search.rebuild(pages, Synonyms::default()).unwrap();
        let found = search.search(Lang::Sw, "tuzopoints");
        assert_eq!(
            found.hits.first().map(|hit| (hit.href.as_str(), hit.other_language)),
            Some(("/sw/tuzo-points", false)),
            "{found:?}"
        );
    }

    #[test]
    fn odd_queries_find_nothing_and_fail_nothing() {
        let search = index();
        for query in ["", "   ", "*", "#", "\"", "(", "AND OR NOT", "a:b", &"x".repeat(10_000), "🙂", "\u{0}", "* # *"]
        {
            let found = search.search(Lang::En, query);
            assert!(found.ready);
            assert!(found.query.chars().count() <= MAX_QUERY);
        }
        assert!(!Search::default().search(Lang::En, "mpesa").ready, "no index yet");
    }
}
