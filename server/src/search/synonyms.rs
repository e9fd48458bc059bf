//! Synonyms and loanwords, both ways between English and Swahili: a query's
//! word (or words) that is one entry of a group also finds the group's other
//! entries, so "bundle" on the Swahili search finds "vifurushi" and "bima"
//! on the English one finds "insurance". The embedded default list is
//! `synonyms.txt`.

use std::sync::LazyLock;

use contract::Lang;

use super::words::{is_stop_word, stem, words};

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

static GROUPS: LazyLock<Vec<Group>> = LazyLock::new(|| groups(include_str!("synonyms.txt")));

/// The groups of `list`: a line each, entries separated by `|`; `#` starts a comment.
fn groups(list: &str) -> Vec<Group> {
    list.lines()
        .map(|line| line.split('#').next().unwrap_or_default())
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            line.split('|')
                .map(|entry| {
                    words(entry).into_iter().filter(|word| !is_stop_word(word)).map(Entry::new).collect::<Vec<_>>()
                })
                .filter(|entry| !entry.is_empty())
                .collect()
        })
        .collect()
}

/// Whether a query's word is an entry's word: the same, or the same stem
/// in either language ("vifurushi" is "kifurushi").
fn same(typed: &Entry, entry: &Entry) -> bool {
    typed.word == entry.word || typed.stems.iter().zip(&entry.stems).any(|(typed, entry)| typed == entry)
}

/// For each of `query` (a query's words, little words left out), the
/// phrases that find it too, as stems of `lang`.
pub fn alternatives(lang: Lang, query: &[String]) -> Vec<Vec<Vec<String>>> {
    let mut alternatives = vec![Vec::new(); query.len()];
    let query: Vec<Entry> = query.iter().map(|word| Entry::new(word.clone())).collect();
    for group in GROUPS.iter() {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn query(words: &[&str]) -> Vec<String> {
        words.iter().map(|word| (*word).to_owned()).collect()
    }

    #[test]
    fn a_word_finds_its_synonyms_in_the_other_language() {
        let found = alternatives(Lang::Sw, &query(&["bundles"]));
        assert!(found[0].contains(&vec![stem(Lang::Sw, "vifurushi")]), "{found:?}");
        let found = alternatives(Lang::En, &query(&["vifurushi"]));
        assert!(found[0].contains(&vec![stem(Lang::En, "bundle")]), "{found:?}");
    }

    #[test]
    fn a_phrase_finds_its_synonyms_for_each_of_its_words() {
        let found = alternatives(Lang::Sw, &query(&["customer", "care", "number"]));
        let huduma = vec![stem(Lang::Sw, "huduma"), stem(Lang::Sw, "wateja")];
        assert!(found[0].contains(&huduma) && found[1].contains(&huduma), "{found:?}");
        assert!(!found[2].contains(&huduma));
    }

    #[test]
    fn the_embedded_list_is_read_whole() {
        assert!(GROUPS.len() > 30);
        assert!(GROUPS.iter().all(|group| group.len() >= 2), "a group names two entries or more");
    }
}
