//! CPU priority for work a visitor is not waiting on second by second.
//!
//! Rendering a page takes a core for tens of milliseconds; answering a
//! page kept in memory takes microseconds. On a machine with as many
//! engines as cores, a crawler asking for pages never rendered keeps every
//! core rendering, and a visitor's request for a kept page then waits for
//! the scheduler to give its thread a turn: the kept page's p99 rose tenfold
//! while a newsroom was crawled. Engines (and the compression that follows
//! a render, in the server's background pool) run at a lower priority
//! (nice [`NICE`]), so a thread answering a request takes a core as soon as
//! it wakes, and renders use every cycle left. Nothing is starved: the
//! renders still get the cores whenever requests leave them idle, which on
//! a server is nearly always.

/// Niceness of the threads that render: 10 of Linux's 19 (a weight of 110
/// against a request thread's 1024, so a request thread runs first).
pub const NICE: i32 = 10;

/// Lowers the calling thread's priority to [`NICE`]. Linux gives each
/// thread its own niceness, which `setpriority` sets for the thread named
/// by its id; elsewhere this does nothing. Failing (not allowed) is logged,
/// and the thread runs on at the priority it had.
pub fn yield_to_requests() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `gettid` has no preconditions; `setpriority` reads its
        // three integers only.
        let done = unsafe { libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, NICE) };
        if done != 0 {
            tracing::warn!(error = %std::io::Error::last_os_error(), "could not lower a render thread's priority");
        }
    }
}
