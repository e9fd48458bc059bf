//! Delivery to the CMS, when `CMS_URL` is set: every submission is written
//! with an outbox entry in the same transaction, and this worker sends it as
//! Strapi's `{"data": …}` to `POST /api/business-community-leads` or
//! `/api/foundation-applications` (with `CMS_TOKEN`), a proposal first to
//! `POST /api/upload`. An entry is retried with doubling waits (from
//! `FORMS_RETRY_MS`, at most an hour) until the CMS answers 2xx, then never
//! sent again; the outbox is on disk, so a restart carries on where it was.
//! A CMS that already has the reference (it is unique there: a crash came
//! between its 2xx and our record of it) counts as delivered. Each failure
//! is logged with the backlog; `/healthz?detail` and `/metrics` show it
//! too, as read after the worker's last pass ([`Outbox::backlog`]).
//!
//! Instances sharing one `DATA_DIR` each run this worker: with `REDIS_URL`,
//! each takes a lease on an entry (`SET … NX PX`) before sending it, so one
//! of them delivers each submission. The lease is kept after a delivery
//! (the entry is marked delivered by then) and given back after a failure,
//! so that whoever is due next tries again. Without Redis, one instance
//! per `DATA_DIR` is assumed. With `DATABASE_URL` the store claims each
//! entry itself (`FormStore::claim`) and no lease is taken in Redis.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::Notify;

use super::FormKind;
use super::export::record;
use super::store::{Backlog, Due, Store, now};

/// The longest wait between two tries of one entry.
const MAX_WAIT: Duration = Duration::from_secs(3600);
/// Entries sent per pass.
const BATCH: usize = 20;
/// How often an idle worker looks at the outbox anyway (entries of another
/// run, clocks that jumped).
const IDLE: Duration = Duration::from_secs(30);

#[derive(Clone)]
pub struct Outbox {
    store: Store,
    http: reqwest::Client,
    base: String,
    token: Option<String>,
    first_wait: Duration,
    wake: Arc<Notify>,
    /// Where leases are taken, when instances share the store.
    leases: Option<crate::infra::redis::Redis>,
    /// The backlog as last read: `None` before the first read.
    seen: Arc<Mutex<Option<LastRead>>>,
}

/// The backlog as read (or why it could not be), and when.
type LastRead = (Result<Backlog, String>, Instant);

/// How long a lease on an entry lasts (in Redis, or the store's own claim): longer than one delivery (an upload
/// and a post, 30 s each at most), short enough that an instance killed
/// while sending holds nothing for long.
const LEASE: Duration = Duration::from_secs(120);

#[derive(Debug, thiserror::Error)]
enum DeliveryError {
    #[error("CMS unreachable: {0}")]
    Unreachable(#[from] reqwest::Error),
    #[error("CMS answered {status}: {body}")]
    Refused { status: u16, body: String },
    #[error(transparent)]
    Store(#[from] super::StoreError),
}

impl Outbox {
    pub fn new(
        store: Store,
        base: &str,
        token: Option<String>,
        first_wait: Duration,
        leases: Option<crate::infra::redis::Redis>,
    ) -> Result<Outbox, reqwest::Error> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .user_agent(concat!("site/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(Outbox {
            store,
            http,
            base: base.trim_end_matches('/').to_owned(),
            token,
            first_wait,
            wake: Arc::default(),
            leases,
            seen: Arc::default(),
        })
    }

    /// A new entry is waiting: send it now rather than at the next look.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// The backlog as the worker last read it (after each pass, so within
    /// [`IDLE`], and at once after a submission, which wakes it), the
    /// oldest entry's age as of now; `None` before the first read. Read
    /// from memory: `/healthz` and `/metrics` never wait for SQLite, nor for
    /// the blocking pool its reads run on, which other work may fill.
    pub fn backlog(&self) -> Option<Result<Backlog, String>> {
        let seen = crate::infra::locks::lock(&self.seen);
        let (read, at) = seen.as_ref()?;
        let since = at.elapsed().as_secs();
        Some(read.clone().map(|backlog| Backlog {
            oldest_pending_secs: backlog.oldest_pending_secs.map(|secs| secs + since),
            ..backlog
        }))
    }

    /// Reads the backlog into memory again; returns it (empty if unreadable).
    async fn read_backlog(&self) -> Backlog {
        let read = self.store.backlog().await;
        if let Err(error) = &read {
            tracing::error!(%error, "outbox unreadable");
        }
        let backlog = read.as_ref().cloned().unwrap_or_default();
        *crate::infra::locks::lock(&self.seen) = Some((read.map_err(|error| error.to_string()), Instant::now()));
        backlog
    }

    /// Delivers for as long as the server runs.
    pub async fn run_forever(self) {
        let backlog = self.read_backlog().await;
        if backlog.pending > 0 {
            tracing::warn!(
                pending = backlog.pending,
                oldest_pending_secs = backlog.oldest_pending_secs,
                "form deliveries pending from before the start"
            );
        }
        loop {
            self.deliver_due().await;
            self.read_backlog().await;
            let wait = match self.store.next_due().await {
                Ok(Some(at)) => Duration::from_secs((at - now()).max(0) as u64).min(IDLE),
                Ok(None) => IDLE,
                Err(error) => {
                    tracing::error!(%error, "outbox unreadable");
                    IDLE
                }
            };
            if wait.is_zero() {
                // Due again already (an entry of the second the last pass ran): a breath, not a spin.
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
            tokio::select! {
                () = self.wake.notified() => {}
                () = tokio::time::sleep(wait) => {}
            }
        }
    }

    /// Sends what is due, [`BATCH`] entries at most. A store that claims
    /// entries for this instance is asked for one at a time, so that an
    /// instance killed while sending holds only the one it was sending
    /// until its lease lapses.
    async fn deliver_due(&self) {
        let (rounds, each) = if self.store.claims() { (BATCH, 1) } else { (1, BATCH) };
        for _ in 0..rounds {
            let due = match self.store.claim(each, LEASE).await {
                Ok(due) => due,
                Err(error) => return tracing::error!(%error, "outbox unreadable"),
            };
            if due.is_empty() {
                return;
            }
            for entry in due {
                self.send(entry).await;
            }
        }
    }

    /// Sends one entry, and records how it went.
    async fn send(&self, entry: Due) {
        let (id, reference, attempt) = (entry.submission.id, entry.submission.reference.clone(), entry.attempts + 1);
        if !self.lease(&reference).await {
            return;
        }
        match self.deliver(&entry).await {
            Ok(()) => match self.store.delivered(id).await {
                Ok(()) => tracing::info!(%reference, attempt, "form delivered to the CMS"),
                Err(error) => tracing::error!(%reference, %error, "form delivered but not marked so"),
            },
            Err(error) => {
                let wait = self.wait_after(attempt);
                let recorded = self.store.failed(id, now() + wait.as_secs().max(1) as i64, error.to_string()).await;
                let pending = self.read_backlog().await.pending;
                tracing::warn!(%reference, attempt, retry_in_secs = wait.as_secs().max(1), pending, %error, "form delivery failed; will retry");
                if let Err(error) = recorded {
                    tracing::error!(%reference, %error, "outbox not updated");
                }
                self.release(&reference).await;
            }
        }
    }

    fn lease_key(reference: &str) -> String {
        format!("{}outbox:lease:{reference}", crate::infra::redis::PREFIX)
    }

    /// Whether this instance may send `reference` now: always without
    /// Redis (or when the store claimed it); with it, if no other instance
    /// holds its lease. Redis down: not now (the entry waits, it is not
    /// lost).
    async fn lease(&self, reference: &str) -> bool {
        let Some(redis) = &self.leases else { return true };
        let take = redis
            .query::<Option<String>>(
                redis::cmd("SET")
                    .arg(Self::lease_key(reference))
                    .arg(redis.instance())
                    .arg("NX")
                    .arg("PX")
                    .arg(LEASE.as_millis() as u64),
            )
            .await;
        match take {
            Ok(taken) => taken.is_some(),
            Err(error) => {
                tracing::warn!(%reference, %error, "no outbox lease (Redis unavailable); delivery waits");
                false
            }
        }
    }

    /// Gives the lease back after a failed delivery.
    async fn release(&self, reference: &str) {
        if let Some(redis) = &self.leases
            && let Err(error) = redis.query::<i64>(redis::cmd("DEL").arg(Self::lease_key(reference))).await
        {
            tracing::debug!(%reference, %error, "outbox lease not given back; it expires");
        }
    }

    /// The wait after the `attempt`th failure: the first wait, doubled each time, at most an hour.
    fn wait_after(&self, attempt: u32) -> Duration {
        self.first_wait.saturating_mul(1 << attempt.saturating_sub(1).min(20)).min(MAX_WAIT)
    }

    fn post(&self, path: &str) -> reqwest::RequestBuilder {
        let request = self.http.post(format!("{}{path}", self.base));
        match &self.token {
            Some(token) => request.bearer_auth(token),
            None => request,
        }
    }

    async fn deliver(&self, entry: &Due) -> Result<(), DeliveryError> {
        let submission = &entry.submission;
        let Some(kind) = FormKind::parse(&submission.form) else {
            return Err(DeliveryError::Refused { status: 0, body: format!("unknown form {}", submission.form) });
        };
        // The record as the export has it, its proposal (the file's name, size
        // and hash) replaced by the file's id in the CMS's media library.
        let mut data = serde_json::to_value(record(submission)).expect("JSON");
        if submission.has_proposal {
            let file_id = match entry.cms_file_id {
                Some(id) => id,
                None => self.upload(submission.id, &submission.reference).await?,
            };
            data["proposal"] = json!(file_id);
        }
        let response = self.post(&format!("/api/{}", kind.collection())).json(&json!({ "data": data })).send().await?;
        let status = response.status();
        if status.is_success() {
            return Ok(());
        }
        let body = response.text().await.unwrap_or_default();
        if status == reqwest::StatusCode::BAD_REQUEST && already_there(&body) {
            tracing::info!(reference = %submission.reference, "the CMS has this reference already");
            return Ok(());
        }
        Err(DeliveryError::Refused { status: status.as_u16(), body: body.chars().take(300).collect() })
    }

    /// Uploads the proposal to the media library once; its id is kept.
    async fn upload(&self, id: i64, reference: &str) -> Result<i64, DeliveryError> {
        let bytes = self.store.proposal_of(id).await?.unwrap_or_default();
        let part =
            reqwest::multipart::Part::bytes(bytes).file_name(format!("{reference}.pdf")).mime_str("application/pdf")?;
        let response =
            self.post("/api/upload").multipart(reqwest::multipart::Form::new().part("files", part)).send().await?;
        let status = response.status();
        let body = response.text().await.unwrap_or_default();
        let uploaded: Option<i64> =
            serde_json::from_str::<Value>(&body).ok().and_then(|v| v.get(0)?.get("id")?.as_i64());
        match uploaded {
            Some(file_id) if status.is_success() => {
                self.store.uploaded(id, file_id).await?;
                Ok(file_id)
            }
            _ => Err(DeliveryError::Refused { status: status.as_u16(), body: body.chars().take(300).collect() }),
        }
    }
}

/// Strapi's answer to a second entry with a unique attribute's value:
/// `ValidationError` "This attribute must be unique" on `reference`.
fn already_there(body: &str) -> bool {
    let Ok(answer) = serde_json::from_str::<Value>(body) else { return false };
    let errors = answer.pointer("/error/details/errors").and_then(Value::as_array).cloned().unwrap_or_default();
    errors.iter().any(|error| {
        error.get("path").and_then(Value::as_array).is_some_and(|path| path.iter().any(|p| p == "reference"))
            && error.get("message").and_then(Value::as_str).is_some_and(|m| m.contains("unique"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_up_to_an_hour() {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(super::super::store_sqlite::SqliteFormStore::open(dir.path()).unwrap());
        let outbox = Outbox::new(store, "http://cms/", None, Duration::from_secs(5), None).unwrap();
        let waits: Vec<u64> = (1..=12).map(|n| outbox.wait_after(n).as_secs()).collect();
        assert_eq!(waits, [5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 3600, 3600]);
        assert_eq!(outbox.base, "http://cms");
    }

    #[test]
    fn a_reference_the_cms_has_counts_as_delivered() {
        let unique = r#"{"data":null,"error":{"status":400,"name":"ValidationError","message":"This attribute must be unique","details":{"errors":[{"path":["reference"],"message":"This attribute must be unique","name":"ValidationError"}]}}}"#;
        assert!(already_there(unique));
        assert!(!already_there(r#"{"error":{"status":400,"message":"Invalid key x"}}"#));
        assert!(!already_there("not json"));
    }
}
