//! A page's language and its canonical address. `/sw` and `/sw/…` are
//! Swahili, every other path English; a language the visitor chose is
//! remembered in a cookie. [`canonical`] is the one place that decides the
//! redirects coming before any page: the fast path leaves a request it
//! names to the full path, and the full path answers it.

use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::Response;
use axum_extra::extract::cookie::{Cookie, SameSite};
use contract::Lang;

use crate::web::{LANG_COOKIE, RedirectTo};

/// The query parameter that chooses a language.
const LANG_PARAMETER: &str = "lang";

/// A request path split into its language and the path without prefix.
#[derive(Debug, Clone, PartialEq)]
pub struct LocalPath {
    pub lang: Lang,
    pub path: String,
}

impl LocalPath {
    /// `/sw` and `/sw/…` are Swahili; every other path is English.
    pub fn parse(path: &str) -> LocalPath {
        match path.strip_prefix("/sw") {
            Some("") => LocalPath { lang: Lang::Sw, path: "/".into() },
            Some(rest) if rest.starts_with('/') => LocalPath { lang: Lang::Sw, path: rest.into() },
            _ => LocalPath { lang: Lang::En, path: if path.is_empty() { "/".into() } else { path.into() } },
        }
    }
}

/// A redirect that comes before any page.
#[derive(Debug, Clone, PartialEq)]
pub enum Canonical {
    /// A trailing slash: for good to the address without it, query kept.
    Trimmed(String),
    /// A language chosen with `?lang=`: to the same address without the
    /// parameter, with the choice remembered.
    Chosen { target: String, lang: Lang },
    /// `/` for a visitor who chose Swahili before: to `/sw`, for them alone.
    Remembered,
}

/// The redirect the address `path` (with `query`, read as `pairs`, and
/// `local` its language and path) gets before any page, if any: a trailing
/// slash, a language chosen with `?lang=`, or `/` for a visitor whose
/// cookie (in `headers`) remembers Swahili.
pub fn canonical(
    path: &str,
    query: Option<&str>,
    local: &LocalPath,
    pairs: &[(String, String)],
    headers: &HeaderMap,
) -> Option<Canonical> {
    if path.len() > 1 && path.ends_with('/') {
        let trimmed = match path.trim_end_matches('/') {
            "" => "/",
            trimmed => trimmed,
        };
        return Some(Canonical::Trimmed(match query {
            Some(query) => format!("{trimmed}?{query}"),
            None => trimmed.to_owned(),
        }));
    }
    if let Some(index) = pairs.iter().position(|(name, _)| name == LANG_PARAMETER) {
        let mut rest = pairs.to_vec();
        let lang = Lang::parse(&rest.remove(index).1);
        let mut target = local.lang.href(&local.path);
        if !rest.is_empty() {
            target.push('?');
            target.push_str(&serde_urlencoded::to_string(&rest).unwrap_or_default());
        }
        return Some(Canonical::Chosen { target, lang });
    }
    // Read only where it matters: most requests are for other addresses.
    if path == "/" && crate::web::lang::remembered(headers) == Some(Lang::Sw) {
        return Some(Canonical::Remembered);
    }
    None
}

impl Canonical {
    /// The redirect; the cookie it sets is `Secure` when the site is served over `https`.
    pub fn respond(&self, https: bool) -> Response {
        match self {
            Canonical::Trimmed(target) => RedirectTo::site(target).permanent(),
            Canonical::Chosen { target, lang } => {
                let cookie = Cookie::build((LANG_COOKIE, lang.code()))
                    .path("/")
                    .max_age(cookie::time::Duration::days(365))
                    .same_site(SameSite::Lax)
                    // Not HttpOnly: the language switch writes it from the page too
                    // (no round trip on a slow link); nothing reads it but the server.
                    .secure(https)
                    .build();
                let mut response = RedirectTo::site(target).see_other();
                response
                    .headers_mut()
                    .insert(header::SET_COOKIE, HeaderValue::from_str(&cookie.to_string()).expect("cookie"));
                response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
                response
            }
            Canonical::Remembered => {
                let mut response = RedirectTo::site(&Lang::Sw.href("/")).see_other();
                response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
                response.headers_mut().insert(header::VARY, HeaderValue::from_static("cookie"));
                response
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_the_language_prefix() {
        assert_eq!(LocalPath::parse("/"), LocalPath { lang: Lang::En, path: "/".into() });
        assert_eq!(LocalPath::parse("/sw"), LocalPath { lang: Lang::Sw, path: "/".into() });
        assert_eq!(LocalPath::parse("/sw/voice-sms"), LocalPath { lang: Lang::Sw, path: "/voice-sms".into() });
        assert_eq!(LocalPath::parse("/swipe-win"), LocalPath { lang: Lang::En, path: "/swipe-win".into() });
        assert_eq!(Lang::Sw.href("/"), "/sw");
        assert_eq!(Lang::Sw.href("/voice-sms"), "/sw/voice-sms");
        assert_eq!(Lang::En.href("/voice-sms"), "/voice-sms");
    }

    fn redirect(address: &str, cookie: Option<&str>) -> Option<Canonical> {
        let uri: axum::http::Uri = address.parse().unwrap();
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(uri.query().unwrap_or_default()).unwrap();
        let mut headers = HeaderMap::new();
        if let Some(cookie) = cookie {
            headers.insert(header::COOKIE, HeaderValue::from_str(cookie).unwrap());
        }
        canonical(uri.path(), uri.query(), &LocalPath::parse(uri.path()), &pairs, &headers)
    }

    #[test]
    fn a_trailing_slash_then_a_chosen_language_then_a_remembered_one() {
        assert_eq!(redirect("/sw/voice-sms/?lang=en", None), Some(Canonical::Trimmed("/sw/voice-sms?lang=en".into())));
        assert_eq!(redirect("/sw/", None), Some(Canonical::Trimmed("/sw".into())));
        assert_eq!(redirect("//", None), Some(Canonical::Trimmed("/".into())));
        assert_eq!(
            redirect("/sw/devices?page=2&lang=en", None),
            Some(Canonical::Chosen { target: "/sw/devices?page=2".into(), lang: Lang::En })
        );
        assert_eq!(
            redirect("/?lang=sw", Some("lang=sw")),
            Some(Canonical::Chosen { target: "/".into(), lang: Lang::Sw })
        );
        assert_eq!(redirect("/", Some("other=1; lang=sw")), Some(Canonical::Remembered));
        assert_eq!(redirect("/voice-sms", Some("lang=sw")), None);
        assert_eq!(redirect("/", Some("lang=en")), None);
        assert_eq!(redirect("/sw", Some("lang=en")), None);
    }
}
