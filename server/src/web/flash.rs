//! Flash notices: what a form post without JavaScript was told, kept for
//! the page it is sent back to, in a short-lived cookie that only this
//! server can read or write (encrypted with the session key). The page
//! that shows it takes it out of the cookies.

use axum::http::{HeaderMap, header};
use axum::response::IntoResponse;
use axum_extra::extract::PrivateCookieJar;
use axum_extra::extract::cookie::{Cookie, SameSite};

use super::{Notice, Site};

/// The flash cookie's name.
pub const COOKIE: &str = "flash";

/// Long enough for the redirect to be followed, not for a later visit.
const LIFETIME_SECS: i64 = 60;

/// Adds the cookie keeping `notice` to the answer's `headers`.
pub fn leave(site: &Site, notice: &Notice, headers: &mut HeaderMap) {
    let cookie = Cookie::build((COOKIE, serde_json::to_string(notice).expect("notice serialises")))
        .path("/")
        .http_only(true)
        .secure(site.https)
        .same_site(SameSite::Lax)
        .max_age(cookie::time::Duration::seconds(LIFETIME_SECS))
        .build();
    let jar = PrivateCookieJar::new(site.cookie_key.clone()).add(cookie);
    for set_cookie in jar.into_response().headers().get_all(header::SET_COOKIE) {
        headers.append(header::SET_COOKIE, set_cookie.clone());
    }
}

/// Whether `jar` holds a notice this server left.
pub fn is_left(jar: &PrivateCookieJar) -> bool {
    jar.get(COOKIE).is_some()
}

/// The notice `jar` holds, and the jar with the cookie removed.
pub fn take(jar: PrivateCookieJar) -> (Option<Notice>, PrivateCookieJar) {
    let notice = jar.get(COOKIE).and_then(|cookie| serde_json::from_str::<Notice>(cookie.value()).ok());
    (notice, jar.remove(Cookie::build(COOKIE).path("/")))
}
