//! `/healthz`, `/readyz` and `/metrics` while the runtime's blocking pool
//! is full: the issue's crawl of 10,000 stories parked hundreds of blocking
//! threads on the content disk cache, and the health detail and metrics,
//! which read the forms' outbox from SQLite on that pool, answered nothing
//! for 10 to 20 seconds. Here the server runs on a runtime of the test's
//! own with a small pool, filled by tasks that hold it until released.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::Value;

use crate::fake_cms::{FakeCms, Shape};
use crate::helpers::{eventually, site_with};

/// Threads of the blocking pool.
const POOL: usize = 4;
/// How long a holder holds its thread at most, should the test fail first.
const HELD_AT_MOST: Duration = Duration::from_secs(120);

#[test]
fn health_readiness_and_metrics_answer_while_the_blocking_pool_is_full() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(POOL)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let cms = FakeCms::start(Shape::V5).await;
        let metrics_port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let app = site_with(&cms, |config| {
            config.operations.metrics_addr = Some(std::net::SocketAddr::from(([127, 0, 0, 1], metrics_port)));
        })
        .await;
        // Before: the frame's content in memory, the outbox read once.
        assert_eq!(app.get("/readyz").await.status(), StatusCode::OK);
        let detail = async || app.get("/healthz?detail").await.json::<Value>().await.unwrap();
        eventually("the outbox's backlog read at start", detail, |detail| detail["forms"]["pending"].is_u64()).await;

        // Every thread of the pool held, and one more task queued behind them.
        let (released, holding) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicUsize::new(0)));
        // Released however the test ends, so that a failure ends it at once.
        let release = Release(released.clone());
        for _ in 0..POOL {
            let (released, holding) = (released.clone(), holding.clone());
            drop(tokio::task::spawn_blocking(move || {
                holding.fetch_add(1, Ordering::SeqCst);
                let start = std::time::Instant::now();
                while !released.load(Ordering::SeqCst) && start.elapsed() < HELD_AT_MOST {
                    std::thread::sleep(Duration::from_millis(10));
                }
            }));
        }
        let held = async || holding.load(Ordering::SeqCst);
        eventually("every thread of the pool held", held, |held| *held >= POOL).await;
        let queued_ran = Arc::new(AtomicBool::new(false));
        let ran = queued_ran.clone();
        drop(tokio::task::spawn_blocking(move || ran.store(true, Ordering::SeqCst)));

        // Each answers while the pool is held (the client gives up after 10 s).
        assert_eq!(app.get("/healthz").await.text().await.unwrap(), "ok");
        let detail: Value = app.get("/healthz?detail").await.json().await.unwrap();
        assert_eq!(detail["forms"]["pending"], 0, "{detail}");
        assert_eq!(app.get("/readyz").await.status(), StatusCode::OK);
        let metrics = app.client.get(format!("http://127.0.0.1:{metrics_port}/metrics")).send().await.unwrap();
        let text = metrics.text().await.unwrap();
        for expected in
            [r#"cache_bytes{cache="content"}"#, r#"cache_entries{cache="content_disk"}"#, "forms_outbox_pending"]
        {
            assert!(text.contains(expected), "{expected} missing from:\n{text}");
        }
        assert!(!queued_ran.load(Ordering::SeqCst), "the pool was full throughout");

        drop(release);
        let ran = async || queued_ran.load(Ordering::SeqCst);
        eventually("the queued task ran: the pool is free again", ran, |ran| *ran).await;
    });
}

/// Lets the holders go when dropped.
struct Release(Arc<AtomicBool>);

impl Drop for Release {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}
