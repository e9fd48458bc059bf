//! The fields every post may carry besides a form's own: the visitor's
//! language (`lang`), where a form goes back to (`returnTo`), the
//! browser session's token (`csrf`) and the field a person leaves empty
//! (`leaveEmpty`). The first layer that reads a body (the account area's
//! [`super::form_post::layer`], or the same-origin guard) reads them once
//! and hands them on in the request's extensions; a layer or handler after
//! it takes them from there rather than reading the body again.

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Multipart, Request};
use axum::http::Extensions;
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use contract::protocol::{CSRF_FIELD, HONEYPOT_FIELD};
use serde::Deserialize;
use serde_json::Value;

use super::{return_to, submitted};

pub use contract::protocol::SCRIPT_PART;

/// The names of [`Posted`]'s fields, as a post carries them.
pub const FIELDS: [&str; 4] = [CSRF_FIELD, "lang", "returnTo", HONEYPOT_FIELD];

/// What a post says of itself besides the form's fields; what cannot be
/// read is no field, and costs only that field.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Posted {
    #[serde(default, deserialize_with = "contract::lenient::text")]
    pub csrf: Option<String>,
    #[serde(default, deserialize_with = "contract::lenient::text")]
    pub lang: Option<String>,
    #[serde(default, deserialize_with = "return_to::deserialize")]
    pub return_to: Option<String>,
    /// What was typed into the hidden field a person leaves empty
    /// ([`HONEYPOT_FIELD`]).
    #[serde(default, rename = "leaveEmpty", deserialize_with = "contract::lenient::text")]
    pub honeypot: Option<String>,
}

impl Posted {
    /// Whether a bot sent it: the field a person leaves empty was filled in.
    pub fn bot(&self) -> bool {
        self.honeypot.as_deref().is_some_and(|text| !text.trim().is_empty())
    }

    /// The fields a layer before read, if one did.
    pub fn handed_on(extensions: &Extensions) -> Option<Posted> {
        extensions.get::<Posted>().cloned()
    }

    /// The fields of a body already read into its JSON shape (a form's
    /// fields nested as the script sends them), where no layer read them.
    pub fn of_value(value: &Value) -> Posted {
        Posted::deserialize(value).unwrap_or_default()
    }

    /// The fields of `bytes`, the body of the request `parts` begins: as a
    /// layer before read them, else read now and kept for the layers after.
    pub async fn of(parts: &mut Parts, bytes: &Bytes) -> Posted {
        if let Some(posted) = Posted::handed_on(&parts.extensions) {
            return posted;
        }
        let posted = read(&parts.headers, bytes).await;
        parts.extensions.insert(posted.clone());
        posted
    }
}

/// A body an HTML form posted with a file.
pub fn is_multipart(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("multipart/form-data"))
}

/// Urlencoded, multipart or JSON, by the body's type.
async fn read(headers: &HeaderMap, bytes: &Bytes) -> Posted {
    if bytes.is_empty() {
        return Posted::default();
    }
    if submitted::is_form(headers) {
        return serde_urlencoded::from_bytes(bytes).unwrap_or_default();
    }
    if !is_multipart(headers) {
        return serde_json::from_slice(bytes).unwrap_or_default();
    }
    let mut request = Request::new(Body::from(bytes.clone()));
    *request.headers_mut() = headers.clone();
    let Ok(mut multipart) = Multipart::from_request(request, &()).await else { return Posted::default() };
    let mut posted = Posted::default();
    let mut script = Posted::default();
    while let Ok(Some(field)) = multipart.next_field().await {
        let name = field.name().unwrap_or_default().to_owned();
        if !FIELDS.contains(&name.as_str()) && name != SCRIPT_PART {
            continue;
        }
        let Ok(text) = field.text().await else { break };
        match name.as_str() {
            CSRF_FIELD => posted.csrf = Some(text),
            "lang" => posted.lang = Some(text),
            "returnTo" => posted.return_to = return_to::site_path(&text).map(str::to_owned),
            HONEYPOT_FIELD => posted.honeypot = Some(text),
            _ => script = serde_json::from_str(&text).unwrap_or_default(),
        }
    }
    // A script's fields are its JSON part's; a form's are fields of their own.
    Posted {
        csrf: posted.csrf.or(script.csrf),
        lang: posted.lang.or(script.lang),
        return_to: posted.return_to.or(script.return_to),
        honeypot: posted.honeypot.or(script.honeypot),
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn parts(content_type: &str) -> Parts {
        let mut request = Request::new(());
        request.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_str(content_type).unwrap());
        request.into_parts().0
    }

    #[tokio::test]
    async fn each_kind_of_body_gives_the_same_fields() {
        let form = Bytes::from_static(b"lang=sw&returnTo=%2Faccount&csrf=t&leaveEmpty=x&msisdn=0754000001");
        let json = Bytes::from_static(
            br#"{"lang":"sw","returnTo":"/account","csrf":"t","leaveEmpty":"x","msisdn":"0754000001"}"#,
        );
        let multipart = Bytes::from_static(
            b"--b\r\nContent-Disposition: form-data; name=\"lang\"\r\n\r\nsw\r\n\
              --b\r\nContent-Disposition: form-data; name=\"returnTo\"\r\n\r\n/account\r\n\
              --b\r\nContent-Disposition: form-data; name=\"leaveEmpty\"\r\n\r\nx\r\n\
              --b\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\nt\r\n--b--\r\n",
        );
        let script = Bytes::from_static(
            b"--b\r\nContent-Disposition: form-data; name=\"application\"\r\n\r\n\
              {\"lang\":\"sw\",\"returnTo\":\"/account\",\"csrf\":\"t\",\"leaveEmpty\":\"x\"}\r\n\
              --b\r\nContent-Disposition: form-data; name=\"proposal\"; filename=\"p.pdf\"\r\n\r\n%PDF\r\n--b--\r\n",
        );
        for (content_type, body) in [
            ("application/x-www-form-urlencoded", form),
            ("application/json", json),
            ("multipart/form-data; boundary=b", multipart),
            ("multipart/form-data; boundary=b", script),
        ] {
            let posted = Posted::of(&mut parts(content_type), &body).await;
            assert_eq!(posted.lang.as_deref(), Some("sw"), "{content_type}");
            assert_eq!(posted.return_to.as_deref(), Some("/account"), "{content_type}");
            assert_eq!(posted.csrf.as_deref(), Some("t"), "{content_type}");
            assert!(posted.bot(), "{content_type}");
        }
    }

    #[test]
    fn the_honeypot_filled_in_is_a_bot_and_a_field_that_is_no_text_is_no_field() {
        let person = Posted::of_value(&serde_json::json!({ HONEYPOT_FIELD: "  ", "lang": "sw" }));
        assert!(!person.bot());
        let bot = Posted::of_value(&serde_json::json!({ HONEYPOT_FIELD: "http://spam.example", "lang": 5 }));
        assert!(bot.bot(), "a field that cannot be read costs only that field");
        assert_eq!(bot.lang, None);
    }

    #[tokio::test]
    async fn a_body_is_read_once_and_its_fields_handed_on() {
        let mut parts = parts("application/x-www-form-urlencoded");
        let first = Posted::of(&mut parts, &Bytes::from_static(b"lang=sw&returnTo=//evil.example")).await;
        assert_eq!(first.lang.as_deref(), Some("sw"));
        assert_eq!(first.return_to, None, "no path of this site");
        let again = Posted::of(&mut parts, &Bytes::from_static(b"lang=en")).await;
        assert_eq!(again.lang.as_deref(), Some("sw"), "taken from the extensions, not read again");
    }
}
