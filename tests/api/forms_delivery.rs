//! Forms are never lost: delivered to a CMS that fails its first delivery
//! exactly once (from SQLite and from PostgreSQL), and kept through a
//! `kill -9` of the real `site` binary right after its 201, then exported
//! after the restart and delivered, past one more failure, exactly once.
//! Two instances on one PostgreSQL, sharing no disk, export every
//! submission and deliver each once.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::Value;

use crate::fake_cms::{FakeCms, Shape};
use crate::helpers::{BUSINESS, FOUNDATION, TOKEN, application, eventually, free_port, lead, spawn_app_with};
use crate::postgres::Postgres;

#[tokio::test]
async fn the_outbox_retries_a_failed_delivery_and_delivers_exactly_once() {
    retries_a_failed_delivery_and_delivers_exactly_once(None).await;
}

#[tokio::test]
async fn the_outbox_in_postgresql_retries_a_failed_delivery_and_delivers_exactly_once() {
    let Some(postgres) = Postgres::start() else { return };
    retries_a_failed_delivery_and_delivers_exactly_once(Some(&postgres)).await;
}

/// With the submissions in `postgres`, or in SQLite.
async fn retries_a_failed_delivery_and_delivers_exactly_once(postgres: Option<&Postgres>) {
    let cms = FakeCms::start(Shape::V5).await;
    cms.fail_next_posts(1);
    let app = spawn_app_with(|config| {
        config.cms.url = Some(cms.url.parse().unwrap());
        config.cms.token = Some("cms-token".parse().unwrap());
        config.forms.retry = std::time::Duration::from_millis(300);
        config.operations.database_url = postgres.map(|postgres| postgres.url().parse().unwrap());
    })
    .await;
    let (status, body, _) = crate::forms::post_json(&app, BUSINESS, &lead(), "en", Some("one-fill")).await;
    assert_eq!(status, StatusCode::CREATED);
    let reference = body["reference"].as_str().unwrap().to_owned();
    let leads = "business-community-leads";
    let delivered = async || (cms.created(leads).len(), cms.posts());
    eventually("delivered after a retry", delivered, |(created, _)| *created == 1).await;
    let posts = cms.posts();
    assert_eq!(posts.len(), 2, "one refused, one taken");
    for (path, authorization, sent) in &posts {
        assert_eq!(path, "/api/business-community-leads");
        assert_eq!(authorization, "Bearer cms-token");
        assert_eq!(sent["data"]["reference"], reference.as_str());
    }
    let entry = &cms.created(leads)[0];
    assert_eq!(entry["phone"], "255754000001");
    assert_eq!(entry["services"], serde_json::json!(["iot", "hosting"]));
    // A replay of the same fill is no second delivery, and a delivered entry is never sent again.
    crate::forms::post_json(&app, BUSINESS, &lead(), "en", Some("one-fill")).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(cms.posts().len(), 2, "nothing sent after the success");
    assert_eq!(cms.created(leads).len(), 1);
    let health: Value = app.get("/healthz?detail").await.json().await.unwrap();
    assert_eq!(health["forms"]["pending"], 0);
    assert_eq!(app.get("/healthz").await.text().await.unwrap(), "ok");
}

#[tokio::test]
async fn pending_deliveries_show_in_the_health_detail() {
    let cms = FakeCms::start(Shape::V5).await;
    cms.fail_next_posts(1000);
    let app = spawn_app_with(|config| {
        config.cms.url = Some(cms.url.parse().unwrap());
        config.forms.retry = std::time::Duration::from_millis(60_000);
    })
    .await;
    let (status, _, _) = crate::forms::post_json(&app, FOUNDATION, &application(), "en", None).await;
    assert_eq!(status, StatusCode::CREATED);
    eventually("a delivery tried", async || cms.posts(), |posts| !posts.is_empty()).await;
    // The detail reads the backlog as the outbox last saw it: just after the
    // failed try is recorded.
    let detail = async || app.get("/healthz?detail").await.json::<Value>().await.unwrap();
    let health = eventually("the failed try recorded", detail, |health| health["forms"]["mostAttempts"] == 1).await;
    assert_eq!(health["status"], "ok");
    assert_eq!(health["forms"]["pending"], 1);
    assert_eq!(health["forms"]["mostAttempts"], 1);
    assert_eq!(cms.posts()[0].0, "/api/foundation-applications");
    assert_eq!(cms.posts()[0].2["data"]["budgetTotalTzs"], 15_000_000);
}

/// Two instances on one PostgreSQL, each with its own `DATA_DIR` (machines
/// that share no disk), both delivering to one CMS whose first posts fail:
/// forms posted to both at once are all exported by either, and each is
/// delivered once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_on_one_postgresql_export_every_submission_and_deliver_each_once() {
    // Each instance's budget of forms from one address.
    const EACH: usize = 10;
    let Some(postgres) = Postgres::start() else { return };
    let cms = FakeCms::start(Shape::V5).await;
    cms.fail_next_posts(5);
    let instance = || {
        spawn_app_with(|config| {
            config.cms.url = Some(cms.url.parse().unwrap());
            config.forms.token = Some(TOKEN.parse().unwrap());
            config.forms.retry = Duration::from_millis(200);
            config.operations.database_url = Some(postgres.url().parse().unwrap());
        })
    };
    let instances = [instance().await, instance().await];
    let posts = instances.iter().flat_map(|app| {
        (0..EACH).map(move |_| async move { crate::forms::post_json(app, BUSINESS, &lead(), "en", None).await })
    });
    let mut references = Vec::new();
    for (status, body, _) in futures::future::join_all(posts).await {
        assert_eq!(status, StatusCode::CREATED, "{body}");
        references.push(body["reference"].as_str().unwrap().to_owned());
    }
    references.sort();
    let leads = "business-community-leads";
    let delivered = async || cms.created(leads).len();
    eventually(&format!("all {} delivered", 2 * EACH), delivered, |delivered| *delivered >= 2 * EACH).await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let mut delivered: Vec<String> =
        cms.created(leads).iter().map(|entry| entry["reference"].as_str().unwrap().to_owned()).collect();
    delivered.sort();
    assert_eq!(delivered, references, "each delivered once");
    assert_eq!(cms.posts().len(), 2 * EACH + 5, "no post but the failed ones and one per submission");
    for app in &instances {
        let exported = crate::forms::exported(app, "business-community").await;
        let mut listed: Vec<String> =
            exported.iter().map(|row| row["reference"].as_str().unwrap().to_owned()).collect();
        listed.sort();
        assert_eq!(listed, references, "either instance exports every submission");
    }
}

/// The `site` binary on a free port, its log lines collected.
struct Site {
    child: Child,
    base: String,
    log: Arc<Mutex<Vec<String>>>,
}

impl Site {
    /// Starts it on a port free a moment ago (a fresh one each start: the
    /// data directory is what carries over, not the address).
    fn start(data_dir: &std::path::Path, cms_url: &str) -> Site {
        let port = free_port();
        let base = format!("http://127.0.0.1:{port}");
        let mut child = Command::new(env!("CARGO_BIN_EXE_site"))
            .env("PORT", port.to_string())
            .env("HOST", "127.0.0.1")
            .env("SITE_URL", &base)
            .env("DATA_DIR", data_dir)
            .env("FORMS_TOKEN", TOKEN)
            .env("CMS_URL", cms_url)
            .env("FORMS_RETRY_MS", "200")
            .env("RENDER_WORKERS", "1")
            .env("RUST_LOG", "info")
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the site binary starts");
        let log = Arc::new(Mutex::new(Vec::new()));
        let (lines, stdout) = (log.clone(), child.stdout.take().unwrap());
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                lines.lock().unwrap().push(line);
            }
        });
        Site { child, base, log }
    }

    async fn ready(&mut self, client: &reqwest::Client) {
        // Its log so far, while it is not healthy yet.
        let starting = async || {
            if let Some(status) = self.child.try_wait().unwrap() {
                panic!("site exited with {status}: {:?}", self.log.lock().unwrap());
            }
            match client.get(format!("{}/healthz", self.base)).send().await {
                Ok(response) if response.status().is_success() => None,
                _ => Some(self.log.lock().unwrap().clone()),
            }
        };
        eventually("the site started", starting, Option::is_none).await;
    }

    fn lines(&self, containing: &str) -> Vec<String> {
        self.log.lock().unwrap().iter().filter(|line| line.contains(containing)).cloned().collect()
    }
}

/// A test that fails half-way leaves no server behind.
impl Drop for Site {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test]
async fn a_submission_answered_201_survives_kill_9_and_is_exported_and_delivered_after_the_restart() {
    // No CMS answers for as long as the first run lives: nothing of its
    // attempts can reach the CMS of the second run late.
    let nowhere = format!("http://{}", std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap());
    let data_dir = tempfile::tempdir().unwrap();
    let client = reqwest::Client::builder().timeout(Duration::from_secs(10)).build().unwrap();

    let mut first = Site::start(data_dir.path(), &nowhere);
    first.ready(&client).await;
    let response = client
        .post(format!("{}{FOUNDATION}", first.base))
        .header("sec-fetch-site", "same-origin")
        .json(&application())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let reference = response.json::<Value>().await.unwrap()["reference"].as_str().unwrap().to_owned();
    // SIGKILL at once: no shutdown, no flush, nothing the process does next.
    first.child.kill().unwrap();
    let killed = first.child.wait().unwrap();
    println!("first run: 201 {reference}, then kill -9: {killed}");
    for line in first.lines("form") {
        println!("  first run log: {line}");
    }

    // A CMS now, failing its first delivery.
    let cms = FakeCms::start(Shape::V5).await;
    cms.fail_next_posts(1);
    let mut second = Site::start(data_dir.path(), &cms.url);
    second.ready(&client).await;
    let export = client
        .get(format!("{}/api/forms/export?form=foundation-application&format=json", second.base))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    let (status, text) = (export.status(), export.text().await.unwrap());
    assert_eq!(status, StatusCode::OK, "{text}");
    let exported: Vec<Value> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(exported.len(), 1);
    assert_eq!(exported[0]["reference"], reference.as_str());
    assert_eq!(exported[0]["budgetTotalTzs"], 15_000_000);
    let delivered = async || (cms.created("foundation-applications").len(), second.lines("form"));
    eventually("delivered after the restart", delivered, |(created, _)| *created == 1).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(cms.created("foundation-applications").len(), 1, "exactly once");
    assert_eq!(second.lines("form delivery failed; will retry").len(), 1, "{:?}", second.lines("form"));
    for line in second.lines("form") {
        println!("  second run log: {line}");
    }
}
