//! What every cache says of itself in `/metrics`, one set of series for all
//! of them, told apart by the label `cache` (`content`, `content_disk`,
//! `image_disk`, …): lookups answered and not, entries pushed out to make
//! room, writes dropped because the disk's writer was behind, and (read when
//! scraped) the bytes and entries held. Evictions are also logged, sampled:
//! a full cache evicts with every entry it takes.

use crate::infra::sampled::Sampled;

/// A lookup answered from the cache.
pub(crate) fn hit(cache: &'static str) {
    metrics::counter!("cache_hits_total", "cache" => cache).increment(1);
}

/// A lookup the cache could not answer.
pub(crate) fn miss(cache: &'static str) {
    metrics::counter!("cache_misses_total", "cache" => cache).increment(1);
}

/// An entry pushed out to make room; `log` is the cache's own sampler, so
/// that one cache's flood does not hide another's.
pub(crate) fn evicted(cache: &'static str, log: &Sampled) {
    metrics::counter!("cache_evictions_total", "cache" => cache).increment(1);
    if let Some(evictions) = log.tick() {
        tracing::info!(
            cache,
            evictions,
            "cache full: the entries used longest ago evicted (count since the last line)"
        );
    }
}

/// A write to a cache's disk dropped, not waited for: its writer was behind.
pub(crate) fn write_dropped(cache: &'static str, log: &Sampled) {
    metrics::counter!("cache_writes_dropped_total", "cache" => cache).increment(1);
    if let Some(dropped) = log.tick() {
        tracing::warn!(cache, dropped, "disk cache's writer behind: writes dropped (count since the last line)");
    }
}

/// What the cache holds now (set when `/metrics` is scraped).
pub(crate) fn held(cache: &'static str, bytes: u64, entries: u64) {
    metrics::gauge!("cache_bytes", "cache" => cache).set(bytes as f64);
    metrics::gauge!("cache_entries", "cache" => cache).set(entries as f64);
}
