//! The sandbox operator API as the `site` binary mounts it on the server
//! (`site::sandbox()`), and what the server does without it.

use crate::helpers::shared_app;

/// The operator API is `DIGITAL_API_URL`, or a stand-in the server mounts;
/// with neither, the server does not start, rather than serve sign-in pages
/// that cannot work.
#[tokio::test]
async fn without_digital_api_url_or_a_stand_in_the_server_does_not_start() {
    let data_dir = tempfile::tempdir().unwrap();
    let mut config = server::Config::defaults();
    config.data_dir = data_dir.path().to_owned();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let error = server::run(listener, config, site::app_build(), None, async {}).await.unwrap_err().to_string();
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
    let error = server::run(listener, config, site::app_build(), Some(site::sandbox()), async {})
        .await
        .unwrap_err()
        .to_string();
    assert!(error.contains("DIGITAL_API_URL is required in production (or set ENABLE_SANDBOX)"), "{error}");
    assert!(!data_dir.path().join("sandbox.sqlite3").exists(), "nothing was opened");
}

/// The server calls the sandbox's operator API at `/sandbox/digital/`.
#[tokio::test]
async fn the_site_mounts_the_sandbox_at_sandbox() {
    let app = shared_app().await;
    let response = app.get("/sandbox/digital/api/v1/gsm-static-bundles").await;
    assert_eq!(response.status(), reqwest::StatusCode::OK);
    let catalogue: serde_json::Value = response.json().await.unwrap();
    assert!(catalogue["data"].as_array().is_some_and(|bundles| !bundles.is_empty()), "{catalogue}");
    assert_eq!(app.get("/sandbox/inbox").await.status(), reqwest::StatusCode::OK);
}

/// A damaged `DATA_DIR/sandbox.sqlite3` stops the real binary at start,
/// non-zero, with the file named on stderr; it is not seeded over.
#[test]
fn the_site_binary_refuses_a_damaged_sandbox_database() {
    let data_dir = tempfile::tempdir().unwrap();
    let database = data_dir.path().join("sandbox.sqlite3");
    let damaged = b"SQLite format 3\0 and then nothing a database holds".repeat(64);
    std::fs::write(&database, &damaged).unwrap();
    let mut site = std::process::Command::new(env!("CARGO_BIN_EXE_site"))
        .env_clear()
        .env("DATA_DIR", data_dir.path())
        .env("HOST", "127.0.0.1")
        .env("PORT", "0")
        .env("RENDER_WORKERS", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let status = loop {
        if let Some(status) = site.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            site.kill().unwrap();
            panic!("the site started with a damaged sandbox database");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut site.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(!status.success(), "{status}");
    assert!(
        stderr.contains(&database.display().to_string()) && stderr.contains("start over from the seed"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&database).unwrap(), damaged, "left as it was");
}
