//! The subscriber self-service backend for the browser (spec §4, §6, §8).
//! The page's JavaScript never sees an operator token: it calls these
//! endpoints, which keep the token in a server-side session and call the
//! operator API (`operator`).
//!
//! - `msisdn`: phone numbers and codes parsed once.
//! - `session`: the sessions (subscriber, CPM) and their cookies.
//! - `session_store`: where sessions live (SQLite in `DATA_DIR`).
//! - `limits`: throttles on code requests and checks.
//! - `operator`: the digital-service API client.
//! - `return_to`: where a form may send the browser back to.
//!
//! Every endpoint takes JSON (from the app) or an HTML form (without
//! JavaScript). JSON gets `{ notice, … }` with a status; a form gets a 303
//! back to the page, with the notice in a short-lived flash cookie.
//! State-changing requests must come from the site itself.

pub mod limits;
pub mod msisdn;
pub mod operator;
mod return_to;
pub mod session;
pub mod session_store;

use std::net::SocketAddr;

use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRef, FromRequest, FromRequestParts, Path, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Json, Redirect, Response};
use axum::routing::{get, post, put};
use axum_extra::extract::PrivateCookieJar;
use axum_extra::extract::cookie::{Cookie, Key, SameSite};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use contract::Lang;

use crate::AppState;
use msisdn::{Msisdn, OtpCode};
use operator::{OperatorError, Purchase};
use session::{Kind, ModemLogin, Session};
use session_store::StoreError;

/// Path the modem codes are validated at (spec §7: supplied by the caller).
const MODEM_VALIDATE_PATH: &str = "alternative-number/validate-otp";
/// Spec §8: a failed code request shows for 7 s.
const REQUEST_CODE_FAILURE_MS: u32 = 7000;
const FLASH_COOKIE: &str = "flash";
/// Every account body is a few short fields; more is refused with 413.
const BODY_LIMIT: usize = 16 * 1024;

impl FromRef<AppState> for Key {
    fn from_ref(state: &AppState) -> Key {
        state.cookie_key.clone()
    }
}

pub fn router(state: AppState) -> Router<AppState> {
    Router::new()
        .route("/api/auth/request-otp", post(request_otp))
        .route("/api/auth/validate-otp", post(validate_otp))
        .route("/api/auth/logout", post(logout))
        .route("/api/account", get(account))
        .route("/api/bundles", get(bundles))
        .route("/api/bundles/purchase", post(purchase))
        .route("/api/modem/check", post(modem_check))
        .route("/api/modem/request-otp", post(modem_request_otp))
        .route("/api/modem/validate-otp", post(modem_validate_otp))
        .route("/api/alternative-number", post(create_alternative_number))
        .route("/api/cpm/request-otp", post(cpm_request_otp))
        .route("/api/cpm/validate-otp", post(cpm_validate_otp))
        .route("/api/cpm/permissions", get(cpm_permissions))
        .route("/api/cpm/permissions/{id}", put(cpm_set_permission).post(cpm_set_permission))
        .route("/api/cpm/logout", post(cpm_logout))
        .layer(axum::middleware::from_fn_with_state(state.clone(), same_origin_only))
        .layer(axum::middleware::from_fn_with_state(state, finish))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
}

/// What every account response needs: `no-store` unless it says otherwise
/// (they depend on the session or come from the operator), and a form's
/// notice as the flash cookie, with the site's cookie flags.
async fn finish(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    response.headers_mut().entry(header::CACHE_CONTROL).or_insert(HeaderValue::from_static("no-store"));
    let Some(Flash(notice)) = response.extensions_mut().remove::<Flash>() else { return response };
    let cookie = Cookie::build((FLASH_COOKIE, serde_json::to_string(&notice).expect("notice serialises")))
        .path("/")
        .http_only(true)
        .secure(state.config.is_https())
        .same_site(SameSite::Lax)
        .max_age(cookie::time::Duration::seconds(60))
        .build();
    (PrivateCookieJar::new(state.cookie_key.clone()).add(cookie), response).into_response()
}

/// A notice for the page a form goes back to (see [`finish`]).
#[derive(Clone)]
struct Flash(Notice);

/// A message for a toast (spec §8): a string key the app translates, or a
/// text the operator gave, already in the visitor's language.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Notice {
    #[serde(rename = "type")]
    pub kind: NoticeKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<u32>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum NoticeKind {
    Info,
    /// Shown green (spec §8): the "it worked" colour.
    Warning,
    Error,
}

impl Notice {
    fn key(kind: NoticeKind, key: &str) -> Notice {
        Notice { kind, key: Some(key.to_owned()), text: None, duration: None }
    }

    fn text(kind: NoticeKind, text: &str) -> Notice {
        Notice { kind, key: None, text: Some(text.to_owned()), duration: None }
    }

    fn lasting(mut self, ms: u32) -> Notice {
        self.duration = Some(ms);
        self
    }
}

/// The visitor's language for messages: the app's header, a form's field,
/// then the remembered choice.
fn lang_of(headers: &HeaderMap, field: Option<&str>) -> Lang {
    if let Some(lang) = headers.get("x-site-lang").and_then(|v| v.to_str().ok()).or(field) {
        return Lang::parse(lang);
    }
    let cookies = headers.get(header::COOKIE).and_then(|v| v.to_str().ok()).unwrap_or("");
    cookies
        .split(';')
        .filter_map(|c| c.trim().strip_prefix("lang="))
        .map(Lang::parse)
        .next()
        .unwrap_or_default()
}

/// Refuses state-changing requests that do not come from the site itself:
/// `Sec-Fetch-Site: same-origin`, or, from browsers without it, an `Origin`
/// equal to the site's. With neither header the request is refused (OWASP).
pub(crate) async fn same_origin_only(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return next.run(request).await;
    }
    let headers = request.headers();
    let allowed = match headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        Some(site) => site == "same-origin",
        None => headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) == Some(state.config.site_url.as_str()),
    };
    if allowed {
        return next.run(request).await;
    }
    tracing::warn!(path = %request.uri().path(), "cross-site request refused");
    let notice = Notice::key(NoticeKind::Error, "crossSite");
    (StatusCode::FORBIDDEN, Json(json!({ "notice": notice }))).into_response()
}

/// The client's address for throttling.
pub struct ClientAddr(String);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let address = parts.extensions.get::<ConnectInfo<SocketAddr>>().map_or("unknown".into(), |c| c.0.ip().to_string());
        Ok(ClientAddr(address))
    }
}

/// A body from the app (JSON) or from an HTML form, and which it was.
pub struct Submitted<T> {
    value: T,
    form: bool,
    headers: HeaderMap,
}

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequest<S> for Submitted<T> {
    type Rejection = Response;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let headers = request.headers().clone();
        let form = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.starts_with("application/x-www-form-urlencoded"));
        let value = if form {
            axum::Form::<T>::from_request(request, state).await.map(|f| f.0).map_err(|e| bad_request(e.status(), &e.body_text()))?
        } else {
            Json::<T>::from_request(request, state).await.map(|j| j.0).map_err(|e| bad_request(e.status(), &e.body_text()))?
        };
        Ok(Submitted { value, form, headers })
    }
}

/// A body that cannot be read: 413 when it is too large, else 400.
fn bad_request(status: StatusCode, detail: &str) -> Response {
    tracing::debug!(detail, "malformed request body");
    let status = if status == StatusCode::PAYLOAD_TOO_LARGE { status } else { StatusCode::BAD_REQUEST };
    (status, Json(json!({ "notice": Notice::key(NoticeKind::Error, "badRequest") }))).into_response()
}

/// Fields every form carries (flattened into each form).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct FormCommon {
    lang: Option<String>,
    /// Where a form goes back to: a path of this site, or `None`.
    #[serde(default, deserialize_with = "return_to::deserialize")]
    return_to: Option<String>,
}

/// What an endpoint answers, before it becomes JSON or a redirect.
struct Reply {
    status: StatusCode,
    notice: Option<Notice>,
    data: Value,
    /// Where the browser goes next (logout sends it home, spec §4).
    redirect: Option<String>,
}

impl Reply {
    fn ok(data: Value) -> Reply {
        Reply { status: StatusCode::OK, notice: None, data, redirect: None }
    }

    fn notice(status: StatusCode, notice: Notice) -> Reply {
        Reply { status, notice: Some(notice), data: json!({}), redirect: None }
    }

    fn with_notice(mut self, notice: Notice) -> Reply {
        self.notice = Some(notice);
        self
    }

    fn send(self, jar: PrivateCookieJar, form: bool, common: &FormCommon) -> Response {
        if form {
            let home = || crate::pages::LocalPath::href(Lang::parse(common.lang.as_deref().unwrap_or_default()), "/");
            let back = self.redirect.clone().or_else(|| common.return_to.clone()).unwrap_or_else(home);
            let mut response = (jar, Redirect::to(&back)).into_response();
            if let Some(notice) = self.notice {
                response.extensions_mut().insert(Flash(notice));
            }
            return response;
        }
        let mut body = match self.data {
            Value::Object(map) => map,
            other => {
                let mut map = serde_json::Map::new();
                map.insert("data".into(), other);
                map
            }
        };
        if let Some(notice) = self.notice {
            body.insert("notice".into(), serde_json::to_value(notice).expect("notice serialises"));
        }
        if let Some(redirect) = self.redirect {
            body.insert("redirect".into(), redirect.into());
        }
        (self.status, jar, [(header::CACHE_CONTROL, "no-store")], Json(Value::Object(body))).into_response()
    }
}

/// The notice for an operator failure where spec §8 gives "the server's
/// message in the current language, or <fallback>".
fn operator_notice(error: &OperatorError, lang: Lang, fallback: &str) -> Notice {
    match error {
        OperatorError::Refused { message: Some(message), .. } => Notice::text(NoticeKind::Error, message.get(lang)),
        OperatorError::Refused { reason: Some(reason), .. } => Notice::text(NoticeKind::Error, reason),
        _ => Notice::key(NoticeKind::Error, fallback),
    }
}

fn status_of(error: &OperatorError) -> StatusCode {
    match error {
        OperatorError::Unauthorized => StatusCode::UNAUTHORIZED,
        OperatorError::Refused { status, .. } => StatusCode::from_u16(*status).unwrap_or(StatusCode::BAD_GATEWAY),
        OperatorError::Unavailable(_) => StatusCode::BAD_GATEWAY,
    }
}

fn parse_msisdn(input: &str) -> Result<Msisdn, Reply> {
    Msisdn::parse(input).map_err(|_| Reply::notice(StatusCode::BAD_REQUEST, Notice::key(NoticeKind::Error, "invalidMsisdn")))
}

fn parse_code(input: &str) -> Result<OtpCode, Reply> {
    OtpCode::parse(input).map_err(|_| Reply::notice(StatusCode::BAD_REQUEST, Notice::key(NoticeKind::Error, "invalidCode")))
}

/// The number and code of a code check, within the number's check budget.
fn checked_code(state: &AppState, form: &CodeForm) -> Result<(Msisdn, OtpCode), Reply> {
    let msisdn = parse_msisdn(&form.msisdn)?;
    let code = parse_code(&form.code)?;
    if !state.limits.code_check(msisdn.as_str()) {
        return Err(too_many());
    }
    Ok((msisdn, code))
}

/// The number a code is asked for, within its and the client's budgets.
fn requested_number(state: &AppState, input: &str, client: &str) -> Result<Msisdn, Reply> {
    let msisdn = parse_msisdn(input)?;
    if !state.limits.code_request(msisdn.as_str(), client) {
        return Err(too_many());
    }
    Ok(msisdn)
}

fn too_many() -> Reply {
    Reply::notice(StatusCode::TOO_MANY_REQUESTS, Notice::key(NoticeKind::Error, "rateLimited"))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct NumberForm {
    msisdn: String,
    #[serde(flatten)]
    common: FormCommon,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CodeForm {
    msisdn: String,
    code: String,
    #[serde(flatten)]
    common: FormCommon,
}

/// `POST /api/auth/request-otp {msisdn}`.
async fn request_otp(
    State(state): State<AppState>,
    jar: PrivateCookieJar,
    ClientAddr(client): ClientAddr,
    input: Submitted<NumberForm>,
) -> Response {
    let common = input.value.common.clone();
    let lang = lang_of(&input.headers, common.lang.as_deref());
    let reply = async {
        let msisdn = requested_number(&state, &input.value.msisdn, &client)?;
        match state.operator.request_otp(&msisdn).await {
            Ok(message) => Ok(Reply::ok(json!({ "msisdn": msisdn.as_str(), "step": "code" }))
                .with_notice(Notice::text(NoticeKind::Info, message.get(lang)))),
            Err(error) => Err(Reply::notice(status_of(&error), request_code_failure(&error).lasting(REQUEST_CODE_FAILURE_MS))),
        }
    }
    .await
    .unwrap_or_else(|reply| reply);
    let common = with_step(common, &reply, &input.value.msisdn);
    reply.send(jar, input.form, &common)
}

/// Spec §8: "Something went wrong", or the server's failure reason.
fn request_code_failure(error: &OperatorError) -> Notice {
    match error {
        OperatorError::Refused { reason: Some(reason), .. } => Notice::text(NoticeKind::Error, reason),
        _ => Notice::key(NoticeKind::Error, "somethingWentWrong"),
    }
}

/// Without JavaScript the sign-in page shows the code step next, for this number.
fn with_step(mut common: FormCommon, reply: &Reply, msisdn: &str) -> FormCommon {
    if reply.status.is_success() {
        if let Some(back) = common.return_to.take() {
            let path = back.split('?').next().unwrap_or("/").to_owned();
            let query = serde_urlencoded::to_string([("step", "code"), ("msisdn", msisdn)]).unwrap_or_default();
            common.return_to = Some(format!("{path}?{query}"));
        }
    }
    common
}

/// `POST /api/auth/validate-otp {msisdn, code}`: signs in.
async fn validate_otp(State(state): State<AppState>, jar: PrivateCookieJar, input: Submitted<CodeForm>) -> Response {
    let common = input.value.common.clone();
    let lang = lang_of(&input.headers, common.lang.as_deref());
    let result: Result<_, Reply> = async {
        let (msisdn, code) = checked_code(&state, &input.value)?;
        let token = state
            .operator
            .validate_otp(&msisdn, &code)
            .await
            .map_err(|error| Reply::notice(status_of(&error), operator_notice(&error, lang, "somethingWentWrong")))?;
        let subscriber = load_subscriber(&state, &token).await.map_err(|error| {
            Reply::notice(status_of(&error), Notice::key(NoticeKind::Error, "somethingWentWrong"))
        })?;
        Ok((token, msisdn, subscriber))
    }
    .await;
    match result {
        Ok((token, msisdn, subscriber)) => {
            let jar = match state.sessions.start(jar.clone(), Kind::Subscriber, Session::new(token, msisdn.to_string())).await {
                Ok(jar) => jar,
                Err(error) => return store_failed(&error).send(jar, input.form, &common),
            };
            let mut common = common;
            common.return_to = common.return_to.map(|p| p.split('?').next().unwrap_or("/").to_owned());
            Reply::ok(json!({ "subscriber": subscriber })).send(jar, input.form, &common)
        }
        Err(reply) => reply.send(jar, input.form, &common),
    }
}

#[derive(Deserialize, Default)]
struct EmptyForm {
    #[serde(flatten)]
    common: FormCommon,
}

/// `POST /api/auth/logout`: clears the session and sends the browser home (spec §4).
async fn logout(State(state): State<AppState>, jar: PrivateCookieJar, input: Submitted<EmptyForm>) -> Response {
    let lang = lang_of(&input.headers, input.value.common.lang.as_deref());
    let jar = state.sessions.end(jar, Kind::Subscriber).await;
    let home = crate::pages::LocalPath::href(lang, "/");
    Reply { status: StatusCode::OK, notice: None, data: json!({}), redirect: Some(home) }.send(jar, input.form, &FormCommon::default())
}

/// The authentication user of spec §3: details joined with balances.
pub async fn load_subscriber(state: &AppState, token: &str) -> Result<Value, OperatorError> {
    let (details, airtime, bundles) = tokio::join!(
        state.operator.customer_details(token),
        state.operator.airtime_balance(token),
        state.operator.bundle_balance(token),
    );
    let details = details?;
    let balance = match (airtime, bundles) {
        (Ok(airtime), Ok(bundles)) => json!({ "mainBalance": airtime.main_balance, "bundle": bundles }),
        (Err(OperatorError::Unauthorized), _) | (_, Err(OperatorError::Unauthorized)) => return Err(OperatorError::Unauthorized),
        (Err(error), _) | (_, Err(error)) => {
            tracing::warn!(%error, "balances unavailable");
            Value::Null
        }
    };
    Ok(json!({
        "msisdn": details.msisdn,
        "names": format!("{} {}", details.first_name, details.family_name).trim(),
        "paymentType": details.payment_method,
        "minor": details.minor,
        "registrationStatus": details.registration_status,
        "scopes": details.scopes,
        "balance": balance,
    }))
}

/// The signed-in subscriber for a page, or `None`; a session the operator
/// no longer accepts (401, or customer details failing with 400 or more,
/// spec §4) is cleared.
pub async fn page_subscriber(state: &AppState, jar: PrivateCookieJar) -> (Option<Value>, PrivateCookieJar) {
    let Some(session) = state.sessions.load(&jar, Kind::Subscriber).await else {
        return (None, jar);
    };
    match load_subscriber(state, &session.token).await {
        Ok(subscriber) => (Some(subscriber), jar),
        Err(OperatorError::Unavailable(error)) => {
            tracing::warn!(%error, "operator unavailable; page rendered signed out");
            (None, jar)
        }
        Err(error) => {
            tracing::info!(%error, "session ended by the operator");
            (None, state.sessions.end(jar, Kind::Subscriber).await)
        }
    }
}

/// The flash notice a form left for the next page, taken out of the jar.
/// Whether the jar holds a flash notice this server wrote.
pub fn has_flash(jar: &PrivateCookieJar) -> bool {
    jar.get(FLASH_COOKIE).is_some()
}

/// Whether the jar holds a live subscriber session.
pub async fn has_subscriber_session(state: &AppState, jar: &PrivateCookieJar) -> bool {
    state.sessions.load(jar, Kind::Subscriber).await.is_some()
}

pub fn take_flash(jar: PrivateCookieJar) -> (Option<Notice>, PrivateCookieJar) {
    let notice = jar.get(FLASH_COOKIE).and_then(|c| serde_json::from_str(c.value()).ok());
    if notice.is_some() { (notice, jar.remove(Cookie::build(FLASH_COOKIE).path("/"))) } else { (None, jar) }
}

/// The signed-in session or a 401 reply.
async fn require(state: &AppState, jar: &PrivateCookieJar) -> Result<Session, Reply> {
    state.sessions.load(jar, Kind::Subscriber).await
        .ok_or_else(|| Reply::notice(StatusCode::UNAUTHORIZED, Notice::key(NoticeKind::Error, "signInFirst")))
}

/// The session store failed: nothing was saved, the visitor may try again.
fn store_failed(error: &StoreError) -> Reply {
    tracing::error!(%error, "session store failed");
    Reply::notice(StatusCode::SERVICE_UNAVAILABLE, Notice::key(NoticeKind::Error, "somethingWentWrong"))
}

/// `GET /api/account`: details and balances of the signed-in subscriber.
async fn account(State(state): State<AppState>, jar: PrivateCookieJar, headers: HeaderMap) -> Response {
    let home = crate::pages::LocalPath::href(lang_of(&headers, None), "/");
    let session = match require(&state, &jar).await {
        Ok(session) => session,
        Err(reply) => return reply.send(jar, false, &FormCommon::default()),
    };
    match load_subscriber(&state, &session.token).await {
        Ok(subscriber) => {
            let balance_failed = subscriber["balance"].is_null();
            let reply = Reply::ok(json!({ "subscriber": subscriber }));
            let reply = if balance_failed { reply.with_notice(Notice::key(NoticeKind::Error, "balanceError")) } else { reply };
            reply.send(jar, false, &FormCommon::default())
        }
        Err(OperatorError::Unavailable(_)) => {
            Reply::notice(StatusCode::BAD_GATEWAY, Notice::key(NoticeKind::Error, "balanceError")).send(jar, false, &FormCommon::default())
        }
        // Spec §4: a 401, or customer details failing with 400 or more, logs out.
        Err(_) => Reply { status: StatusCode::UNAUTHORIZED, notice: Some(Notice::key(NoticeKind::Error, "sessionExpired")), data: json!({}), redirect: Some(home) }
            .send(state.sessions.end(jar, Kind::Subscriber).await, false, &FormCommon::default()),
    }
}

/// `GET /api/bundles`: what can be bought, in the visitor's language.
async fn bundles(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let lang = lang_of(&headers, None);
    match state.operator.bundles().await {
        Ok(bundles) => Json(json!({ "bundles": localize_bundles(&bundles, lang) })).into_response(),
        Err(error) => {
            tracing::warn!(%error, "bundle catalogue unavailable");
            (StatusCode::BAD_GATEWAY, Json(json!({ "notice": Notice::key(NoticeKind::Error, "somethingWentWrong") }))).into_response()
        }
    }
}

pub fn localize_bundles(bundles: &[operator::CatalogueBundle], lang: Lang) -> Vec<Value> {
    bundles
        .iter()
        .map(|b| json!({ "id": b.id, "name": b.name.get(lang), "price": b.price, "validity": b.validity.get(lang), "type": b.kind }))
        .collect()
}

/// A yes/no field: a JSON boolean, or the text a form sends.
fn flag<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Flag {
        Bool(bool),
        Text(String),
    }
    Ok(match Flag::deserialize(deserializer)? {
        Flag::Bool(value) => value,
        Flag::Text(text) => matches!(text.as_str(), "true" | "on" | "1" | "yes"),
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PurchaseForm {
    bundle_id: String,
    purchase_channel: String,
    /// `self` or `friend`; with `self` a friend's number left in the form is ignored.
    #[serde(default)]
    recipient: Option<String>,
    #[serde(default)]
    subscriber: Option<String>,
    /// Buy for the modem signed in through the modem flow.
    #[serde(default, deserialize_with = "flag")]
    for_modem: bool,
    #[serde(flatten)]
    common: FormCommon,
}

/// `POST /api/bundles/purchase {bundleId, purchaseChannel, subscriber?}`.
async fn purchase(State(state): State<AppState>, jar: PrivateCookieJar, input: Submitted<PurchaseForm>) -> Response {
    let common = input.value.common.clone();
    let lang = lang_of(&input.headers, common.lang.as_deref());
    let session = match require(&state, &jar).await {
        Ok(session) => session,
        Err(reply) => return reply.send(jar, input.form, &common),
    };
    let form = &input.value;
    let for_friend = form.recipient.as_deref() != Some("self");
    let friend = match form.subscriber.as_deref().map(str::trim).filter(|s| for_friend && !s.is_empty()) {
        Some(number) => match parse_msisdn(number) {
            Ok(msisdn) => msisdn.to_string(),
            Err(reply) => return reply.send(jar, input.form, &common),
        },
        None => String::new(),
    };
    let channel = match form.purchase_channel.to_ascii_uppercase().as_str() {
        channel @ ("AIRTIME" | "MPESA") => channel.to_owned(),
        _ => return Reply::notice(StatusCode::BAD_REQUEST, Notice::key(NoticeKind::Error, "badRequest")).send(jar, input.form, &common),
    };
    let request = Purchase { bundle_id: Value::String(form.bundle_id.trim().to_owned()), touch_point: String::new(), purchase_channel: channel, subscriber: friend };
    // Buying for a modem needs the modem signed in; never fall back to the payer's own line.
    let token = match (form.for_modem, &session.modem) {
        (false, _) => session.token.clone(),
        (true, Some(modem)) => modem.token.clone(),
        (true, None) => {
            return Reply::notice(StatusCode::CONFLICT, Notice::key(NoticeKind::Error, "signInFirst")).send(jar, input.form, &common);
        }
    };
    let token = token.as_str();
    match state.operator.purchase(token, &request).await {
        Ok(_) => Reply::ok(json!({ "reloadAfterMs": 5000 }))
            .with_notice(Notice::key(NoticeKind::Warning, "purchaseReceived"))
            .send(jar, input.form, &common),
        Err(OperatorError::Unauthorized) => {
            let home = crate::pages::LocalPath::href(lang, "/");
            Reply { status: StatusCode::UNAUTHORIZED, notice: Some(Notice::key(NoticeKind::Error, "sessionExpired")), data: json!({}), redirect: Some(home) }
                .send(state.sessions.end(jar, Kind::Subscriber).await, input.form, &common)
        }
        Err(error @ OperatorError::Refused { .. }) => {
            Reply::notice(status_of(&error), operator_notice(&error, lang, "errorOccurred")).send(jar, input.form, &common)
        }
        Err(error) => {
            tracing::error!(%error, "purchase failed unexpectedly");
            Reply::notice(StatusCode::BAD_GATEWAY, Notice::key(NoticeKind::Error, "notRight")).send(jar, input.form, &common)
        }
    }
}

/// `POST /api/modem/check {msisdn}`: the modem's alternative number.
async fn modem_check(State(state): State<AppState>, jar: PrivateCookieJar, input: Submitted<NumberForm>) -> Response {
    let common = input.value.common.clone();
    let reply = async {
        let modem = parse_msisdn(&input.value.msisdn)?;
        let found = state
            .operator
            .alternative_number(&modem)
            .await
            .map_err(|error| Reply::notice(status_of(&error), Notice::key(NoticeKind::Error, "somethingWentWrong")))?;
        Ok(Reply::ok(json!({ "msisdn": found.msisdn, "alternativeMsisdn": found.alternative_msisdn, "modems": true, "otps": false })))
    }
    .await
    .unwrap_or_else(|reply: Reply| reply);
    reply.send(jar, input.form, &common)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ModemCodeRequest {
    msisdn: String,
    alternative_msisdn: String,
    #[serde(flatten)]
    common: FormCommon,
}

/// `POST /api/modem/request-otp {msisdn, alternativeMsisdn}`: on success the
/// app shows code entry (modems false, otps true).
async fn modem_request_otp(
    State(state): State<AppState>,
    jar: PrivateCookieJar,
    ClientAddr(client): ClientAddr,
    input: Submitted<ModemCodeRequest>,
) -> Response {
    let common = input.value.common.clone();
    let reply = async {
        let modem = parse_msisdn(&input.value.msisdn)?;
        let alternative = parse_msisdn(&input.value.alternative_msisdn)?;
        if !state.limits.code_request(alternative.as_str(), &client) {
            return Err(too_many());
        }
        state
            .operator
            .alternative_request_otp(&modem, &alternative)
            .await
            .map_err(|error| Reply::notice(status_of(&error), Notice::key(NoticeKind::Error, "somethingWentWrong")))?;
        Ok(Reply::ok(json!({ "modems": false, "otps": true })).with_notice(Notice::key(NoticeKind::Warning, "otpSent")))
    }
    .await
    .unwrap_or_else(|reply: Reply| reply);
    reply.send(jar, input.form, &common)
}

/// `POST /api/modem/validate-otp {msisdn, code}`: keeps the modem's token in
/// the session; the app sets its modem-bundle marker in session storage.
async fn modem_validate_otp(State(state): State<AppState>, jar: PrivateCookieJar, input: Submitted<CodeForm>) -> Response {
    let common = input.value.common.clone();
    let mut session = match require(&state, &jar).await {
        Ok(session) => session,
        Err(reply) => return reply.send(jar, input.form, &common),
    };
    let result: Result<_, Reply> = async {
        let (modem, code) = checked_code(&state, &input.value)?;
        let token = state
            .operator
            .validate_modem_otp(MODEM_VALIDATE_PATH, &modem, &code)
            .await
            .map_err(|error| Reply::notice(status_of(&error), Notice::key(NoticeKind::Error, "somethingWentWrong")))?;
        Ok((modem, token))
    }
    .await;
    match result {
        Ok((modem, token)) => {
            session.modem = Some(ModemLogin { msisdn: modem.to_string(), token });
            match state.sessions.save(&jar, Kind::Subscriber, &session).await {
                Ok(()) => Reply::ok(json!({ "modem": modem.as_str(), "modemBundle": true })).send(jar, input.form, &common),
                Err(error) => store_failed(&error).send(jar, input.form, &common),
            }
        }
        Err(reply) => reply.send(jar, input.form, &common),
    }
}

/// `POST /api/alternative-number {msisdn}`: registers the signed-in number as
/// the alternative of a modem (registeringNewNumber, spec §3).
async fn create_alternative_number(State(state): State<AppState>, jar: PrivateCookieJar, input: Submitted<NumberForm>) -> Response {
    let common = input.value.common.clone();
    let lang = lang_of(&input.headers, common.lang.as_deref());
    let session = match require(&state, &jar).await {
        Ok(session) => session,
        Err(reply) => return reply.send(jar, input.form, &common),
    };
    let reply = async {
        let modem = parse_msisdn(&input.value.msisdn)?;
        let own = Msisdn::parse(&session.msisdn).map_err(|_| Reply::notice(StatusCode::UNAUTHORIZED, Notice::key(NoticeKind::Error, "signInFirst")))?;
        let created = state
            .operator
            .create_alternative_number(&session.token, &modem, &own)
            .await
            .map_err(|error| Reply::notice(status_of(&error), operator_notice(&error, lang, "somethingWentWrong")))?;
        Ok(Reply::ok(json!({ "msisdn": created.msisdn, "alternativeMsisdn": created.alternative_msisdn, "registeringNewNumber": false })))
    }
    .await
    .unwrap_or_else(|reply: Reply| reply);
    reply.send(jar, input.form, &common)
}

/// `POST /api/cpm/request-otp {msisdn}`.
async fn cpm_request_otp(
    State(state): State<AppState>,
    jar: PrivateCookieJar,
    ClientAddr(client): ClientAddr,
    input: Submitted<NumberForm>,
) -> Response {
    let common = input.value.common.clone();
    let lang = lang_of(&input.headers, common.lang.as_deref());
    let reply = async {
        let msisdn = requested_number(&state, &input.value.msisdn, &client)?;
        let message = state
            .operator
            .cpm_request_otp(&msisdn)
            .await
            .map_err(|error| Reply::notice(status_of(&error), request_code_failure(&error).lasting(REQUEST_CODE_FAILURE_MS)))?;
        let otp_page = crate::pages::LocalPath::href(lang, "/cpm-otp");
        let query = serde_urlencoded::to_string([("msisdn", msisdn.as_str())]).unwrap_or_default();
        Ok(Reply { status: StatusCode::OK, notice: Some(Notice::text(NoticeKind::Info, message.get(lang))), data: json!({ "msisdn": msisdn.as_str() }), redirect: Some(format!("{otp_page}?{query}")) })
    }
    .await
    .unwrap_or_else(|reply: Reply| reply);
    reply.send(jar, input.form, &common)
}

/// `POST /api/cpm/validate-otp {msisdn, code}`: the CPM session.
async fn cpm_validate_otp(State(state): State<AppState>, jar: PrivateCookieJar, input: Submitted<CodeForm>) -> Response {
    let common = input.value.common.clone();
    let lang = lang_of(&input.headers, common.lang.as_deref());
    let result: Result<_, Reply> = async {
        let (msisdn, code) = checked_code(&state, &input.value)?;
        let token = state
            .operator
            .cpm_validate_otp(&msisdn, &code)
            .await
            .map_err(|error| Reply::notice(status_of(&error), operator_notice(&error, lang, "somethingWentWrong")))?;
        Ok((msisdn, token))
    }
    .await;
    match result {
        Ok((msisdn, token)) => {
            let jar = match state.sessions.start(jar.clone(), Kind::Cpm, Session::new(token, msisdn.to_string())).await {
                Ok(jar) => jar,
                Err(error) => return store_failed(&error).send(jar, input.form, &common),
            };
            let page = crate::pages::LocalPath::href(lang, "/customer-permission-management");
            Reply { status: StatusCode::OK, notice: None, data: json!({}), redirect: Some(page) }.send(jar, input.form, &common)
        }
        Err(reply) => reply.send(jar, input.form, &common),
    }
}

/// The CPM session's permissions, for its page; a rejected session is cleared.
pub async fn cpm_page_permissions(state: &AppState, jar: PrivateCookieJar, lang: Lang) -> (Option<Value>, PrivateCookieJar) {
    let Some(session) = state.sessions.load(&jar, Kind::Cpm).await else { return (None, jar) };
    match state.operator.cpm_permissions(&session.token).await {
        Ok(permissions) => {
            let list: Vec<Value> = permissions
                .iter()
                .map(|p| json!({ "id": p.id, "name": p.name.get(lang), "description": p.description.get(lang), "granted": p.granted }))
                .collect();
            (Some(json!({ "msisdn": session.msisdn, "permissions": list })), jar)
        }
        Err(error) => {
            tracing::info!(%error, "CPM session ended");
            (None, state.sessions.end(jar, Kind::Cpm).await)
        }
    }
}

/// Whether the request carries a live CPM session (the guard of spec §2).
pub async fn has_cpm_session(state: &AppState, jar: &PrivateCookieJar) -> bool {
    state.sessions.load(jar, Kind::Cpm).await.is_some()
}

/// `GET /api/cpm/permissions`.
async fn cpm_permissions(State(state): State<AppState>, jar: PrivateCookieJar, headers: HeaderMap) -> Response {
    let lang = lang_of(&headers, None);
    match cpm_page_permissions(&state, jar, lang).await {
        (Some(permissions), jar) => Reply::ok(permissions).send(jar, false, &FormCommon::default()),
        (None, jar) => Reply::notice(StatusCode::UNAUTHORIZED, Notice::key(NoticeKind::Error, "sessionExpired")).send(jar, false, &FormCommon::default()),
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PermissionForm {
    #[serde(deserialize_with = "flag")]
    granted: bool,
    #[serde(flatten)]
    common: FormCommon,
}

/// `PUT /api/cpm/permissions/{id} {granted}` (POST from a form).
async fn cpm_set_permission(
    State(state): State<AppState>,
    jar: PrivateCookieJar,
    Path(id): Path<String>,
    input: Submitted<PermissionForm>,
) -> Response {
    let common = input.value.common.clone();
    let lang = lang_of(&input.headers, common.lang.as_deref());
    let Some(session) = state.sessions.load(&jar, Kind::Cpm).await else {
        return Reply::notice(StatusCode::UNAUTHORIZED, Notice::key(NoticeKind::Error, "sessionExpired")).send(jar, input.form, &common);
    };
    let granted = input.value.granted;
    match state.operator.cpm_set_permission(&session.token, &id, granted).await {
        Ok(()) => Reply::ok(json!({ "id": id, "granted": granted }))
            .with_notice(Notice::key(NoticeKind::Warning, "permissionSaved"))
            .send(jar, input.form, &common),
        Err(OperatorError::Unauthorized) => Reply::notice(StatusCode::UNAUTHORIZED, Notice::key(NoticeKind::Error, "sessionExpired"))
            .send(state.sessions.end(jar, Kind::Cpm).await, input.form, &common),
        Err(error) => Reply::notice(status_of(&error), operator_notice(&error, lang, "somethingWentWrong")).send(jar, input.form, &common),
    }
}

/// `POST /api/cpm/logout`.
async fn cpm_logout(State(state): State<AppState>, jar: PrivateCookieJar, input: Submitted<EmptyForm>) -> Response {
    let lang = lang_of(&input.headers, input.value.common.lang.as_deref());
    let jar = state.sessions.end(jar, Kind::Cpm).await;
    let login = crate::pages::LocalPath::href(lang, "/cpm-login");
    Reply { status: StatusCode::OK, notice: None, data: json!({}), redirect: Some(login) }.send(jar, input.form, &FormCommon::default())
}

