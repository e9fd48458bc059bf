//! Readers for fields of JSON from outside (the CMS's entries, a post's
//! common fields) as people fill them in: a field of the wrong kind costs
//! that field, never the whole value (`#[serde(deserialize_with = …)]`).

use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// A text field; any other value is no text.
pub fn text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(deserializer)? {
        Value::String(text) => Some(text),
        _ => None,
    })
}

/// Degrees as a number, or as text that is one (a spreadsheet's import).
pub fn degrees<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    let value = Value::deserialize(deserializer)?;
    let degrees = value.as_f64().or_else(|| value.as_str()?.trim().parse().ok());
    degrees.filter(|d| d.is_finite()).ok_or_else(|| serde::de::Error::custom(format!("no degrees: {value}")))
}

/// A list of codes, or the codes in one text, separated by commas or
/// semicolons; what is not text is left out.
pub fn codes<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    Ok(match Value::deserialize(deserializer)? {
        Value::Array(codes) => codes.into_iter().filter_map(|code| code.as_str().map(str::to_owned)).collect(),
        Value::String(codes) => codes.split([',', ';']).map(str::to_owned).collect(),
        _ => Vec::new(),
    })
}
