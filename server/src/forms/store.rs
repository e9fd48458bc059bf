//! Where submissions live: `DATA_DIR/forms.sqlite3`, in WAL mode with
//! `synchronous=FULL`, so a submission answered 201 is on disk (a crash or
//! a power cut after the answer loses nothing). A submission, its
//! idempotency key and its outbox entry are written in one transaction.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value;

use super::FormKind;

const FILE: &str = "forms.sqlite3";

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS submissions (
    id              INTEGER PRIMARY KEY,
    reference       TEXT NOT NULL UNIQUE,
    form            TEXT NOT NULL,
    idempotency_key TEXT,
    lang            TEXT NOT NULL,
    received_at     INTEGER NOT NULL,
    data            TEXT NOT NULL,
    proposal        BLOB,
    UNIQUE (form, idempotency_key)
);
CREATE TABLE IF NOT EXISTS outbox (
    submission_id   INTEGER PRIMARY KEY REFERENCES submissions (id),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    delivered_at    INTEGER,
    last_error      TEXT,
    cms_file_id     INTEGER
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (next_attempt_at) WHERE delivered_at IS NULL;
";

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot open the forms store {}: {source}", path.display())]
    Open { path: PathBuf, source: rusqlite::Error },
    #[error("forms store: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("no randomness for a reference: {0}")]
    Random(#[from] getrandom::Error),
    #[error("forms store task failed: {0}")]
    Task(#[from] tokio::task::JoinError),
}

/// A submission to keep.
pub struct NewSubmission {
    pub form: FormKind,
    pub idempotency_key: Option<String>,
    pub lang: &'static str,
    pub data: Value,
    pub proposal: Option<Vec<u8>>,
    /// Put it in the outbox for the CMS.
    pub deliver: bool,
}

/// What keeping a submission gave.
#[derive(Debug, Clone, PartialEq)]
pub enum Kept {
    New(String),
    /// The idempotency key was seen before: the first submission's reference.
    Replayed(String),
}

/// A kept submission, as exported or delivered.
#[derive(Debug, Clone)]
pub struct Submission {
    pub id: i64,
    pub reference: String,
    pub form: String,
    pub lang: String,
    pub received_at: i64,
    pub data: Value,
    pub has_proposal: bool,
}

#[derive(Clone)]
pub struct FormStore {
    db: Arc<Mutex<Connection>>,
}

pub fn now() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

/// `BC-7K3M9Q2X`: the form's prefix and 40 random bits in Crockford's base 32
/// (no I, L, O or U to misread on the phone).
pub(super) fn new_reference(form: FormKind) -> Result<String, getrandom::Error> {
    const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    let mut bytes = [0u8; 5];
    getrandom::fill(&mut bytes)?;
    let bits = bytes.iter().fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
    let code: String = (0..8).rev().map(|i| ALPHABET[((bits >> (i * 5)) & 31) as usize] as char).collect();
    Ok(format!("{}-{code}", form.prefix()))
}

fn submission(row: &rusqlite::Row<'_>) -> rusqlite::Result<Submission> {
    let data: String = row.get("data")?;
    Ok(Submission {
        id: row.get("id")?,
        reference: row.get("reference")?,
        form: row.get("form")?,
        lang: row.get("lang")?,
        received_at: row.get("received_at")?,
        data: serde_json::from_str(&data).unwrap_or(Value::Null),
        has_proposal: row.get("has_proposal")?,
    })
}

const COLUMNS: &str =
    "s.id, s.reference, s.form, s.lang, s.received_at, s.data, s.proposal IS NOT NULL AS has_proposal";

impl FormStore {
    /// Opens or creates `<data_dir>/forms.sqlite3`.
    pub fn open(data_dir: &Path) -> Result<FormStore, StoreError> {
        let path = data_dir.join(FILE);
        let open = || -> rusqlite::Result<Connection> {
            let db = crate::sqlite::open(&path)?;
            // Every commit reaches the disk before the visitor is told it was received.
            db.pragma_update(None, "synchronous", "FULL")?;
            db.pragma_update(None, "foreign_keys", "ON")?;
            db.execute_batch(SCHEMA)?;
            Ok(db)
        };
        let db = open().map_err(|source| StoreError::Open { path: path.clone(), source })?;
        Ok(FormStore { db: Arc::new(Mutex::new(db)) })
    }

    async fn db<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let db = self.db.clone();
        tokio::task::spawn_blocking(move || work(&mut crate::locks::lock(&db))).await?
    }

    /// Keeps a submission (committed to disk when this returns), or finds
    /// the one its idempotency key was first sent with.
    pub async fn keep(&self, new: NewSubmission) -> Result<Kept, StoreError> {
        self.db(move |db| {
            let tx = db.transaction()?;
            if let Some(key) = &new.idempotency_key {
                let seen: Option<String> = tx
                    .query_row("SELECT reference FROM submissions WHERE form = ?1 AND idempotency_key = ?2", params![new.form.name(), key], |r| r.get(0))
                    .optional()?;
                if let Some(reference) = seen {
                    return Ok(Kept::Replayed(reference));
                }
            }
            let data = new.data.to_string();
            let now = now();
            let mut attempt = 0;
            let (id, reference) = loop {
                let reference = new_reference(new.form)?;
                let inserted = tx.execute(
                    "INSERT INTO submissions (reference, form, idempotency_key, lang, received_at, data, proposal) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    params![reference, new.form.name(), new.idempotency_key, new.lang, now, data, new.proposal],
                );
                match inserted {
                    Ok(_) => break (tx.last_insert_rowid(), reference),
                    // 40 random bits collide about never; a collision draws again.
                    Err(rusqlite::Error::SqliteFailure(e, _)) if e.code == rusqlite::ErrorCode::ConstraintViolation && attempt < 3 => attempt += 1,
                    Err(error) => return Err(error.into()),
                }
            };
            if new.deliver {
                tx.execute("INSERT INTO outbox (submission_id, next_attempt_at) VALUES (?1, ?2)", params![id, now])?;
            }
            tx.commit()?;
            Ok(Kept::New(reference))
        })
        .await
    }

    /// Every submission of `form`, oldest first.
    pub async fn all(&self, form: FormKind) -> Result<Vec<Submission>, StoreError> {
        self.db(move |db| {
            let mut query =
                db.prepare(&format!("SELECT {COLUMNS} FROM submissions s WHERE s.form = ?1 ORDER BY s.id"))?;
            let rows = query.query_map(params![form.name()], submission)?.collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
        .await
    }

    /// The proposal PDF of the submission `reference`.
    pub async fn proposal(&self, reference: String) -> Result<Option<Vec<u8>>, StoreError> {
        self.db(move |db| {
            let bytes = db
                .query_row("SELECT proposal FROM submissions WHERE reference = ?1", params![reference], |r| {
                    r.get::<_, Option<Vec<u8>>>(0)
                })
                .optional()?;
            Ok(bytes.flatten())
        })
        .await
    }
}

/// An outbox entry due for delivery.
#[derive(Debug, Clone)]
pub struct Due {
    pub submission: Submission,
    pub attempts: u32,
    /// The proposal already uploaded to the CMS's media library.
    pub cms_file_id: Option<i64>,
}

/// The outbox at a glance, for `/healthz?detail` and the logs.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Backlog {
    pub pending: u64,
    pub oldest_pending_secs: Option<u64>,
    pub most_attempts: u32,
}

impl FormStore {
    /// Up to `limit` undelivered entries whose time has come, oldest first.
    pub async fn due(&self, limit: usize) -> Result<Vec<Due>, StoreError> {
        self.db(move |db| {
            let mut query = db.prepare(&format!(
                "SELECT {COLUMNS}, o.attempts, o.cms_file_id FROM outbox o JOIN submissions s ON s.id = o.submission_id
                 WHERE o.delivered_at IS NULL AND o.next_attempt_at <= ?1 ORDER BY o.next_attempt_at, s.id LIMIT ?2"
            ))?;
            let rows = query
                .query_map(params![now(), limit as i64], |row| {
                    Ok(Due {
                        submission: submission(row)?,
                        attempts: row.get("attempts")?,
                        cms_file_id: row.get("cms_file_id")?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
        .await
    }

    /// When the next undelivered entry is due (Unix seconds), if any.
    pub async fn next_due(&self) -> Result<Option<i64>, StoreError> {
        self.db(|db| {
            Ok(db.query_row("SELECT MIN(next_attempt_at) FROM outbox WHERE delivered_at IS NULL", [], |r| r.get(0))?)
        })
        .await
    }

    /// Delivered: never sent again.
    pub async fn delivered(&self, id: i64) -> Result<(), StoreError> {
        self.db(move |db| Ok(db.execute("UPDATE outbox SET delivered_at = ?1, attempts = attempts + 1, last_error = NULL WHERE submission_id = ?2", params![now(), id]).map(drop)?))
            .await
    }

    /// Not delivered: tried again at `next_attempt_at`.
    pub async fn failed(&self, id: i64, next_attempt_at: i64, error: String) -> Result<(), StoreError> {
        self.db(move |db| {
            Ok(db
                .execute(
                    "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?1, last_error = ?2 WHERE submission_id = ?3",
                    params![next_attempt_at, error, id],
                )
                .map(drop)?)
        })
        .await
    }

    /// The proposal is in the CMS's media library as `file_id`: not uploaded again.
    pub async fn uploaded(&self, id: i64, file_id: i64) -> Result<(), StoreError> {
        self.db(move |db| {
            Ok(db
                .execute("UPDATE outbox SET cms_file_id = ?1 WHERE submission_id = ?2", params![file_id, id])
                .map(drop)?)
        })
        .await
    }

    pub async fn backlog(&self) -> Result<Backlog, StoreError> {
        self.db(|db| {
            let (pending, oldest, most): (i64, Option<i64>, Option<i64>) = db.query_row(
                "SELECT COUNT(*), MIN(s.received_at), MAX(o.attempts) FROM outbox o JOIN submissions s ON s.id = o.submission_id WHERE o.delivered_at IS NULL",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )?;
            Ok(Backlog {
                pending: pending as u64,
                oldest_pending_secs: oldest.map(|t| (now() - t).max(0) as u64),
                most_attempts: most.unwrap_or(0) as u32,
            })
        })
        .await
    }

    /// The proposal bytes of the submission `id`.
    pub async fn proposal_of(&self, id: i64) -> Result<Option<Vec<u8>>, StoreError> {
        self.db(move |db| {
            let bytes = db
                .query_row("SELECT proposal FROM submissions WHERE id = ?1", params![id], |r| {
                    r.get::<_, Option<Vec<u8>>>(0)
                })
                .optional()?;
            Ok(bytes.flatten())
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Instances sharing one `DATA_DIR` (`make test-scale`) open the store
    /// at once and keep submissions at once: none is refused "database is
    /// locked", and every one is kept exactly once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn instances_on_one_data_dir_open_and_keep_at_once() {
        const INSTANCES: usize = 4;
        const EACH: usize = 25;
        for _ in 0..5 {
            let dir = tempfile::tempdir().unwrap();
            let start = std::sync::Barrier::new(INSTANCES);
            let stores: Vec<FormStore> = std::thread::scope(|scope| {
                let opening: Vec<_> = (0..INSTANCES)
                    .map(|_| {
                        scope.spawn(|| {
                            start.wait();
                            FormStore::open(dir.path())
                        })
                    })
                    .collect();
                opening
                    .into_iter()
                    .map(|open| open.join().unwrap().unwrap_or_else(|error| panic!("opened: {error:?}")))
                    .collect()
            });
            let keeping = stores.iter().enumerate().flat_map(|(instance, store)| {
                (0..EACH).map(move |n| {
                    let store = store.clone();
                    tokio::spawn(async move {
                        let new = NewSubmission {
                            form: FormKind::BusinessCommunity,
                            idempotency_key: Some(format!("{instance}-{n}")),
                            lang: "en",
                            data: serde_json::json!({ "n": n }),
                            proposal: None,
                            deliver: true,
                        };
                        store.keep(new).await
                    })
                })
            });
            for kept in futures::future::join_all(keeping).await {
                let kept = kept.unwrap();
                assert!(matches!(kept, Ok(Kept::New(_))), "{kept:?}");
            }
            assert_eq!(stores[0].all(FormKind::BusinessCommunity).await.unwrap().len(), INSTANCES * EACH);
        }
    }
}
