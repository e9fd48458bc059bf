//! Where submissions live: `DATA_DIR/forms.sqlite3`, in WAL mode with
//! `synchronous=FULL`, so a submission answered 201 is on disk (a crash or
//! a power cut after the answer loses nothing). A submission, its
//! idempotency key and its outbox entry are written in one transaction.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use super::FormKind;
use super::business::BusinessLead;
use super::foundation::FoundationApplication;

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

/// A form's fields as its parser typed them, and as they are kept: the
/// JSON of the form's own type in the `data` column, the form's name
/// beside it (`form`) saying which. Read back, they are parsed as that type
/// again, so every field is read as it was written (the same JSON, written
/// again, for the export and the CMS). A record that no longer reads as its
/// type is logged and exported without its fields, as a record of JSON that
/// did not parse was before; so a change to these types, or to the rules
/// of the values they hold (the lists of regions and organisation types,
/// `Msisdn::parse`, `Date::parse`), must still read what was kept: the
/// tests below read records as the first version wrote them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Fields {
    BusinessCommunity(BusinessLead),
    FoundationApplication(FoundationApplication),
}

impl Fields {
    pub fn kind(&self) -> FormKind {
        match self {
            Fields::BusinessCommunity(_) => FormKind::BusinessCommunity,
            Fields::FoundationApplication(_) => FormKind::FoundationApplication,
        }
    }

    /// The fields kept as `json` for a form of `kind`.
    pub(super) fn read(kind: FormKind, json: &str) -> serde_json::Result<Fields> {
        Ok(match kind {
            FormKind::BusinessCommunity => Fields::BusinessCommunity(serde_json::from_str(json)?),
            FormKind::FoundationApplication => Fields::FoundationApplication(serde_json::from_str(json)?),
        })
    }
}

/// A submission to keep.
pub struct NewSubmission {
    pub idempotency_key: Option<String>,
    pub lang: &'static str,
    pub fields: Fields,
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
    /// `None`: the record did not read as its form's (logged).
    pub fields: Option<Fields>,
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
            let form = new.fields.kind();
            if let Some(key) = &new.idempotency_key {
                let seen: Option<String> = tx
                    .query_row("SELECT reference FROM submissions WHERE form = ?1 AND idempotency_key = ?2", params![form.name(), key], |r| r.get(0))
                    .optional()?;
                if let Some(reference) = seen {
                    return Ok(Kept::Replayed(reference));
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
pub(super) mod tests {
    use super::*;

    /// A business lead as the store has kept them since its first version.
    pub const BUSINESS_LEAD: &str = r#"{"name":"Amina Mwakyusa","email":"amina@example.co.tz","phone":"255754000001","alternateNumber":null,"businessName":"Mwakyusa Traders","businessSize":"small","industry":"Retail","whereHeard":"influencer","services":["iot","hosting"],"influencerName":"Zuchu","employeeName":null,"merchantName":null}"#;

    /// A foundation application as the store has kept them since its first version.
    pub const FOUNDATION_APPLICATION: &str = r#"{"applicants":[{"name":"Amina","email":"amina@example.org","phone":"255754000001","role":"Director"},{"name":"Baraka","email":"baraka@example.org","phone":"255754000002","role":"Treasurer"}],"organisation":{"name":"Mwanza Youth","type":"community-based","registrationNumber":"NGO/123"},"project":{"title":"Clean water","summary":"Wells for two villages.\n\nSecond paragraph.","startDate":"2026-07-01","endDate":"2027-06-30"},"location":{"region":"Dar es Salaam","district":"Ilala"},"team":{"size":12,"description":"Volunteers"},"budget":[{"item":"Boat","amountTzs":500000},{"item":"Fuel","amountTzs":30000}],"budgetTotalTzs":530000,"proposal":{"fileName":"proposal.pdf","size":2048,"sha256":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}}"#;

    /// What was kept reads back as its form's type, and is written again
    /// byte for byte as it was kept.
    #[test]
    fn kept_fields_read_back_and_are_written_as_they_were() {
        for (kind, kept) in
            [(FormKind::BusinessCommunity, BUSINESS_LEAD), (FormKind::FoundationApplication, FOUNDATION_APPLICATION)]
        {
            let fields = Fields::read(kind, kept).unwrap_or_else(|error| panic!("{kind:?}: {error}"));
            assert_eq!(fields.kind(), kind);
            assert_eq!(serde_json::to_string(&fields).unwrap(), kept);
        }
        let without_proposal =
            FOUNDATION_APPLICATION.split(r#","proposal":"#).next().unwrap().to_owned() + r#","proposal":null}"#;
        let fields = Fields::read(FormKind::FoundationApplication, &without_proposal).unwrap();
        assert_eq!(serde_json::to_string(&fields).unwrap(), without_proposal);
        assert!(Fields::read(FormKind::FoundationApplication, BUSINESS_LEAD).is_err(), "read as its own form's");
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
                assert!(matches!(kept, Ok(Kept::New(_))), "{kept:?}");
            }
            assert_eq!(stores[0].all(FormKind::BusinessCommunity).await.unwrap().len(), INSTANCES * EACH);
        }
    }
}
