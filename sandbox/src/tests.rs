//! The sandbox through its router, as the site's client and its tests use it.

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use serde_json::{Value, json};
use tempfile::TempDir;
use tower::ServiceExt;

use rusqlite::types::FromSql;

use super::{Sandbox, SandboxError, SandboxOptions, router};

const AMINA: &str = "255754000001";
const JUMA: &str = "255754000002";
const NEEMA: &str = "255754000003";
const MIFI: &str = "255754000010";
const ROUTER: &str = "255754000011";

const WRONG_CODE: &str = "The code is not correct. Check the SMS and try again.";
const EXPIRED_CODE: &str = "This code has expired. Please request a new code.";
const BURNT_CODE: &str = "Too many wrong tries: this code no longer works. Please request a new code.";

struct TestSandbox {
    app: Router,
    sandbox: Sandbox,
    dir: TempDir,
}

fn sandbox() -> TestSandbox {
    sandbox_with(SandboxOptions::default())
}

fn sandbox_with(options: SandboxOptions) -> TestSandbox {
    let dir = tempfile::tempdir().unwrap();
    let sandbox = Sandbox::open(dir.path(), options).unwrap();
    TestSandbox { app: router(sandbox.clone()), sandbox, dir }
}

impl TestSandbox {
    /// One call; `authorization` is the whole header value.
    async fn call(
        &self,
        method: Method,
        uri: &str,
        authorization: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut request = Request::builder().method(method).uri(uri);
        if let Some(authorization) = authorization {
            request = request.header(header::AUTHORIZATION, authorization);
        }
        let request = match body {
            Some(body) => request.header(header::CONTENT_TYPE, "application/json").body(Body::from(body.to_string())),
            None => request.body(Body::empty()),
        };
        let response = self.app.clone().oneshot(request.unwrap()).await.unwrap();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
        let value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| panic!("{uri} answered {status} with no JSON: {}", String::from_utf8_lossy(&bytes)));
        (status, value)
    }

    async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.call(Method::POST, &format!("/digital/{path}"), None, Some(body)).await
    }

    async fn get(&self, path: &str, authorization: Option<&str>) -> (StatusCode, Value) {
        self.call(Method::GET, &format!("/digital/{path}"), authorization, None).await
    }

    /// The latest code the inbox holds for `msisdn`.
    async fn inbox_code(&self, msisdn: &str) -> String {
        let (status, sms) = self.call(Method::GET, &format!("/inbox?msisdn={msisdn}"), None, None).await;
        assert_eq!(status, StatusCode::OK, "{sms}");
        sms["code"].as_str().unwrap().to_owned()
    }

    async fn validate(&self, path: &str, msisdn: &str, code: &str) -> (StatusCode, Value) {
        self.post(path, json!({ "msisdn": msisdn, "code": code })).await
    }

    /// A subscriber token for `msisdn`, through the whole sign-in flow.
    async fn sign_in(&self, msisdn: &str) -> String {
        let (status, answer) = self.post("api/v1/auth/request-otp", json!({ "msisdn": msisdn })).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let code = self.inbox_code(msisdn).await;
        let (status, answer) = self.validate("api/v1/auth/validate-otp", msisdn, &code).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        format!("Bearer {}", answer["data"].as_str().unwrap())
    }

    async fn airtime(&self, bearer: &str) -> i64 {
        let (status, answer) = self.get("api/v1/gsm-config/airtime-balance", Some(bearer)).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        answer["data"]["mainBalance"].as_i64().unwrap()
    }

    /// What is left of the bundle named `name`, if held.
    async fn bundle_remaining(&self, bearer: &str, name: &str) -> Option<i64> {
        let (status, answer) = self.get("api/v1/gsm-config/bundle-balance", Some(bearer)).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        answer["data"].as_array().unwrap().iter().find(|b| b["name"] == name).map(|b| b["remaining"].as_i64().unwrap())
    }

    async fn buy(&self, bearer: &str, bundle_id: &str, channel: &str, subscriber: &str) -> (StatusCode, Value) {
        let body =
            json!({ "bundleId": bundle_id, "touchPoint": "", "purchaseChannel": channel, "subscriber": subscriber });
        self.call(Method::POST, "/digital/api/v1/gsm-static-bundles/purchase", Some(bearer), Some(body)).await
    }

    /// A value the contract does not show, read from the database.
    async fn scalar<T: FromSql + Send + 'static>(&self, sql: &'static str, parameter: &'static str) -> T {
        self.sandbox
            .db(move |db| db.query_row(sql, [parameter], |row| row.get(0)).map_err(SandboxError::from))
            .await
            .unwrap()
    }

    async fn wallet(&self, msisdn: &'static str) -> i64 {
        self.scalar("SELECT wallet FROM subscriber WHERE msisdn = ?1", msisdn).await
    }
}

#[tokio::test]
async fn a_code_from_the_inbox_signs_in_once() {
    let sandbox = sandbox();
    let (status, answer) = sandbox.post("api/v1/auth/request-otp", json!({ "msisdn": AMINA })).await;
    assert_eq!(status, StatusCode::OK);
    assert!(answer["message"]["en"].as_str().unwrap().contains("code"));
    assert!(answer["message"]["sw"].as_str().unwrap().contains("msimbo"));

    let code = sandbox.inbox_code(AMINA).await;
    let (status, answer) = sandbox.validate("api/v1/auth/validate-otp", AMINA, &code).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let token = answer["data"].as_str().unwrap();
    assert_eq!(token.len(), 43);

    let (status, answer) = sandbox.validate("api/v1/auth/validate-otp", AMINA, &code).await;
    assert_eq!((status, answer["message"]["en"].as_str()), (StatusCode::BAD_REQUEST, Some(WRONG_CODE)), "single use");

    let (status, details) = sandbox.get("api/v1/gsm-config/customer-details", Some(&format!("Bearer {token}"))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        details["data"],
        json!({
            "msisdn": AMINA, "firstName": "Amina", "familyName": "Mwakyusa", "paymentMethod": "PREPAID",
            "minor": false, "registrationStatus": "REGISTERED", "scopes": ["balance", "purchase"],
        })
    );
}

#[tokio::test]
async fn the_fifth_wrong_try_burns_the_code() {
    let sandbox = sandbox();
    sandbox.post("api/v1/auth/request-otp", json!({ "msisdn": AMINA })).await;
    let code = sandbox.inbox_code(AMINA).await;
    let wrong = if code == "000000" { "111111" } else { "000000" };
    for attempt in 1..=4 {
        let (status, answer) = sandbox.validate("api/v1/auth/validate-otp", AMINA, wrong).await;
        assert_eq!(
            (status, answer["message"]["en"].as_str()),
            (StatusCode::BAD_REQUEST, Some(WRONG_CODE)),
            "try {attempt}"
        );
    }
    let (status, answer) = sandbox.validate("api/v1/auth/validate-otp", AMINA, wrong).await;
    assert_eq!((status, answer["message"]["en"].as_str()), (StatusCode::BAD_REQUEST, Some(BURNT_CODE)));
    assert!(answer["message"]["sw"].as_str().unwrap().contains("msimbo mpya"));
    let (_, answer) = sandbox.validate("api/v1/auth/validate-otp", AMINA, &code).await;
    assert_eq!(answer["message"]["en"], BURNT_CODE, "even the right code no longer works");
}

#[tokio::test]
async fn an_expired_code_is_refused_as_expired() {
    let sandbox = sandbox_with(SandboxOptions { code_ttl: Duration::from_millis(100), ..SandboxOptions::default() });
    sandbox.post("api/v1/auth/request-otp", json!({ "msisdn": AMINA })).await;
    let code = sandbox.inbox_code(AMINA).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, answer) = sandbox.validate("api/v1/auth/validate-otp", AMINA, &code).await;
    assert_eq!((status, answer["message"]["en"].as_str()), (StatusCode::BAD_REQUEST, Some(EXPIRED_CODE)));
    assert_eq!(answer["message"]["sw"], "Muda wa msimbo huu umekwisha. Tafadhali omba msimbo mpya.");
}

#[tokio::test]
async fn a_new_code_waits_a_minute_and_replaces_the_old() {
    let sandbox = sandbox();
    sandbox.post("api/v1/auth/request-otp", json!({ "msisdn": AMINA })).await;
    let (status, answer) = sandbox.post("api/v1/auth/request-otp", json!({ "msisdn": AMINA })).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    let reason = answer["failure"]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("Please wait ") && reason.ends_with(" seconds before requesting a new code."),
        "{reason}"
    );
    let seconds: u64 = reason.split(' ').nth(2).unwrap().parse().unwrap();
    assert!((59..=60).contains(&seconds), "{reason}");

    let sandbox = sandbox_with(SandboxOptions { resend_after: Duration::ZERO, ..SandboxOptions::default() });
    sandbox.post("api/v1/auth/request-otp", json!({ "msisdn": AMINA })).await;
    let first = sandbox.inbox_code(AMINA).await;
    let mut second = first.clone();
    while second == first {
        sandbox.post("api/v1/auth/request-otp", json!({ "msisdn": AMINA })).await;
        second = sandbox.inbox_code(AMINA).await;
    }
    let (status, _) = sandbox.validate("api/v1/auth/validate-otp", AMINA, &first).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "the old code was replaced");
    let (status, _) = sandbox.validate("api/v1/auth/validate-otp", AMINA, &second).await;
    assert_eq!(status, StatusCode::OK);
}

/// A number that is no subscriber gets, for sign-in and CPM codes alike,
/// the answers a subscriber gets: to the request, to another within the
/// minute, to wrong codes up to the one that burns; and no code is made.
#[tokio::test]
async fn unknown_numbers_get_the_same_answers_and_no_code() {
    for (request, validate) in
        [("api/v1/auth/request-otp", "api/v1/auth/validate-otp"), ("cpm/request-otp", "cpm/validate-otp")]
    {
        let sandbox = sandbox();
        let subscriber = sandbox.post(request, json!({ "msisdn": AMINA })).await;
        let stranger = sandbox.post(request, json!({ "msisdn": STRANGER })).await;
        assert_eq!((stranger.0, &stranger.1), (StatusCode::OK, &subscriber.1), "{request}");

        let subscriber = sandbox.post(request, json!({ "msisdn": AMINA })).await;
        let stranger = sandbox.post(request, json!({ "msisdn": STRANGER })).await;
        assert_eq!(
            (subscriber.0, stranger.0),
            (StatusCode::TOO_MANY_REQUESTS, StatusCode::TOO_MANY_REQUESTS),
            "{request}"
        );
        for (_, answer) in [subscriber, stranger] {
            assert!(answer["failure"]["reason"].as_str().unwrap().starts_with("Please wait "), "{answer}");
        }

        let code = sandbox.inbox_code(AMINA).await;
        let wrong = if code == "000000" { "111111" } else { "000000" };
        for attempt in 1..=5 {
            let subscriber = sandbox.validate(validate, AMINA, wrong).await;
            let stranger = sandbox.validate(validate, STRANGER, wrong).await;
            assert_eq!(stranger, subscriber, "{validate}, wrong try {attempt}");
        }
        assert_eq!(sandbox.validate(validate, STRANGER, wrong).await.1["message"]["en"], BURNT_CODE);

        let (status, _) = sandbox.call(Method::GET, &format!("/inbox?msisdn={STRANGER}"), None, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "nothing sent");
        let hash: Vec<u8> = sandbox.scalar("SELECT hash FROM one_time_code WHERE msisdn = ?1", STRANGER).await;
        assert!(hash.is_empty(), "no code that could open it");
    }
}

#[tokio::test]
async fn malformed_numbers_and_codes_are_400() {
    let sandbox = sandbox();
    let (status, answer) = sandbox.post("api/v1/auth/request-otp", json!({ "msisdn": "0754000001" })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(answer["failure"]["reason"].as_str().unwrap().contains("12 digits"), "{answer}");
    let (status, answer) = sandbox.post("api/v1/auth/request-otp", json!({ "phone": AMINA })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert!(answer["failure"]["reason"].is_string());

    let (status, answer) = sandbox.validate("api/v1/auth/validate-otp", AMINA, "12ab56").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(answer["message"], json!({ "en": "The code is 6 digits.", "sw": "Msimbo una tarakimu 6." }));
    let (status, answer) = sandbox.validate("cpm/validate-otp", "+255754000001", "123456").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(answer["message"]["sw"].as_str().unwrap().contains("tarakimu 12"));
}

#[tokio::test]
async fn balances_need_a_live_token() {
    let sandbox = sandbox();
    for authorization in [None, Some("Bearer not-a-token"), Some("Basic abc")] {
        for path in ["customer-details", "airtime-balance", "bundle-balance"] {
            let (status, answer) = sandbox.get(&format!("api/v1/gsm-config/{path}"), authorization).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{path} with {authorization:?}");
            assert_eq!(answer["message"]["en"], "Your session has expired. Please log in again.");
        }
    }
    let bearer = sandbox.sign_in(AMINA).await;
    assert_eq!(sandbox.airtime(&bearer).await, 12_500);
    let (_, answer) = sandbox.get("api/v1/gsm-config/bundle-balance", Some(&bearer)).await;
    let bundles = answer["data"].as_array().unwrap();
    let data = bundles.iter().find(|b| b["unit"] == "MB").unwrap();
    assert_eq!(data["remaining"], 1_229);
    assert!(bundles.iter().any(|b| b["unit"] == "MIN" && b["remaining"] == 35));
    let expires = data["expiresAt"].as_str().unwrap();
    assert!(time::OffsetDateTime::parse(expires, &time::format_description::well_known::Rfc3339).is_ok(), "{expires}");

    let sandbox = sandbox_with(SandboxOptions { token_ttl: Duration::from_millis(100), ..SandboxOptions::default() });
    let bearer = sandbox.sign_in(AMINA).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, _) = sandbox.get("api/v1/gsm-config/airtime-balance", Some(&bearer)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "expired token");
}

#[tokio::test]
async fn the_catalogue_is_public_and_bilingual() {
    let sandbox = sandbox();
    let (status, answer) = sandbox.get("api/v1/gsm-static-bundles", None).await;
    assert_eq!(status, StatusCode::OK);
    let bundles = answer["data"].as_array().unwrap();
    assert!(bundles.len() > 50);
    for bundle in bundles {
        assert!(bundle["id"].is_string() && bundle["category"].is_string() && bundle["price"].is_i64(), "{bundle}");
        assert!(bundle["name"]["en"].is_string() && bundle["name"]["sw"].is_string(), "{bundle}");
        assert!(bundle["validity"]["en"].is_string() && bundle["validity"]["sw"].is_string(), "{bundle}");
        assert!(["DATA", "VOICE", "SMS", "MIXED", "SERVICE"].contains(&bundle["type"].as_str().unwrap()), "{bundle}");
        assert!(bundle["ussd"].as_str().unwrap().ends_with('#'), "{bundle}");
        let allowances = bundle["allowances"].as_array().unwrap();
        assert_eq!(bundle["purchasable"].as_bool().unwrap(), !allowances.is_empty(), "{bundle}");
    }
    let mix = bundles.iter().find(|b| b["id"] == "biashara-pro").unwrap();
    assert_eq!(
        mix["allowances"],
        json!([{ "amount": 15_360, "unit": "MB" }, { "amount": 800, "unit": "MIN" }, { "amount": 500, "unit": "SMS" }])
    );
}

#[tokio::test]
async fn buying_for_oneself_and_for_a_friend_moves_both_balances() {
    let sandbox = sandbox();
    let amina = sandbox.sign_in(AMINA).await;
    let juma = sandbox.sign_in(JUMA).await;

    let (status, answer) = sandbox.buy(&amina, "data-daily-1gb", "AIRTIME", "").await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["message"], json!({ "en": "Your Request has being received", "sw": "Ombi Lako Limepokelewa" }));
    assert_eq!(sandbox.airtime(&amina).await, 11_500);
    assert_eq!(sandbox.bundle_remaining(&amina, "Daily Internet 1GB").await, Some(1_024));

    let (status, _) = sandbox.buy(&amina, "data-weekly-2gb", "MPESA", JUMA).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(sandbox.wallet(AMINA).await, 46_000);
    assert_eq!(sandbox.airtime(&amina).await, 11_500);
    assert_eq!(sandbox.bundle_remaining(&juma, "Weekly Internet 2GB").await, Some(2_048));
    assert_eq!(
        sandbox.bundle_remaining(&amina, "Weekly Internet 2GB").await,
        Some(1_229),
        "the payer's own is untouched"
    );

    let (status, _) = sandbox.buy(&amina, "data-weekly-2gb", "MPESA", "").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(sandbox.bundle_remaining(&amina, "Weekly Internet 2GB").await, Some(1_229 + 2_048), "topped up");
}

#[tokio::test]
async fn purchase_refusals() {
    let sandbox = sandbox();
    let juma = sandbox.sign_in(JUMA).await;
    let (status, answer) = sandbox.buy(&juma, "data-monthly-30gb", "AIRTIME", "").await;
    assert_eq!(status, StatusCode::PAYMENT_REQUIRED);
    assert!(answer["message"]["en"].as_str().unwrap().contains("too low"));
    let (status, _) = sandbox.buy(&juma, "data-monthly-10gb", "MPESA", "").await;
    assert_eq!(status, StatusCode::PAYMENT_REQUIRED);
    assert_eq!(sandbox.airtime(&juma).await, 3_000);
    assert_eq!(sandbox.wallet(JUMA).await, 5_000);

    let (status, _) = sandbox.buy(&juma, "no-such-bundle", "AIRTIME", "").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = sandbox.buy(&juma, "data-daily-500mb", "CASH", "").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = sandbox.buy("Bearer expired", "data-daily-500mb", "AIRTIME", "").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(sandbox.airtime(&juma).await, 3_000);

    let neema = sandbox.sign_in(NEEMA).await;
    let (status, _) = sandbox.buy(&neema, "data-monthly-30gb", "AIRTIME", "").await;
    assert_eq!(status, StatusCode::OK, "postpaid airtime goes on the bill");
    assert_eq!(sandbox.airtime(&neema).await, 0);
    let billed: bool = sandbox.scalar("SELECT billed FROM purchase WHERE payer = ?1", NEEMA).await;
    assert!(billed);
}

/// A bundle of data, minutes and SMS credits three balances, each under
/// the bundle's id; a service sold only by its code is refused.
#[tokio::test]
async fn a_mixed_bundle_credits_each_allowance_and_services_are_bought_by_their_code() {
    let sandbox = sandbox();
    let amina = sandbox.sign_in(AMINA).await;
    let (status, answer) = sandbox.buy(&amina, "biashara-pro", "MPESA", "").await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (_, answer) = sandbox.get("api/v1/gsm-config/bundle-balance", Some(&amina)).await;
    let mut held: Vec<_> = answer["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["bundleId"] == "biashara-pro")
        .map(|b| {
            (
                b["unit"].as_str().unwrap().to_owned(),
                b["remaining"].as_i64().unwrap(),
                b["name"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    held.sort();
    let name = "Biashara Pro: 15 GB + 800 minutes + 500 SMS".to_owned();
    assert_eq!(
        held,
        [("MB".into(), 15_360, name.clone()), ("MIN".into(), 800, name.clone()), ("SMS".into(), 500, name)]
    );
    assert_eq!(sandbox.wallet(AMINA).await, 48_000 - 25_000);

    let (status, answer) = sandbox.buy(&amina, "mdundo-week", "AIRTIME", "").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(answer["message"]["en"], "This bundle is bought by dialling *149*18#.");
    assert_eq!(sandbox.airtime(&amina).await, 12_500, "nothing was taken");
}

/// A number without M-Pesa: its balance call answers 404, and buying with
/// M-Pesa is refused before any money moves.
#[tokio::test]
async fn the_m_pesa_balance_and_numbers_without_m_pesa() {
    let sandbox = sandbox();
    let amina = sandbox.sign_in(AMINA).await;
    let (status, answer) = sandbox.get("api/v1/mpesa/balance", Some(&amina)).await;
    assert_eq!((status, answer), (StatusCode::OK, json!({ "data": { "balance": 48_000 } })));
    let (status, _) = sandbox.get("api/v1/mpesa/balance", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    const BARAKA: &str = "255754000004";
    let baraka = sandbox.sign_in(BARAKA).await;
    let (status, answer) = sandbox.get("api/v1/mpesa/balance", Some(&baraka)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(answer["message"]["en"], "This number has no M-Pesa account.");
    let (status, answer) = sandbox.buy(&baraka, "data-daily-500mb", "MPESA", "").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(answer["message"]["en"], "This number has no M-Pesa account.");
    let (status, _) = sandbox.buy(&baraka, "data-daily-500mb", "AIRTIME", "").await;
    assert_eq!(status, StatusCode::OK, "airtime still works");
}

/// A friend's number that cannot receive the bundle (no subscriber) gets a
/// neutral refusal, which names no reason, and no money moves: neither
/// airtime nor M-Pesa, nor a postpaid bill.
#[tokio::test]
async fn buying_for_a_number_that_is_no_subscriber_is_refused_before_any_money_moves() {
    let sandbox = sandbox();
    let juma = sandbox.sign_in(JUMA).await;
    let neema = sandbox.sign_in(NEEMA).await;
    for (payer, channel) in [(&juma, "AIRTIME"), (&juma, "MPESA"), (&neema, "AIRTIME")] {
        let (status, answer) = sandbox.buy(payer, "data-daily-500mb", channel, STRANGER).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{channel}: {answer}");
        assert_eq!(
            answer["message"],
            json!({
                "en": "This bundle cannot be sent to that number. Check the number and try again.",
                "sw": "Kifurushi hiki hakiwezi kutumwa kwa namba hiyo. Angalia namba kisha ujaribu tena.",
            })
        );
    }
    assert_eq!((sandbox.airtime(&juma).await, sandbox.wallet(JUMA).await), (3_000, 5_000));
    for payer in [JUMA, NEEMA] {
        let purchases: i64 = sandbox.scalar("SELECT COUNT(*) FROM purchase WHERE payer = ?1", payer).await;
        assert_eq!(purchases, 0, "nothing bought, nothing billed");
    }
}

#[tokio::test]
async fn fail_next_fails_exactly_one_call() {
    let sandbox = sandbox();
    let arm = |body: Value| sandbox.call(Method::POST, "/fail-next", None, Some(body));

    let (status, _) = arm(json!({ "status": 503, "path": "api/v1/gsm-static-bundles" })).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = sandbox.post("api/v1/auth/request-otp", json!({ "msisdn": AMINA })).await;
    assert_eq!(status, StatusCode::OK, "another path is not affected");
    let (status, answer) = sandbox.get("api/v1/gsm-static-bundles", None).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(answer["message"]["en"].as_str().unwrap().contains("fail-next"));
    let (status, _) = sandbox.get("api/v1/gsm-static-bundles", None).await;
    assert_eq!(status, StatusCode::OK, "the switch cleared itself");

    arm(json!({ "status": 500, "body": { "failure": { "reason": "boom" } } })).await;
    let (status, _) = sandbox.call(Method::GET, "/inbox?msisdn=255754000001", None, None).await;
    assert_eq!(status, StatusCode::OK, "the inbox is not part of the contract");
    let (status, answer) = sandbox.post("alternative-number/", json!({ "msisdn": MIFI })).await;
    assert_eq!((status, answer), (StatusCode::INTERNAL_SERVER_ERROR, json!({ "failure": { "reason": "boom" } })));
    let (status, _) = sandbox.post("alternative-number/", json!({ "msisdn": MIFI })).await;
    assert_eq!(status, StatusCode::OK);

    let (status, _) = arm(json!({ "status": 42 })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = arm(json!({ "path": "api/v1/gsm-static-bundles" })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "neither a status nor a delay");
    let (status, _) = arm(json!({ "delayMs": 60_001 })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

/// `delayMs` without a status: the call is done (its money moves) and its
/// own answer comes that much later, as an answer the caller gave up on.
#[tokio::test]
async fn fail_next_can_hold_back_the_answer_of_a_call_that_was_done() {
    let sandbox = sandbox();
    let amina = sandbox.sign_in(AMINA).await;
    let (status, _) = sandbox
        .call(
            Method::POST,
            "/fail-next",
            None,
            Some(json!({ "delayMs": 300, "path": "api/v1/gsm-static-bundles/purchase" })),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let buying = sandbox.buy(&amina, "data-daily-1gb", "AIRTIME", "");
    let late = tokio::time::timeout(Duration::from_millis(100), buying).await;
    assert!(late.is_err(), "the answer is held back");
    assert_eq!(sandbox.airtime(&amina).await, 11_500, "the purchase was made all the same");
    let (status, answer) = sandbox.buy(&amina, "data-daily-1gb", "AIRTIME", "").await;
    assert_eq!(status, StatusCode::OK, "the switch cleared itself: {answer}");
}

#[tokio::test]
async fn a_modem_signs_in_with_a_code_sent_to_its_alternative_number() {
    let sandbox = sandbox();
    let (status, answer) = sandbox.post("alternative-number/", json!({ "msisdn": MIFI })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer["data"], json!({ "msisdn": MIFI, "alternativeMsisdn": AMINA }));
    let (status, answer) = sandbox.post("alternative-number/", json!({ "msisdn": ROUTER })).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(answer["message"]["sw"].is_string());

    let request = |alternative: &str| {
        sandbox
            .post("alternative-number/login-request-otp", json!({ "msisdn": MIFI, "alternativeMsisdn": alternative }))
    };
    let (status, _) = request(JUMA).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "not the registered alternative");
    let (status, answer) = request(AMINA).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (status, answer) = request(AMINA).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(answer["message"]["sw"].as_str().unwrap().starts_with("Tafadhali subiri"));

    let (_, sms) = sandbox.call(Method::GET, "/inbox?msisdn=255754000001&purpose=modem", None, None).await;
    assert_eq!((sms["purpose"].as_str(), sms["about"].as_str()), (Some("modem"), Some(MIFI)));
    let code = sms["code"].as_str().unwrap();
    let (status, _) = sandbox.validate("api/v1/auth/validate-otp", MIFI, code).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "a modem code does not sign in");
    let (status, answer) = sandbox.validate("alternative-number/validate-otp", MIFI, code).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let modem = format!("Bearer {}", answer["data"].as_str().unwrap());
    let (_, details) = sandbox.get("api/v1/gsm-config/customer-details", Some(&modem)).await;
    assert_eq!(details["data"]["msisdn"], MIFI);
    let (status, _) = sandbox.buy(&modem, "data-weekly-5gb", "AIRTIME", "").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(sandbox.airtime(&modem).await, 5_000);
}

const STRANGER: &str = "255799123456";

impl TestSandbox {
    /// `alternative-number/create-request-otp` for `modem`, as `bearer`.
    async fn request_registration(&self, bearer: Option<&str>, modem: &str) -> (StatusCode, Value) {
        let body = json!({ "msisdn": modem });
        self.call(Method::POST, "/digital/alternative-number/create-request-otp", bearer, Some(body)).await
    }

    /// `alternative-number/create`, with `code` when given, as `bearer`.
    async fn register(
        &self,
        bearer: Option<&str>,
        modem: &str,
        alternative: &str,
        code: Option<&str>,
    ) -> (StatusCode, Value) {
        let mut body = json!({ "msisdn": modem, "alternativeMsisdn": alternative });
        if let Some(code) = code {
            body["code"] = json!(code);
        }
        self.call(Method::POST, "/digital/alternative-number/create", bearer, Some(body)).await
    }

    /// The latest modem registration SMS sent to `msisdn`, if any.
    async fn registration_sms(&self, msisdn: &str) -> Option<Value> {
        let uri = format!("/inbox?msisdn={msisdn}&purpose=modem-registration");
        match self.call(Method::GET, &uri, None, None).await {
            (StatusCode::OK, sms) => Some(sms),
            (StatusCode::NOT_FOUND, _) => None,
            (status, answer) => panic!("{uri}: {status} {answer}"),
        }
    }

    async fn alternative_of(&self, modem: &str) -> (StatusCode, Value) {
        self.post("alternative-number/", json!({ "msisdn": modem })).await
    }
}

#[tokio::test]
async fn registering_an_alternative_number_takes_a_code_sent_to_the_modem() {
    let sandbox = sandbox();
    let (status, _) = sandbox.register(None, ROUTER, AMINA, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let amina = sandbox.sign_in(AMINA).await;
    let juma = sandbox.sign_in(JUMA).await;

    let (status, answer) = sandbox.register(Some(&amina), ROUTER, AMINA, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "no code: {answer}");
    assert!(answer["message"]["en"].as_str().unwrap().contains("code we sent to the modem"), "{answer}");
    assert!(answer["message"]["sw"].as_str().unwrap().contains("msimbo"), "{answer}");
    let (status, answer) = sandbox.register(Some(&amina), ROUTER, AMINA, Some("123456")).await;
    assert_eq!(
        (status, answer["message"]["en"].as_str()),
        (StatusCode::BAD_REQUEST, Some(WRONG_CODE)),
        "no code was sent"
    );
    assert_eq!(sandbox.alternative_of(ROUTER).await.0, StatusCode::NOT_FOUND, "nothing registered");

    let (status, _) = sandbox.request_registration(None, ROUTER).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, answer) = sandbox.request_registration(Some(&amina), ROUTER).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert!(answer["message"]["en"].as_str().unwrap().contains("modem's web page"), "{answer}");
    assert!(sandbox.registration_sms(AMINA).await.is_none(), "not sent to the caller");
    let sms = sandbox.registration_sms(ROUTER).await.expect("sent to the modem");
    assert_eq!(sms["about"], ROUTER);
    let code = sms["code"].as_str().unwrap();
    let text = sms["text"]["en"].as_str().unwrap();
    assert!(text.contains(code) && text.contains("register 255 *** *** 001 as the alternative number"), "{text}");
    assert!(sms["text"]["sw"].as_str().unwrap().contains("255 *** *** 001"), "{sms}");

    let (status, _) = sandbox.register(Some(&juma), ROUTER, AMINA, Some(code)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "only one's own number");
    let (status, answer) = sandbox.register(Some(&amina), ROUTER, AMINA, Some(code)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["data"], json!({ "msisdn": ROUTER, "alternativeMsisdn": AMINA }));
    let (status, answer) = sandbox.alternative_of(ROUTER).await;
    assert_eq!((status, answer["data"]["alternativeMsisdn"].as_str()), (StatusCode::OK, Some(AMINA)));
    let (status, _) = sandbox.register(Some(&amina), ROUTER, AMINA, Some(code)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "the code is used");
}

#[tokio::test]
async fn a_registration_code_serves_only_the_subscriber_who_asked_for_it() {
    let sandbox = sandbox();
    let amina = sandbox.sign_in(AMINA).await;
    let juma = sandbox.sign_in(JUMA).await;
    sandbox.request_registration(Some(&amina), ROUTER).await;
    let code = sandbox.registration_sms(ROUTER).await.unwrap()["code"].as_str().unwrap().to_owned();

    let (status, answer) = sandbox.register(Some(&juma), ROUTER, JUMA, Some(&code)).await;
    assert_eq!((status, answer["message"]["en"].as_str()), (StatusCode::BAD_REQUEST, Some(WRONG_CODE)), "Amina's code");
    assert_eq!(sandbox.alternative_of(ROUTER).await.0, StatusCode::NOT_FOUND);
    let (status, _) = sandbox.request_registration(Some(&juma), ROUTER).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "one code a minute per modem, whoever asks");

    let (status, answer) = sandbox.register(Some(&amina), ROUTER, AMINA, Some(&code)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
}

/// The modem check names the alternative number (the site masks it), but
/// its 404 is the same for a number that is no subscriber as for one
/// without an alternative number.
#[tokio::test]
async fn the_modem_check_answers_no_subscriber_as_no_alternative_number() {
    let sandbox = sandbox();
    let (status, without) = sandbox.alternative_of(ROUTER).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(sandbox.alternative_of(STRANGER).await, (status, without));
}

/// Asking for a registration code tells nobody which numbers are modems
/// that can be registered: a number that is no subscriber, or one that has
/// an alternative number, answers as one that can, now and later, and is
/// sent nothing.
#[tokio::test]
async fn numbers_that_are_no_modem_to_register_answer_like_one() {
    let sandbox = sandbox();
    let amina = sandbox.sign_in(AMINA).await;
    let numbers = [ROUTER, MIFI, STRANGER];
    let mut answers = Vec::new();
    for modem in numbers {
        answers.push(sandbox.request_registration(Some(&amina), modem).await);
    }
    assert!(answers.iter().all(|answer| *answer == answers[0] && answer.0 == StatusCode::OK), "{answers:?}");
    for modem in numbers {
        let (status, _) = sandbox.request_registration(Some(&amina), modem).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{modem}");
    }
    assert!(sandbox.registration_sms(MIFI).await.is_none() && sandbox.registration_sms(STRANGER).await.is_none());
    let code = sandbox.registration_sms(ROUTER).await.unwrap()["code"].as_str().unwrap().to_owned();
    let wrong = if code == "000000" { "111111" } else { "000000" };
    for attempt in 1..=5 {
        let mut answers = Vec::new();
        for modem in numbers {
            answers.push(sandbox.register(Some(&amina), modem, AMINA, Some(wrong)).await);
        }
        assert!(answers.iter().all(|answer| *answer == answers[0]), "wrong try {attempt}: {answers:?}");
    }
    let (_, answer) = sandbox.register(Some(&amina), STRANGER, AMINA, Some(wrong)).await;
    assert_eq!(answer["message"]["en"], BURNT_CODE);
    assert_eq!(sandbox.alternative_of(MIFI).await.1["data"]["alternativeMsisdn"], AMINA, "unchanged");
}

/// A code is sent only to a modem without an alternative number; one that
/// got one since (through another channel of the operator) answers 409 to it.
#[tokio::test]
async fn a_modem_registered_since_its_code_was_sent_answers_409() {
    let sandbox = sandbox();
    let amina = sandbox.sign_in(AMINA).await;
    sandbox.request_registration(Some(&amina), ROUTER).await;
    let code = sandbox.registration_sms(ROUTER).await.unwrap()["code"].as_str().unwrap().to_owned();
    sandbox
        .sandbox
        .db(|db| {
            db.execute("UPDATE subscriber SET alternative_msisdn = ?1 WHERE msisdn = ?2", [JUMA, ROUTER])
                .map_err(SandboxError::from)
        })
        .await
        .unwrap();
    let (status, answer) = sandbox.register(Some(&amina), ROUTER, AMINA, Some(&code)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert_eq!(answer["message"]["en"], "This modem already has an alternative number.");
    assert_eq!(sandbox.alternative_of(ROUTER).await.1["data"]["alternativeMsisdn"], JUMA);
}

#[tokio::test]
async fn cpm_permissions_are_read_and_changed_with_a_cpm_token() {
    let sandbox = sandbox();
    let (status, _) = sandbox.post("cpm/request-otp", json!({ "msisdn": AMINA })).await;
    assert_eq!(status, StatusCode::OK);
    let code = sandbox.inbox_code(AMINA).await;
    let (status, _) = sandbox.validate("api/v1/auth/validate-otp", AMINA, &code).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "a CPM code does not sign in");
    let (status, answer) = sandbox.validate("cpm/validate-otp", AMINA, &code).await;
    assert_eq!(status, StatusCode::OK);
    let token = answer["data"].as_str().unwrap();
    let cpm = format!("cpm-bearer {token}");

    let (status, _) = sandbox.get("cpm/permissions", Some(&format!("Bearer {token}"))).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "wrong scheme");
    let subscriber = sandbox.sign_in(JUMA).await;
    let (status, _) = sandbox.get("cpm/permissions", Some(&subscriber.replace("Bearer", "cpm-bearer"))).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "a sign-in token is no CPM token");
    let (status, _) = sandbox.get("api/v1/gsm-config/airtime-balance", Some(&format!("Bearer {token}"))).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "a CPM token is no sign-in token");

    let (status, answer) = sandbox.get("cpm/permissions", Some(&cpm)).await;
    assert_eq!(status, StatusCode::OK);
    let permissions = answer["data"].as_array().unwrap();
    assert_eq!(permissions.len(), 5);
    let marketing = &permissions[0];
    assert_eq!((marketing["id"].as_str(), marketing["granted"].as_bool()), (Some("marketing-sms"), Some(true)));
    assert!(marketing["name"]["sw"].is_string() && marketing["description"]["sw"].is_string());

    let (status, answer) = sandbox
        .call(Method::PUT, "/digital/cpm/permissions/marketing-sms", Some(&cpm), Some(json!({ "granted": false })))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer["data"], json!({ "id": "marketing-sms", "granted": false }));
    let (_, answer) = sandbox.get("cpm/permissions", Some(&cpm)).await;
    assert_eq!(answer["data"][0]["granted"], false);

    let (status, _) = sandbox
        .call(Method::PUT, "/digital/cpm/permissions/sell-my-soul", Some(&cpm), Some(json!({ "granted": true })))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = sandbox
        .call(Method::PUT, "/digital/cpm/permissions/research-calls", None, Some(json!({ "granted": true })))
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn everything_survives_reopening_the_database() {
    let first = sandbox();
    let amina = first.sign_in(AMINA).await;
    first.buy(&amina, "voice-daily-20min", "AIRTIME", JUMA).await;
    first.call(Method::POST, "/fail-next", None, Some(json!({ "status": 502 }))).await;
    let TestSandbox { app, sandbox, dir } = first;
    drop((app, sandbox));

    let reopened = Sandbox::open(dir.path(), SandboxOptions::default()).unwrap();
    let again = TestSandbox { app: router(reopened.clone()), sandbox: reopened, dir };
    let (status, _) = again.get("api/v1/gsm-static-bundles", None).await;
    assert_eq!(status, StatusCode::BAD_GATEWAY, "the armed switch was kept");
    assert_eq!(again.airtime(&amina).await, 12_000, "token and balance were kept, not reseeded");
    let subscribers: i64 = again.scalar("SELECT COUNT(*) FROM subscriber WHERE msisdn LIKE ?1", "255%").await;
    assert_eq!(subscribers, 6);
    let juma = again.sign_in(JUMA).await;
    assert_eq!(again.bundle_remaining(&juma, "Daily 20 Minutes").await, Some(20));
}

#[tokio::test]
async fn the_inbox_page_lists_codes_with_no_script() {
    let sandbox = sandbox();
    sandbox.post("api/v1/auth/request-otp", json!({ "msisdn": JUMA })).await;
    let code = sandbox.inbox_code(JUMA).await;
    let request = Request::builder().uri("/inbox").body(Body::empty()).unwrap();
    let response = sandbox.app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[header::CONTENT_TYPE], "text/html; charset=utf-8");
    assert_eq!(response.headers()[header::CACHE_CONTROL], "no-store");
    let html =
        String::from_utf8(axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap().to_vec()).unwrap();
    assert!(html.contains(&code) && html.contains(JUMA), "{html}");
    assert!(html.contains(&format!("{code} is your code to sign in to your account.")), "the SMS text: {html}");
    assert!(!html.contains("<script"));
}

/// What `Sandbox::open` refuses for the file at `path`: the error's text,
/// which must name the file and what to do.
fn refusal(dir: &TempDir, path: &std::path::Path) -> String {
    let error = Sandbox::open(dir.path(), SandboxOptions::default()).err().expect("refused").to_string();
    assert!(error.contains(&path.display().to_string()), "names the file: {error}");
    assert!(error.contains("move it away") && error.contains("start over from the seed"), "says what to do: {error}");
    error
}

fn random_bytes(len: usize) -> Vec<u8> {
    let mut bytes = vec![0; len];
    getrandom::fill(&mut bytes).unwrap();
    bytes
}

#[test]
fn an_empty_database_file_is_refused_not_seeded_over() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sandbox.sqlite3");
    std::fs::write(&path, b"").unwrap();
    assert!(refusal(&dir, &path).contains("is empty"));
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 0, "left as it was");
}

#[test]
fn a_file_of_random_bytes_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sandbox.sqlite3");
    let garbage = random_bytes(8192);
    std::fs::write(&path, &garbage).unwrap();
    assert!(refusal(&dir, &path).contains("cannot be read as a SQLite database"));
    assert_eq!(std::fs::read(&path).unwrap(), garbage);
}

#[test]
fn a_database_of_other_tables_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sandbox.sqlite3");
    rusqlite::Connection::open(&path).unwrap().execute_batch("CREATE TABLE note (text TEXT)").unwrap();
    let error = refusal(&dir, &path);
    assert!(
        error.contains(
            "is not of the sandbox's schema: it lacks bundle_balance.bundle_id TEXT, bundle_balance.expires_at INTEGER"
        ),
        "{error}"
    );
    assert!(error.contains("it has note.text TEXT, which the sandbox does not know"), "{error}");
}

/// The database as a crash leaves it, with changes still in the write-ahead
/// log (copied while the sandbox has it open, so nothing is checkpointed),
/// and the token of the subscriber who made them.
async fn crashed_copy() -> (TempDir, String) {
    let running = sandbox();
    let amina = running.sign_in(AMINA).await;
    let (status, _) = running.buy(&amina, "data-daily-1gb", "AIRTIME", "").await;
    assert_eq!(status, StatusCode::OK);
    let copy = tempfile::tempdir().unwrap();
    for name in ["sandbox.sqlite3", "sandbox.sqlite3-wal"] {
        std::fs::copy(running.dir.path().join(name), copy.path().join(name)).unwrap();
    }
    (copy, amina)
}

#[tokio::test]
async fn changes_left_in_the_write_ahead_log_by_a_crash_are_kept() {
    let (copy, amina) = crashed_copy().await;
    let reopened = Sandbox::open(copy.path(), SandboxOptions::default()).unwrap();
    let again = TestSandbox { app: router(reopened.clone()), sandbox: reopened, dir: copy };
    assert_eq!(again.airtime(&amina).await, 11_500, "the purchase in the log was replayed");
}

#[tokio::test]
async fn a_damaged_write_ahead_log_is_refused_and_left_as_it_was() {
    let (copy, _) = crashed_copy().await;
    let path = copy.path().join("sandbox.sqlite3");
    let wal = copy.path().join("sandbox.sqlite3-wal");
    let garbage = random_bytes(4096);
    std::fs::write(&wal, &garbage).unwrap();
    let error = refusal(&copy, &path);
    assert!(error.contains(&format!("damaged write-ahead log {}", wal.display())), "{error}");
    assert_eq!(std::fs::read(&wal).unwrap(), garbage, "SQLite did not drop it");

    std::fs::rename(&path, copy.path().join("moved-away.sqlite3")).unwrap();
    let error = refusal(&copy, &path);
    assert!(error.contains("is missing, but its write-ahead log"), "a log without its database: {error}");
}

/// A database made by the sandbox before the last change of its schema
/// (numbers without M-Pesa, balances per bundle id and unit, fail-next
/// delays) is brought up to date with its data: a balance kept under its
/// English name is still the catalogue's bundle.
#[tokio::test]
async fn a_database_of_an_earlier_schema_is_brought_up_to_date_with_its_data() {
    let first = sandbox();
    let amina = first.sign_in(AMINA).await;
    first.buy(&amina, "data-daily-1gb", "AIRTIME", "").await;
    let TestSandbox { app, sandbox, dir } = first;
    drop((app, sandbox));
    let path = dir.path().join("sandbox.sqlite3");
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch(
            "ALTER TABLE subscriber DROP COLUMN mpesa_account;
             ALTER TABLE fail_next DROP COLUMN delay_ms;
             CREATE TABLE bundle_balance_1 (
                 msisdn TEXT NOT NULL REFERENCES subscriber (msisdn), name TEXT NOT NULL, unit TEXT NOT NULL,
                 remaining INTEGER NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (msisdn, name)
             );
             INSERT INTO bundle_balance_1 SELECT msisdn, 'Daily Internet 1GB', unit, remaining, expires_at
                 FROM bundle_balance WHERE bundle_id = 'data-daily-1gb';
             DROP TABLE bundle_balance;
             ALTER TABLE bundle_balance_1 RENAME TO bundle_balance;
             PRAGMA user_version = 1;",
        )
        .unwrap();

    let reopened = Sandbox::open(dir.path(), SandboxOptions::default()).unwrap();
    let again = TestSandbox { app: router(reopened.clone()), sandbox: reopened, dir };
    assert_eq!(again.airtime(&amina).await, 11_500, "kept");
    let version = again
        .sandbox
        .db(|db| db.pragma_query_value(None, "user_version", |row| row.get::<_, i64>(0)).map_err(SandboxError::from));
    assert_eq!(version.await.unwrap(), 2);
    let (_, answer) = again.get("api/v1/gsm-config/bundle-balance", Some(&amina)).await;
    let daily = answer["data"].as_array().unwrap().iter().find(|b| b["name"] == "Daily Internet 1GB").cloned().unwrap();
    assert_eq!((daily["bundleId"].as_str(), daily["remaining"].as_i64()), (Some("data-daily-1gb"), Some(1_024)));
    let (status, _) = again.get("api/v1/mpesa/balance", Some(&amina)).await;
    assert_eq!(status, StatusCode::OK, "the numbers of before have M-Pesa");

    let TestSandbox { app, sandbox, dir } = again;
    drop((app, sandbox));
    rusqlite::Connection::open(&path).unwrap().pragma_update(None, "user_version", 3).unwrap();
    assert!(refusal(&dir, &path).contains("was made by a newer sandbox (schema version 3; this one knows up to 2)"));
}

/// Instances sharing one `DATA_DIR` start at once (a deployment scaled out,
/// `make test-scale`): every one of them opens the sandbox, whether the file
/// is yet to be made or just made, and they share one seeded database.
#[test]
fn instances_starting_at_once_on_one_data_dir_all_open_it() {
    const INSTANCES: usize = 6;
    for made_already in [false, true] {
        for _ in 0..10 {
            let dir = tempfile::tempdir().unwrap();
            if made_already {
                drop(Sandbox::open(dir.path(), SandboxOptions::default()).unwrap());
            }
            let start = std::sync::Barrier::new(INSTANCES);
            let opened: Vec<_> = std::thread::scope(|scope| {
                let starts: Vec<_> = (0..INSTANCES)
                    .map(|_| {
                        scope.spawn(|| {
                            start.wait();
                            Sandbox::open(dir.path(), SandboxOptions::default()).map_err(|error| error.to_string())
                        })
                    })
                    .collect();
                starts.into_iter().map(|start| start.join().unwrap()).collect()
            });
            for result in &opened {
                assert!(result.is_ok(), "made already: {made_already}; {:?}", result.as_ref().err());
            }
            let db = rusqlite::Connection::open(dir.path().join("sandbox.sqlite3")).unwrap();
            let subscribers: i64 = db.query_row("SELECT COUNT(*) FROM subscriber", [], |row| row.get(0)).unwrap();
            assert_eq!(subscribers, 6, "seeded once, into the one file every instance opened");
            let leftovers: Vec<_> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|entry| entry.unwrap().file_name().into_string().unwrap())
                .filter(|name| name.contains(".new"))
                .collect();
            assert!(leftovers.is_empty(), "{leftovers:?}");
        }
    }
}
