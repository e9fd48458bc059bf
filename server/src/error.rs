//! [`StartError`]: why the server, or one of its tools, cannot start: each
//! says what to set or to mend, and [`StartError::exit`] says it once. What
//! fails once the server serves is answered by the feature it fails in: a
//! page's error is the error page (`pages::PageError`), an API's the one
//! API body (`account::AccountError`, `forms::FormError`).

use std::path::PathBuf;
use std::process::ExitCode;

use ssr_runtime::RenderError;

use crate::account::operator::OperatorError;
use crate::content::ContentError;
use crate::keys::KeyError;
use crate::manifest::ManifestError;
use crate::{account, forms};

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The render engines cannot start.
    #[error("render failed: {0}")]
    Engines(#[from] RenderError),
    /// The content source cannot be made.
    #[error("content unavailable: {0}")]
    Content(#[from] ContentError),
    #[error(transparent)]
    Manifest(#[from] ManifestError),
    /// `DATA_DIR` cannot be created or written.
    #[error("DATA_DIR {} cannot be written ({source}): set DATA_DIR to a directory this user may write, or give it write permission", dir.display())]
    DataDir { dir: PathBuf, source: std::io::Error },
    /// A cache kept in `DATA_DIR` cannot be opened.
    #[error("the {what} in DATA_DIR {}: {source}", dir.display())]
    Disk { what: &'static str, dir: PathBuf, source: std::io::Error },
    #[error(transparent)]
    SessionStore(#[from] account::session_store::StoreError),
    #[error(transparent)]
    Forms(#[from] forms::OpenError),
    #[error("REDIS_URL: {0}")]
    Redis(#[source] redis::RedisError),
    #[error("the operator API's client: {0}")]
    Operator(#[source] OperatorError),
    /// An HTTP client (the image endpoint's) cannot be made.
    #[error("the {what}'s HTTP client: {source}")]
    HttpClient { what: &'static str, source: reqwest::Error },
    #[error(transparent)]
    SessionKey(#[from] KeyError),
    /// A setting the server cannot do without.
    #[error("{setting} is required {why}")]
    Required { setting: &'static str, why: &'static str },
    /// The stand-in operator API cannot be opened.
    #[error("{0}")]
    StandIn(#[source] Box<dyn std::error::Error + Send + Sync>),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl StartError {
    /// Why the server or a tool stopped: logged, and said on stderr too
    /// (logs go to stdout, and a start that fails should tell whoever
    /// started it).
    pub fn exit(&self) -> ExitCode {
        tracing::error!(error = %self, "stopped");
        eprintln!("site: {self}");
        ExitCode::FAILURE
    }
}
