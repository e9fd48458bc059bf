//! Synonyms and loanwords, both ways between English and Swahili: a query's
//! word (or words) that is one entry of a group also finds the group's other
//! entries, so "bundle" on the Swahili search finds "vifurushi" and "bima"
//! on the English one finds "insurance".
//!
//! The groups are those editors keep in the CMS's `synonyms` collection
//! ([`contract::synonyms::Synonym`]), read each time the index is built;
//! without any that names two entries (no such collection, an empty one,
//! entries that do not fit, or a CMS that fails), the embedded list
//! `synonyms.txt`, written the same way, logged.

use std::sync::{Arc, LazyLock};

use contract::Lang;

use super::words::{is_stop_word, stem, words};
use crate::content::{Content, ContentQuery, ContentValue};

/// A word of an entry or a query, with its stems in either language.
struct Entry {
    word: String,
    stems: [String; 2],
}

impl Entry {
    fn new(word: String) -> Entry {
        Entry { stems: [stem(Lang::En, &word), stem(Lang::Sw, &word)], word }
    }
}

/// A group's entries, each the words of a phrase (its little words left out).
type Group = Vec<Vec<Entry>>;

/// The groups a query is read with, swapped with the index they were read for.
#[derive(Clone)]
pub struct Synonyms(Arc<Vec<Group>>);

static EMBEDDED: LazyLock<Synonyms> = LazyLock::new(|| Synonyms(Arc::new(groups(include_str!("synonyms.txt")))));

impl Default for Synonyms {
    /// The embedded list.
    fn default() -> Synonyms {
        EMBEDDED.clone()
    }
}

impl Synonyms {
    /// The groups of `entries`, each written as a line of the embedded list;
    /// none when none names two entries.
    pub fn of<'a>(entries: impl IntoIterator<Item = &'a str>) -> Option<Synonyms> {
        let groups: Vec<Group> = entries.into_iter().flat_map(groups).collect();
        (!groups.is_empty()).then(|| Synonyms(Arc::new(groups)))
    }

    /// The groups editors keep in the CMS, else the embedded list.
    pub async fn read(content: &Content) -> Synonyms {
        let embedded = match content.get(&ContentQuery::Synonyms, Lang::default()).await {
            Ok(loaded) => {
                let entries = loaded.value.as_deref().and_then(ContentValue::synonyms).unwrap_or_default();
                if let Some(synonyms) = Synonyms::of(entries.iter().map(|entry| entry.words.as_str())) {
                    return synonyms;
                }
                "the content has no synonyms that name two words or more"
            }
            Err(error) => {
                tracing::warn!(%error, "the synonyms could not be read");
                "the synonyms could not be read"
            }
        };
        tracing::info!(reason = embedded, "the search reads queries with its embedded synonyms");
        Synonyms::default()
    }

    /// For each of `query` (a query's words, little words left out), the
    /// phrases that find it too, as stems of `lang`.
    pub fn alternatives(&self, lang: Lang, query: &[String]) -> Vec<Vec<Vec<String>>> {
        let mut alternatives = vec![Vec::new(); query.len()];
        let query: Vec<Entry> = query.iter().map(|word| Entry::new(word.clone())).collect();
        for group in self.0.iter() {
            for (at, entry) in group.iter().enumerate() {
                for start in 0..(query.len() + 1).saturating_sub(entry.len()) {
                    let span = start..start + entry.len();
                    if !query[span.clone()].iter().zip(entry).all(|(typed, entry)| same(typed, entry)) {
                        continue;
                    }
                    let others = group.iter().enumerate().filter(|(other, _)| *other != at);
                    let others: Vec<Vec<String>> =
                        others.map(|(_, other)| other.iter().map(|entry| stem(lang, &entry.word)).collect()).collect();
                    for found in &mut alternatives[span] {
                        found.extend(others.iter().cloned());
                    }
                }
            }
        }
        for found in &mut alternatives {
            found.sort();
            found.dedup();
        }
        alternatives
    }
}

/// The groups of `list`: a line each, entries separated by `|`; `#` starts a
/// comment. A group of fewer than two entries finds nothing more: left out.
fn groups(list: &str) -> Vec<Group> {
    list.lines()
        .map(|line| line.split('#').next().unwrap_or_default())
        .map(|line| {
            line.split('|')
                .map(|entry| {
                    words(entry).into_iter().filter(|word| !is_stop_word(word)).map(Entry::new).collect::<Vec<_>>()
                })
                .filter(|entry| !entry.is_empty())
                .collect::<Group>()
        })
        .filter(|group| group.len() >= 2)
        .collect()
}

/// Whether a query's word is an entry's word: the same, or the same stem
/// in either language ("vifurushi" is "kifurushi").
fn same(typed: &Entry, entry: &Entry) -> bool {
    typed.word == entry.word || typed.stems.iter().zip(&entry.stems).any(|(typed, entry)| typed == entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(words: &[&str]) -> Vec<String> {
        words.iter().map(|word| (*word).to_owned()).collect()
    }

    #[test]
    fn a_word_finds_its_synonyms_in_the_other_language() {
        let found = Synonyms::default().alternatives(Lang::Sw, &query(&["bundles"]));
        assert!(found[0].contains(&vec![stem(Lang::Sw, "vifurushi")]), "{found:?}");
        let found = Synonyms::default().alternatives(Lang::En, &query(&["vifurushi"]));
        assert!(found[0].contains(&vec![stem(Lang::En, "bundle")]), "{found:?}");
    }

    #[test]
    fn a_phrase_finds_its_synonyms_for_each_of_its_words() {
        let found = Synonyms::default().alternatives(Lang::Sw, &query(&["customer", "care", "number"]));
        let huduma = vec![stem(Lang::Sw, "huduma"), stem(Lang::Sw, "wateja")];
        assert!(found[0].contains(&huduma) && found[1].contains(&huduma), "{found:?}");
        assert!(!found[2].contains(&huduma));
    }

    #[test]
    fn the_embedded_list_is_read_whole() {
        assert!(Synonyms::default().0.len() > 30);
        assert!(EMBEDDED.0.iter().all(|group| group.len() >= 2), "a group names two entries or more");
    }

    #[test]
    fn the_cms_entries_are_read_as_lines_of_the_list_and_replace_it() {
        let synonyms = Synonyms::of(["stall | kibanda | vibanda", "  ", "alone", "# a note | not read"]).unwrap();
        assert_eq!(synonyms.0.len(), 1, "an empty entry, one of a single word and a comment find nothing more");
        let found = synonyms.alternatives(Lang::En, &query(&["vibanda"]));
        assert!(found[0].contains(&vec![stem(Lang::En, "stall")]), "{found:?}");
        assert!(synonyms.alternatives(Lang::Sw, &query(&["bundles"]))[0].is_empty(), "the embedded list is not read");
        assert!(Synonyms::of(["", "one"]).is_none(), "nothing that names two: the embedded list instead");
    }
}
