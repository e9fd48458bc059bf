//! Waiting for what the server does in the background (a render, a read
//! of the CMS, a delivery) without saying how soon: how fast something
//! happens is measured by the bench scripts, not asserted here.

use std::fmt::Debug;
use std::time::{Duration, Instant};

/// How long a check may take to hold before the test fails: generous, for
/// a debug build sharing two cores with the rest of the suite and other
/// builds (a pre-render pass of every page has taken minutes there). A
/// check that holds returns at once; only a failing test waits this long.
const PATIENCE: Duration = Duration::from_secs(300);

/// What `observe` sees once `holds` accepts it. Observed again at growing
/// intervals (10 ms, doubling up to a quarter of a second) until it does;
/// past [`PATIENCE`] the test fails, naming `what` and the last value seen.
pub async fn eventually<T: Debug>(what: &str, observe: impl AsyncFnMut() -> T, holds: impl Fn(&T) -> bool) -> T {
    within(PATIENCE, what, observe, holds).await
}

async fn within<T: Debug>(
    patience: Duration,
    what: &str,
    mut observe: impl AsyncFnMut() -> T,
    holds: impl Fn(&T) -> bool,
) -> T {
    let started = Instant::now();
    let mut pause = Duration::from_millis(10);
    loop {
        let seen = observe().await;
        if holds(&seen) {
            return seen;
        }
        assert!(started.elapsed() < patience, "{what}: never, in {patience:?}; last seen: {seen:?}");
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_millis(250));
    }
}

#[tokio::test]
async fn the_value_that_held_is_returned() {
    let mut looks = 0;
    let seen = within(
        Duration::from_secs(60),
        "a third look",
        async || {
            looks += 1;
            looks
        },
        |looks| *looks == 3,
    )
    .await;
    assert_eq!(seen, 3);
}

#[tokio::test]
#[should_panic(expected = "a change: never, in 50ms; last seen: \"before\"")]
async fn a_check_that_never_holds_fails_with_the_last_value_seen() {
    within(Duration::from_millis(50), "a change", async || "before", |seen| *seen == "after").await;
}
