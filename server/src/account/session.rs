//! The signed-in visitor's session: the operator token in an encrypted,
//! authenticated, httpOnly cookie (never readable by the page's script), with
//! idle and absolute lifetimes checked here, server-side. Customer permission
//! management has its own session and token (spec §4, §6).

use std::time::{SystemTime, UNIX_EPOCH};

use axum_extra::extract::PrivateCookieJar;
use axum_extra::extract::cookie::{Cookie, SameSite};
use serde::{Deserialize, Serialize};

/// Signed out after this long without a request.
pub const IDLE_SECS: u64 = 30 * 60;
/// Signed out this long after signing in, whatever happens.
pub const ABSOLUTE_SECS: u64 = 12 * 60 * 60;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Subscriber,
    Cpm,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Session {
    pub token: String,
    pub msisdn: String,
    issued: u64,
    seen: u64,
    /// A modem signed in through its alternative number (spec §4 modem flow).
    #[serde(default)]
    pub modem: Option<ModemLogin>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ModemLogin {
    pub msisdn: String,
    pub token: String,
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// Cookie names: with `__Host-` over https, so no subdomain can set them.
pub fn cookie_name(kind: Kind, https: bool) -> &'static str {
    match (kind, https) {
        (Kind::Subscriber, true) => "__Host-session",
        (Kind::Subscriber, false) => "session",
        (Kind::Cpm, true) => "__Host-cpm",
        (Kind::Cpm, false) => "cpm_session",
    }
}

impl Session {
    pub fn new(token: String, msisdn: String) -> Session {
        let now = now();
        Session { token, msisdn, issued: now, seen: now, modem: None }
    }

    /// The session in the jar, if any and still within its lifetimes.
    pub fn load(jar: &PrivateCookieJar, kind: Kind, https: bool) -> Option<Session> {
        let cookie = jar.get(cookie_name(kind, https))?;
        let session: Session = serde_json::from_str(cookie.value()).ok()?;
        let now = now();
        (now.saturating_sub(session.seen) < IDLE_SECS && now.saturating_sub(session.issued) < ABSOLUTE_SECS).then_some(session)
    }

    /// Writes the session (its idle clock restarted) into the jar.
    pub fn store(mut self, jar: PrivateCookieJar, kind: Kind, https: bool) -> PrivateCookieJar {
        self.seen = now();
        let value = serde_json::to_string(&self).expect("session serialises");
        let cookie = Cookie::build((cookie_name(kind, https), value))
            .path("/")
            .http_only(true)
            .secure(https)
            .same_site(SameSite::Lax)
            .build();
        jar.add(cookie)
    }

    pub fn clear(jar: PrivateCookieJar, kind: Kind, https: bool) -> PrivateCookieJar {
        jar.remove(Cookie::build(cookie_name(kind, https)).path("/"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum_extra::extract::cookie::Key;

    #[test]
    fn a_stored_session_loads_back_and_is_encrypted() {
        let key = Key::generate();
        let jar = PrivateCookieJar::new(key.clone());
        let jar = Session::new("tok".into(), "255754000001".into()).store(jar, Kind::Subscriber, true);
        let loaded = Session::load(&jar, Kind::Subscriber, true).expect("session");
        assert_eq!(loaded.token, "tok");
        let response = axum::response::IntoResponse::into_response((jar, ()));
        let raw = response.headers()[axum::http::header::SET_COOKIE].to_str().unwrap().to_owned();
        assert!(raw.starts_with("__Host-session="), "{raw}");
        assert!(!raw.contains("tok") && !raw.contains("255754000001"), "{raw}");
        assert!(raw.contains("HttpOnly") && raw.contains("Secure") && raw.contains("SameSite=Lax") && raw.contains("Path=/"), "{raw}");
    }

    #[test]
    fn an_idle_or_old_session_is_gone() {
        let jar = PrivateCookieJar::new(Key::generate());
        let mut session = Session::new("tok".into(), "255754000001".into());
        session.issued -= ABSOLUTE_SECS;
        let jar = session.store(jar, Kind::Subscriber, false);
        assert!(Session::load(&jar, Kind::Subscriber, false).is_none());
    }
}
