//! The synchronizer token of a browser session (OWASP's CSRF cheat sheet):
//! a random value kept in an encrypted, httpOnly cookie that only this
//! server can read or write, and the same value in a hidden `csrf` field of
//! every form the server renders for that browser (or the `x-csrf-token`
//! header the page's scripts send). Another site can make a browser post,
//! but cannot read the value, so a post that carries it came from one of
//! the site's own pages. The same-origin guard (`same_origin`) asks for it
//! only where the browser says nothing of where a post comes from: no
//! `Origin`, `Sec-Fetch-Site` or `Referer` (Lynx from an address with a
//! query, a browser told to send no `Referer`).
//!
//! The cookie lasts as long as the browser session and is set where the
//! server first answers that browser for it alone: a page rendered or
//! spliced for it, or a form the guard sends back. Pages for everyone
//! carry no token.

use axum::http::HeaderMap;
use axum_extra::extract::PrivateCookieJar;
use axum_extra::extract::cookie::{Cookie, SameSite};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use subtle::ConstantTimeEq;

/// The header a token comes in (in a form, `posted::Posted`'s `csrf`).
pub const HEADER: &str = contract::protocol::CSRF_HEADER;

/// Random bytes in a token: 192 bits, 32 characters.
const TOKEN_BYTES: usize = 24;

/// The cookie's name: with `__Host-` over https, so no subdomain can set it.
pub fn cookie_name(https: bool) -> &'static str {
    if https { "__Host-csrf" } else { "csrf" }
}

/// A browser session's token, as it goes into a form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsrfToken(String);

impl CsrfToken {
    /// The token the browser's cookie holds, if it holds one of the right shape.
    pub fn of(jar: &PrivateCookieJar, https: bool) -> Option<CsrfToken> {
        let value = jar.get(cookie_name(https))?.value().to_owned();
        let well_formed = URL_SAFE_NO_PAD.decode(&value).is_ok_and(|bytes| bytes.len() == TOKEN_BYTES);
        well_formed.then_some(CsrfToken(value))
    }

    /// The browser's token, or a new one with the jar that sets it.
    /// `None` only when the system has no randomness to give.
    pub fn ensure(jar: PrivateCookieJar, https: bool) -> (Option<CsrfToken>, PrivateCookieJar) {
        if let Some(token) = CsrfToken::of(&jar, https) {
            return (Some(token), jar);
        }
        let mut bytes = [0; TOKEN_BYTES];
        if let Err(error) = getrandom::fill(&mut bytes) {
            tracing::error!(%error, "no randomness for a CSRF token: forms rely on Origin and Referer");
            return (None, jar);
        }
        let token = CsrfToken(URL_SAFE_NO_PAD.encode(bytes));
        let cookie = Cookie::build((cookie_name(https), token.0.clone()))
            .path("/")
            .http_only(true)
            .secure(https)
            .same_site(SameSite::Lax)
            .build();
        (Some(token), jar.add(cookie))
    }

    /// Whether `presented` (a form field or header) is this token, compared
    /// in constant time.
    pub fn accepts(&self, presented: &str) -> bool {
        self.0.as_bytes().ct_eq(presented.as_bytes()).into()
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

/// A token of the given text, for tests of what carries one.
#[cfg(test)]
impl From<&str> for CsrfToken {
    fn from(text: &str) -> CsrfToken {
        CsrfToken(text.to_owned())
    }
}

/// The token a script sent in its header, if any.
pub fn from_header(headers: &HeaderMap) -> Option<&str> {
    headers.get(HEADER).and_then(|value| value.to_str().ok())
}

#[cfg(test)]
mod tests {
    use axum_extra::extract::cookie::Key;

    use super::*;

    #[test]
    fn a_browser_keeps_one_token_and_only_it_is_accepted() {
        let (token, jar) = CsrfToken::ensure(PrivateCookieJar::new(Key::generate()), true);
        let token = token.expect("randomness");
        assert_eq!(token.as_str().len(), 32);
        assert_eq!(CsrfToken::of(&jar, true), Some(token.clone()), "read back from the encrypted cookie");
        let (again, _) = CsrfToken::ensure(jar, true);
        assert_eq!(again, Some(token.clone()), "kept, not replaced");
        assert!(token.accepts(token.as_str()));
        for wrong in ["", "x", &token.as_str()[1..], &format!("{}A", token.as_str())] {
            assert!(!token.accepts(wrong), "{wrong:?}");
        }
    }

    #[test]
    fn a_cookie_of_another_shape_holds_no_token() {
        let jar = PrivateCookieJar::new(Key::generate()).add(Cookie::new("csrf", "short"));
        assert_eq!(CsrfToken::of(&jar, false), None);
    }
}
