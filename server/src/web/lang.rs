//! The visitor's language on an API call: the app's `x-site-lang` header,
//! else a form's `lang` field, else the language the visitor chose before
//! (the [`LANG_COOKIE`] that pages set), else English.

use axum::http::{HeaderMap, header};
use contract::Lang;

/// The cookie remembering the visitor's language: pages set it when a
/// visitor picks one (`?lang=`), the language switch writes it from the page.
pub const LANG_COOKIE: &str = "lang";

/// The header the app's scripts name the page's language in.
use contract::protocol::LANG_HEADER;

/// The language an API call is answered in; `field` is a form's `lang`.
pub fn visitor_lang(headers: &HeaderMap, field: Option<&str>) -> Lang {
    if let Some(lang) = headers.get(LANG_HEADER).and_then(|v| v.to_str().ok()).or(field) {
        return Lang::parse(lang);
    }
    remembered(headers).unwrap_or_default()
}

/// The language in the request's [`LANG_COOKIE`], if it has one.
pub(crate) fn remembered(headers: &HeaderMap) -> Option<Lang> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(cookie::Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|cookie| cookie.name() == LANG_COOKIE)
        .map(|cookie| Lang::parse(cookie.value()))
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(*name, HeaderValue::from_static(value));
        }
        headers
    }

    #[test]
    fn the_header_then_the_field_then_the_cookie() {
        let cookie = ("cookie", "a=1; lang=sw");
        assert_eq!(visitor_lang(&headers(&[(LANG_HEADER, "en"), cookie]), Some("sw")), Lang::En);
        assert_eq!(visitor_lang(&headers(&[cookie]), Some("en")), Lang::En);
        assert_eq!(visitor_lang(&headers(&[cookie]), None), Lang::Sw);
        assert_eq!(visitor_lang(&headers(&[("cookie", "a=1"), ("cookie", "lang=sw")]), None), Lang::Sw);
        assert_eq!(visitor_lang(&headers(&[("cookie", "xlang=sw; slang=sw")]), None), Lang::En);
        assert_eq!(visitor_lang(&headers(&[]), None), Lang::En);
    }
}
