//! Several instances sharing one Redis (`REDIS_URL`), each a real server on
//! its own port, against a real `redis-server` on a random loopback port:
//! the budgets, the sessions and the content invalidation are shared, and
//! Redis going away costs pages nothing and sign-in a clear 503 until it is
//! back. Also `/readyz`, `/metrics` and the drain on shutdown.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::net::TcpListener;

use server::contract::api::PurchaseForm;

use crate::fake_cms::{FakeCms, Shape};
use crate::helpers::{
    AMINA, JUMA, NEEMA, RedisServer, Replay, TestApp, Visitor, bodies, eventually, missing_tool, shared_session_key,
    slow_bundle, spawn_app_with, test_config,
};

/// An instance using `redis`, with the key every instance shares.
async fn instance(redis: &RedisServer, configure: impl FnOnce(&mut server::Config)) -> TestApp {
    let url = redis.url();
    spawn_app_with(move |config| {
        config.operations.redis_url = Some(url.parse().unwrap());
        config.sessions.key = Some(shared_session_key());
        configure(config);
    })
    .await
}

async fn request_code(app: &TestApp, number: &str, lang: &str) -> (StatusCode, Value) {
    let response = app
        .client
        .post(app.url("/api/auth/request-otp"))
        .header("sec-fetch-site", "same-origin")
        .header("x-site-lang", lang)
        .json(&bodies::number(number))
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// The 4th code request for one number within 10 minutes is 429 whichever
/// instance answers (in-process counters would allow 3 per instance).
#[tokio::test]
async fn the_code_budget_of_a_number_is_shared_by_every_instance() {
    let Some(redis) = RedisServer::start().await else { return };
    // No resend wait, so that only the budget of 3 per 10 minutes counts.
    let a = instance(&redis, |c| c.sessions.otp_resend = std::time::Duration::from_secs(0)).await;
    let b = instance(&redis, |c| c.sessions.otp_resend = std::time::Duration::from_secs(0)).await;
    for (n, app) in [&a, &b, &a].into_iter().enumerate() {
        let (status, body) = request_code(app, JUMA, "en").await;
        assert_eq!(status, StatusCode::OK, "request {}: {body}", n + 1);
    }
    let (status, body) = request_code(&b, JUMA, "sw").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    // How long to wait, from Redis's own clock: a third of the 10 minutes.
    assert_eq!(
        (&body["notice"]["key"], &body["notice"]["params"]),
        (&json!("codeWaitMinutes"), &json!({ "minutes": "4" }))
    );
    assert_eq!(request_code(&a, JUMA, "en").await.0, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(request_code(&b, AMINA, "en").await.0, StatusCode::OK, "another number has its own budget");
}

/// The resend rule too: a code sent through one instance makes the next
/// request for the same number wait on every other.
#[tokio::test]
async fn the_resend_wait_holds_across_instances() {
    let Some(redis) = RedisServer::start().await else { return };
    let a = instance(&redis, |_| {}).await;
    let b = instance(&redis, |_| {}).await;
    assert_eq!(request_code(&a, AMINA, "en").await.0, StatusCode::OK);
    let (status, body) = request_code(&b, AMINA, "en").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    // The rest of the minute, read from the key's time to live: 1 minute, or some seconds.
    let wait = &body["notice"]["params"];
    assert!(
        wait["minutes"] == "1" || wait["seconds"].as_str().is_some_and(|s| s.parse::<u32>().is_ok_and(|s| s <= 60)),
        "{body}"
    );
}

/// A session signed in on one instance works on another, and logout on
/// that other ends it on the first: a kept copy of the cookie is dead
/// everywhere.
#[tokio::test]
async fn logout_on_one_instance_ends_the_session_on_every_other() {
    let Some(redis) = RedisServer::start().await else { return };
    let a = instance(&redis, |_| {}).await;
    let operator = a.url("/sandbox/digital/");
    let b = instance(&redis, move |c| c.operator.url = Some(operator.parse().unwrap())).await;
    let (_, cookie) = Visitor::new(&a).sign_in_keeping_cookie(AMINA).await;
    assert_eq!(Replay::new(&b, &cookie).account().await, StatusCode::OK, "signed in on A, served by B");
    let logout = b
        .client
        .post(b.url("/api/auth/logout"))
        .header("cookie", &cookie)
        .header("sec-fetch-site", "same-origin")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(logout.status(), StatusCode::OK);
    let copy = Replay::new(&a, &cookie);
    assert_eq!(copy.account().await, StatusCode::UNAUTHORIZED, "logged out on B, refused on A");
    assert_eq!(copy.buy(&bodies::daily_bundle_for_self()).await, StatusCode::UNAUTHORIZED);
}

/// What a page at `path` of `app` says now, from the fast path or not.
/// A purchase through one instance makes the same purchase through another,
/// within two minutes, wait for an explicit confirmation: a retry that the
/// balancer sends elsewhere is not sent to the operator again.
#[tokio::test]
async fn a_purchase_through_one_instance_is_not_sent_again_unconfirmed_through_another() {
    let Some(redis) = RedisServer::start().await else { return };
    let a = instance(&redis, |_| {}).await;
    let b = instance(&redis, |_| {}).await;
    let (_, cookie) = Visitor::new(&a).sign_in_keeping_cookie(AMINA).await;
    assert_eq!(Replay::new(&a, &cookie).buy(&bodies::daily_bundle_for_self()).await, StatusCode::OK);
    assert_eq!(Replay::new(&b, &cookie).buy(&bodies::daily_bundle_for_self()).await, StatusCode::CONFLICT);
    assert_ne!(
        Replay::new(&b, &cookie).buy(&PurchaseForm { again: true, ..bodies::daily_bundle_for_self() }).await,
        StatusCode::CONFLICT,
        "confirmed"
    );
}

/// Content from `cms`, kept an hour unless invalidated.
fn from_cms(cms: &FakeCms) -> impl FnOnce(&mut server::Config) + use<> {
    let url = cms.url.clone();
    move |c: &mut server::Config| {
        c.cms.url = Some(url.parse().unwrap());
        c.cms.webhook_secret = Some("hook-secret".parse().unwrap());
        c.content.ttl = std::time::Duration::from_secs(3600);
    }
}

/// `redis-cli INCR` of the content version: a change published by an
/// instance whose message this one missed. `false` where redis-cli is
/// missing and the test may be skipped ([`missing_tool`]).
fn bump_version(redis: &RedisServer) -> bool {
    match std::process::Command::new("redis-cli")
        .args(["-p", &redis.port.to_string(), "INCR", "site:content:version"])
        .output()
    {
        Err(_) => {
            missing_tool("redis-cli");
            false
        }
        Ok(output) => {
            assert!(output.status.success(), "redis-cli INCR: {output:?}");
            true
        }
    }
}

/// A webhook received by one instance refreshes the page on the others
/// within a second (pub/sub), and a change they missed is caught up from
/// the version key.
#[tokio::test]
async fn a_webhook_to_one_instance_refreshes_every_instance_within_a_second() {
    let Some(redis) = RedisServer::start().await else { return };
    let cms = FakeCms::start(Shape::V4).await;
    cms.put_page("voice", "en", "Before", "Body");
    let a = instance(&redis, from_cms(&cms)).await;
    let b = instance(&redis, from_cms(&cms)).await;
    let c = instance(&redis, from_cms(&cms)).await;
    for app in [&a, &b, &c] {
        for _ in 0..2 {
            assert!(app.page("/voice-sms").await.contains("Before"));
        }
    }
    cms.put_page("voice", "en", "After", "Body");
    assert!(b.page("/voice-sms").await.contains("Before"), "kept until told");

    let event = json!({ "event": "entry.update", "model": "voice", "entry": { "id": 1, "locale": "en" } });
    let accepted =
        a.client.post(a.url("/api/cms/webhook")).bearer_auth("hook-secret").json(&event).send().await.unwrap();
    assert_eq!(accepted.status(), StatusCode::OK);
    // The page kept for the previous content may answer while the new one
    // renders in the background; then the new one. The content is kept an
    // hour: a page that changes at all was invalidated. How soon is `make
    // test-scale`'s to measure (three separate instances, within 1 s), not
    // this test's, where the whole suite shares two cores.
    for app in [&a, &b, &c] {
        let shows = async || app.page("/voice-sms").await.contains("After");
        eventually(&format!("{}: refreshed", app.address), shows, |shows| *shows).await;
    }

    // A change whose message was missed: only the version key moved.
    cms.put_page("voice", "en", "Missed", "Body");
    if bump_version(&redis) {
        let shows = async || c.page("/voice-sms").await.contains("Missed");
        eventually("caught up from the version key", shows, |shows| *shows).await;
    }
}

/// An instance that first reached Redis after a change was made (Redis
/// down when it started; on a busy machine, its subscription slower than
/// the webhook) drops the content it fetched before: it cannot know what
/// it missed. (It took the version it first read as its starting point,
/// and kept the old page for the content's whole lifetime.)
#[tokio::test]
async fn an_instance_that_reached_redis_after_a_change_drops_what_it_fetched_before() {
    let Some(mut redis) = RedisServer::start().await else { return };
    let cms = FakeCms::start(Shape::V4).await;
    cms.put_page("voice", "en", "Before", "Body");
    redis.stop();
    let late = instance(&redis, from_cms(&cms)).await;
    assert!(late.page("/voice-sms").await.contains("Before"));
    cms.put_page("voice", "en", "After", "Body");
    redis.resume().await;
    if !bump_version(&redis) {
        return;
    }
    let shows = async || late.page("/voice-sms").await.contains("After");
    eventually("the page fetched before Redis answered dropped", shows, |shows| *shows).await;
}

/// Redis stops: pages keep coming from the local caches; sign-in and
/// purchases answer 503 with a message in the visitor's language instead
/// of going unlimited or signing the visitor out; `/readyz` says why. Redis
/// back: sign-in works again by itself.
#[tokio::test]
async fn without_redis_pages_serve_sign_in_is_503_and_both_recover() {
    let Some(mut redis) = RedisServer::start().await else { return };
    let app = instance(&redis, |_| {}).await;
    let visitor = Visitor::new(&app);
    let (_, cookie) = visitor.sign_in_keeping_cookie(AMINA).await;
    for path in ["/", "/voice-sms", "/sw"] {
        app.page(path).await;
    }
    assert_eq!(app.get("/readyz").await.status(), StatusCode::OK);

    redis.stop();
    // Answered while Redis is down, each after Redis's own time limit at
    // most: none held until Redis returns (which here it never would).
    let answered = async {
        for path in ["/", "/voice-sms", "/sw", "/sw/voice-sms"] {
            app.page(path).await;
        }
        let (status, body) = request_code(&app, JUMA, "sw").await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert_eq!(body["notice"]["key"], "serviceUnavailable");
        assert_eq!(
            Replay::new(&app, &cookie).buy(&bodies::daily_bundle_for_self()).await,
            StatusCode::SERVICE_UNAVAILABLE
        );
        assert_eq!(Replay::new(&app, &cookie).account().await, StatusCode::SERVICE_UNAVAILABLE);
    };
    tokio::time::timeout(Duration::from_secs(60), answered)
        .await
        .expect("answered while Redis is down, not held until it comes back");
    // Each refusal says when to come back.
    let account = app.client.get(app.url("/api/account")).header("cookie", &cookie).send().await.unwrap();
    assert_eq!(account.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(account.headers().contains_key("retry-after"), "{:?}", account.headers());
    let ready = app.get("/readyz").await;
    assert_eq!(ready.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(ready.headers().contains_key("retry-after"), "{:?}", ready.headers());
    assert!(ready.json::<Value>().await.unwrap()["failing"]["redis"].is_string());

    redis.resume().await;
    let sign_in = async || request_code(&app, JUMA, "en").await.0;
    eventually("sign-in recovered", sign_in, |status| *status == StatusCode::OK).await;
    assert_eq!(app.get("/readyz").await.status(), StatusCode::OK);
    // Redis came back empty: the session is gone, a new sign-in works (a
    // number the sandbox sent no code to within its resend time).
    assert_eq!(Replay::new(&app, &cookie).account().await, StatusCode::UNAUTHORIZED);
    Visitor::new(&app).sign_in_keeping_cookie(NEEMA).await;
}

/// Redis restarted: an instance's first request after it is back is
/// answered, not refused once per instance while its connection manager
/// finds out (three instances behind nginx each refused one sign-in that
/// way in `make test-scale`). Both ways a connection goes stale: dropped
/// while the instance was idle, and a reconnection refused while Redis was
/// down.
#[tokio::test]
async fn the_first_request_after_redis_restarts_is_answered() {
    let Some(mut redis) = RedisServer::start().await else { return };
    let app = instance(&redis, |_| {}).await;
    let (status, body) = request_code(&app, AMINA, "en").await;
    assert_eq!(status, StatusCode::OK, "{body}");

    redis.stop();
    redis.resume().await;
    let (status, body) = request_code(&app, JUMA, "en").await;
    assert_eq!(status, StatusCode::OK, "idle through the restart: {body}");

    redis.stop();
    let (status, _) = request_code(&app, NEEMA, "en").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    redis.resume().await;
    let (status, body) = request_code(&app, NEEMA, "sw").await;
    assert_eq!(status, StatusCode::OK, "refused while down: {body}");
}

/// `GET /metrics` on the private listener, in Prometheus text format; the
/// public listener has no such address.
#[tokio::test]
async fn metrics_are_served_on_their_own_listener() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let app =
        spawn_app_with(move |c| c.operations.metrics_addr = Some(std::net::SocketAddr::from(([127, 0, 0, 1], port))))
            .await;
    app.page("/voice-sms").await;
    app.page("/voice-sms").await;
    assert_eq!(request_code(&app, "0754", "en").await.0, StatusCode::BAD_REQUEST);
    let metrics = app.client.get(format!("http://127.0.0.1:{port}/metrics")).send().await.unwrap();
    assert_eq!(metrics.status(), StatusCode::OK);
    assert!(metrics.headers()["content-type"].to_str().unwrap().starts_with("text/plain"));
    let text = metrics.text().await.unwrap();
    for expected in [
        r#"http_requests_total{kind="page",status="200"}"#,
        r#"http_request_duration_seconds_bucket{kind="page",status="200",le="0.005"}"#,
        "render_duration_seconds_bucket",
        "render_queue_depth",
        r#"page_cache_lookups_total{result="miss"}"#,
        "page_cache_bytes",
        // Every cache: what it holds, and how its lookups went.
        r#"cache_bytes{cache="content"}"#,
        r#"cache_entries{cache="content"}"#,
        r#"cache_hits_total{cache="content"}"#,
        r#"cache_bytes{cache="image_disk"}"#,
        r#"cache_bytes{cache="places"}"#,
        r#"cache_entries{cache="search"}"#,
        r#"otp_requests_total{purpose="sign-in",outcome="refused"}"#,
        "# TYPE http_request_duration_seconds histogram",
    ] {
        assert!(text.contains(expected), "{expected} missing from:\n{text}");
    }
    assert_eq!(app.get("/metrics").await.status(), StatusCode::NOT_FOUND, "not on the public listener");
}

/// Shutdown: `/readyz` turns 503 at once while pages are still served for
/// `DRAIN_DELAY_SECS`; then no new connection is taken, a render under way
/// still gets its page, and the server stops within `SHUTDOWN_GRACE_SECS`.
#[tokio::test]
async fn on_shutdown_the_server_is_not_ready_and_finishes_what_it_started() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    let data_dir = tempfile::tempdir().unwrap();
    let mut config = test_config(&address, data_dir.path());
    config.operations.shutdown_grace = std::time::Duration::from_secs(5);
    config.operations.drain_delay = std::time::Duration::from_secs(1);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(server::run(listener, config, slow_bundle(1500), Some(site::sandbox()), async {
        let _ = stopped.await;
    }));
    let client = reqwest::Client::new();
    let refused = async || client.get(format!("{address}/healthz")).send().await.err().map(|e| e.to_string());
    eventually("the server answers", refused, Option::is_none).await;
    assert_eq!(client.get(format!("{address}/readyz")).send().await.unwrap().status(), StatusCode::OK);
    let _ = stop.send(());
    let signalled = Instant::now();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let ready = client.get(format!("{address}/readyz")).send().await.unwrap();
    assert_eq!(ready.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(ready.text().await.unwrap().contains("draining"));
    // A render that starts during the delay and ends after the listener closed.
    let slow = tokio::spawn({
        let (client, address) = (client.clone(), address.clone());
        async move { client.get(format!("{address}/voice-sms")).send().await.map(|r| r.status()) }
    });
    assert_eq!(slow.await.unwrap().unwrap(), StatusCode::OK, "the render under way finished");
    tokio::time::timeout(Duration::from_secs(5), server).await.expect("stopped within the grace").unwrap().unwrap();
    assert!(signalled.elapsed() < Duration::from_secs(5));
    assert!(client.get(format!("{address}/healthz")).send().await.is_err(), "no new connection is taken");
}
