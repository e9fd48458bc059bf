//! When the next pre-render pass ([`super::prerender`]) starts, and what
//! the last one did (`/healthz?detail`).

use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

/// When the next pass starts, and what the last pass did.
#[derive(Clone)]
pub struct Prerender {
    /// Notified when an invalidation dropped content
    /// (`content::Invalidation`): another pass once the current one ends.
    pub(super) again: Arc<Notify>,
    pub(super) last: Arc<Mutex<Option<Pass>>>,
}

/// One pass over every page.
#[derive(Clone, Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pass {
    /// Pages in the sitemap, both languages.
    pub pages: usize,
    /// Of those, rendered now (the others were cached, or failed).
    pub rendered: usize,
    pub failed: usize,
    pub secs: f64,
    /// Passes completed since the start.
    pub passes: u64,
}

impl Prerender {
    /// Passes that start again when `again` is notified.
    pub fn new(again: Arc<Notify>) -> Prerender {
        Prerender { again, last: Arc::default() }
    }

    /// What the last completed pass did.
    pub fn last(&self) -> Option<Pass> {
        crate::infra::locks::lock(&self.last).clone()
    }
}
