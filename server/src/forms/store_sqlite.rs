//! The embedded [`FormStore`]: `DATA_DIR/forms.sqlite3`, in WAL mode with
//! `synchronous=FULL`, so a submission answered 201 is on disk (a crash or
//! a power cut after the answer loses nothing). One connection behind a
//! mutex, each call on tokio's blocking pool. Instances may share it on
//! one machine's disk (its locks are not to be trusted on a network
//! filesystem): each takes a lease in Redis on an entry before sending it.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use rusqlite::{Connection, OptionalExtension, params};

use super::FormKind;
use super::store::{
    Backlog, Due, Fields, FormStore, NewSubmission, Receipt, StoreError, Submission, new_reference, now,
};

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

#[derive(Clone)]
pub struct SqliteFormStore {
    db: Arc<Mutex<Connection>>,
}

fn submission(row: &rusqlite::Row<'_>) -> rusqlite::Result<Submission> {
    let (reference, form, data): (String, String, String) = (row.get("reference")?, row.get("form")?, row.get("data")?);
    let fields = FormKind::parse(&form).and_then(|kind| {
        Fields::read(kind, &data)
            .inspect_err(|error| tracing::error!(%reference, form, %error, "a kept submission's fields do not read"))
            .ok()
    });
    Ok(Submission {
        id: row.get("id")?,
        reference,
        form,
        lang: row.get("lang")?,
        received_at: row.get("received_at")?,
        fields,
        has_proposal: row.get("has_proposal")?,
    })
}

const COLUMNS: &str =
    "s.id, s.reference, s.form, s.lang, s.received_at, s.data, s.proposal IS NOT NULL AS has_proposal";

impl SqliteFormStore {
    /// Opens or creates `<data_dir>/forms.sqlite3`.
    pub fn open(data_dir: &Path) -> Result<SqliteFormStore, StoreError> {
        let path = data_dir.join(FILE);
        let open = || -> rusqlite::Result<Connection> {
            let db = crate::infra::sqlite::open(&path)?;
            // Every commit reaches the disk before the visitor is told it was received.
            db.pragma_update(None, "synchronous", "FULL")?;
            db.pragma_update(None, "foreign_keys", "ON")?;
            db.execute_batch(SCHEMA)?;
            Ok(db)
        };
        let db = open().map_err(|source| StoreError::Open { path: path.clone(), source })?;
        Ok(SqliteFormStore { db: Arc::new(Mutex::new(db)) })
    }

    async fn db<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let db = self.db.clone();
        tokio::task::spawn_blocking(move || work(&mut crate::infra::locks::lock(&db))).await?
    }
}

#[async_trait]
impl FormStore for SqliteFormStore {
    async fn keep(&self, new: NewSubmission) -> Result<Receipt, StoreError> {
        self.db(move |db| {
            let tx = db.transaction()?;
            let form = new.fields.kind();
            if let Some(key) = &new.idempotency_key {
                let seen: Option<String> = tx
                    .query_row("SELECT reference FROM submissions WHERE form = ?1 AND idempotency_key = ?2", params![form.name(), key], |r| r.get(0))
                    .optional()?;
                if let Some(reference) = seen {
                    return Ok(Receipt::Replayed(reference));
                }
            }
            let data = serde_json::to_string(&new.fields).expect("a form's fields as JSON");
            let now = now();
            let mut attempt = 0;
            let (id, reference) = loop {
                let reference = new_reference(form)?;
                let inserted = tx.execute(
                    "INSERT INTO submissions (reference, form, idempotency_key, lang, received_at, data, proposal) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    params![reference, form.name(), new.idempotency_key, new.lang, now, data, new.proposal],
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
            Ok(Receipt::New(reference))
        })
        .await
    }

    async fn all(&self, form: FormKind) -> Result<Vec<Submission>, StoreError> {
        self.db(move |db| {
            let mut query =
                db.prepare(&format!("SELECT {COLUMNS} FROM submissions s WHERE s.form = ?1 ORDER BY s.id"))?;
            let rows = query.query_map(params![form.name()], submission)?.collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
        .await
    }

    async fn proposal(&self, reference: String) -> Result<Option<Vec<u8>>, StoreError> {
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

    /// The entries due, claimed by no one: instances sharing the file take
    /// a lease in Redis on each instead.
    async fn claim(&self, limit: usize, _lease: Duration) -> Result<Vec<Due>, StoreError> {
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

    async fn next_due(&self) -> Result<Option<i64>, StoreError> {
        self.db(|db| {
            Ok(db.query_row("SELECT MIN(next_attempt_at) FROM outbox WHERE delivered_at IS NULL", [], |r| r.get(0))?)
        })
        .await
    }

    async fn delivered(&self, id: i64) -> Result<(), StoreError> {
        self.db(move |db| Ok(db.execute("UPDATE outbox SET delivered_at = ?1, attempts = attempts + 1, last_error = NULL WHERE submission_id = ?2", params![now(), id]).map(drop)?))
            .await
    }

    async fn failed(&self, id: i64, next_attempt_at: i64, error: String) -> Result<(), StoreError> {
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

    async fn uploaded(&self, id: i64, file_id: i64) -> Result<(), StoreError> {
        self.db(move |db| {
            Ok(db
                .execute("UPDATE outbox SET cms_file_id = ?1 WHERE submission_id = ?2", params![file_id, id])
                .map(drop)?)
        })
        .await
    }

    async fn backlog(&self) -> Result<Backlog, StoreError> {
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

    async fn proposal_of(&self, id: i64) -> Result<Option<Vec<u8>>, StoreError> {
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

    fn claims(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::store::tests::{BUSINESS_LEAD, contract};
    use super::*;

    #[tokio::test]
    async fn keeps_and_delivers_as_every_store_must() {
        let dir = tempfile::tempdir().unwrap();
        contract(&SqliteFormStore::open(dir.path()).unwrap()).await;
    }

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
            let stores: Vec<SqliteFormStore> = std::thread::scope(|scope| {
                let opening: Vec<_> = (0..INSTANCES)
                    .map(|_| {
                        scope.spawn(|| {
                            start.wait();
                            SqliteFormStore::open(dir.path())
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
                            idempotency_key: Some(format!("{instance}-{n}")),
                            lang: "en",
                            fields: Fields::read(FormKind::BusinessCommunity, BUSINESS_LEAD).unwrap(),
                            proposal: None,
                            deliver: true,
                        };
                        store.keep(new).await
                    })
                })
            });
            for kept in futures::future::join_all(keeping).await {
                let kept = kept.unwrap();
                assert!(matches!(kept, Ok(Receipt::New(_))), "{kept:?}");
            }
            assert_eq!(stores[0].all(FormKind::BusinessCommunity).await.unwrap().len(), INSTANCES * EACH);
        }
    }
}
