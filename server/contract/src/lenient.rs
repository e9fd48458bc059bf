//! A reader for a text field of JSON a visitor sends (a post's common
//! fields, `web::posted`), as a browser or a script may fill it in: a field
//! of the wrong kind costs that field, never the whole value
//! (`#[serde(deserialize_with = …)]`). The CMS's content is read along its
//! type's schema instead ([`crate::repair`]); a post's common fields are a
//! few texts read before any form's own, with no schema of their own.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// A text field; any other value is no text.
pub fn text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(deserializer)? {
        Value::String(text) => Some(text),
        _ => None,
    })
}
