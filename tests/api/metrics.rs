//! The request metrics count and time every answer, the fast path's too.
//! Metrics are kept per process and the tests of this binary run servers
//! side by side in one, so this test starts the real `site` binary: its
//! `/metrics` counts nothing but what the test asks.

use std::process::{Child, Command, Stdio};

use reqwest::StatusCode;

use crate::helpers::{eventually, free_port, metric};

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

async fn start(data_dir: &std::path::Path, client: &reqwest::Client) -> Site {
    start_with(data_dir, client, &[]).await
}

/// [`start`] with `env` added to its settings.
async fn start_with(data_dir: &std::path::Path, client: &reqwest::Client, env: &[(&str, &str)]) -> Site {
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
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the site binary starts");
    let site = Site { child, base, metrics: format!("http://127.0.0.1:{metrics_port}/metrics") };
    let health = async || client.get(format!("{}/healthz", site.base)).send().await.ok().map(|r| r.status());
    eventually("the site started", health, |status| status.is_some_and(|status| status.is_success())).await;
    site
}

/// The value of the sample `series` (name and labels, as the exporter writes them); 0 if absent.
async fn sample(client: &reqwest::Client, site: &Site, series: &str) -> f64 {
    let text = client.get(&site.metrics).send().await.unwrap().text().await.unwrap();
    metric(&text, series).unwrap_or(0.0)
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

/// Content served stale while the CMS failed is current again once the CMS
/// confirms it unchanged (a collection's one-item check, no whole read):
/// `content_stale_seconds` goes back to 0 then too, not only after a read.
#[tokio::test]
async fn content_confirmed_unchanged_is_no_longer_counted_stale() {
    use crate::fake_cms::{Behaviour, FakeCms, Shape};
    let cms = FakeCms::start(Shape::V5).await;
    let story = |id: u64| {
        serde_json::json!({ "id": id, "title": format!("Story {id}"), "slug": format!("story-{id}"),
            "publishDate": "2026-01-01", "updatedAt": format!("2026-01-01T10:00:0{id}.000Z") })
    };
    cms.put_collection("news-updates", "en", (1..=3).map(story).collect());
    let data_dir = tempfile::tempdir().unwrap();
    let client = reqwest::Client::new();
    let site = start_with(data_dir.path(), &client, &[("CMS_URL", &cms.url), ("CONTENT_TTL_SECS", "1")]).await;
    let stale = r#"content_stale_seconds{model="news-updates"}"#;
    let unchanged = r#"content_fetches_total{model="news-updates",outcome="unchanged"}"#;
    let sitemap = || async { client.get(format!("{}/sitemap.xml", site.base)).send().await.unwrap() };
    assert!(sitemap().await.text().await.unwrap().contains("story-3"));

    // The CMS fails: the index is served stale, and counted so.
    cms.behave(Behaviour::Status(500));
    let counted = async || {
        sitemap().await;
        sample(&client, &site, stale).await
    };
    eventually("counted stale", counted, |seconds| *seconds > 0.0).await;
    // Back, unchanged: confirmed by its check, and stale no more.
    cms.behave(Behaviour::Normal);
    eventually("no longer counted stale once confirmed", counted, |seconds| *seconds == 0.0).await;
    assert!(sample(&client, &site, unchanged).await > 0.0, "confirmed by the check, not read again");
}
