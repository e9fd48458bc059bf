//! A page whose content changed: its copy for the earlier content is served
//! from memory (the fast path) while its new page renders in the
//! background, with the headers the full path gives a stale page; then the
//! new page; and never past `PAGE_STALE_MAX_SECS`.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use reqwest::header::{CACHE_CONTROL, DATE, HeaderMap, IF_NONE_MATCH};

use crate::fake_cms::{FakeCms, Shape};
use crate::helpers::{TestApp, eventually, fast_hits, slow_bundle, spawn_bundle_with};

/// The site on `cms` with renders of `render_ms` each (one engine) and
/// stale pages served `stale_secs` at most.
async fn site(cms: &FakeCms, render_ms: u64, stale_secs: u64) -> TestApp {
    let url = cms.url.clone();
    spawn_bundle_with(slow_bundle(render_ms), move |c| {
        c.cms.url = Some(url.parse().unwrap());
        c.cms.webhook_secret = Some("hook-secret".parse().unwrap());
        c.pages.stale_max = Duration::from_secs(stale_secs);
        c.pages.render_budget = Duration::from_millis(render_ms + 2000);
    })
    .await
}

/// The voice page's heading becomes `heading`, and the CMS says so.
async fn publish(app: &TestApp, cms: &FakeCms, heading: &str) {
    cms.put_page("voice", "en", heading, "Body");
    let event = serde_json::json!({ "event": "entry.update", "model": "voice" });
    let answer =
        app.client.post(app.url("/api/cms/webhook")).bearer_auth("hook-secret").json(&event).send().await.unwrap();
    assert!(answer.status().is_success(), "{}", answer.status());
}

/// `/voice-sms`: its status, headers and whether it shows `heading`.
async fn voice(app: &TestApp, heading: &str) -> (StatusCode, HeaderMap, bool) {
    let answer = app.get("/voice-sms").await;
    let (status, headers) = (answer.status(), answer.headers().clone());
    (status, headers, answer.text().await.unwrap().contains(&format!("<h1>{heading}</h1>")))
}

/// Headers but the date, which differs between any two answers, and the
/// server's time, which the full path alone says (`pages::fast`).
fn dateless(mut headers: HeaderMap) -> HeaderMap {
    headers.remove(DATE);
    headers.remove("server-timing");
    headers
}

#[tokio::test]
async fn a_changed_page_is_served_stale_from_memory_while_it_renders_again_then_fresh() {
    let cms = FakeCms::start(Shape::V5).await;
    cms.put_page("voice", "en", "Before", "Body");
    // Each render takes an engine 1.5 s: far longer than the requests below.
    let app = site(&cms, 1500, 60).await;
    let (_, fresh, shows) = voice(&app, "Before").await;
    assert!(shows && fresh[CACHE_CONTROL].to_str().unwrap().starts_with("public"));

    publish(&app, &cms, "After").await;
    // The full path finds the content changed and the page's new render
    // under way, and answers the earlier copy.
    let (status, stale, shows) = voice(&app, "Before").await;
    assert_eq!((status, shows), (StatusCode::OK, true));
    assert_eq!(stale[CACHE_CONTROL], "no-cache", "no cache keeps a stale page");
    // Then the fast path answers it from memory, headers and all.
    let before = fast_hits(&app).await;
    for _ in 0..5 {
        let (status, headers, shows) = voice(&app, "Before").await;
        assert_eq!((status, shows), (StatusCode::OK, true), "the earlier copy while the new page renders");
        assert_eq!(dateless(headers), dateless(stale.clone()), "the very headers of the full path's stale answer");
    }
    assert_eq!(fast_hits(&app).await - before, 5, "served from memory");
    // A conditional request goes the full way: the same stale page.
    let conditional = app.client.get(app.url("/voice-sms")).header(IF_NONE_MATCH, "\"other\"").send().await.unwrap();
    assert_eq!(dateless(conditional.headers().clone()), dateless(stale.clone()));

    // Once rendered, the new page, kept whole again.
    let (_, headers, _) = eventually("the new page", async || voice(&app, "After").await, |(_, _, shows)| *shows).await;
    assert!(headers[CACHE_CONTROL].to_str().unwrap().starts_with("public"), "fresh again");
    let before = fast_hits(&app).await;
    let (_, headers, shows) = voice(&app, "After").await;
    assert!(shows && headers[CACHE_CONTROL].to_str().unwrap().starts_with("public"));
    assert_eq!(fast_hits(&app).await - before, 1, "the new page from memory");
}

#[tokio::test]
async fn a_stale_page_is_never_served_past_the_bound() {
    const BOUND: Duration = Duration::from_secs(1);
    let cms = FakeCms::start(Shape::V5).await;
    cms.put_page("voice", "en", "Before", "Body");
    // Renders of 3 s: the new page is not in before the bound has passed.
    let app = site(&cms, 3000, BOUND.as_secs()).await;
    assert!(voice(&app, "Before").await.2);
    publish(&app, &cms, "After").await;
    let (_, headers, shows) = voice(&app, "Before").await;
    assert!(shows && headers[CACHE_CONTROL] == "no-cache", "served stale");
    // The newer content was first asked for before this instant.
    let superseded = Instant::now();
    let before = fast_hits(&app).await;
    assert!(voice(&app, "Before").await.2, "stale, from memory");
    assert_eq!(fast_hits(&app).await - before, 1);

    tokio::time::sleep_until((superseded + BOUND + Duration::from_millis(100)).into()).await;
    // Past the bound neither path serves the copy: the visitor waits for
    // the render under way.
    for _ in 0..3 {
        let (status, headers, shows) = voice(&app, "After").await;
        assert_eq!(status, StatusCode::OK);
        assert!(shows, "the new page, not the copy past the bound");
        assert!(headers[CACHE_CONTROL].to_str().unwrap().starts_with("public"));
    }
}
