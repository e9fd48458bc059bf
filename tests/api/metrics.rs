//! The request metrics count and time every answer, the fast path's too.
//! Metrics are kept per process and the tests of this binary run servers
//! side by side in one, so this test starts the real `site` binary: its
//! `/metrics` counts nothing but what the test asks.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use reqwest::StatusCode;

/// The `site` binary, killed when dropped.
struct Site {
    child: Child,
    base: String,
    metrics: String,
}

impl Drop for Site {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

async fn start(data_dir: &std::path::Path, client: &reqwest::Client) -> Site {
    let (port, metrics_port) = (free_port(), free_port());
    let base = format!("http://127.0.0.1:{port}");
    let child = Command::new(env!("CARGO_BIN_EXE_site"))
        .env("PORT", port.to_string())
        .env("HOST", "127.0.0.1")
        .env("SITE_URL", &base)
        .env("DATA_DIR", data_dir)
        .env("METRICS_ADDR", format!("127.0.0.1:{metrics_port}"))
        .env("RENDER_WORKERS", "1")
        // Renders on request only: nothing else asks for pages.
        .env("PRERENDER", "false")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the site binary starts");
    let site = Site { child, base, metrics: format!("http://127.0.0.1:{metrics_port}/metrics") };
    for _ in 0..400 {
        if client.get(format!("{}/healthz", site.base)).send().await.is_ok_and(|r| r.status().is_success()) {
            return site;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the site did not start");
}

/// The value of the sample `series` (name and labels, as the exporter writes them); 0 if absent.
async fn sample(client: &reqwest::Client, site: &Site, series: &str) -> f64 {
    let text = client.get(&site.metrics).send().await.unwrap().text().await.unwrap();
    text.lines().find_map(|line| line.strip_prefix(series)?.strip_prefix(' ')?.trim().parse().ok()).unwrap_or(0.0)
}

const REQUESTS: &str = r#"http_requests_total{kind="page",status="200"}"#;
const TIMED: &str = r#"http_request_duration_seconds_count{kind="page",status="200"}"#;
const FAST: &str = "page_fast_hits_total";

/// N anonymous GETs of a page the fast path answers move the request
/// counter and the latency histogram of pages by N, as they move the fast
/// path's own counter.
#[tokio::test]
async fn pages_from_the_fast_path_are_counted_and_timed() {
    const N: u32 = 25;
    let data_dir = tempfile::tempdir().unwrap();
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let site = start(data_dir.path(), &client).await;
    let get = || async { client.get(format!("{}/voice-sms", site.base)).send().await.unwrap().status() };
    // Rendered, then kept whole: until the fast path answers it.
    for _ in 0..10 {
        assert_eq!(get().await, StatusCode::OK);
        if sample(&client, &site, FAST).await > 0.0 {
            break;
        }
    }
    let before = (
        sample(&client, &site, FAST).await,
        sample(&client, &site, REQUESTS).await,
        sample(&client, &site, TIMED).await,
    );
    assert!(before.0 > 0.0, "the fast path answers the page");
    for _ in 0..N {
        assert_eq!(get().await, StatusCode::OK);
    }
    let after = (
        sample(&client, &site, FAST).await,
        sample(&client, &site, REQUESTS).await,
        sample(&client, &site, TIMED).await,
    );
    let n = f64::from(N);
    assert_eq!(after.0 - before.0, n, "answered by the fast path");
    assert_eq!(after.1 - before.1, n, "counted: {REQUESTS}");
    assert_eq!(after.2 - before.2, n, "timed: {TIMED}");
}
