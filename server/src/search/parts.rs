//! A query's word that no page holds, read by its parts, as the index's
//! words (its term dictionary) tell them:
//! - [`split`]: a word typed as one that the pages write as two ("bigdata"
//!   for "big data", "simcard"), found as those two words;
//! - [`pieces`]: the search's last resort, when nothing else finds a page:
//!   the longest piece of the word that begins any of the index's words
//!   ("business" of "businessmen", "medicine" of "telemedicine"), and the
//!   words it begins.

use contract::Lang;
use tantivy::{Searcher, Term};

use super::Weighted;
use super::words::stem;

/// Letters each part of a split word has at least: two-letter parts ("mb",
/// "id", "ya") split too many words into something the pages hold.
const PART: usize = 3;
/// Letters the shortest piece has.
const PIECE: usize = 3;
/// Letters of a word its pieces are taken from: a longer word is read by
/// its start, which bounds the lookups (one for each piece of each length).
const PIECE_FROM: usize = 20;
/// The index's words a piece begins that are kept for a word, the closest
/// to the piece first.
pub const PIECE_WORDS: usize = 12;
/// Words read from the dictionary for each piece, before the closest are kept.
const PIECE_READ: usize = 64;
/// The lengths of piece kept, longest first, each beginning words the
/// longer ones did not: the longest may begin only words of the other
/// language's pages ("tuzopoints", an English title written whole, where
/// Swahili pages say "pointi za tuzo"), so shorter ones are kept too, each
/// scored by its share of the word.
pub const PIECE_LENGTHS: usize = 3;

/// The pages (of either language) that hold `word` in any of `fields`,
/// as typed or by its stem: the most of any field.
pub fn pages_holding(searcher: &Searcher, fields: &[Weighted], lang: Lang, word: &str) -> tantivy::Result<u64> {
    let stem = stem(lang, word);
    let mut most = 0;
    for field in fields {
        most = most
            .max(searcher.doc_freq(&Term::from_field_text(field.exact, word))?)
            .max(searcher.doc_freq(&Term::from_field_text(field.stemmed, &stem))?);
    }
    Ok(most)
}

/// `word` (one no page holds) as two words the pages hold, each of
/// [`PART`] letters or more; of several ways, the one whose words are the
/// most common together (the product of the pages holding each, as a
/// unigram segmenter chooses). None when no way gives two held words.
pub fn split(searcher: &Searcher, fields: &[Weighted], lang: Lang, word: &str) -> tantivy::Result<Option<[String; 2]>> {
    let letters: Vec<char> = word.chars().collect();
    if letters.len() < 2 * PART {
        return Ok(None);
    }
    let mut best: Option<(u128, [String; 2])> = None;
    for at in PART..=letters.len() - PART {
        let one: String = letters[..at].iter().collect();
        let held = pages_holding(searcher, fields, lang, &one)?;
        if held == 0 {
            continue;
        }
        let other: String = letters[at..].iter().collect();
        let both = u128::from(held) * u128::from(pages_holding(searcher, fields, lang, &other)?);
        if both > 0 && best.as_ref().is_none_or(|(most, _)| both > *most) {
            best = Some((both, [one, other]));
        }
    }
    Ok(best.map(|(_, parts)| parts))
}

/// The longest piece of `word` (of [`PIECE`] letters or more, within its
/// first [`PIECE_FROM`]) that begins a word of `fields`, its letters, and
/// the [`PIECE_WORDS`] words it begins with the fewest letters past it:
/// "medicine" of "telemedicine" finds "medicine" and "medicines". Nothing
/// when no piece begins a word.
pub fn pieces(searcher: &Searcher, fields: &[Weighted], word: &str) -> tantivy::Result<Vec<(usize, Vec<String>)>> {
    let letters: Vec<char> = word.chars().take(PIECE_FROM).collect();
    let mut dictionaries = Vec::new();
    for segment in searcher.segment_readers() {
        for field in fields {
            dictionaries.push(segment.inverted_index(field.exact)?);
        }
    }
    let mut kept = Vec::new();
    for length in (PIECE..=letters.len()).rev() {
        let mut found: Vec<String> = Vec::new();
        for start in 0..=letters.len() - length {
            let piece: String = letters[start..start + length].iter().collect();
            for dictionary in &dictionaries {
                let mut stream = dictionary.terms().range().ge(piece.as_bytes()).into_stream()?;
                let mut read = 0;
                while read < PIECE_READ && stream.advance() {
                    let Ok(begun) = std::str::from_utf8(stream.key()) else { continue };
                    if !begun.starts_with(&piece) {
                        break;
                    }
                    found.push(begun.to_owned());
                    read += 1;
                }
            }
        }
        // Only words a longer piece did not begin: a shorter piece of the
        // same words ("tuzopoint" of "tuzopoints", which a title written
        // whole holds) is no other way in.
        found.retain(|word| !kept.iter().any(|(_, words): &(usize, Vec<String>)| words.contains(word)));
        if !found.is_empty() {
            found.sort_by(|one, other| one.len().cmp(&other.len()).then_with(|| one.cmp(other)));
            found.dedup();
            found.truncate(PIECE_WORDS);
            kept.push((length, found));
            if kept.len() == PIECE_LENGTHS {
                break;
            }
        }
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Page, Search, Synonyms};

    fn page(text: &str) -> Page {
        Page {
            lang: Lang::En,
            href: format!("/{}", text.len()),
            title: String::new(),
            names: String::new(),
            description: String::new(),
            headings: String::new(),
            text: text.into(),
            codes: Vec::new(),
        }
    }

    /// An index of `texts`, and what the tests look words up in.
    fn index(texts: &[&str]) -> Search {
        let search = Search::default();
        search.rebuild(texts.iter().map(|text| page(text)).collect(), Synonyms::default()).unwrap();
        search
    }

    fn split_of(search: &Search, word: &str) -> Option<[String; 2]> {
        let built = crate::infra::locks::read(&search.built).clone().unwrap();
        split(&built.reader.searcher(), &built.fields.weighted, Lang::En, word).unwrap()
    }

    /// The longest piece's length and words.
    fn pieces_of(search: &Search, word: &str) -> (usize, Vec<String>) {
        let built = crate::infra::locks::read(&search.built).clone().unwrap();
        pieces(&built.reader.searcher(), &built.fields.weighted, word).unwrap().into_iter().next().unwrap_or_default()
    }

    #[test]
    fn a_joined_word_splits_into_the_two_words_the_pages_hold_most() {
        let search =
            index(&["pay your bill", "pay a bill", "pay the bill on time", "payb ill", "big data", "sim cards"]);
        assert_eq!(split_of(&search, "bigdata"), Some(["big".into(), "data".into()]));
        assert_eq!(split_of(&search, "paybill"), Some(["pay".into(), "bill".into()]), "not payb ill: rarer");
        assert_eq!(split_of(&search, "simcard"), Some(["sim".into(), "card".into()]), "a part found by its stem");
        assert_eq!(split_of(&search, "taxbill"), None, "a part no page holds");
        assert_eq!(split_of(&search, "abill"), None, "a part of fewer than three letters");
    }

    #[test]
    fn the_longest_piece_that_begins_words_finds_them_the_closest_first() {
        let search = index(&["medicine and medicines, medical care", "the medicinal garden"]);
        let (piece, found) = pieces_of(&search, "telemedicine");
        assert_eq!(piece, "medicine".len());
        assert_eq!(found, ["medicine", "medicines"], "not \"medicinal\": \"medicine\" does not begin it");
        let (piece, found) = pieces_of(&search, "medix");
        assert_eq!((piece, found.len()), (4, 4), "\"medi\" begins all four: {found:?}");
        assert_eq!(pieces_of(&search, "qwxzv"), (0, Vec::new()), "no piece of three letters begins a word");
        assert_eq!(pieces_of(&search, "me"), (0, Vec::new()), "shorter than a piece");
    }

    #[test]
    fn shorter_pieces_are_kept_beside_the_longest() {
        let search = index(&["earn points", "tuzo za wateja"]);
        let built = crate::infra::locks::read(&search.built).clone().unwrap();
        let kept = pieces(&built.reader.searcher(), &built.fields.weighted, "tuzopoints").unwrap();
        let lengths: Vec<usize> = kept.iter().map(|(length, _)| *length).collect();
        assert_eq!(lengths.first(), Some(&"points".len()));
        assert!(kept.iter().any(|(_, words)| words.contains(&"tuzo".to_owned())), "{kept:?}");
        assert!(lengths.len() <= PIECE_LENGTHS);
    }
}
