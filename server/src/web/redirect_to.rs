//! Every `Location` the site writes. A redirect to one of its own pages
//! is built from a path that may carry what a visitor typed (the address
//! itself, `returnTo`, a query), so it is normalised here, once, into a
//! path no browser can read as another host: backslashes are slashes, dot
//! segments are resolved, empty segments (`//`) and encoded slashes at the
//! start (`/%2F`) are dropped, and anything that is not visible ASCII is
//! percent-encoded. `//evil.example/`, `/\evil.example`, `/.//evil.example`
//! and `/%2F/evil.example` all become `/evil.example…`, an address of this
//! site. Redirects to other sites come only from the route table
//! ([`RedirectTo::external`]).

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};

/// Bytes a `Location` header must not carry as they are.
const UNSAFE: &AsciiSet =
    &CONTROLS.add(b' ').add(b'"').add(b'<').add(b'>').add(b'`').add(b'{').add(b'}').add(b'|').add(b'^').add(b'\\');

/// Where a redirect sends the browser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedirectTo(String);

impl RedirectTo {
    /// A path of this site, with its query: normalised as the module says.
    pub fn site(target: &str) -> RedirectTo {
        let target = target.split('#').next().unwrap_or_default();
        let (path, query) = match target.split_once('?') {
            Some((path, query)) => (path, Some(query)),
            None => (target, None),
        };
        let mut location = normalise_path(path);
        if let Some(query) = query.filter(|query| !query.is_empty()) {
            location.push('?');
            location.extend(utf8_percent_encode(query, UNSAFE));
        }
        RedirectTo(location)
    }

    /// An address of another site, named by the route table (never by a
    /// visitor). Anything but an absolute `http(s)` URL becomes a site path.
    pub fn external(url: &str) -> RedirectTo {
        let absolute =
            (url.starts_with("https://") || url.starts_with("http://")) && HeaderValue::from_str(url).is_ok();
        if absolute { RedirectTo(url.to_owned()) } else { RedirectTo::site(url) }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn header(&self) -> HeaderValue {
        HeaderValue::from_str(&self.0).unwrap_or_else(|_| HeaderValue::from_static("/"))
    }

    /// `303 See Other` here.
    pub fn see_other(&self) -> Response {
        self.answer(StatusCode::SEE_OTHER)
    }

    /// `308 Permanent Redirect` here.
    pub fn permanent(&self) -> Response {
        self.answer(StatusCode::PERMANENT_REDIRECT)
    }

    fn answer(&self, status: StatusCode) -> Response {
        (status, [(header::LOCATION, self.header())]).into_response()
    }
}

/// `path` as a path that starts with one `/` followed by neither `/` nor
/// `\`, plainly or encoded.
fn normalise_path(path: &str) -> String {
    let unified = path.replace('\\', "/");
    let mut segments: Vec<&str> = Vec::new();
    for segment in unified.split('/') {
        match dot_segment(segment) {
            Some(Dots::One) => {}
            Some(Dots::Two) => {
                segments.pop();
            }
            None if segment.is_empty() => {}
            None => segments.push(segment),
        }
    }
    let trailing = unified.ends_with('/') || matches!(unified.rsplit('/').next().map(dot_segment), Some(Some(_)));
    let mut joined = segments.join("/");
    while let Some(rest) = strip_encoded_slash(&joined) {
        joined = rest.trim_start_matches('/').to_owned();
    }
    let mut normalised = format!("/{}", utf8_percent_encode(&joined, UNSAFE));
    if trailing && normalised.len() > 1 {
        normalised.push('/');
    }
    normalised
}

enum Dots {
    One,
    Two,
}

/// `.` and `..`, plainly or percent-encoded.
fn dot_segment(segment: &str) -> Option<Dots> {
    match segment.to_ascii_lowercase().replace("%2e", ".").as_str() {
        "." => Some(Dots::One),
        ".." => Some(Dots::Two),
        _ => None,
    }
}

/// What follows an encoded `/` or `\` at the start, if there is one.
fn strip_encoded_slash(path: &str) -> Option<&str> {
    let head = path.get(..3)?;
    (head.eq_ignore_ascii_case("%2f") || head.eq_ignore_ascii_case("%5c")).then(|| &path[3..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_browsers_could_read_as_another_host_stay_on_this_site() {
        let cases = [
            ("//evil.example", "/evil.example"),
            ("//evil.example/", "/evil.example/"),
            ("///evil.example", "/evil.example"),
            ("/\\evil.example", "/evil.example"),
            ("\\\\evil.example", "/evil.example"),
            ("/.//evil.example/", "/evil.example/"),
            ("/..//evil.example/", "/evil.example/"),
            ("/%2e%2e//evil.example", "/evil.example"),
            ("/%2F/evil.example", "/evil.example"),
            ("/%2f%5C/evil.example", "/evil.example"),
            ("/%5c%5cevil.example", "/evil.example"),
            ("https://evil.example/x", "/https:/evil.example/x"),
            ("", "/"),
            ("evil.example", "/evil.example"),
        ];
        for (input, expected) in cases {
            let location = RedirectTo::site(input);
            assert_eq!(location.as_str(), expected, "{input:?}");
            assert!(!location.as_str()[1..].starts_with(['/', '\\']), "{input:?}");
        }
    }

    #[test]
    fn the_sites_own_paths_and_queries_are_kept() {
        let cases = [
            ("/", "/"),
            ("/sw", "/sw"),
            ("/news-event/12/a-story", "/news-event/12/a-story"),
            ("/account?step=code&msisdn=0754+000+001", "/account?step=code&msisdn=0754+000+001"),
            ("/a/b/../c", "/a/c"),
            ("/search?q=//evil", "/search?q=//evil"),
            ("/a%2Fb", "/a%2Fb"),
            ("/x#frag", "/x"),
        ];
        for (input, expected) in cases {
            assert_eq!(RedirectTo::site(input).as_str(), expected, "{input:?}");
        }
    }

    #[test]
    fn what_a_header_cannot_carry_is_encoded() {
        assert_eq!(RedirectTo::site("/a\r\nSet-Cookie: x").as_str(), "/a%0D%0ASet-Cookie:%20x");
        assert_eq!(RedirectTo::site("/ünï?q=ä b").as_str(), "/%C3%BCn%C3%AF?q=%C3%A4%20b");
        assert!(RedirectTo::site("/a\u{7f}").header().to_str().is_ok());
    }

    #[test]
    fn only_absolute_web_addresses_leave_the_site() {
        assert_eq!(RedirectTo::external("https://fwa.example/x").as_str(), "https://fwa.example/x");
        assert_eq!(RedirectTo::external("//evil.example").as_str(), "/evil.example");
        assert_eq!(RedirectTo::external("javascript:alert(1)").as_str(), "/javascript:alert(1)");
    }
}
