//! The app's strings (`app/src/i18n/en.ts` and `sw.ts`, which the build
//! embeds as `strings.json`), for the one page the server words without
//! the app: the error page ([`error_page`]), of a page that cannot be
//! rendered (`PageError::into_page`, in `pages`) or of a request whose body
//! did not arrive in time (`body_deadline`). Everything else the server
//! tells a visitor it names by key (`contract::feedback`) and the app words
//! it, in the server's render and in the browser alike. And text escaped as
//! the app's renderer escapes it, for what the server puts into its pages.

use std::collections::{BTreeMap, HashMap};

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use contract::Lang;
use serde::Deserialize;

use crate::manifest::ManifestError;

/// What an error page says: which of the `errorPage` strings it reads.
/// A build whose strings lack one of them, in either language, stops the
/// start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorPage {
    /// Something failed: try again later.
    Failed,
    /// Shed, or what the page is made of is unavailable: try again in a moment.
    Unavailable,
    /// Too many requests from this client at once.
    Busy,
    /// What the visitor sent did not arrive whole in time: send it again.
    TimedOut,
}

impl ErrorPage {
    const ALL: [ErrorPage; 4] = [ErrorPage::Failed, ErrorPage::Unavailable, ErrorPage::Busy, ErrorPage::TimedOut];

    /// The keys of its title and its text.
    fn keys(self) -> [&'static str; 2] {
        match self {
            ErrorPage::Failed => ["errorPage.failed.title", "errorPage.failed.text"],
            ErrorPage::Unavailable => ["errorPage.unavailable.title", "errorPage.unavailable.text"],
            ErrorPage::Busy => ["errorPage.busy.title", "errorPage.busy.text"],
            ErrorPage::TimedOut => ["errorPage.timedOut.title", "errorPage.timedOut.text"],
        }
    }
}

/// The key of every error page's link to the home page.
const HOME_LINK: &str = "errorPage.home";

/// The error page `page` in `lang`, answered with `status`, worded in the
/// app's strings: plain HTML, no script, so that it shows whatever else is
/// broken, with a link to the home page (`home`, its path in the route
/// table).
pub fn error_page(strings: &Strings, lang: Lang, page: ErrorPage, status: StatusCode, home: &str) -> Response {
    let [title, text] = page.keys().map(|key| escape_text(strings.text(lang, key)));
    let home_link = escape_text(strings.text(lang, HOME_LINK));
    let html = format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\"><title>{title}</title></head>\
         <body style=\"font-family:system-ui,sans-serif;text-align:center;padding:3rem 1rem\">\
         <h1>{title}</h1><p>{text}</p><p><a href=\"{home_path}\">{home_link}</a></p></body></html>",
        lang = lang.code(),
        home_path = lang.href(home),
    );
    let mut response = (status, [(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

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
    pub fn from_json(json: &str) -> Result<Strings, ManifestError> {
        #[derive(Deserialize)]
        struct ByLang {
            en: Tree,
            sw: Tree,
        }
        let by_lang: ByLang = serde_json::from_str(json).map_err(|e| ManifestError(format!("strings.json: {e}")))?;
        let strings = Strings { en: flat(by_lang.en), sw: flat(by_lang.sw) };
        for lang in Lang::ALL {
            let mut worded = ErrorPage::ALL.into_iter().flat_map(ErrorPage::keys).chain([HOME_LINK]);
            if let Some(key) = worded.find(|key| !strings.of(lang).contains_key(*key)) {
                return Err(ManifestError(format!("strings.json: no {} string `{key}`", lang.code())));
            }
        }
        Ok(strings)
    }

    /// The text of `key` in `lang` (one an [`ErrorPage`] reads).
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
        "unavailable": { "title": "u", "text": "u" }, "busy": { "title": "b", "text": "b" },
        "timedOut": { "title": "t", "text": "t" }, "home": "Home page" }, "nav": { "home": "Home" } },
        "sw": { "errorPage": { "failed": { "title": "Kuna hitilafu imetokea", "text": "t" },
        "unavailable": { "title": "u", "text": "u" }, "busy": { "title": "b", "text": "b" },
        "timedOut": { "title": "t", "text": "t" }, "home": "Ukurasa wa mwanzo" } } }"#;

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
