//! The fields every post may carry besides a form's own: the visitor's
//! language (`lang`), where a form goes back to (`returnTo`) and the
//! browser session's token (`csrf`). The first layer that reads a body
//! (the account area's [`super::form_post::layer`], or the same-origin
//! guard) reads them once and hands them on in the request's extensions;
//! a layer after it takes them from there rather than reading the body
//! again.

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Multipart, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use serde::Deserialize;

use super::{return_to, submitted};

/// What a post says of itself besides the form's fields; what cannot be
/// read is no field.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Posted {
    pub csrf: Option<String>,
    pub lang: Option<String>,
    #[serde(default, deserialize_with = "return_to::deserialize")]
    pub return_to: Option<String>,
}

impl Posted {
    /// The fields of `bytes`, the body of the request `parts` begins: as a
    /// layer before read them, else read now and kept for the layers after.
    pub async fn of(parts: &mut Parts, bytes: &Bytes) -> Posted {
        if let Some(posted) = parts.extensions.get::<Posted>() {
            return posted.clone();
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
    while let Ok(Some(field)) = multipart.next_field().await {
        let name = field.name().unwrap_or_default().to_owned();
        if !matches!(name.as_str(), "csrf" | "lang" | "returnTo") {
            continue;
        }
        let Ok(text) = field.text().await else { break };
        match name.as_str() {
            "csrf" => posted.csrf = Some(text),
            "lang" => posted.lang = Some(text),
            _ => posted.return_to = return_to::site_path(&text).map(str::to_owned),
        }
    }
    posted
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
        let form = Bytes::from_static(b"lang=sw&returnTo=%2Faccount&csrf=t&msisdn=0754000001");
        let json = Bytes::from_static(br#"{"lang":"sw","returnTo":"/account","csrf":"t","msisdn":"0754000001"}"#);
        let multipart = Bytes::from_static(
            b"--b\r\nContent-Disposition: form-data; name=\"lang\"\r\n\r\nsw\r\n\
              --b\r\nContent-Disposition: form-data; name=\"returnTo\"\r\n\r\n/account\r\n\
              --b\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\nt\r\n--b--\r\n",
        );
        for (content_type, body) in [
            ("application/x-www-form-urlencoded", form),
            ("application/json", json),
            ("multipart/form-data; boundary=b", multipart),
        ] {
            let posted = Posted::of(&mut parts(content_type), &body).await;
            assert_eq!(posted.lang.as_deref(), Some("sw"), "{content_type}");
            assert_eq!(posted.return_to.as_deref(), Some("/account"), "{content_type}");
            assert_eq!(posted.csrf.as_deref(), Some("t"), "{content_type}");
        }
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
