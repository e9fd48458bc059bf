//! CPU work that follows a render or a pre-render pass (compressing a page,
//! reading a page's words for search, building the search index), run on a
//! pool of its own at the render engines' lower priority
//! ([`ssr_runtime::yield_to_requests`]) instead of tokio's blocking pool:
//! while a crawler keeps every core rendering pages never asked before, a
//! visitor's request for a kept page still gets a core the moment it needs
//! one. Off the runtime's threads too, so the requests they answer meanwhile
//! do not wait behind it.

use std::panic::AssertUnwindSafe;
use std::sync::LazyLock;

/// One thread per core: the work is CPU only, never waits on anything.
static POOL: LazyLock<rayon::ThreadPool> = LazyLock::new(|| {
    rayon::ThreadPoolBuilder::new()
        .num_threads(std::thread::available_parallelism().map_or(2, |cores| cores.get()))
        .thread_name(|index| format!("background-{index}"))
        .start_handler(|_| ssr_runtime::yield_to_requests())
        .build()
        .expect("the background threads start")
});

/// Runs `work` on the background pool and gives what it returns; a panic in
/// it is the caller's again, as with `tokio::task::spawn_blocking`.
pub async fn run<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    let (done, result) = tokio::sync::oneshot::channel();
    POOL.spawn(move || {
        let _ = done.send(std::panic::catch_unwind(AssertUnwindSafe(work)));
    });
    match result.await {
        Ok(Ok(value)) => value,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(_) => unreachable!("a background task always answers: its panic is caught"),
    }
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn gives_back_what_the_work_returns() {
        assert_eq!(super::run(|| 6 * 7).await, 42);
    }

    #[tokio::test]
    async fn a_panic_is_the_callers() {
        let caught = tokio::spawn(super::run(|| panic!("in the background"))).await;
        assert!(caught.expect_err("the panic comes back").is_panic());
    }

    /// The pool's threads run at the render engines' niceness.
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn runs_below_the_requests_priority() {
        let nice = super::run(|| unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) }).await;
        assert_eq!(nice, ssr_runtime::NICE);
    }
}
