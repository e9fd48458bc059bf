//! Entity tags of a body the server keeps in several encodings (a page, a
//! public file): each encoding is a representation of its own, so each has
//! its own tag, the body's hash with the encoding after it (`"…-br"`,
//! `"…-gzip"`, plain `"…"` for the body as it is). A cache holding the gzip
//! body revalidates with the gzip tag and is answered 304 while gzip is what
//! it would get; a tag of another encoding is another body, answered whole.

use axum::http::{HeaderMap, HeaderValue, header};

/// The tag of the body whose hash is `hash` (hex) in `encoding`.
pub fn tag(hash: &str, encoding: Option<&str>) -> HeaderValue {
    let tag = match encoding {
        Some(encoding) => format!("\"{hash}-{encoding}\""),
        None => format!("\"{hash}\""),
    };
    HeaderValue::from_str(&tag).expect("a hex hash and an encoding name make a header value")
}

/// Whether the request's `If-None-Match` names `tag` (compared weakly, as
/// `If-None-Match` is: `W/` ignored) or is `*`.
pub fn none_match(request: &HeaderMap, tag: &HeaderValue) -> bool {
    let tag = opaque(tag.to_str().unwrap_or_default());
    request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .any(|named| named == "*" || opaque(named) == tag)
}

fn opaque(tag: &str) -> &str {
    tag.trim_start_matches("W/").trim_matches('"')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asking(value: &'static str) -> HeaderMap {
        HeaderMap::from_iter([(header::IF_NONE_MATCH, HeaderValue::from_static(value))])
    }

    #[test]
    fn each_encoding_is_its_own_representation() {
        let (plain, gzip, br) = (tag("00ff", None), tag("00ff", Some("gzip")), tag("00ff", Some("br")));
        assert_eq!(plain, "\"00ff\"");
        assert_eq!(br, "\"00ff-br\"");
        assert!(none_match(&asking("\"00ff-gzip\""), &gzip));
        assert!(none_match(&asking("W/\"00ff-gzip\""), &gzip), "a cache that weakened it (Varnish does) still matches");
        assert!(none_match(&asking("\"aaaa\", \"00ff-br\""), &br));
        assert!(none_match(&asking("*"), &plain));
        assert!(!none_match(&asking("\"00ff-gzip\""), &br));
        assert!(!none_match(&asking("\"00ff\""), &gzip));
        assert!(!none_match(&HeaderMap::new(), &plain));
    }
}
