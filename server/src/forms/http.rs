//! A form as it arrives: JSON from the page's script, an HTML form post
//! (urlencoded, or multipart with a file) without JavaScript, or multipart
//! from the script (the JSON in an `application` part beside the file).
//! Flat input names (`applicants[1].email`, `services` repeated) become the
//! same JSON the script sends, so one parser reads all three.

use std::collections::BTreeMap;

use axum::extract::{FromRequest, Multipart, Request};
use axum::http::{HeaderMap, StatusCode, header};
use contract::Lang;
use serde_json::{Map, Value};

use super::error::{FormError, Refusal};
use super::foundation::{MAX_PROPOSAL_BYTES, Upload};
use crate::web::{body_limit, visitor_lang};

/// A JSON or urlencoded form is a few kilobytes; a foundation application
/// with long texts and fifty budget lines stays well below this.
pub const TEXT_LIMIT: usize = 128 * 1024;
/// A multipart post: the texts and a proposal of at most 5 MB.
pub const UPLOAD_LIMIT: usize = MAX_PROPOSAL_BYTES + TEXT_LIMIT;
/// The hidden field a person leaves empty and a bot fills in.
pub const HONEYPOT: &str = "leaveEmpty";
/// Fields every post may carry besides the form's own.
const COMMON: [&str; 3] = ["lang", "returnTo", HONEYPOT];
/// The highest row a flat input name may address (`budget[63].item`).
const MAX_ROW: usize = 64;
/// An `Idempotency-Key` longer than this is no key a page made.
const MAX_KEY: usize = 200;

/// A submitted form, not yet checked.
pub struct Sent {
    pub lang: Lang,
    /// Answer with JSON (the page's script), not with a page.
    pub script: bool,
    pub idempotency_key: Option<String>,
    /// The form's fields as the JSON shape the parsers read.
    pub value: Value,
    /// What a form without JavaScript typed, to send the page back filled in.
    pub typed: BTreeMap<String, Vec<String>>,
    pub upload: Option<Upload>,
    /// The honeypot was filled in.
    pub bot: bool,
}

fn content_type(headers: &HeaderMap) -> &str {
    headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("")
}

/// A script says it wants JSON back; a browser's own form post does not.
fn wants_json(headers: &HeaderMap) -> bool {
    headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|accept| accept.contains("application/json"))
}

fn idempotency_key(headers: &HeaderMap) -> Option<String> {
    let key = headers.get("idempotency-key")?.to_str().ok()?.trim();
    (!key.is_empty() && key.len() <= MAX_KEY && key.bytes().all(|b| b.is_ascii_graphic())).then(|| key.to_owned())
}

impl<S: Send + Sync> FromRequest<S> for Sent {
    type Rejection = Refusal;

    async fn from_request(request: Request, state: &S) -> Result<Sent, Self::Rejection> {
        let headers = request.headers().clone();
        let kind = content_type(&headers).to_ascii_lowercase();
        let unreadable = |script: bool, status: StatusCode| Refusal {
            lang: visitor_lang(&headers, None),
            script,
            values: BTreeMap::new(),
            error: FormError::Unreadable(status),
        };
        let (pairs, json, upload, script) = if kind.starts_with("application/json") {
            let bytes = body_limit::read(request.into_body(), TEXT_LIMIT).await.map_err(|status| unreadable(true, status))?;
            let json: Value = serde_json::from_slice(&bytes).map_err(|_| unreadable(true, StatusCode::BAD_REQUEST))?;
            (Vec::new(), Some(json), None, true)
        } else if kind.starts_with("application/x-www-form-urlencoded") {
            let script = wants_json(&headers);
            let bytes = body_limit::read(request.into_body(), TEXT_LIMIT).await.map_err(|status| unreadable(script, status))?;
            let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(&bytes).map_err(|_| unreadable(script, StatusCode::BAD_REQUEST))?;
            (pairs, None, None, script)
        } else if kind.starts_with("multipart/form-data") {
            let script = wants_json(&headers);
            let multipart = Multipart::from_request(request, state).await.map_err(|e| unreadable(script, e.status()))?;
            let (pairs, json, upload) = read_multipart(multipart).await.map_err(|status| unreadable(script, status))?;
            (pairs, json, upload, script)
        } else {
            return Err(unreadable(wants_json(&headers), StatusCode::UNSUPPORTED_MEDIA_TYPE));
        };
        let script = script || json.is_some();
        let value = match json {
            Some(Value::Object(object)) => Value::Object(object),
            Some(_) => return Err(unreadable(script, StatusCode::BAD_REQUEST)),
            None => nest(&pairs),
        };
        let field = |name: &str| value.get(name).and_then(Value::as_str).map(str::to_owned);
        let lang = visitor_lang(&headers, field("lang").as_deref());
        let bot = field(HONEYPOT).is_some_and(|text| !text.trim().is_empty());
        let mut typed: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (name, text) in pairs.into_iter().filter(|(name, _)| !COMMON.contains(&name.as_str())) {
            typed.entry(name).or_default().push(text);
        }
        Ok(Sent { lang, script, idempotency_key: idempotency_key(&headers), value, typed, upload, bot })
    }
}

/// The text fields, the script's `application` JSON part, and the
/// `proposal` file (at most 5 MB kept; beyond that it is marked too large).
async fn read_multipart(mut multipart: Multipart) -> Result<(Vec<(String, String)>, Option<Value>, Option<Upload>), StatusCode> {
    let (mut pairs, mut json, mut upload) = (Vec::new(), None, None);
    let failed = |error: axum::extract::multipart::MultipartError| error.status();
    while let Some(mut field) = multipart.next_field().await.map_err(failed)? {
        let name = field.name().unwrap_or_default().to_owned();
        if name == "proposal" {
            let file_name = field.file_name().map(str::to_owned);
            let (mut bytes, mut too_large) = (Vec::new(), false);
            while let Some(chunk) = field.chunk().await.map_err(failed)? {
                if bytes.len() + chunk.len() > MAX_PROPOSAL_BYTES {
                    too_large = true;
                } else {
                    bytes.extend_from_slice(&chunk);
                }
            }
            // A file input left empty still sends a part, with no name and no bytes.
            if !bytes.is_empty() || too_large {
                upload = Some(Upload { file_name, bytes, too_large });
            }
        } else if name == "application" {
            let text = field.text().await.map_err(failed)?;
            json = Some(serde_json::from_str(&text).map_err(|_| StatusCode::BAD_REQUEST)?);
        } else {
            pairs.push((name, field.text().await.map_err(failed)?));
        }
    }
    Ok((pairs, json, upload))
}

/// One step of an input name: a field, or a row of a list.
enum Step<'a> {
    Field(&'a str),
    Row(usize),
}

/// `applicants[1].email` as its steps; `None` for a name that is not one.
fn steps(name: &str) -> Option<Vec<Step<'_>>> {
    let mut steps = Vec::new();
    let mut rest = name;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('[') {
            let end = after.find(']')?;
            let row: usize = after[..end].parse().ok().filter(|row| *row < MAX_ROW)?;
            steps.push(Step::Row(row));
            rest = after[end + 1..].strip_prefix('.').unwrap_or(&after[end + 1..]);
        } else {
            let end = rest.find(['.', '[']).unwrap_or(rest.len());
            if end == 0 {
                return None;
            }
            steps.push(Step::Field(&rest[..end]));
            rest = rest[end..].strip_prefix('.').unwrap_or(&rest[end..]);
        }
    }
    matches!(steps.first(), Some(Step::Field(_))).then_some(steps)
}

/// Flat pairs as nested JSON: `a[0].b=x` is `{"a": [{"b": "x"}]}`, and a
/// name sent more than once (checkboxes) is a list of its values.
pub fn nest(pairs: &[(String, String)]) -> Value {
    let mut root = Value::Object(Map::new());
    for (name, text) in pairs {
        let Some(steps) = steps(name) else { continue };
        let mut slot = &mut root;
        for step in &steps {
            slot = match step {
                Step::Field(field) => {
                    if !slot.is_object() {
                        *slot = Value::Object(Map::new());
                    }
                    slot.as_object_mut().expect("object").entry(*field).or_insert(Value::Null)
                }
                Step::Row(row) => {
                    if !slot.is_array() {
                        *slot = Value::Array(Vec::new());
                    }
                    let rows = slot.as_array_mut().expect("array");
                    if rows.len() <= *row {
                        rows.resize(*row + 1, Value::Null);
                    }
                    &mut rows[*row]
                }
            };
        }
        *slot = match slot.take() {
            Value::Null => Value::String(text.clone()),
            Value::Array(mut values) => {
                values.push(Value::String(text.clone()));
                Value::Array(values)
            }
            earlier => Value::Array(vec![earlier, Value::String(text.clone())]),
        };
    }
    root
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn flat_names_nest_into_the_scripts_shape() {
        let value = nest(&pairs(&[
            ("name", "Amina"),
            ("services", "iot"),
            ("services", "hosting"),
            ("applicants[1].email", "b@example.org"),
            ("applicants[0].email", "a@example.org"),
            ("organisation.type", "ngo"),
            ("budget[0].amountTzs", "5"),
        ]));
        assert_eq!(
            value,
            json!({
                "name": "Amina",
                "services": ["iot", "hosting"],
                "applicants": [{ "email": "a@example.org" }, { "email": "b@example.org" }],
                "organisation": { "type": "ngo" },
                "budget": [{ "amountTzs": "5" }]
            })
        );
    }

    #[test]
    fn names_that_are_no_path_are_left_out() {
        let value = nest(&pairs(&[("budget[99999999].item", "x"), ("[0]", "y"), ("a[b].c", "z"), ("ok", "1")]));
        assert_eq!(value, json!({ "ok": "1" }));
    }
}
