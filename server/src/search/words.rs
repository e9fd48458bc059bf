//! How the search reads words, the same in the index and in a query: split,
//! lowercased and folded to ASCII (`Intaneti`, `intanéti` and `INTANETI`
//! are one word), hyphenated words found whole too ("mpesa" finds "M-Pesa"),
//! stemmed per language, the little words of a question left out, and USSD
//! codes and short numbers kept whole.

use std::cell::RefCell;

use contract::Lang;
use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, RawTokenizer, RemoveLongFilter, SimpleTokenizer, Stemmer, TextAnalyzer,
};

/// The analyzer every text field of the index is registered with.
pub const TOKENIZER: &str = "folded";

pub fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

thread_local! {
    static FOLDED: RefCell<TextAnalyzer> = RefCell::new(analyzer());
    static ENGLISH: RefCell<TextAnalyzer> =
        RefCell::new(TextAnalyzer::builder(RawTokenizer::default()).filter(Stemmer::new(Language::English)).build());
}

/// The words of `text` as the index holds them.
pub fn words(text: &str) -> Vec<String> {
    FOLDED.with_borrow_mut(|analyzer| {
        let mut stream = analyzer.token_stream(text);
        let mut words = Vec::new();
        while let Some(token) = stream.next() {
            words.push(token.text.clone());
        }
        words
    })
}

/// `text` with the hyphens inside words left out: "M-Pesa" → "MPesa".
pub fn joined(text: &str) -> String {
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

/// The stem of `word` (a word as [`words`] gives it) in `lang`: English by
/// the Snowball stemmer ("borrowing" → "borrow"), Swahili by ours
/// (`swahili.rs`).
pub fn stem(lang: Lang, word: &str) -> String {
    match lang {
        Lang::En => ENGLISH.with_borrow_mut(|analyzer| {
            let mut stream = analyzer.token_stream(word);
            stream.next().map_or_else(|| word.to_owned(), |token| token.text.clone())
        }),
        Lang::Sw => super::swahili::stem(word),
    }
}

/// The stems of `text`'s words, space-separated, for a stem field.
pub fn stems(lang: Lang, text: &str) -> String {
    words(text).iter().map(|word| stem(lang, word)).collect::<Vec<_>>().join(" ")
}

/// The little words of a question in either language, which say nothing
/// of the page wanted ("how", "to", "jinsi", "ya", "cha"): a query leaves
/// them out unless it is made of them only. Both languages' lists, since
/// visitors mix them ("huduma kwa wateja" on the English search).
pub fn is_stop_word(word: &str) -> bool {
    is_stop_word_in(Lang::En, word) || is_stop_word_in(Lang::Sw, word)
}

fn is_stop_word_in(lang: Lang, word: &str) -> bool {
    const ENGLISH: &[&str] = &[
        "a", "about", "am", "an", "and", "are", "as", "at", "be", "by", "can", "could", "do", "does", "for", "from",
        "get", "has", "have", "how", "i", "if", "in", "is", "it", "its", "me", "much", "my", "of", "on", "or", "our",
        "should", "so", "than", "that", "the", "there", "this", "to", "want", "was", "we", "what", "when", "where",
        "which", "who", "why", "will", "with", "would", "you", "your",
    ];
    const SWAHILI: &[&str] = &[
        "au",
        "cha",
        "chako",
        "changu",
        "gani",
        "hadi",
        "hii",
        "hiyo",
        "hizi",
        "huu",
        "je",
        "jinsi",
        "kama",
        "katika",
        "kwa",
        "kwenye",
        "la",
        "lako",
        "langu",
        "lini",
        "mimi",
        "na",
        "nani",
        "naweza",
        "nawezaje",
        "ni",
        "ninawezaje",
        "nini",
        "pia",
        "sasa",
        "tu",
        "unaweza",
        "vipi",
        "vya",
        "wa",
        "wako",
        "wangu",
        "wapi",
        "wewe",
        "ya",
        "yake",
        "yako",
        "yangu",
        "za",
        "zako",
        "zangu",
    ];
    match lang {
        Lang::En => ENGLISH.binary_search(&word).is_ok(),
        Lang::Sw => SWAHILI.binary_search(&word).is_ok(),
    }
}

/// A USSD code or number to dial as one term: its groups of digits joined
/// by `*`, so that "*150*00#", "*150*00" and "150*00" are one code.
pub fn code(run: &str) -> String {
    run.split(|c: char| !c.is_ascii_digit()).filter(|group| !group.is_empty()).collect::<Vec<_>>().join("*")
}

/// The USSD codes written in `text` ("Piga *150*00#"), as [`code`]s.
pub fn codes(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '*' || c == '#')).filter(|run| is_code(run)).map(code).collect()
}

/// Whether `run` (a query's word as typed) is written as a USSD code.
pub fn is_code(run: &str) -> bool {
    run.contains(['*', '#']) && run.bytes().any(|c| c.is_ascii_digit())
}

/// Typos forgiven in a word of `letters`: none in a short word, where one
/// typo makes another word, more in a longer one.
pub fn typos(letters: usize) -> u8 {
    match letters {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_folded_and_stemmed_per_language() {
        assert_eq!(words("Intanéti M-Pesa"), ["intaneti", "m", "pesa"]);
        assert_eq!(words(&joined("Intanéti M-Pesa")), ["intaneti", "mpesa"]);
        assert_eq!(stem(Lang::En, "borrowing"), stem(Lang::En, "borrow"));
        assert_eq!(stem(Lang::En, "bundles"), "bundl");
        assert_eq!(stem(Lang::Sw, "vifurushi"), stem(Lang::Sw, "kifurushi"));
        assert_eq!(stems(Lang::Sw, "Vifurushi vya intaneti"), "furush vya intanet");
    }

    #[test]
    fn the_stop_word_lists_are_sorted_for_their_search() {
        assert!(is_stop_word("how") && is_stop_word("jinsi") && is_stop_word("cha"));
        assert!(!is_stop_word("bundle") && !is_stop_word("vifurushi"));
        for word in ["a", "your", "au", "zako"] {
            assert!(is_stop_word(word), "{word}");
        }
    }

    #[test]
    fn codes_are_one_term_however_they_are_typed() {
        assert_eq!(codes("Piga *150*00# au *149*01#."), ["150*00", "149*01"]);
        assert_eq!(codes("*150*00 or 100"), ["150*00"]);
        assert_eq!(code("*149*01#"), "149*01");
        assert_eq!(code("+255 754 100 100"), "255*754*100*100");
        assert!(is_code("*149*58") && is_code("*106#") && !is_code("100") && !is_code("*"));
    }
}
