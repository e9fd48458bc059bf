//! The built-in sandbox as tests use it: the subscribers its seed knows,
//! the codes its inbox shows, and its switch that makes the next call of
//! the operator's API fail or answer late.

use std::time::Duration;

use serde_json::{Value, json};

use super::TestApp;

/// Prepaid, with M-Pesa.
pub const AMINA: &str = "0754000001";
/// Prepaid.
pub const JUMA: &str = "0754000002";
/// Postpaid.
pub const NEEMA: &str = "0754000003";
/// A minor, without M-Pesa.
pub const BARAKA: &str = "0754000004";

/// The last code the inbox of the sandbox at `sandbox` (its root address)
/// shows for `number` (as typed, `07…`).
pub async fn code_in_inbox(sandbox: &str, number: &str) -> String {
    let international = format!("255{}", &number[1..]);
    let inbox: Value =
        reqwest::get(format!("{sandbox}/inbox?msisdn={international}")).await.unwrap().json().await.unwrap();
    inbox["code"].as_str().expect("a code in the inbox").to_owned()
}

/// The last code the sandbox mounted in `app` sent `number`.
pub async fn latest_code(app: &TestApp, number: &str) -> String {
    code_in_inbox(&app.url("/sandbox"), number).await
}

/// Arms the sandbox of `app`: its next call of `path` answers `status`
/// (with `body`, else the sandbox's own failure).
pub async fn fail_next(app: &TestApp, path: &str, status: u16, body: Option<Value>) {
    let mut request = json!({ "status": status, "path": path });
    if let Some(body) = body {
        request["body"] = body;
    }
    arm(app, &request).await;
}

/// Arms the sandbox of `app`: its next call of `path` is made, and its
/// answer held back for `delay`.
pub async fn hold_next(app: &TestApp, path: &str, delay: Duration) {
    arm(app, &json!({ "delayMs": delay.as_millis() as u64, "path": path })).await;
}

async fn arm(app: &TestApp, request: &Value) {
    let response = app
        .client
        .post(app.url("/sandbox/fail-next"))
        .header("sec-fetch-site", "same-origin")
        .json(request)
        .send()
        .await
        .unwrap();
    assert!(response.status().is_success(), "fail-next armed");
}
