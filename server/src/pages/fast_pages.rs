//! The whole answers the fast path ([`super::fast`]) keeps: one per
//! encoding and address, each with the content generation it was answered
//! for, and, for a page for earlier content, until when it may still be
//! served ([`Stale`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};

use super::cached_page::Stale;

/// A page answer kept whole.
pub(super) struct WholeAnswer {
    pub generation: u64,
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
    /// For a page for earlier content: served until it is rendered again.
    pub stale: Option<Stale>,
}

/// An entry's key: the encoding answered (0 none, 1 br, 2 gzip) and the address.
pub(super) type Key = (u8, Box<str>);

#[derive(Clone)]
pub struct FastPages {
    pub(super) kept: Option<moka::sync::Cache<Key, Arc<WholeAnswer>>>,
    /// Requests answered here (`/healthz?detail`).
    pub(super) hits: Arc<AtomicU64>,
    /// `PAGE_STALE_MAX_SECS`.
    stale_for: Duration,
}

/// What an entry costs besides its key and body: its headers and
/// bookkeeping. The body is counted though the page cache may hold the same
/// bytes: a page read from disk, or one the page cache has let go, is held
/// by its entry here alone (counting only headers let some 8,000 entries
/// hold bodies no cache counted while a newsroom was crawled).
const ENTRY_COST: usize = 1024;

impl FastPages {
    /// Entries within `capacity_bytes`, bodies included, each kept
    /// `lifetime` at most, a stale one served `stale_for` after its content
    /// was superseded at most; none with a capacity of 0.
    pub fn new(capacity_bytes: u64, lifetime: Duration, stale_for: Duration) -> FastPages {
        let kept = (capacity_bytes > 0).then(|| {
            moka::sync::Cache::builder()
                .max_capacity(capacity_bytes)
                .weigher(|key: &Key, kept: &Arc<WholeAnswer>| {
                    (ENTRY_COST + key.1.len() + kept.body.len()).try_into().unwrap_or(u32::MAX)
                })
                .time_to_live(lifetime)
                .build()
        });
        FastPages { kept, hits: Arc::default(), stale_for }
    }

    /// Requests answered from the kept entries since the start.
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// Whether a page for earlier content may still be served: its new page
    /// is not rendered yet, and its content was superseded `stale_for` ago
    /// at most (its age recorded as the full path records it).
    pub(super) fn still_servable(&self, stale: &Stale) -> bool {
        if stale.refreshed.done() {
            return false;
        }
        let age = stale.superseded.elapsed();
        if age > self.stale_for {
            return false;
        }
        metrics::histogram!("page_stale_age_seconds").record(age.as_secs_f64());
        true
    }
}
