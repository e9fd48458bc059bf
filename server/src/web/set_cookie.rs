//! Every `Set-Cookie` names its attributes in one order: `Path` first,
//! `SameSite` last. The cookie crate writes `HttpOnly; SameSite=Lax; Secure;
//! Path=/`, which Lynx 2.9 reads as a second cookie named `SameSite` with
//! the path, so the first never comes back beyond the address that set it
//! and its visitor never stays signed in. Browsers that know every
//! attribute read them in any order.

use axum::http::{HeaderValue, header};
use axum::response::Response;

pub async fn path_first(mut response: Response) -> Response {
    let headers = response.headers_mut();
    if !headers.contains_key(header::SET_COOKIE) {
        return response;
    }
    let ordered: Vec<HeaderValue> = headers
        .get_all(header::SET_COOKIE)
        .iter()
        .map(|value| value.to_str().map_or_else(|_| value.clone(), reorder))
        .collect();
    headers.remove(header::SET_COOKIE);
    for value in ordered {
        headers.append(header::SET_COOKIE, value);
    }
    response
}

/// `name=value` then the attributes: `Path`, `Domain`, `Max-Age`,
/// `Expires`, `Secure`, `HttpOnly`, any other, `SameSite`.
fn reorder(set_cookie: &str) -> HeaderValue {
    let mut parts = set_cookie.split(';').map(str::trim).filter(|part| !part.is_empty());
    let pair = parts.next().unwrap_or_default();
    let mut attributes: Vec<&str> = parts.collect();
    attributes.sort_by_key(|attribute| rank(attribute.split('=').next().unwrap_or_default()));
    let line = std::iter::once(pair).chain(attributes).collect::<Vec<_>>().join("; ");
    HeaderValue::from_str(&line).expect("made of a header value's parts")
}

fn rank(name: &str) -> u8 {
    const ORDER: [&str; 6] = ["path", "domain", "max-age", "expires", "secure", "httponly"];
    match ORDER.iter().position(|known| name.eq_ignore_ascii_case(known)) {
        Some(at) => at as u8,
        None if name.eq_ignore_ascii_case("samesite") => u8::MAX,
        None => ORDER.len() as u8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_comes_first_and_samesite_last() {
        let cases = [
            (
                "session=abc; HttpOnly; SameSite=Lax; Secure; Path=/",
                "session=abc; Path=/; Secure; HttpOnly; SameSite=Lax",
            ),
            (
                "flash=x; HttpOnly; SameSite=Lax; Path=/; Max-Age=60",
                "flash=x; Path=/; Max-Age=60; HttpOnly; SameSite=Lax",
            ),
            ("lang=sw; Path=/; Max-Age=31536000", "lang=sw; Path=/; Max-Age=31536000"),
            (
                "gone=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
                "gone=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
            ),
        ];
        for (written, expected) in cases {
            assert_eq!(reorder(written), expected, "{written}");
        }
    }
}
