use reqwest::StatusCode;
use reqwest::header::{CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, ETAG, IF_NONE_MATCH, VARY};

use crate::helpers::spawn_app;

/// The hashed client entry the home page references.
async fn entry_script(app: &crate::helpers::TestApp) -> String {
    let html = app.get("/").await.text().await.unwrap();
    let start = html.find(r#"<script type="module" src=""#).unwrap() + r#"<script type="module" src=""#.len();
    html[start..start + html[start..].find('"').unwrap()].to_owned()
}

#[tokio::test]
async fn hashed_assets_are_immutable_and_precompressed() {
    let app = spawn_app().await;
    let entry = entry_script(&app).await;
    let plain = app.get(&entry).await;
    assert_eq!(plain.status(), StatusCode::OK);
    assert_eq!(plain.headers()[CACHE_CONTROL], "public, max-age=31536000, immutable");
    assert_eq!(plain.headers()[CONTENT_TYPE], "text/javascript; charset=utf-8");
    assert_eq!(plain.headers()[VARY], "accept-encoding");
    assert!(plain.headers().get(CONTENT_ENCODING).is_none());
    let identity = plain.bytes().await.unwrap();

    for (accept, expected) in [("gzip, deflate, br", "br"), ("gzip", "gzip"), ("br;q=0, gzip", "gzip")] {
        let response = app.client.get(app.url(&entry)).header("accept-encoding", accept).send().await.unwrap();
        assert_eq!(response.headers()[CONTENT_ENCODING], expected, "{accept}");
        let body = response.bytes().await.unwrap();
        assert!(body.len() < identity.len() / 2, "{expected} is smaller");
    }
}

#[tokio::test]
async fn static_files_revalidate_with_etag() {
    let app = spawn_app().await;
    let response = app.get("/static/logo.svg").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[CONTENT_TYPE], "image/svg+xml");
    assert_eq!(response.headers()[CACHE_CONTROL], "public, max-age=3600");
    let etag = response.headers()[ETAG].clone();
    let again = app.client.get(app.url("/static/logo.svg")).header(IF_NONE_MATCH, etag).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
}

#[tokio::test]
async fn missing_assets_are_404() {
    let app = spawn_app().await;
    assert_eq!(app.get("/assets/page-NOPE.js").await.status(), StatusCode::NOT_FOUND);
    assert_eq!(app.get("/static/../Cargo.toml").await.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_service_worker_is_served_at_the_root_and_always_revalidated() {
    let app = spawn_app().await;
    let response = app.get("/sw.js").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[CACHE_CONTROL], "no-cache");
    assert_eq!(response.headers()[CONTENT_TYPE], "text/javascript; charset=utf-8");
    let entry = entry_script(&app).await;
    let worker = response.text().await.unwrap();
    assert!(worker.contains(&format!("\"{entry}\"")), "precaches this build's entry");
    assert!(!worker.contains("__BUILD__") && !worker.contains("__PRECACHE__"));
}
