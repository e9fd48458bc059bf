//! The process's allocator: jemalloc, for every binary that links the
//! server (the site and its tests), because it says what it holds. It is
//! `malloc` itself, not only Rust's allocator, so the JS engines' heaps
//! (QuickJS allocates with the C library's `malloc`) are in its figures
//! and its arenas too. glibc's malloc kept an arena per engine thread that
//! did not say how much of it was free; jemalloc's statistics split what
//! the code holds (`allocated`) from the pages it keeps mapped for it
//! (`resident`), so a grown RSS can be told apart into live data,
//! allocator slack and the rest (the binary's pages and thread stacks).
//! `/healthz?detail` and `/metrics` report them.
//!
//! jemalloc returns freed pages to the system some seconds after they were
//! last used, but only when the arena that holds them is used again: the
//! pages a burst of renders (the pre-render pass) left behind would stay
//! resident while their threads sit idle. [`return_freed_pages`] starts its
//! background thread, which returns them on time.
//!
//! "Some seconds" is jemalloc's default of 10 ([`CONFIGURATION`] makes it
//! one): while a newsroom publishes all day, every page is rendered again
//! and again, and each render's buffers, freed at once, stayed resident
//! for ten seconds more, about 30–50 MB in a server holding 45 MB of live
//! data (measured under the publishing walk: RSS 124–139 MB against
//! 112–116 MB with one second). Pages freed are taken again within a
//! second when renders follow each other, so the faster return costs a
//! page fault now and then, not one per request.

use serde::Serialize;
use tikv_jemalloc_ctl::{background_thread, epoch, stats};

#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read when it starts (its `malloc_conf`; the
/// `MALLOC_CONF` environment variable still overrides them): freed
/// pages go back to the system one second after their last use.
#[used]
#[unsafe(export_name = "malloc_conf")]
static CONFIGURATION: Configuration = Configuration(c"dirty_decay_ms:1000".as_ptr());

/// A C string in a static: jemalloc reads the pointer, never writes it.
#[repr(transparent)]
struct Configuration(*const std::ffi::c_char);

// SAFETY: it points to a string literal, immutable for the whole run.
unsafe impl Sync for Configuration {}

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

/// Starts jemalloc's background thread, which returns freed pages to the
/// system whatever the threads that freed them do next.
pub fn return_freed_pages() {
    if let Err(error) = background_thread::write(true) {
        tracing::warn!(%error, "the allocator's background thread did not start: freed memory returns only as threads allocate again");
    }
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
        // Other tests allocate and free at the same time: only this block is
        // sure to be held.
        let block = vec![1u8; 8 << 20];
        let after = super::held().expect("jemalloc statistics");
        assert!(after.allocated_bytes >= 8 << 20, "{after:?}");
        assert!(after.resident_bytes >= after.allocated_bytes);
        drop(block);
    }

    /// C code's `malloc` (the JS engines') is jemalloc's: this thread's
    /// count of bytes allocated moves with it.
    #[test]
    fn the_c_librarys_malloc_is_jemallocs() {
        let allocated = tikv_jemalloc_ctl::thread::allocatedp::read().expect("jemalloc statistics");
        let before = allocated.get();
        // SAFETY: a plain allocation, freed below and never read.
        let block = unsafe { libc::malloc(1 << 20) };
        assert!(!block.is_null());
        let after = allocated.get();
        unsafe { libc::free(block) };
        assert!(after - before >= 1 << 20, "{} bytes counted for a 1 MiB malloc", after - before);
    }

    /// The configuration symbol is the one jemalloc reads: its decay is in force.
    #[test]
    fn freed_pages_return_within_a_second() {
        let decay: isize = unsafe { tikv_jemalloc_ctl::raw::read(b"opt.dirty_decay_ms\0") }.expect("jemalloc setting");
        assert_eq!(decay, 1000);
    }

    #[test]
    fn the_background_thread_starts() {
        super::return_freed_pages();
        assert!(tikv_jemalloc_ctl::background_thread::read().expect("jemalloc setting"));
    }
}
