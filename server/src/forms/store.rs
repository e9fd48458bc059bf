//! Where submissions live: [`FormStore`], what the forms and their outbox
//! need of storage, and the records it keeps. A submission, its idempotency
//! key and its outbox entry are written in one transaction, committed
//! before the visitor hears it was received. Two implementations: the
//! embedded `store_sqlite` (`DATA_DIR/forms.sqlite3`, the default), and
//! `store_postgres` with `DATABASE_URL`, for instances that share no disk.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use async_trait::async_trait;
use serde::Serialize;

use super::FormKind;
use super::business::BusinessLead;
use super::foundation::FoundationApplication;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot open the forms store {}: {source}", path.display())]
    Open { path: std::path::PathBuf, source: rusqlite::Error },
    #[error("forms store: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("forms store (PostgreSQL): {0}")]
    Postgres(#[from] tokio_postgres::Error),
    #[error("forms store (PostgreSQL): {0}")]
    Pool(#[from] deadpool_postgres::PoolError),
    #[error("cannot set up the forms tables in PostgreSQL: {0}")]
    Migrate(#[from] refinery::Error),
    #[error("no free reference after {0} draws")]
    NoReference(u32),
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
pub enum Receipt {
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

/// What the forms keep, and their outbox, wherever it lives.
#[async_trait]
pub trait FormStore: Send + Sync {
    /// Makes the store ready at start: its tables made or brought up to
    /// date where that needs a connection (the embedded store made them
    /// when it opened).
    async fn migrate(&self) -> Result<(), StoreError> {
        Ok(())
    }
    /// Keeps a submission (committed when this returns), or finds the one
    /// its idempotency key was first sent with.
    async fn keep(&self, new: NewSubmission) -> Result<Receipt, StoreError>;
    /// Every submission of `form`, oldest first.
    async fn all(&self, form: FormKind) -> Result<Vec<Submission>, StoreError>;
    /// The proposal PDF of the submission `reference`.
    async fn proposal(&self, reference: String) -> Result<Option<Vec<u8>>, StoreError>;
    /// The proposal bytes of the submission `id`.
    async fn proposal_of(&self, id: i64) -> Result<Option<Vec<u8>>, StoreError>;
    /// Up to `limit` undelivered entries whose time has come, oldest first,
    /// for this instance to send. Where [`FormStore::claims`] says so, each
    /// is kept from every other instance for `lease` (or until marked
    /// [`FormStore::failed`]); an instance killed while sending holds it no
    /// longer than that.
    async fn claim(&self, limit: usize, lease: Duration) -> Result<Vec<Due>, StoreError>;
    /// When the next undelivered entry is due (Unix seconds), if any.
    async fn next_due(&self) -> Result<Option<i64>, StoreError>;
    /// Delivered: never sent again.
    async fn delivered(&self, id: i64) -> Result<(), StoreError>;
    /// Not delivered: tried again at `next_attempt_at`, by whichever instance claims it then.
    async fn failed(&self, id: i64, next_attempt_at: i64, error: String) -> Result<(), StoreError>;
    /// The proposal is in the CMS's media library as `file_id`: not uploaded again.
    async fn uploaded(&self, id: i64, file_id: i64) -> Result<(), StoreError>;
    async fn backlog(&self) -> Result<Backlog, StoreError>;
    /// Whether [`FormStore::claim`] keeps other instances off what it
    /// gives: otherwise instances that share the store take a lease in
    /// Redis on each entry (`outbox`).
    fn claims(&self) -> bool;
}

/// The store the forms were opened with.
pub type Store = Arc<dyn FormStore>;

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

    fn lead(key: &str, deliver: bool) -> NewSubmission {
        NewSubmission {
            idempotency_key: Some(key.to_owned()),
            lang: "sw",
            fields: Fields::read(FormKind::BusinessCommunity, BUSINESS_LEAD).unwrap(),
            proposal: None,
            deliver,
        }
    }

    /// What every store must do, run against each (`store_sqlite`,
    /// `store_postgres`): keep, replay by key, export, and the outbox's
    /// life of an entry from due to delivered.
    pub async fn contract(store: &dyn FormStore) {
        let Receipt::New(first) = store.keep(lead("fill-1", true)).await.unwrap() else { panic!("a new submission") };
        assert_eq!(store.keep(lead("fill-1", true)).await.unwrap(), Receipt::Replayed(first.clone()));
        let application = NewSubmission {
            idempotency_key: Some("fill-1".to_owned()),
            lang: "en",
            fields: Fields::read(FormKind::FoundationApplication, FOUNDATION_APPLICATION).unwrap(),
            proposal: Some(b"%PDF-1.4 proposal".to_vec()),
            deliver: true,
        };
        let Receipt::New(applied) = store.keep(application).await.unwrap() else { panic!("the key is the form's own") };
        let Receipt::New(second) = store.keep(lead("fill-2", false)).await.unwrap() else { panic!("another key") };

        let leads = store.all(FormKind::BusinessCommunity).await.unwrap();
        assert_eq!(leads.iter().map(|s| s.reference.as_str()).collect::<Vec<_>>(), [first.as_str(), &second]);
        assert_eq!(serde_json::to_string(leads[0].fields.as_ref().unwrap()).unwrap(), BUSINESS_LEAD);
        assert_eq!((leads[0].lang.as_str(), leads[0].has_proposal), ("sw", false));
        assert!((now() - leads[0].received_at).abs() < 60, "received now");
        let applications = store.all(FormKind::FoundationApplication).await.unwrap();
        assert_eq!((applications.len(), applications[0].has_proposal), (1, true));
        assert_eq!(store.proposal(applied.clone()).await.unwrap().as_deref(), Some(&b"%PDF-1.4 proposal"[..]));
        assert_eq!(store.proposal(first.clone()).await.unwrap(), None);
        assert_eq!(store.proposal_of(applications[0].id).await.unwrap().unwrap(), b"%PDF-1.4 proposal");

        // Two entries due (the second lead is not for delivery), oldest first.
        let backlog = store.backlog().await.unwrap();
        assert_eq!((backlog.pending, backlog.most_attempts), (2, 0));
        assert!(store.next_due().await.unwrap().is_some_and(|at| at <= now()));
        let lease = Duration::from_secs(120);
        let due = store.claim(10, lease).await.unwrap();
        let references: Vec<&str> = due.iter().map(|d| d.submission.reference.as_str()).collect();
        assert_eq!(references, [first.as_str(), &applied]);
        if store.claims() {
            assert!(store.claim(10, lease).await.unwrap().is_empty(), "claimed entries are no one else's");
        }
        let (lead_id, application_id) = (due[0].submission.id, due[1].submission.id);
        store.delivered(lead_id).await.unwrap();
        store.uploaded(application_id, 42).await.unwrap();
        store.failed(application_id, now() + 3600, "CMS answered 502".to_owned()).await.unwrap();
        assert!(store.claim(10, lease).await.unwrap().is_empty(), "delivered, or not due yet");
        assert!(store.next_due().await.unwrap().is_some_and(|at| at >= now() + 3500));
        let backlog = store.backlog().await.unwrap();
        assert_eq!((backlog.pending, backlog.most_attempts), (1, 1));

        // Due again: claimed once more, its upload remembered.
        store.failed(application_id, now(), "CMS unreachable".to_owned()).await.unwrap();
        let due = store.claim(10, lease).await.unwrap();
        assert_eq!(due.len(), 1);
        assert_eq!((due[0].submission.id, due[0].attempts, due[0].cms_file_id), (application_id, 2, Some(42)));
        store.delivered(application_id).await.unwrap();
        assert_eq!(store.backlog().await.unwrap(), Backlog::default());
        assert_eq!(store.next_due().await.unwrap(), None);
    }
}
