//! The app's strings (`app/src/i18n/en.ts` and `sw.ts`, which the build
//! embeds as `strings.json`), for the one page the server words without
//! the app: the error page of a page that cannot be rendered
//! ([`crate::AppError::into_page`]). Everything else the server tells a
//! visitor it names by key (`contract::feedback`) and the app words it, in
//! the server's render and in the browser alike. And text escaped as the
//! app's renderer escapes it, for what the server puts into its pages.

use std::collections::{BTreeMap, HashMap};

use contract::Lang;
use serde::Deserialize;

use crate::AppError;

/// The strings the server words with: a build whose strings lack one of
/// them, in either language, stops the start.
pub const WORDED_BY_THE_SERVER: [&str; 7] = [
    "errorPage.failed.title",
    "errorPage.failed.text",
    "errorPage.unavailable.title",
    "errorPage.unavailable.text",
    "errorPage.busy.title",
    "errorPage.busy.text",
    "errorPage.home",
];

/// Each language's strings by key (`errorPage.home`).
pub struct Strings {
    en: HashMap<String, String>,
    sw: HashMap<String, String>,
}

/// The strings as the app nests them.
#[derive(Deserialize)]
#[serde(untagged)]
enum Tree {
    Text(String),
    Branch(BTreeMap<String, Tree>),
}

impl Strings {
    pub fn from_json(json: &str) -> Result<Strings, AppError> {
        #[derive(Deserialize)]
        struct ByLang {
            en: Tree,
            sw: Tree,
        }
        let by_lang: ByLang = serde_json::from_str(json).map_err(|e| AppError::Manifest(format!("strings.json: {e}")))?;
        let strings = Strings { en: flat(by_lang.en), sw: flat(by_lang.sw) };
        for lang in Lang::ALL {
            if let Some(key) = WORDED_BY_THE_SERVER.iter().find(|key| !strings.of(lang).contains_key(**key)) {
                return Err(AppError::Manifest(format!("strings.json: no {} string `{key}`", lang.code())));
            }
        }
        Ok(strings)
    }

    /// The text of `key` in `lang` (one of [`WORDED_BY_THE_SERVER`]).
    pub fn text<'a>(&'a self, lang: Lang, key: &'a str) -> &'a str {
        self.of(lang).get(key).map_or(key, String::as_str)
    }

    fn of(&self, lang: Lang) -> &HashMap<String, String> {
        match lang {
            Lang::En => &self.en,
            Lang::Sw => &self.sw,
        }
    }
}

/// Text as HTML, escaped as React's server renderer escapes it.
pub fn escape_text(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#x27;"),
            c => escaped.push(c),
        }
    }
    escaped
}

fn flat(tree: Tree) -> HashMap<String, String> {
    fn walk(tree: Tree, prefix: &str, into: &mut HashMap<String, String>) {
        match tree {
            Tree::Text(text) => {
                into.insert(prefix.to_owned(), text);
            }
            Tree::Branch(branch) => {
                for (key, tree) in branch {
                    let path = if prefix.is_empty() { key } else { format!("{prefix}.{key}") };
                    walk(tree, &path, into);
                }
            }
        }
    }
    let mut into = HashMap::new();
    walk(tree, "", &mut into);
    into
}

#[cfg(test)]
mod tests {
    use super::*;

    const STRINGS: &str = r#"{ "en": { "errorPage": { "failed": { "title": "An Error Has occurred", "text": "Please try again later." },
        "unavailable": { "title": "u", "text": "u" }, "busy": { "title": "b", "text": "b" }, "home": "Home page" }, "nav": { "home": "Home" } },
        "sw": { "errorPage": { "failed": { "title": "Kuna hitilafu imetokea", "text": "t" },
        "unavailable": { "title": "u", "text": "u" }, "busy": { "title": "b", "text": "b" }, "home": "Ukurasa wa mwanzo" } } }"#;

    #[test]
    fn strings_are_read_by_their_path() {
        let strings = Strings::from_json(STRINGS).unwrap();
        assert_eq!(strings.text(Lang::En, "errorPage.failed.title"), "An Error Has occurred");
        assert_eq!(strings.text(Lang::Sw, "errorPage.home"), "Ukurasa wa mwanzo");
        assert_eq!(strings.text(Lang::En, "nav.home"), "Home");
    }

    #[test]
    fn a_string_the_server_words_with_missing_stops_the_start() {
        let without = STRINGS.replace(r#""home": "Ukurasa wa mwanzo""#, r#""homepage": "Ukurasa wa mwanzo""#);
        let error = Strings::from_json(&without).err().unwrap().to_string();
        assert!(error.contains("no sw string `errorPage.home`"), "{error}");
    }
}
