//! A form as it arrives: JSON from the page's script, an HTML form post
//! (urlencoded, or multipart with a file) without JavaScript, or multipart
//! from the script (the JSON in an `application` part beside the file).
//! Flat input names (`applicants[1].email`, `services` repeated) become the
//! same JSON the script sends (`nest`), so one parser reads all three.

use std::collections::BTreeMap;

use axum::extract::{FromRequest, Multipart, Request};
use axum::http::{HeaderMap, StatusCode, header};
use contract::Lang;
use serde_json::Value;

use super::error::{FormError, RefusedSubmission};
use super::foundation::{MAX_PROPOSAL_BYTES, Upload};
use super::nest::nest;
use crate::web::posted::{self, Posted, SCRIPT_PART};
use crate::web::submitted::wants_json;
use crate::web::{body_limit, visitor_lang};

/// A JSON or urlencoded form is a few kilobytes; a foundation application
/// with long texts and fifty budget lines stays well below this.
pub const TEXT_LIMIT: usize = 128 * 1024;
/// A multipart post: the texts and a proposal of at most 5 MB.
pub const UPLOAD_LIMIT: usize = MAX_PROPOSAL_BYTES + TEXT_LIMIT;
/// An `Idempotency-Key` longer than this is no key a page made.
const MAX_KEY: usize = 200;

/// A submitted form, not yet checked. Its common fields (`lang`, the
/// honeypot) are the [`Posted`] the same-origin guard read, where it read
/// the body; else they are read here from the form's JSON shape.
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

fn idempotency_key(headers: &HeaderMap) -> Option<String> {
    let key = headers.get(contract::protocol::IDEMPOTENCY_HEADER)?.to_str().ok()?.trim();
    (!key.is_empty() && key.len() <= MAX_KEY && key.bytes().all(|b| b.is_ascii_graphic())).then(|| key.to_owned())
}

impl<S: Send + Sync> FromRequest<S> for Sent {
    type Rejection = RefusedSubmission;

    async fn from_request(request: Request, state: &S) -> Result<Sent, Self::Rejection> {
        let headers = request.headers().clone();
        let handed_on = Posted::handed_on(request.extensions());
        let kind = content_type(&headers).to_ascii_lowercase();
        let unreadable = |script: bool, status: StatusCode| RefusedSubmission {
            lang: visitor_lang(&headers, None),
            script,
            values: BTreeMap::new(),
            error: FormError::Unreadable(status),
        };
        let (pairs, json, upload, script) = if kind.starts_with("application/json") {
            let bytes =
                body_limit::read(request.into_body(), TEXT_LIMIT).await.map_err(|status| unreadable(true, status))?;
            let json: Value = serde_json::from_slice(&bytes).map_err(|_| unreadable(true, StatusCode::BAD_REQUEST))?;
            (Vec::new(), Some(json), None, true)
        } else if kind.starts_with("application/x-www-form-urlencoded") {
            let script = wants_json(&headers);
            let bytes =
                body_limit::read(request.into_body(), TEXT_LIMIT).await.map_err(|status| unreadable(script, status))?;
            let pairs: Vec<(String, String)> =
                serde_urlencoded::from_bytes(&bytes).map_err(|_| unreadable(script, StatusCode::BAD_REQUEST))?;
            (pairs, None, None, script)
        } else if kind.starts_with("multipart/form-data") {
            let script = wants_json(&headers);
            let multipart =
                Multipart::from_request(request, state).await.map_err(|e| unreadable(script, e.status()))?;
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
        let posted = handed_on.unwrap_or_else(|| Posted::of_value(&value));
        let lang = visitor_lang(&headers, posted.lang.as_deref());
        let bot = posted.bot();
        let mut typed: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (name, text) in pairs.into_iter().filter(|(name, _)| !posted::FIELDS.contains(&name.as_str())) {
            typed.entry(name).or_default().push(text);
        }
        Ok(Sent { lang, script, idempotency_key: idempotency_key(&headers), value, typed, upload, bot })
    }
}

/// The text fields, the script's `application` JSON part, and the
/// `proposal` file (at most 5 MB kept; beyond that it is marked too large).
async fn read_multipart(
    mut multipart: Multipart,
) -> Result<(Vec<(String, String)>, Option<Value>, Option<Upload>), StatusCode> {
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
        } else if name == SCRIPT_PART {
            let text = field.text().await.map_err(failed)?;
            json = Some(serde_json::from_str(&text).map_err(|_| StatusCode::BAD_REQUEST)?);
        } else {
            pairs.push((name, field.text().await.map_err(failed)?));
        }
    }
    Ok((pairs, json, upload))
}

#[cfg(test)]
mod tests {
    use axum::body::Body;

    use super::*;

    fn form(body: &'static str, handed_on: Option<Posted>) -> Request {
        let mut request = Request::builder()
            .method("POST")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(body))
            .unwrap();
        if let Some(posted) = handed_on {
            request.extensions_mut().insert(posted);
        }
        request
    }

    #[tokio::test]
    async fn the_common_fields_are_those_a_layer_before_read_else_the_bodys() {
        let handed_on = Posted { lang: Some("sw".into()), honeypot: Some("x".into()), ..Posted::default() };
        let Ok(sent) = Sent::from_request(form("name=Amina&lang=en", Some(handed_on)), &()).await else { panic!() };
        assert_eq!((sent.lang, sent.bot), (Lang::Sw, true), "the guard's reading, not a second one");
        assert_eq!(sent.typed.keys().collect::<Vec<_>>(), ["name"]);
        let Ok(sent) = Sent::from_request(form("name=Amina&lang=sw&leaveEmpty=x", None), &()).await else { panic!() };
        assert_eq!((sent.lang, sent.bot), (Lang::Sw, true), "read from the body where no layer read it");
        let Ok(sent) = Sent::from_request(form("name=Amina&leaveEmpty=+", None), &()).await else { panic!() };
        assert!(!sent.bot, "a person leaves it empty");
    }
}
