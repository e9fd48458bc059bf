use std::collections::{HashMap, HashSet};

use reqwest::StatusCode;
use reqwest::header::{CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, ETAG, IF_NONE_MATCH, VARY};

use crate::helpers::shared_app;

/// The hashed client entry the home page references.
async fn entry_script(app: &crate::helpers::TestApp) -> String {
    let html = app.get("/").await.text().await.unwrap();
    let start = html.find(r#"<script type="module" src=""#).unwrap() + r#"<script type="module" src=""#.len();
    html[start..start + html[start..].find('"').unwrap()].to_owned()
}

#[tokio::test]
async fn hashed_assets_are_immutable_and_precompressed() {
    let app = shared_app().await;
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
    let app = shared_app().await;
    let response = app.get("/static/logo.svg").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[CONTENT_TYPE], "image/svg+xml");
    assert_eq!(response.headers()[CACHE_CONTROL], "public, max-age=3600");
    let etag = response.headers()[ETAG].clone();
    let again = app.client.get(app.url("/static/logo.svg")).header(IF_NONE_MATCH, etag).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
}

/// Each encoding of a file is a body of its own, so each has its own
/// `ETag` (a cache must not take a gzip body for the brotli one it
/// revalidates), and each is revalidated by its own: every hashed asset,
/// static file and the service worker, plain, gzip and brotli. A 304 says
/// what the 200 said of caching, `Vary` too.
#[tokio::test]
async fn every_public_file_has_an_etag_per_encoding_and_revalidates_in_each() {
    let app = shared_app().await;
    let served = |path: &&str| {
        (path.starts_with("assets/") || path.starts_with("static/") || *path == "sw.js")
            && !path.ends_with(".br")
            && !path.ends_with(".gz")
    };
    let paths: Vec<&str> = site::app_build().public_files.iter().map(|(path, _)| *path).filter(served).collect();
    assert!(paths.len() > 10 && paths.contains(&"static/logo.svg") && paths.contains(&"sw.js"), "{paths:?}");
    let mut compressed = 0;
    for path in paths {
        let url = app.url(&format!("/{path}"));
        let mut tags: HashMap<String, String> = HashMap::new();
        for accept in ["identity", "gzip", "br"] {
            let response = app.client.get(&url).header("accept-encoding", accept).send().await.unwrap();
            assert_eq!(response.status(), StatusCode::OK, "{path} {accept}");
            let encoding =
                response.headers().get(CONTENT_ENCODING).map_or("identity", |v| v.to_str().unwrap()).to_owned();
            let tag = response.headers()[ETAG].to_str().unwrap().to_owned();
            let again = app
                .client
                .get(&url)
                .header("accept-encoding", accept)
                .header(IF_NONE_MATCH, &tag)
                .send()
                .await
                .unwrap();
            assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{path} {accept} revalidated by its own tag");
            assert_eq!(again.headers()[ETAG], tag.as_str(), "{path} {accept}");
            assert_eq!(again.headers()[VARY], "accept-encoding", "{path} {accept}: the 304 says what it varies by");
            assert_eq!(again.headers()[CACHE_CONTROL], response.headers()[CACHE_CONTROL], "{path} {accept}");
            if let Some(other) = tags.insert(encoding.clone(), tag.clone()) {
                assert_eq!(other, tag, "{path}: one {encoding} body, one tag");
            }
        }
        let distinct: HashSet<&String> = tags.values().collect();
        assert_eq!(distinct.len(), tags.len(), "{path}: a tag per encoding: {tags:?}");
        if let (Some(plain), Some(_)) = (tags.get("identity"), tags.get("br")) {
            compressed += 1;
            let other =
                app.client.get(&url).header("accept-encoding", "br").header(IF_NONE_MATCH, plain).send().await.unwrap();
            assert_eq!(
                other.status(),
                StatusCode::OK,
                "{path}: the plain body's tag does not revalidate the brotli one"
            );
        }
    }
    assert!(compressed > 10, "{compressed} files sent compressed");
}

#[tokio::test]
async fn missing_assets_are_404() {
    let app = shared_app().await;
    assert_eq!(app.get("/assets/page-NOPE.js").await.status(), StatusCode::NOT_FOUND);
    assert_eq!(app.get("/static/../Cargo.toml").await.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_service_worker_is_served_at_the_root_and_always_revalidated() {
    let app = shared_app().await;
    let response = app.get("/sw.js").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[CACHE_CONTROL], "no-cache");
    assert_eq!(response.headers()[CONTENT_TYPE], "text/javascript; charset=utf-8");
    let entry = entry_script(&app).await;
    let worker = response.text().await.unwrap();
    assert!(worker.contains(&format!("\"{entry}\"")), "precaches this build's entry");
    assert!(!worker.contains("__BUILD__") && !worker.contains("__PRECACHE__"));
}
