//! The process's allocator: jemalloc, for every binary that links the
//! server (the site and its tests), because it says what it holds. glibc's
//! malloc keeps an arena per thread that does not say how much of it is
//! free; jemalloc's statistics split what the Rust code holds (`allocated`)
//! from the pages it keeps mapped for it (`resident`), so a grown RSS can
//! be told apart into live data, allocator slack and the rest (the JS
//! engines' heaps, which QuickJS takes from the C library's malloc, and
//! thread stacks). `/healthz?detail` and `/metrics` report them.

use serde::Serialize;
use tikv_jemalloc_ctl::{epoch, stats};

#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// What the allocator holds, in bytes, as of now.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Held {
    /// Live allocations of the Rust code.
    pub allocated_bytes: usize,
    /// Pages of memory the allocator keeps for them: `allocated` plus its
    /// slack (fragmentation, and freed pages not yet returned).
    pub resident_bytes: usize,
}

/// The allocator's figures, refreshed first; `None` (logged) if it cannot
/// give them.
pub fn held() -> Option<Held> {
    let read = || -> Result<Held, tikv_jemalloc_ctl::Error> {
        epoch::advance()?;
        Ok(Held { allocated_bytes: stats::allocated::read()?, resident_bytes: stats::resident::read()? })
    };
    read().inspect_err(|error| tracing::warn!(%error, "allocator statistics unavailable")).ok()
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_what_is_allocated() {
        let before = super::held().expect("jemalloc statistics").allocated_bytes;
        let block = vec![1u8; 8 << 20];
        let after = super::held().expect("jemalloc statistics");
        assert!(after.allocated_bytes >= before + (8 << 20), "{before} then {after:?}");
        assert!(after.resident_bytes >= after.allocated_bytes);
        drop(block);
    }
}
