//! Whether a render may start now: the engines are shared out so that no
//! client, and no kind of render, holds them all. A page for everyone takes
//! its client address's share (`render::admit_client`, `RENDERS_PER_ADDRESS`,
//! behind its own renders `RENDER_QUEUE_PER_ADDRESS`); a page for one
//! visitor takes a turn among the personal renders ([`PersonalRenders`]).
//! What waits too long or asks too much is refused ([`Unbuilt`]) and
//! answered 503 or 429.

use std::sync::Arc;
use std::time::Duration;

use ssr_runtime::RenderError;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::error::PageError;
use crate::account::session::SessionKey;
use crate::connections;

/// Why a page was not built: its client has as many renders under way and
/// waiting as it may, its turn among them did not come in time, or the
/// render failed. Shared by every request waiting for the page.
#[derive(Debug, Clone)]
pub enum Unbuilt {
    ClientBusy,
    ClientWaited(Duration),
    Render(RenderError),
}

impl From<Unbuilt> for PageError {
    fn from(unbuilt: Unbuilt) -> PageError {
        match unbuilt {
            Unbuilt::ClientBusy => PageError::ClientBusy,
            Unbuilt::ClientWaited(wait) => PageError::ClientWaited(wait),
            Unbuilt::Render(error) => PageError::Render(error),
        }
    }
}

impl From<connections::NotAdmitted> for Unbuilt {
    fn from(refused: connections::NotAdmitted) -> Unbuilt {
        match refused {
            connections::NotAdmitted::Busy => Unbuilt::ClientBusy,
            connections::NotAdmitted::Waited(wait) => Unbuilt::ClientWaited(wait),
        }
    }
}

/// Renders for one visitor (the account page, CPM, a page with a flash
/// notice or a form sent back): one at a time per session, and at most half
/// the engines in all, so that they wait their turn (as long as an engine,
/// `RENDER_QUEUE_TIMEOUT_MS`, then 503) before they delay a page for
/// everyone, whose renders always have the other half. A subscriber's
/// session bounds their renders in place of their address's share, which
/// the pages for everyone behind the same address keep.
#[derive(Clone)]
pub struct PersonalRenders {
    engines: Arc<Semaphore>,
    limit: usize,
    sessions: connections::Admission<SessionKey>,
}

/// How many of a session's renders may wait behind the one it runs: a
/// few tabs, or a double submit, are served one after another.
const WAITING_PER_SESSION: usize = 4;

/// A personal render's turn, given back when dropped.
pub struct Turn {
    _engine: OwnedSemaphorePermit,
    _session: Option<connections::Admitted<SessionKey>>,
}

impl PersonalRenders {
    pub fn new(workers: usize) -> PersonalRenders {
        let limit = (workers / 2).max(1);
        PersonalRenders {
            engines: Arc::new(Semaphore::new(limit)),
            limit,
            sessions: connections::Admission::new(1, WAITING_PER_SESSION),
        }
    }

    /// Personal renders under way (`/healthz?detail`).
    pub fn running(&self) -> usize {
        self.limit - self.engines.available_permits()
    }

    /// Personal renders waiting for their session's earlier ones (`/metrics`).
    pub fn waiting(&self) -> usize {
        self.sessions.waiting()
    }

    /// A turn for a render for the visitor of `session`, waiting at most
    /// `wait` for an engine, and as long for each of the session's own
    /// renders ahead of it.
    pub async fn turn(&self, session: Option<SessionKey>, wait: Duration) -> Result<Turn, Unbuilt> {
        let session = match session {
            Some(key) => Some(self.session_turn(key, wait).await?),
            None => None,
        };
        let engine = tokio::time::timeout(wait, self.engines.clone().acquire_owned())
            .await
            .map_err(|_| shed(Unbuilt::Render(RenderError::QueueTimeout(wait))))?
            .expect("the semaphore is never closed");
        Ok(Turn { _engine: engine, _session: session })
    }

    /// The session's turn alone, for a render as small as a page for
    /// everyone's share of one (the account page's personal part): one at a
    /// time per session, on any engine, waiting at most `wait` for each of
    /// the session's renders ahead of it.
    pub async fn session_turn(
        &self,
        session: SessionKey,
        wait: Duration,
    ) -> Result<connections::Admitted<SessionKey>, Unbuilt> {
        self.sessions.take(session, wait).await.map_err(|refused| shed(refused.into()))
    }
}

/// A personal render refused: counted.
fn shed(unbuilt: Unbuilt) -> Unbuilt {
    metrics::counter!("personal_renders_shed_total").increment(1);
    unbuilt
}
