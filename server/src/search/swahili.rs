//! A conservative Swahili stemmer: the stem a word's forms share, so that
//! "kifurushi" finds "vifurushi", "nimelipa" finds "kulipa" and "malipo", and
//! "mikopo" finds "kukopa".
//!
//! Swahili words are built from a root with prefixes and suffixes (as
//! described in Ashton's *Swahili Grammar* and Mohammed's *Modern Swahili
//! Grammar*):
//! - a noun takes its class's prefix: m-/wa- (mteja, wateja), m-/mi- (mkopo,
//!   mikopo), ji-/ma- (duka, maduka), ki-/vi- (kifurushi, vifurushi; ch-/vy-
//!   before a vowel), u- (usajili), and a noun made of a verb ends in -o
//!   (malipo, of lipa) or -aji (mwekezaji, of wekeza);
//! - a verb is an infinitive (ku-lipa), or an optional negation (ha-, si-),
//!   a subject (ni-, u-, a-, tu-, m-, wa- and the classes' ki-, vi-, li-,
//!   ya-, i-, zi-) and a tense (-na-, -li-, -ta-, -me-, -nge-, -ka-, -sha-;
//!   the negative past ha-ku-), an optional object (-ni-, -ku-, -m-, -tu-,
//!   -wa-, the reflexive -ji-, …), the root, extensions (applicative -ia/-ea,
//!   causative -isha/-esha, stative -ika/-eka, passive -wa/-iwa/-ewa,
//!   reciprocal -ana) and a final vowel, and in a question -je
//!   (nitaangaliaje).
//!
//! Each of these is taken off only when what remains is still a plausible
//! root (three letters or more), in this order: a question's -je; a verb's
//! subject and tense together (one alone is too often the start of a root),
//! else the infinitive's ku-, else one noun prefix; then one extension and
//! the final vowel. Over-stemming two words together costs a result in
//! the wrong place; under-stemming loses the page: the search scores an exact
//! word above a stem, so the stem may be generous.

/// The shortest root a prefix or suffix leaves.
const ROOT: usize = 3;

const SUBJECTS: [&str; 12] = ["ni", "u", "a", "tu", "m", "wa", "ki", "vi", "li", "ya", "i", "zi"];
const TENSES: [&str; 7] = ["na", "li", "ta", "me", "nge", "ka", "sha"];
const OBJECTS: [&str; 12] = ["ni", "ku", "mw", "m", "tu", "wa", "ki", "vi", "li", "ya", "zi", "ji"];
/// Noun class prefixes, longest first; `m` and `u` only before a consonant,
/// `ch` and `vy` and `mw` only before a vowel (their forms there).
const NOUN_PREFIXES: [&str; 10] = ["ma", "mi", "wa", "ki", "vi", "ji", "mw", "ch", "vy", "m"];
/// Verb extensions and the agent noun's -aji, before the final vowel.
const EXTENSIONS: [&str; 13] =
    ["ishwa", "eshwa", "isha", "esha", "iwa", "ewa", "ika", "eka", "aji", "ana", "ia", "ea", "wa"];

fn vowel(c: u8) -> bool {
    matches!(c, b'a' | b'e' | b'i' | b'o' | b'u')
}

/// The stem of `word`, a lowercase ASCII word (as the index folds it);
/// the word itself when it is short, holds digits, or is not Swahili-shaped.
pub fn stem(word: &str) -> String {
    if word.len() < 4 || !word.bytes().all(|c| c.is_ascii_lowercase()) {
        return word.to_owned();
    }
    let mut rest = word;
    if let Some(after) = rest.strip_suffix("je").filter(|after| after.len() >= ROOT + 3) {
        rest = after;
    }
    rest = prefixes(rest);
    rest = suffixes(rest);
    rest.to_owned()
}

/// `word` without its verb prefixes (subject and tense, or ku-, then an
/// object), else its noun prefix.
fn prefixes(word: &str) -> &str {
    let root = |rest: &str| rest.len() > ROOT;
    for negation in ["", "ha", "si"] {
        let Some(after) = word.strip_prefix(negation) else { continue };
        // The negative past: ha-ku-lipa, "did not pay".
        if let Some(rest) = after.strip_prefix("ku").filter(|rest| !negation.is_empty() && root(rest)) {
            return object(rest);
        }
        for subject in SUBJECTS {
            let Some(after) = after.strip_prefix(subject) else { continue };
            for tense in TENSES {
                if let Some(rest) = after.strip_prefix(tense).filter(|rest| root(rest)) {
                    return object(rest);
                }
            }
        }
    }
    if let Some(rest) = word.strip_prefix("ku").filter(|rest| root(rest)) {
        return object(rest);
    }
    noun(word)
}

/// `rest` without an object prefix (the reflexive ji- too), when it leaves a root.
fn object(rest: &str) -> &str {
    OBJECTS.iter().filter_map(|object| rest.strip_prefix(object)).find(|after| after.len() > ROOT + 1).unwrap_or(rest)
}

/// `word` without one noun class prefix (two for ma- before wa-: mawakala).
fn noun(word: &str) -> &str {
    let strip = |word: &str| -> Option<usize> {
        for prefix in NOUN_PREFIXES {
            let Some(after) = word.strip_prefix(prefix) else { continue };
            let Some(&next) = after.as_bytes().first() else { continue };
            let fits = match prefix {
                "m" => !vowel(next) && next != b'w',
                "mw" | "ch" | "vy" => vowel(next),
                _ => true,
            };
            if fits && after.len() >= ROOT {
                return Some(prefix.len());
            }
        }
        if let Some(after) = word.strip_prefix('u')
            && after.len() >= ROOT
            && !vowel(after.as_bytes()[0])
        {
            return Some(1);
        }
        None
    };
    match strip(word) {
        Some(cut) => {
            let rest = &word[cut..];
            if word.starts_with("ma") && rest.starts_with("wa") {
                strip(rest).map_or(rest, |again| &rest[again..])
            } else {
                rest
            }
        }
        None => word,
    }
}

/// `word` without one extension and its final vowel.
fn suffixes(word: &str) -> &str {
    let bare = match word.as_bytes().last() {
        Some(&last) if vowel(last) && word.len() > ROOT => &word[..word.len() - 1],
        _ => word,
    };
    for extension in EXTENSIONS {
        // An extension is read with its final vowel: -isha is "ish" + "a".
        let extension = &extension[..extension.len() - 1];
        if let Some(root) = bare.strip_suffix(extension).filter(|root| root.len() >= ROOT) {
            return root;
        }
    }
    bare
}

#[cfg(test)]
mod tests {
    use super::stem;

    /// Groups of forms that share a stem: nouns in both numbers of their
    /// class, verbs in several tenses and persons, nouns made of verbs.
    const SAME: &[&[&str]] = &[
        // ki-/vi-
        &["kifurushi", "vifurushi"],
        &["kifaa", "vifaa"],
        &["kitabu", "vitabu"],
        // m-/wa-
        &["mteja", "wateja"],
        &["mkurugenzi", "wakurugenzi"],
        &["msambazaji", "wasambazaji"],
        &["wawekezaji", "uwekezaji", "kuwekeza", "wekeza"],
        &["mwezi", "miezi"],
        // m-/mi-
        &["mkopo", "mikopo", "kukopa", "nimekopa", "anakopa"],
        &["mlio", "milio"],
        // ji-/ma-
        &["duka", "maduka"],
        &["tapeli", "matapeli"],
        &["wakala", "mawakala"],
        &["tangazo", "matangazo", "kutangaza"],
        // verbs: tenses, persons, objects, extensions, -o nouns
        &["kulipa", "nimelipa", "tulilipa", "atalipa", "wanalipa", "malipo", "lipa", "kulipia", "hakulipa"],
        &["kusajili", "nitasajili", "usajili", "tumesajili", "kujisajili", "alisajili"],
        &["kutuma", "nimetuma", "tutatuma", "wametuma"],
        &["kuangalia", "nitaangaliaje", "angalia"],
        &["kusoma", "anasoma", "nilisoma"],
    ];

    /// Words that must stay apart.
    const APART: &[[&str; 2]] = &[["lipa", "lima"], ["duka", "daktari"], ["habari", "bari"], ["kopa", "kupa"]];

    #[test]
    fn the_forms_of_a_word_share_its_stem() {
        for group in SAME {
            let stems: Vec<String> = group.iter().map(|word| stem(word)).collect();
            assert!(stems.iter().all(|one| *one == stems[0]), "{group:?} → {stems:?}");
        }
    }

    #[test]
    fn different_words_keep_different_stems() {
        for [one, other] in APART {
            assert_ne!(stem(one), stem(other), "{one} and {other}");
        }
    }

    #[test]
    fn short_words_codes_and_names_are_left_alone() {
        for word in ["ya", "na", "kwa", "150", "4g", "m", "sms"] {
            assert_eq!(stem(word), word);
        }
    }
}
