//! The signed-in visitor's session. The operator token stays on the server
//! (`session_store`); the browser holds only an opaque random id in an
//! httpOnly cookie (never readable by the page's script), encrypted under
//! the session key so a junk cookie is refused before the store is asked.
//! Each sign-in gets a new id; logout deletes the session, so a copy of the
//! cookie is worth nothing afterwards. Customer permission management has
//! its own session and token.

use std::sync::Arc;
use std::time::Duration;

use axum_extra::extract::PrivateCookieJar;
use axum_extra::extract::cookie::{Cookie, SameSite};
use sha2::{Digest, Sha256};

pub use super::session_record::{Kind, ModemLogin, Session};
use super::session_store::{SessionId, SessionStore, StoreError};

/// What per-session caches key a session by: a digest of its id, never
/// the id itself.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SessionKey([u8; 32]);

impl std::fmt::Debug for SessionKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SessionKey(…)")
    }
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

/// How often expired sessions are deleted from the store.
const SWEEP_EVERY: Duration = Duration::from_secs(5 * 60);

/// Sessions as handlers see them: a cookie on one side, the store on the other.
#[derive(Clone)]
pub struct Sessions {
    store: Arc<dyn SessionStore>,
    https: bool,
}

impl Sessions {
    pub fn new(store: Arc<dyn SessionStore>, https: bool) -> Sessions {
        Sessions { store, https }
    }

    fn id(&self, jar: &PrivateCookieJar, kind: Kind) -> Option<SessionId> {
        SessionId::parse(jar.get(cookie_name(kind, self.https))?.value())
    }

    /// The key of the session the jar points at, live or not.
    pub fn key(&self, jar: &PrivateCookieJar, kind: Kind) -> Option<SessionKey> {
        Some(SessionKey(Sha256::digest(self.id(jar, kind)?.as_str().as_bytes()).into()))
    }

    /// [`Sessions::load`] with the session's key.
    pub async fn load_keyed(&self, jar: &PrivateCookieJar, kind: Kind) -> Option<(SessionKey, Session)> {
        let session = self.load(jar, kind).await?;
        Some((self.key(jar, kind)?, session))
    }

    /// The live session the jar points at, if any. A store that fails signs
    /// the visitor out for this request rather than failing the page.
    pub async fn load(&self, jar: &PrivateCookieJar, kind: Kind) -> Option<Session> {
        self.find(jar, kind).await.unwrap_or_else(|error| {
            tracing::error!(%error, "session store unavailable; treated as signed out");
            None
        })
    }

    /// The same for an endpoint that acts for the session (a purchase):
    /// a store that fails is an error (503), not a signed-out visitor.
    pub async fn find(&self, jar: &PrivateCookieJar, kind: Kind) -> Result<Option<Session>, StoreError> {
        match self.id(jar, kind) {
            Some(id) => self.store.get(&id, kind).await,
            None => Ok(None),
        }
    }

    /// Signs in: a session under a new id, the one the jar held (if any) ended.
    pub async fn start(
        &self,
        jar: PrivateCookieJar,
        kind: Kind,
        session: Session,
    ) -> Result<PrivateCookieJar, StoreError> {
        let jar = self.end(jar, kind).await;
        let id = SessionId::generate()?;
        self.store.create(&id, kind, &session).await?;
        let cookie = Cookie::build((cookie_name(kind, self.https), id.as_str().to_owned()))
            .path("/")
            .http_only(true)
            .secure(self.https)
            .same_site(SameSite::Lax)
            .build();
        Ok(jar.add(cookie))
    }

    /// Replaces what the jar's session holds.
    pub async fn save(&self, jar: &PrivateCookieJar, kind: Kind, session: &Session) -> Result<(), StoreError> {
        match self.id(jar, kind) {
            Some(id) => self.store.update(&id, session).await,
            None => Ok(()),
        }
    }

    /// Signs out: the session deleted, the cookie removed.
    pub async fn end(&self, jar: PrivateCookieJar, kind: Kind) -> PrivateCookieJar {
        let Some(id) = self.id(&jar, kind) else { return jar };
        if let Err(error) = self.store.delete(&id).await {
            tracing::error!(%error, "session could not be deleted; it ends with its lifetimes");
        }
        jar.remove(Cookie::build(cookie_name(kind, self.https)).path("/"))
    }

    /// Deletes expired sessions every few minutes, for as long as the server
    /// runs: reads refuse them already, this only keeps the store small.
    pub async fn sweep_forever(self) {
        let mut every = tokio::time::interval(SWEEP_EVERY);
        loop {
            every.tick().await;
            match self.store.sweep().await {
                Ok(0) => {}
                Ok(swept) => tracing::debug!(swept, "expired sessions deleted"),
                Err(error) => tracing::warn!(%error, "expired sessions could not be swept"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::account::session_store::{Lifetimes, SqliteSessionStore};
    use axum_extra::extract::cookie::Key;

    fn sessions(dir: &std::path::Path) -> Sessions {
        let lifetimes = Lifetimes { idle: Duration::from_secs(1800), absolute: Duration::from_secs(43200) };
        Sessions::new(Arc::new(SqliteSessionStore::open(dir, lifetimes).unwrap()), true)
    }

    #[tokio::test]
    async fn the_cookie_holds_only_an_id_with_the_right_flags() {
        let dir = tempfile::tempdir().unwrap();
        let sessions = sessions(dir.path());
        let jar = PrivateCookieJar::new(Key::generate());
        let jar =
            sessions.start(jar, Kind::Subscriber, Session::new("tok".into(), "255754000001".into())).await.unwrap();
        assert_eq!(sessions.load(&jar, Kind::Subscriber).await.unwrap().token, "tok");
        let id = jar.get("__Host-session").unwrap().value().to_owned();
        assert_eq!(id.len(), 43, "32 random bytes, base64url: {id}");
        let response = axum::response::IntoResponse::into_response((jar, ()));
        let raw = response.headers()[axum::http::header::SET_COOKIE].to_str().unwrap().to_owned();
        assert!(raw.starts_with("__Host-session="), "{raw}");
        assert!(!raw.contains("tok") && !raw.contains("255754000001") && !raw.contains(&id), "{raw}");
        assert!(
            raw.contains("HttpOnly")
                && raw.contains("Secure")
                && raw.contains("SameSite=Lax")
                && raw.contains("Path=/"),
            "{raw}"
        );
    }

    #[tokio::test]
    async fn signing_in_again_rotates_the_id_and_ending_deletes_it() {
        let dir = tempfile::tempdir().unwrap();
        let sessions = sessions(dir.path());
        let first = sessions
            .start(PrivateCookieJar::new(Key::generate()), Kind::Subscriber, Session::new("a".into(), "1".into()))
            .await
            .unwrap();
        let second =
            sessions.start(first.clone(), Kind::Subscriber, Session::new("b".into(), "1".into())).await.unwrap();
        assert_ne!(first.get("__Host-session").unwrap().value(), second.get("__Host-session").unwrap().value());
        assert!(sessions.load(&first, Kind::Subscriber).await.is_none(), "the old id is gone");
        assert_eq!(sessions.load(&second, Kind::Subscriber).await.unwrap().token, "b");
        let ended = sessions.end(second.clone(), Kind::Subscriber).await;
        assert!(ended.get("__Host-session").is_none());
        assert!(sessions.load(&second, Kind::Subscriber).await.is_none(), "a kept copy of the cookie is dead");
    }
}
