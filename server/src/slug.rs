//! `slugify`, the same rule as the app's `app/src/slug.ts`: lowercase,
//! diacritics dropped, every run of other characters one `-`, no `-` at the
//! ends. Used to recognise `/faq/<question>` and to make items' slugs fit
//! their addresses.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Whether `text` is a slug already: `a-z`, `0-9` and `-`, not empty.
pub fn is_slug(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

pub fn slugify(text: &str) -> String {
    let mut slug = String::with_capacity(text.len());
    let mut pending_dash = false;
    for c in text.nfkd().filter(|c| !is_combining_mark(*c)).flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            if pending_dash && !slug.is_empty() {
                slug.push('-');
            }
            pending_dash = false;
            slug.push(c);
        } else {
            pending_dash = true;
        }
    }
    slug
}

#[cfg(test)]
mod tests {
    use super::slugify;

    #[test]
    fn matches_the_apps_rule() {
        assert_eq!(slugify("How do I check my data balance?"), "how-do-i-check-my-data-balance");
        assert_eq!(slugify("Ninaangaliaje salio langu la data?"), "ninaangaliaje-salio-langu-la-data");
        assert_eq!(slugify("  M-Pesa: Ada & Makato  "), "m-pesa-ada-makato");
        assert_eq!(slugify("Café Zürich"), "cafe-zurich");
        assert_eq!(slugify("!!!"), "");
    }
}
