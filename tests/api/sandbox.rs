//! The sandbox operator API as the `site` binary mounts it on the server
//! (`site::sandbox()`), and what the server does without it.

use crate::helpers::spawn_app;

/// The operator API is `DIGITAL_API_URL`, or a stand-in the server mounts;
/// with neither, the server does not start, rather than serve sign-in pages
/// that cannot work.
#[tokio::test]
async fn without_digital_api_url_or_a_stand_in_the_server_does_not_start() {
    let data_dir = tempfile::tempdir().unwrap();
    let mut config = server::Config::defaults();
    config.data_dir = data_dir.path().to_owned();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let error = server::run(listener, config, site::bundle(), None, async {}).await.unwrap_err().to_string();
    assert!(error.contains("DIGITAL_API_URL is required"), "{error}");
}

/// In production the sandbox is refused unless ENABLE_SANDBOX says so.
#[tokio::test]
async fn production_refuses_the_sandbox_unless_enabled() {
    let data_dir = tempfile::tempdir().unwrap();
    let mut config = server::Config::defaults();
    config.data_dir = data_dir.path().to_owned();
    config.production = true;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let error = server::run(listener, config, site::bundle(), Some(site::sandbox()), async {}).await.unwrap_err().to_string();
    assert!(error.contains("DIGITAL_API_URL is required in production (or set ENABLE_SANDBOX)"), "{error}");
    assert!(!data_dir.path().join("sandbox.sqlite3").exists(), "nothing was opened");
}

/// The server calls the sandbox's operator API at `/sandbox/digital/`.
#[tokio::test]
async fn the_site_mounts_the_sandbox_at_sandbox() {
    let app = spawn_app().await;
    let response = app.get("/sandbox/digital/api/v1/gsm-static-bundles").await;
    assert_eq!(response.status(), reqwest::StatusCode::OK);
    let catalogue: serde_json::Value = response.json().await.unwrap();
    assert!(catalogue["data"].as_array().is_some_and(|bundles| !bundles.is_empty()), "{catalogue}");
    assert_eq!(app.get("/sandbox/inbox").await.status(), reqwest::StatusCode::OK);
}
