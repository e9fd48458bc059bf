//! A stand-in for the operator's digital-service API: it serves the contract
//! of `server/OPERATOR_API.md` so that sign-in, balances, bundle purchase,
//! modem bundles and permission management work on a fresh machine with no
//! operator account. The `site` binary mounts [`router`] at `/sandbox` when
//! `DIGITAL_API_URL` is unset; the `server` crate does not know it. Its state
//! lives in `<data_dir>/sandbox.sqlite3` and survives restarts; delete the
//! file to start over from the seed.
//!
//! - `store`: the SQLite schema and the idempotent seeding; `seed`: the
//!   seeded subscribers, the bundle catalogue and the permissions.
//! - `domain`: numbers, codes and purposes, parsed once at the edge.
//! - `secrets`: codes and tokens from the OS CSPRNG, and their hashes.
//! - `codes`: one-time codes (sign-in, CPM), shared by every flow;
//!   `session`: bearer tokens and the extractors that check them.
//! - `subscriber`, `modem`, `cpm`: the contract's calls, one module per part.
//! - `inbox`: the sandbox's SMS (`/inbox`) and `/fail-next`.
//! - `reply`: bilingual messages and the error type mapped to HTTP once.

mod codes;
mod cpm;
mod domain;
mod inbox;
mod modem;
mod reply;
mod secrets;
mod seed;
mod session;
mod store;
mod subscriber;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::routing::{get, post, put};
use rusqlite::Connection;

/// How the sandbox behaves; `Default` is what the contract fixes.
#[derive(Debug, Clone)]
pub struct SandboxOptions {
    /// Write every code to the log (`tracing::info!`) as well as to the inbox.
    pub log_codes: bool,
    /// How long a one-time code can be used.
    pub code_ttl: Duration,
    /// How long after a code another can be asked for the same number.
    pub resend_after: Duration,
    /// How long a token is accepted.
    pub token_ttl: Duration,
}

impl Default for SandboxOptions {
    fn default() -> SandboxOptions {
        SandboxOptions {
            log_codes: false,
            code_ttl: Duration::from_secs(5 * 60),
            resend_after: Duration::from_secs(60),
            token_ttl: Duration::from_secs(30 * 60),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("cannot create the sandbox's data directory {path}: {source}")]
    DataDir { path: PathBuf, source: std::io::Error },
    #[error("cannot create the sandbox's database {path}: {source}")]
    Create { path: PathBuf, source: std::io::Error },
    /// The database file is there but cannot be used as it is; it is left
    /// untouched, for its owner to move away or repair.
    #[error(
        "the sandbox's database {path} {problem}. Nothing was changed: move it away (with any -wal and -shm file beside it) to start over from the seed, or repair it"
    )]
    Unusable { path: PathBuf, problem: String },
    #[error("sandbox database: {0}")]
    Database(#[from] rusqlite::Error),
    #[error("no randomness from the operating system: {0}")]
    Random(#[from] getrandom::Error),
    #[error("sandbox task failed: {0}")]
    Task(#[from] tokio::task::JoinError),
}

/// The sandbox's state: one SQLite connection behind a mutex. The sandbox
/// serves a developer or a test run, so one connection is plenty, and a
/// mutex makes every call a simple serial transaction.
#[derive(Clone)]
pub struct Sandbox {
    inner: Arc<Inner>,
}

struct Inner {
    db: Mutex<Connection>,
    options: SandboxOptions,
}

impl Sandbox {
    /// Opens or creates `<data_dir>/sandbox.sqlite3`, seeding it on first
    /// use. A file that is empty, damaged or not the sandbox's is refused
    /// ([`SandboxError::Unusable`]), not seeded over.
    pub fn open(data_dir: &Path, options: SandboxOptions) -> Result<Sandbox, SandboxError> {
        std::fs::create_dir_all(data_dir)
            .map_err(|source| SandboxError::DataDir { path: data_dir.to_owned(), source })?;
        let path = data_dir.join("sandbox.sqlite3");
        let mut db = store::open(&path)?;
        store::seed(&mut db, now_ms())?;
        tracing::info!(path = %path.display(), "operator API sandbox ready");
        Ok(Sandbox { inner: Arc::new(Inner { db: Mutex::new(db), options }) })
    }

    fn options(&self) -> &SandboxOptions {
        &self.inner.options
    }

    /// Runs `work` on the database from tokio's blocking pool, so a slow disk
    /// never stalls the workers that serve pages.
    async fn db<T, E>(&self, work: impl FnOnce(&mut Connection) -> Result<T, E> + Send + 'static) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<SandboxError> + Send + 'static,
    {
        let inner = self.inner.clone();
        tokio::task::spawn_blocking(move || {
            // A panic mid-call rolled its transaction back: the data is sound.
            let mut db = inner.db.lock().unwrap_or_else(PoisonError::into_inner);
            work(&mut db)
        })
        .await
        .map_err(|error| E::from(SandboxError::Task(error)))?
    }
}

/// The sandbox's routes: the contract under `/digital/`, plus `/inbox` and
/// `/fail-next`. The site nests this at `/sandbox`.
pub fn router(sandbox: Sandbox) -> Router {
    let digital = Router::new()
        .route("/api/v1/auth/request-otp", post(codes::request_sign_in_code))
        .route("/api/v1/auth/validate-otp", post(codes::validate_sign_in_code))
        .route("/api/v1/gsm-config/customer-details", get(subscriber::customer_details))
        .route("/api/v1/gsm-config/airtime-balance", get(subscriber::airtime_balance))
        .route("/api/v1/gsm-config/bundle-balance", get(subscriber::bundle_balance))
        .route("/api/v1/mpesa/balance", get(subscriber::mpesa_balance))
        .route("/api/v1/gsm-static-bundles", get(subscriber::catalogue))
        .route("/api/v1/gsm-static-bundles/purchase", post(subscriber::purchase))
        .route("/alternative-number/", post(modem::alternative_number))
        .route("/alternative-number/login-request-otp", post(modem::request_code))
        .route("/alternative-number/validate-otp", post(modem::validate_code))
        .route("/alternative-number/create-request-otp", post(modem::request_registration_code))
        .route("/alternative-number/create", post(modem::create))
        .route("/cpm/request-otp", post(codes::request_cpm_code))
        .route("/cpm/validate-otp", post(codes::validate_cpm_code))
        .route("/cpm/permissions", get(cpm::permissions))
        .route("/cpm/permissions/{id}", put(cpm::update_permission))
        .layer(axum::middleware::from_fn_with_state(sandbox.clone(), inbox::fail_next));
    Router::new()
        .nest("/digital", digital)
        .route("/inbox", get(inbox::inbox))
        .route("/fail-next", post(inbox::arm_fail_next))
        .with_state(sandbox)
}

/// Milliseconds since the Unix epoch: every time the database keeps.
fn now_ms() -> i64 {
    let since_epoch = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    i64::try_from(since_epoch.as_millis()).unwrap_or(i64::MAX)
}

fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// RFC 3339 in UTC to the second, as the contract's `expiresAt` and
/// `sentAt` are written.
fn rfc3339(ms: i64) -> String {
    use time::format_description::well_known::Rfc3339;
    time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000))
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_default()
}
