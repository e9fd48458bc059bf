//! Where sessions live: the [`SessionStore`] trait and its embedded
//! implementation, one SQLite file (`DATA_DIR/sessions.sqlite3`); with
//! `REDIS_URL`, `session_redis` instead. A session
//! is a row the server can delete, so logout and the lifetimes end it for
//! good, whatever copies of the cookie exist. Rows are keyed by the SHA-256
//! of the id, so a copy of the database opens no session. The lifetimes are
//! checked here, on every read.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use async_trait::async_trait;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rusqlite::{Connection, OptionalExtension, params};
use sha2::{Digest, Sha256};

use super::session_record::{Kind, Session, kind_name};

/// Random bytes of an id: 256 bits, far past guessing.
const ID_BYTES: usize = 32;
const FILE: &str = "sessions.sqlite3";

/// The opaque id a session cookie carries: 32 bytes from the operating
/// system's CSPRNG, URL-safe base64.
#[derive(Clone, PartialEq, Eq)]
pub struct SessionId(String);

impl SessionId {
    pub fn generate() -> Result<SessionId, StoreError> {
        let mut bytes = [0; ID_BYTES];
        getrandom::fill(&mut bytes)?;
        Ok(SessionId(URL_SAFE_NO_PAD.encode(bytes)))
    }

    /// An id read from a cookie, if it has the shape of one.
    pub fn parse(value: &str) -> Option<SessionId> {
        let decoded = URL_SAFE_NO_PAD.decode(value).ok()?;
        (decoded.len() == ID_BYTES).then(|| SessionId(value.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// What a store keys the session by, instead of the id itself.
    pub fn digest(&self) -> Vec<u8> {
        Sha256::digest(self.0.as_bytes()).to_vec()
    }
}

/// Never printed: the id is a live credential.
impl std::fmt::Debug for SessionId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SessionId(…)")
    }
}

/// How long a session lives.
#[derive(Debug, Clone, Copy)]
pub struct Lifetimes {
    /// Ended after this long without a request.
    pub idle: Duration,
    /// Ended this long after sign-in, whatever happens.
    pub absolute: Duration,
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot create the data directory {}: {source}", path.display())]
    DataDir { path: PathBuf, source: std::io::Error },
    #[error("cannot open the session store {}: {source}", path.display())]
    Open { path: PathBuf, source: rusqlite::Error },
    #[error("session store: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("no randomness for a session id: {0}")]
    Random(#[from] getrandom::Error),
    #[error("session store task failed: {0}")]
    Task(#[from] tokio::task::JoinError),
    #[error("session store (Redis): {0}")]
    Redis(#[from] redis::RedisError),
}

/// A place for sessions, shared by every server behind one address when the
/// backend is (the embedded SQLite one serves one host).
#[async_trait]
pub trait SessionStore: Send + Sync {
    /// Keeps `session` under `id`, for `kind`, its lifetimes starting now.
    async fn create(&self, id: &SessionId, kind: Kind, session: &Session) -> Result<(), StoreError>;
    /// The live session of `kind` under `id`, its idle clock restarted; an
    /// expired one is deleted and is `None`.
    async fn get(&self, id: &SessionId, kind: Kind) -> Result<Option<Session>, StoreError>;
    /// Replaces what the session holds (its lifetimes unchanged).
    async fn update(&self, id: &SessionId, session: &Session) -> Result<(), StoreError>;
    async fn delete(&self, id: &SessionId) -> Result<(), StoreError>;
    /// Deletes every expired session and says how many there were.
    async fn sweep(&self) -> Result<usize, StoreError>;
}

/// The embedded store: one connection behind a mutex, each call on tokio's
/// blocking pool so a slow disk never stalls the workers that serve pages.
pub struct SqliteSessionStore {
    db: Arc<Mutex<Connection>>,
    lifetimes: Lifetimes,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS sessions (
    id_hash BLOB PRIMARY KEY,
    kind    TEXT NOT NULL,
    data    TEXT NOT NULL,
    issued  INTEGER NOT NULL,
    seen    INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sessions_seen ON sessions (seen);
CREATE INDEX IF NOT EXISTS sessions_issued ON sessions (issued);
";

fn now() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

impl SqliteSessionStore {
    /// Opens or creates `<data_dir>/sessions.sqlite3`.
    pub fn open(data_dir: &Path, lifetimes: Lifetimes) -> Result<SqliteSessionStore, StoreError> {
        std::fs::create_dir_all(data_dir)
            .map_err(|source| StoreError::DataDir { path: data_dir.to_owned(), source })?;
        let path = data_dir.join(FILE);
        let open = || -> rusqlite::Result<Connection> {
            let db = crate::infra::sqlite::open(&path)?;
            db.pragma_update(None, "synchronous", "NORMAL")?;
            db.execute_batch(SCHEMA)?;
            Ok(db)
        };
        let db = open().map_err(|source| StoreError::Open { path: path.clone(), source })?;
        Ok(SqliteSessionStore { db: Arc::new(Mutex::new(db)), lifetimes })
    }

    async fn db<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Connection, i64, i64) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, StoreError> {
        let db = self.db.clone();
        // A session is live while `seen > idle_edge` and `issued > absolute_edge`.
        let now = now();
        let edges = (now - self.lifetimes.idle.as_secs() as i64, now - self.lifetimes.absolute.as_secs() as i64);
        let result = tokio::task::spawn_blocking(move || {
            let db = crate::infra::locks::lock(&db);
            work(&db, edges.0, edges.1)
        })
        .await?;
        Ok(result?)
    }
}

#[async_trait]
impl SessionStore for SqliteSessionStore {
    async fn create(&self, id: &SessionId, kind: Kind, session: &Session) -> Result<(), StoreError> {
        let (hash, data) = (id.digest(), serde_json::to_string(session).expect("session serialises"));
        self.db(move |db, _, _| {
            let now = now();
            db.execute(
                "INSERT INTO sessions (id_hash, kind, data, issued, seen) VALUES (?1, ?2, ?3, ?4, ?4)",
                params![hash, kind_name(kind), data, now],
            )
            .map(drop)
        })
        .await
    }

    async fn get(&self, id: &SessionId, kind: Kind) -> Result<Option<Session>, StoreError> {
        let hash = id.digest();
        // A live session's `seen` is moved on when a thirtieth of the idle
        // lifetime (a minute of 30) has passed since, not at every request:
        // a signed-in page view is then a read, not a write.
        let touch_after = (self.lifetimes.idle.as_secs() / 30) as i64;
        let data = self
            .db(move |db, idle_edge, absolute_edge| {
                // Every signed-in request asks this: the statement is parsed once.
                let live: Option<(String, i64)> = db
                    .prepare_cached("SELECT data, seen FROM sessions WHERE id_hash = ?1 AND kind = ?2 AND seen > ?3 AND issued > ?4")?
                    .query_row(params![hash, kind_name(kind), idle_edge, absolute_edge], |row| Ok((row.get(0)?, row.get(1)?)))
                    .optional()?;
                let now = now();
                match &live {
                    Some((_, seen)) if now - seen >= touch_after.max(1) => {
                        db.execute("UPDATE sessions SET seen = ?1 WHERE id_hash = ?2", params![now, hash])?;
                    }
                    Some(_) => {}
                    None => {
                        db.execute("DELETE FROM sessions WHERE id_hash = ?1 AND kind = ?2", params![hash, kind_name(kind)])?;
                    }
                }
                Ok(live.map(|(data, _)| data))
            })
            .await?;
        Ok(data.and_then(|data| match serde_json::from_str(&data) {
            Ok(session) => Some(session),
            Err(error) => {
                tracing::warn!(%error, "unreadable session row; treated as signed out");
                None
            }
        }))
    }

    async fn update(&self, id: &SessionId, session: &Session) -> Result<(), StoreError> {
        let (hash, data) = (id.digest(), serde_json::to_string(session).expect("session serialises"));
        self.db(move |db, _, _| {
            db.execute("UPDATE sessions SET data = ?1 WHERE id_hash = ?2", params![data, hash]).map(drop)
        })
        .await
    }

    async fn delete(&self, id: &SessionId) -> Result<(), StoreError> {
        let hash = id.digest();
        self.db(move |db, _, _| db.execute("DELETE FROM sessions WHERE id_hash = ?1", params![hash]).map(drop)).await
    }

    async fn sweep(&self) -> Result<usize, StoreError> {
        self.db(|db, idle_edge, absolute_edge| {
            db.execute("DELETE FROM sessions WHERE seen <= ?1 OR issued <= ?2", params![idle_edge, absolute_edge])
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> Session {
        Session::new("tok".into(), "255754000001".into())
    }

    fn lifetimes(idle: u64, absolute: u64) -> Lifetimes {
        Lifetimes { idle: Duration::from_secs(idle), absolute: Duration::from_secs(absolute) }
    }

    #[test]
    fn ids_are_256_random_bits_and_junk_is_no_id() {
        let (a, b) = (SessionId::generate().unwrap(), SessionId::generate().unwrap());
        assert_ne!(a, b);
        assert_eq!(SessionId::parse(a.as_str()), Some(a.clone()));
        for junk in ["", "x", "not base64 at all!", &a.as_str()[1..], &format!("{}AA", a.as_str())] {
            assert!(SessionId::parse(junk).is_none(), "{junk}");
        }
        assert_eq!(format!("{a:?}"), "SessionId(…)");
    }

    #[tokio::test]
    async fn a_session_lives_until_deleted_and_only_for_its_kind() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteSessionStore::open(dir.path(), lifetimes(1800, 43200)).unwrap();
        let id = SessionId::generate().unwrap();
        store.create(&id, Kind::Subscriber, &session()).await.unwrap();
        assert_eq!(store.get(&id, Kind::Subscriber).await.unwrap().unwrap().token, "tok");
        assert!(store.get(&id, Kind::Cpm).await.unwrap().is_none(), "a subscriber session opens no CPM");
        assert!(
            store.get(&id, Kind::Subscriber).await.unwrap().is_some(),
            "asking with the wrong kind deletes nothing"
        );
        let mut changed = session();
        changed.token = "tok2".into();
        store.update(&id, &changed).await.unwrap();
        assert_eq!(store.get(&id, Kind::Subscriber).await.unwrap().unwrap().token, "tok2");
        store.delete(&id).await.unwrap();
        assert!(store.get(&id, Kind::Subscriber).await.unwrap().is_none());
    }

    /// Instances sharing one `DATA_DIR` without Redis open the store at once.
    #[test]
    fn instances_on_one_data_dir_open_it_at_once() {
        const INSTANCES: usize = 4;
        for _ in 0..10 {
            let dir = tempfile::tempdir().unwrap();
            let start = std::sync::Barrier::new(INSTANCES);
            std::thread::scope(|scope| {
                let opening: Vec<_> = (0..INSTANCES)
                    .map(|_| {
                        scope.spawn(|| {
                            start.wait();
                            SqliteSessionStore::open(dir.path(), lifetimes(1800, 43200)).map(drop)
                        })
                    })
                    .collect();
                for open in opening {
                    open.join().unwrap().unwrap_or_else(|error| panic!("opened: {error:?}"));
                }
            });
        }
    }

    #[tokio::test]
    async fn the_database_holds_no_usable_id() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteSessionStore::open(dir.path(), lifetimes(1800, 43200)).unwrap();
        let id = SessionId::generate().unwrap();
        store.create(&id, Kind::Subscriber, &session()).await.unwrap();
        drop(store);
        let bytes = std::fs::read(dir.path().join(FILE)).unwrap();
        let wal = std::fs::read(dir.path().join(format!("{FILE}-wal"))).unwrap_or_default();
        for file in [bytes, wal] {
            assert!(!file.windows(id.as_str().len()).any(|w| w == id.as_str().as_bytes()));
        }
    }

    #[tokio::test]
    async fn expired_sessions_are_gone_and_swept() {
        let dir = tempfile::tempdir().unwrap();
        let expired = SqliteSessionStore::open(dir.path(), lifetimes(0, 43200)).unwrap();
        let id = SessionId::generate().unwrap();
        expired.create(&id, Kind::Subscriber, &session()).await.unwrap();
        assert!(expired.get(&id, Kind::Subscriber).await.unwrap().is_none(), "idle");
        let old = SqliteSessionStore::open(dir.path(), lifetimes(1800, 0)).unwrap();
        old.create(&id, Kind::Subscriber, &session()).await.unwrap();
        assert!(old.get(&id, Kind::Subscriber).await.unwrap().is_none(), "past the absolute lifetime");
        for _ in 0..3 {
            old.create(&SessionId::generate().unwrap(), Kind::Cpm, &session()).await.unwrap();
        }
        assert_eq!(old.sweep().await.unwrap(), 3);
        assert_eq!(old.sweep().await.unwrap(), 0);
    }

    /// A read moves `seen` on only once a thirtieth of the idle lifetime
    /// has passed since: activity still keeps a session alive.
    #[tokio::test]
    async fn activity_keeps_a_session_alive_with_a_write_a_while_at_most() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteSessionStore::open(dir.path(), lifetimes(600, 43200)).unwrap();
        let id = SessionId::generate().unwrap();
        store.create(&id, Kind::Subscriber, &session()).await.unwrap();
        let hash = id.digest();
        let seen_ago = |ago: i64| {
            let hash = hash.clone();
            store.db(move |db, _, _| {
                db.execute("UPDATE sessions SET seen = ?1 WHERE id_hash = ?2", params![now() - ago, hash]).map(drop)
            })
        };
        let seen = || {
            let hash = hash.clone();
            store.db(move |db, _, _| {
                db.query_row("SELECT seen FROM sessions WHERE id_hash = ?1", params![hash], |row| row.get::<_, i64>(0))
            })
        };
        // Seen 5 s ago, under the 20 s a write waits for: read, not moved.
        seen_ago(5).await.unwrap();
        assert!(store.get(&id, Kind::Subscriber).await.unwrap().is_some());
        assert!(now() - seen().await.unwrap() >= 5, "not written");
        // Seen 590 s ago: still live, and moved to now.
        seen_ago(590).await.unwrap();
        assert!(store.get(&id, Kind::Subscriber).await.unwrap().is_some());
        assert!(now() - seen().await.unwrap() <= 1, "moved on");
        // Idle past the lifetime: gone.
        seen_ago(601).await.unwrap();
        assert!(store.get(&id, Kind::Subscriber).await.unwrap().is_none());
    }
}
