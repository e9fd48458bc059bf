//! The default content embedded in the binary from `content/` (see
//! `content/README.md`): single types as `<lang>/<key>.json`, collections as
//! `<lang>/collections/<name>.json`, or `collections/<name>.json` for one the
//! same in every language (the locations), all in the Strapi v4 answer shape so the
//! same normalisation serves them and the CMS. Queries are answered the way
//! Strapi would: lists newest first and paged, items by id, popups by type.

use std::collections::HashMap;

use async_trait::async_trait;
use contract::Lang;
use serde_json::Value;

use super::{ContentError, ContentQuery, ContentSource, Normalizer};

pub struct EmbeddedContent {
    singles: HashMap<(Lang, String), Value>,
    collections: HashMap<(Lang, String), Vec<Value>>,
}

impl EmbeddedContent {
    /// Parses and normalises every file once, at start-up; a malformed file
    /// is a start-up error, not a visitor's.
    pub fn new(files: &[(&str, &[u8])], normalizer: &Normalizer) -> Result<EmbeddedContent, ContentError> {
        let mut singles = HashMap::new();
        let mut collections = HashMap::new();
        for (path, bytes) in files {
            let Some(name) = path.strip_suffix(".json") else { continue };
            let (lang, rest) = match name.split_once('/') {
                Some(("en", rest)) => (Lang::En, rest),
                Some(("sw", rest)) => (Lang::Sw, rest),
                // Not localized: kept once, under the default language, as the cache asks for it.
                Some(("collections", _)) => (Lang::default(), name),
                _ => continue,
            };
            let answer: Value =
                serde_json::from_slice(bytes).map_err(|e| ContentError::Malformed(format!("content/{path}: {e}")))?;
            let value = normalizer.normalize(answer);
            match rest.strip_prefix("collections/") {
                Some(collection) => {
                    let Value::Array(mut items) = value else {
                        return Err(ContentError::Malformed(format!("content/{path}: a collection must be a list")));
                    };
                    items.sort_by(|a, b| publish_date(b).cmp(publish_date(a)));
                    collections.insert((lang, collection.to_owned()), items);
                }
                None => {
                    singles.insert((lang, rest.to_owned()), value);
                }
            }
        }
        Ok(EmbeddedContent { singles, collections })
    }

    fn collection(&self, name: &str, lang: Lang) -> &[Value] {
        self.collections.get(&(lang, name.to_owned())).map_or(&[], Vec::as_slice)
    }
}

/// Strapi's `$eq` on a text or number field, given the value as text.
fn field_equals(item: &Value, field: &str, value: &str) -> bool {
    match item.get(field) {
        Some(Value::String(text)) => text == value,
        Some(Value::Number(number)) => number.to_string() == value,
        _ => false,
    }
}

fn publish_date(item: &Value) -> &str {
    item.get("publishDate").and_then(Value::as_str).unwrap_or("")
}

#[async_trait]
impl ContentSource for EmbeddedContent {
    async fn fetch(&self, query: &ContentQuery, lang: Lang) -> Result<Option<Value>, ContentError> {
        let lang = if query.localized() { lang } else { Lang::default() };
        Ok(match query {
            ContentQuery::Single(key) => self.singles.get(&(lang, key.clone())).cloned(),
            ContentQuery::List { collection, page_size, filter, page } => Some(Value::Array(
                self.collection(collection.api_name(), lang)
                    .iter()
                    .filter(|item| filter.as_ref().is_none_or(|(field, value)| field_equals(item, field, value)))
                    .skip(page.saturating_sub(1) as usize * *page_size as usize)
                    .take(*page_size as usize)
                    .cloned()
                    .collect(),
            )),
            ContentQuery::Item { collection, id } => self
                .collection(collection.api_name(), lang)
                .iter()
                .find(|item| item.get("id").and_then(Value::as_u64) == Some(u64::from(*id)))
                .cloned(),
            ContentQuery::All(collection) | ContentQuery::Index(collection) => {
                Some(Value::Array(self.collection(collection.api_name(), lang).to_vec()))
            }
            ContentQuery::Locations => Some(Value::Array(self.collection(contract::cms::LOCATIONS, lang).to_vec())),
            // None held: the search's own list (`search/synonyms.txt`) is the default.
            ContentQuery::Synonyms => Some(Value::Array(self.collection(contract::cms::SYNONYMS, lang).to_vec())),
            ContentQuery::Popups(kind) => {
                let mut popups: Vec<Value> = self
                    .collection(contract::cms::POPUPS, lang)
                    .iter()
                    .filter(|p| p.get("type").and_then(Value::as_str) == Some(kind.as_str()))
                    .cloned()
                    .collect();
                popups.sort_by_key(|p| std::cmp::Reverse(p.get("id").and_then(Value::as_u64)));
                Some(Value::Array(popups))
            }
        })
    }
}
