//! Browsers of the site: a visitor that keeps its cookies and sends what
//! the app's same-origin fetches send, and requests that carry exactly one
//! cookie, as a replayed or forged one arrives.

use reqwest::StatusCode;
use reqwest::header::{HeaderMap, SET_COOKIE};
use serde::Serialize;
use serde_json::Value;
use server::contract::api::PurchaseForm;

use super::TestApp;
use super::bodies::{code, number};
use super::sandbox::code_in_inbox;

/// A browser of the site: keeps cookies, sends what same-origin fetches send.
pub struct Visitor {
    pub client: reqwest::Client,
    cookies: std::sync::Arc<reqwest::cookie::Jar>,
    base: String,
}

impl Visitor {
    pub fn new(app: &TestApp) -> Visitor {
        let cookies = std::sync::Arc::new(reqwest::cookie::Jar::default());
        let client = reqwest::Client::builder()
            .cookie_provider(cookies.clone())
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        Visitor { client, cookies, base: app.address.clone() }
    }

    /// The cookies this browser sends the site, as a `Cookie` header says them.
    pub fn cookie(&self) -> String {
        use reqwest::cookie::CookieStore;
        let url = self.base.parse().unwrap();
        self.cookies.cookies(&url).map(|value| value.to_str().unwrap().to_owned()).unwrap_or_default()
    }

    /// A page, as HTML.
    pub async fn get_text(&self, path: &str) -> (StatusCode, String) {
        let response = self.client.get(format!("{}{path}", self.base)).send().await.unwrap();
        (response.status(), response.text().await.unwrap())
    }

    pub async fn post(&self, path: &str, body: impl Serialize) -> (StatusCode, Value, HeaderMap) {
        self.post_in(path, body, "en").await
    }

    pub async fn post_in(&self, path: &str, body: impl Serialize, lang: &str) -> (StatusCode, Value, HeaderMap) {
        let response = self
            .client
            .post(format!("{}{path}", self.base))
            .header("sec-fetch-site", "same-origin")
            .header("x-site-lang", lang)
            .json(&body)
            .send()
            .await
            .unwrap();
        let (status, headers) = (response.status(), response.headers().clone());
        (status, response.json().await.unwrap_or(Value::Null), headers)
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        let response = self.client.get(format!("{}{path}", self.base)).send().await.unwrap();
        let status = response.status();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    pub async fn sign_in(&self, number: &str) -> Value {
        self.sign_in_keeping_cookie(number).await.0
    }

    /// Signs in and returns, besides the subscriber, the session cookie as a
    /// `Cookie` header would carry it (what an attacker copying it would keep).
    pub async fn sign_in_keeping_cookie(&self, msisdn: &str) -> (Value, String) {
        self.sign_in_with_code_from(&format!("{}/sandbox", self.base), msisdn).await
    }

    /// The same, the code read from the inbox of the sandbox at `sandbox`
    /// (the site's operator, where that is another server's sandbox).
    pub async fn sign_in_with_code_from(&self, sandbox: &str, msisdn: &str) -> (Value, String) {
        let (status, _, _) = self.post("/api/auth/request-otp", number(msisdn)).await;
        assert_eq!(status, StatusCode::OK);
        let sent = code_in_inbox(sandbox, msisdn).await;
        let (status, body, headers) = self.post("/api/auth/validate-otp", code(msisdn, &sent)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let cookie = headers[SET_COOKIE].to_str().unwrap().split(';').next().unwrap().to_owned();
        assert!(cookie.starts_with("session="), "{cookie}");
        (body["subscriber"].clone(), cookie)
    }
}

/// Requests carrying exactly `cookie`, as a replayed or forged one arrives.
pub struct Replay {
    pub client: reqwest::Client,
    base: String,
    cookie: String,
}

impl Replay {
    pub fn new(app: &TestApp, cookie: &str) -> Replay {
        let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        Replay { client, base: app.address.clone(), cookie: cookie.to_owned() }
    }

    pub async fn account(&self) -> StatusCode {
        self.client
            .get(format!("{}/api/account", self.base))
            .header("cookie", &self.cookie)
            .send()
            .await
            .unwrap()
            .status()
    }

    /// A purchase.
    pub async fn buy(&self, purchase: &PurchaseForm) -> StatusCode {
        self.client
            .post(format!("{}/api/bundles/purchase", self.base))
            .header("cookie", &self.cookie)
            .header("sec-fetch-site", "same-origin")
            .json(purchase)
            .send()
            .await
            .unwrap()
            .status()
    }
}
