//! Rendered pages on disk (`PAGE_DISK_CACHE_MB`): a page rendered once is
//! not rendered again after a restart while its content is unchanged, even
//! with the CMS down; a change the CMS reports is never answered from disk.

use std::path::Path;

use reqwest::StatusCode;

use crate::fake_cms::{FakeCms, Shape};
use crate::helpers::{TestApp, counting_bundle, eventually, render_number, spawn_bundle_with};

/// The site (one engine counting its renders) keeping its data in `data`,
/// on `cms` if any. The public address is the same for every start: a page
/// rendered for another address is never served from disk.
async fn site(data: &Path, cms: Option<&FakeCms>) -> TestApp {
    let (data, cms) = (data.to_owned(), cms.map(|cms| cms.url.clone()));
    spawn_bundle_with(counting_bundle(), move |c| {
        c.data_dir = data;
        c.site_url = "http://site.test".parse().unwrap();
        if let Some(cms) = cms {
            c.cms.url = Some(cms.parse().unwrap());
            c.cms.webhook_secret = Some("hook-secret".parse().unwrap());
        }
    })
    .await
}

/// The page files the disk keeps, once the writer has written `at_least`.
async fn pages_on_disk(data: &Path, at_least: usize) -> usize {
    let count = || {
        walk(&data.join("page-cache")).into_iter().filter(|path| path.extension().is_some_and(|e| e == "page")).count()
    };
    eventually(&format!("{at_least} pages on disk"), async || count(), |pages| *pages >= at_least).await;
    count()
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries
        .flatten()
        .flat_map(|entry| if entry.path().is_dir() { walk(&entry.path()) } else { vec![entry.path()] })
        .collect()
}

async fn page(app: &TestApp, path: &str) -> (StatusCode, String) {
    let answer = app.get(path).await;
    (answer.status(), answer.text().await.unwrap())
}

#[tokio::test]
async fn a_restart_serves_the_pages_rendered_before_without_rendering_them_again() {
    let data = tempfile::tempdir().unwrap();
    let first = site(data.path(), None).await;
    let (status, voice) = page(&first, "/voice-sms").await;
    assert_eq!((status, render_number(&voice)), (StatusCode::OK, 1));
    let (_, swahili) = page(&first, "/sw/voice-sms").await;
    assert_eq!(render_number(&swahili), 2);
    assert_eq!(pages_on_disk(data.path(), 2).await, 2, "both pages kept on disk");
    drop(first);

    let second = site(data.path(), None).await;
    assert_eq!(page(&second, "/voice-sms").await, (StatusCode::OK, voice), "the very page rendered before the restart");
    assert_eq!(page(&second, "/sw/voice-sms").await, (StatusCode::OK, swahili));
    // This engine's first render is the first page the disk lacked.
    let (_, mpesa) = page(&second, "/mpesa").await;
    assert_eq!(render_number(&mpesa), 1, "no page kept on disk was rendered again");
}

/// The voice page rendered from `cms` into `data` by a site since stopped.
async fn rendered_before(data: &Path, cms: &FakeCms) -> String {
    cms.put_page("voice", "en", "Voice before", "Body");
    let first = site(data, Some(cms)).await;
    let (status, before) = page(&first, "/voice-sms").await;
    assert_eq!(status, StatusCode::OK);
    assert!(before.contains("Voice before"));
    assert!(pages_on_disk(data, 1).await >= 1);
    before
}

#[tokio::test]
async fn a_page_on_disk_is_served_after_a_restart_while_the_cms_is_down() {
    let cms = FakeCms::start(Shape::V5).await;
    let data = tempfile::tempdir().unwrap();
    let before = rendered_before(data.path(), &cms).await;
    cms.stop().await;
    let second = site(data.path(), Some(&cms)).await;
    assert_eq!(page(&second, "/voice-sms").await, (StatusCode::OK, before));
}

#[tokio::test]
async fn a_page_whose_content_the_cms_says_changed_is_not_served_from_disk() {
    let cms = FakeCms::start(Shape::V5).await;
    let data = tempfile::tempdir().unwrap();
    let before = rendered_before(data.path(), &cms).await;
    cms.put_page("voice", "en", "Voice after", "Body");
    let second = site(data.path(), Some(&cms)).await;
    assert_eq!(page(&second, "/voice-sms").await.1, before, "unchanged as far as it knows: from disk");
    let event = serde_json::json!({ "event": "entry.update", "model": "voice" });
    let told = second.client.post(second.url("/api/cms/webhook")).bearer_auth("hook-secret").json(&event).send().await;
    let told = told.unwrap();
    assert!(told.status().is_success(), "{} {}", told.status(), told.text().await.unwrap());
    // As after any publish: the earlier page at most while the new one
    // renders (marked stale), then the new one.
    let stale = second.get("/voice-sms").await;
    assert_eq!(stale.headers()[reqwest::header::CACHE_CONTROL], "no-cache");
    let shows = async || page(&second, "/voice-sms").await.1.contains("Voice after");
    eventually("the page of the content the CMS has now", shows, |shows| *shows).await;
}
