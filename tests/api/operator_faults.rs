//! The site with the operator API behind a fault-injecting proxy
//! (`fault_proxy`) in front of the sandbox, served on its own port: pages of
//! a signed-in visitor answer within their budget while the API hangs or
//! crawls, and make no call where they show no balances; navigation reads
//! the operator once per session until a purchase; the circuit breaker
//! opens after consecutive failures of any kind (a 5xx, a reset, a hang),
//! fails fast with the messages a failed call gets, and closes after a
//! probe; the bulkhead caps the calls under way.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde::Serialize;
use serde_json::{Value, json};
use tokio::net::TcpListener;

use crate::fault_proxy::{Fault, FaultProxy};
use crate::helpers::{
    AMINA, JUMA, NEEMA, TestApp, bodies, code_in_inbox, embedded_page_data, eventually, spawn_app_with,
};

/// What a test allows a page while the API is hung: the budget
/// (`DIGITAL_API_BUDGET_MS`, 1 s) and 2 s for a machine busy with other
/// tests. A page that waited for the hung call would take the API's time
/// limit (`DIGITAL_API_TIMEOUT_MS`, 10 s). A bound on the hang, not a
/// measure of speed.
const HUNG_BOUND: Duration = Duration::from_secs(3);

/// The sandbox on a port of its own, the proxy in front of its API.
struct Operator {
    proxy: FaultProxy,
    sandbox: String,
    _data_dir: tempfile::TempDir,
}

impl Operator {
    async fn start() -> Operator {
        let data_dir = tempfile::tempdir().unwrap();
        let mut config = server::Config::defaults();
        config.data_dir = data_dir.path().to_owned();
        let sandbox = (site::sandbox().open)(&config).expect("the sandbox opens");
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, sandbox).await.unwrap() });
        let proxy = FaultProxy::start(&format!("{address}/digital")).await;
        Operator { proxy, sandbox: address, _data_dir: data_dir }
    }

    /// The site, its operator API this one.
    async fn site(&self, configure: impl FnOnce(&mut server::Config)) -> TestApp {
        let url = format!("{}/", self.proxy.url);
        spawn_app_with(move |config| {
            config.operator.url = Some(url.parse().unwrap());
            configure(config);
        })
        .await
    }

    /// Signs `number` in through the site: the session cookie as a `Cookie` header carries it.
    async fn sign_in(&self, app: &TestApp, number: &str) -> String {
        let (status, _, _) = post(app, "", "/api/auth/request-otp", bodies::number(number)).await;
        assert_eq!(status, StatusCode::OK);
        let code = code_in_inbox(&self.sandbox, number).await;
        let (status, body, cookie) = post(app, "", "/api/auth/validate-otp", bodies::code(number, &code)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        cookie.expect("a session cookie")
    }
}

/// A same-origin POST with `cookie`: status, body, and the cookie it set.
async fn post(app: &TestApp, cookie: &str, path: &str, body: impl Serialize) -> (StatusCode, Value, Option<String>) {
    let mut request = app.client.post(app.url(path)).header("sec-fetch-site", "same-origin").json(&body);
    if !cookie.is_empty() {
        request = request.header("cookie", cookie);
    }
    let response = request.send().await.unwrap();
    let set = response.headers().get("set-cookie").map(|v| v.to_str().unwrap().split(';').next().unwrap().to_owned());
    (response.status(), response.json().await.unwrap_or(Value::Null), set)
}

/// GET with `cookie`: status, page data (from the page's HTML, or the JSON
/// answer), and how long the answer took.
async fn get(app: &TestApp, cookie: &str, path: &str) -> (StatusCode, Value, Duration) {
    let started = Instant::now();
    let response = app.client.get(app.url(path)).header("cookie", cookie).send().await.unwrap();
    let status = response.status();
    let html = response.headers()["content-type"].to_str().unwrap().starts_with("text/html");
    let text = response.text().await.unwrap();
    let elapsed = started.elapsed();
    let data = if html { embedded_page_data(&text) } else { serde_json::from_str(&text).unwrap() };
    (status, data, elapsed)
}

async fn circuit(app: &TestApp) -> String {
    let health: Value = app.get("/healthz?detail").await.json().await.unwrap();
    health["operator"]["circuit"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn signed_in_pages_answer_within_the_budget_while_the_operator_api_hangs() {
    let operator = Operator::start().await;
    // Nothing kept: every account page asks the operator.
    let app = operator.site(|c| c.operator.account_cache = std::time::Duration::from_secs(0)).await;
    let cookie = operator.sign_in(&app, AMINA).await;
    for path in ["/", "/account"] {
        let (_, data, _) = get(&app, &cookie, path).await;
        assert_eq!(data["subscriber"]["names"], "Amina Mwakyusa");
    }
    operator.proxy.behave(Fault::Hang);
    let calls = operator.proxy.count("/");
    for path in ["/", "/sw/voice-sms", "/_data/voice-sms"] {
        let (status, data, elapsed) = get(&app, &cookie, path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(elapsed < HUNG_BOUND, "{path} took {elapsed:?}");
        assert_eq!(data["subscriber"]["names"], "Amina Mwakyusa", "{path}: named from the session");
    }
    assert_eq!(operator.proxy.count("/"), calls, "pages that show no balances make no operator call");
    let asked = operator.proxy.count("customer-details");
    for path in ["/account", "/sw/account", "/_data/account", "/api/account"] {
        let (status, data, elapsed) = get(&app, &cookie, path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(elapsed < HUNG_BOUND, "{path} took {elapsed:?}");
        let subscriber = &data["subscriber"];
        assert_eq!(subscriber["names"], "Amina Mwakyusa", "{path}");
        assert!(subscriber["balance"].is_null(), "{path}: balances unavailable, {subscriber}");
    }
    let (_, answer, _) = get(&app, &cookie, "/api/account").await;
    assert_eq!(answer["notice"]["key"], "balanceError", "the balance failure's message with the answer");
    assert_eq!(operator.proxy.count("customer-details"), asked + 1, "one call, still hung, for every account page");
}

/// A slow API (answering after the page's budget, within its time limit):
/// the page comes at once without balances, the call goes on, and the
/// next read of the page has them, from that one call.
#[tokio::test]
async fn a_slow_operator_api_fills_the_account_page_in_once_it_answers() {
    let operator = Operator::start().await;
    let app = operator.site(|_| {}).await;
    let cookie = operator.sign_in(&app, AMINA).await;
    operator.proxy.behave_on("gsm-config", Fault::Slow(Duration::from_millis(2500)));
    // A purchase drops what was kept since signing in.
    let (status, body, _) = post(&app, &cookie, "/api/bundles/purchase", bodies::daily_bundle_for_self()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let loads = operator.proxy.count("customer-details");
    let (status, data, elapsed) = get(&app, &cookie, "/account").await;
    assert_eq!(status, StatusCode::OK);
    assert!(elapsed < HUNG_BOUND, "took {elapsed:?}");
    assert!(data["subscriber"]["balance"].is_null());
    let subscriber = async || get(&app, &cookie, "/_data/account").await.1["subscriber"].clone();
    let filled = eventually("the balances filled in", subscriber, |subscriber| !subscriber["balance"].is_null()).await;
    assert!(filled["balance"]["mainBalance"].as_f64().unwrap() < 12500.0, "the balance after the purchase: {filled}");
    assert_eq!(filled["paymentType"], "PREPAID");
    assert_eq!(operator.proxy.count("customer-details"), loads + 1, "every read waited on the one load");
}

#[tokio::test]
async fn navigation_asks_the_operator_once_per_session_until_a_purchase() {
    let operator = Operator::start().await;
    let app = operator.site(|_| {}).await;
    let cookie = operator.sign_in(&app, AMINA).await;
    let (_, signed_in, _) = get(&app, &cookie, "/api/account").await;
    let balance = signed_in["subscriber"]["balance"]["mainBalance"].as_f64().unwrap();
    let calls = operator.proxy.count("gsm-config");
    for path in ["/account", "/_data/account", "/", "/_data/voice-sms", "/sw/account"] {
        let (status, data, _) = get(&app, &cookie, path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(data["subscriber"]["names"], "Amina Mwakyusa", "{path}");
    }
    assert_eq!(operator.proxy.count("gsm-config"), calls, "details and balances kept for the session");
    let (_, data, _) = get(&app, &cookie, "/_data/account").await;
    assert_eq!(data["subscriber"]["balance"]["mainBalance"].as_f64(), Some(balance));
    let bundle = &data["bundles"][0];
    let (status, _, _) = post(
        &app,
        &cookie,
        "/api/bundles/purchase",
        bodies::purchase_with_recipient(bundle["id"].as_str().unwrap(), "AIRTIME", "self"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, data, _) = get(&app, &cookie, "/_data/account").await;
    assert_eq!(
        data["subscriber"]["balance"]["mainBalance"].as_f64(),
        Some(balance - bundle["price"].as_f64().unwrap()),
        "read afresh after the purchase"
    );
    assert_eq!(operator.proxy.count("gsm-config"), calls + 3, "the three calls once");
    let (status, _, _) = post(&app, &cookie, "/api/auth/logout", json!({})).await;
    assert_eq!(status, StatusCode::OK);
    let (_, data, _) = get(&app, &cookie, "/_data/account").await;
    assert!(data["subscriber"].is_null(), "signed out");
}

#[tokio::test]
async fn the_circuit_opens_after_consecutive_failures_fails_fast_and_closes_after_a_probe() {
    let operator = Operator::start().await;
    let app = operator
        .site(|c| {
            c.operator.breaker_failures = 3;
            c.operator.breaker_cooldown = std::time::Duration::from_millis(500);
            c.operator.timeout = std::time::Duration::from_millis(1000);
            c.operator.account_cache = std::time::Duration::from_secs(0);
            // The bundle catalogue read afresh at every `/api/bundles`: one operator call each.
            c.content.ttl = std::time::Duration::from_secs(0);
            c.content.stale_if_error = std::time::Duration::from_secs(0);
        })
        .await;
    let cookie = operator.sign_in(&app, AMINA).await;
    assert_eq!(circuit(&app).await, "closed");
    // Three failures in a row, each of another kind.
    for fault in [Fault::Status(500), Fault::Reset, Fault::Hang] {
        operator.proxy.behave(fault);
        let status = app.get("/api/bundles").await.status();
        assert_eq!(status, StatusCode::BAD_GATEWAY, "{fault:?}");
    }
    assert_eq!(circuit(&app).await, "open");
    operator.proxy.behave(Fault::Pass);
    let calls = operator.proxy.count("/");
    // Open: every call fails at once with a failed call's message, none is sent.
    let buy = bodies::daily_bundle_for_self();
    let (status, body, _) = post(&app, &cookie, "/api/bundles/purchase", buy).await;
    assert_eq!(body["notice"]["key"], "notRight", "{status} {body}");
    let (status, body, _) = post(&app, "", "/api/auth/request-otp", bodies::number(JUMA)).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(body["notice"], json!({ "type": "error", "key": "somethingWentWrong", "duration": 7000 }));
    let (status, data, _) = get(&app, &cookie, "/account").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(data["subscriber"]["names"], "Amina Mwakyusa", "still signed in");
    assert!(data["subscriber"]["balance"].is_null());
    assert_eq!(operator.proxy.count("/"), calls, "nothing reached the operator");
    // After the cool-down one call probes; its answer closes the circuit.
    eventually("the circuit half-open", async || circuit(&app).await, |circuit| circuit == "half-open").await;
    assert_eq!(app.get("/api/bundles").await.status(), StatusCode::OK, "the probe");
    assert_eq!(circuit(&app).await, "closed");
    let (_, data, _) = get(&app, &cookie, "/_data/account").await;
    assert_eq!(data["subscriber"]["balance"]["mainBalance"], 12500.0);
    assert!(operator.proxy.count("/") > calls);
}

#[tokio::test]
async fn the_bulkhead_caps_the_calls_under_way_and_pages_keep_answering() {
    let operator = Operator::start().await;
    let app = operator
        .site(|c| {
            c.operator.max_requests = 2;
            c.operator.timeout = std::time::Duration::from_millis(3000);
            c.operator.breaker_failures = 100;
            // The bundle catalogue read afresh at every `/api/bundles`: one operator call each.
            c.content.ttl = std::time::Duration::from_secs(0);
            c.content.stale_if_error = std::time::Duration::from_secs(0);
        })
        .await;
    let cookie = operator.sign_in(&app, AMINA).await;
    operator.proxy.behave(Fault::Hang);
    let sent = operator.proxy.count("/");
    // Two calls of two kinds (the catalogue's reading is one for all its readers).
    let code_request = app
        .client
        .post(app.url("/api/auth/request-otp"))
        .header("sec-fetch-site", "same-origin")
        .json(&bodies::number(JUMA))
        .send();
    let code_request = tokio::spawn(async move { code_request.await.expect("request").status() });
    let catalogue_reading = tokio::spawn(app.get_owned("/api/bundles".into()));
    eventually("two calls hang", async || operator.proxy.count("/"), |calls| *calls >= sent + 2).await;
    assert_eq!(operator.proxy.count("/"), sent + 2, "two calls hang");
    let third = app
        .client
        .post(app.url("/api/auth/request-otp"))
        .header("sec-fetch-site", "same-origin")
        .json(&bodies::number(NEEMA))
        .send()
        .await
        .unwrap();
    let (status, retry_after) = (third.status(), third.headers().get("retry-after").cloned());
    let body: Value = third.json().await.unwrap();
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "a third fails at once: {body}");
    assert_eq!(retry_after.as_ref().map(|v| v.to_str().unwrap()), Some("5"), "and says when to come back");
    assert_eq!(operator.proxy.count("/"), sent + 2, "without being sent");
    let (status, data, _) = get(&app, &cookie, "/").await;
    assert_eq!((status, &data["subscriber"]["names"]), (StatusCode::OK, &json!("Amina Mwakyusa")));
    let health: Value = app.get("/healthz?detail").await.json().await.unwrap();
    assert_eq!(health["operator"]["inFlight"], 2);
    assert_eq!(catalogue_reading.await.unwrap().status(), StatusCode::BAD_GATEWAY, "timed out");
    assert_eq!(code_request.await.unwrap(), StatusCode::GATEWAY_TIMEOUT, "timed out");
    operator.proxy.behave(Fault::Pass);
    assert_eq!(app.get("/api/bundles").await.status(), StatusCode::OK, "room again");
}
