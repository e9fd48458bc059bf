//! What every account endpoint shares: the visitor (language, form or
//! script, where a form goes back to), bodies read as JSON or as an HTML
//! form, the same-origin guard, and the two answers, [`Reply`] and
//! [`AccountError`]. Handlers answer JSON; [`finish`] turns the answer to
//! a form post into a 303 back to the page, with its notice in a
//! short-lived flash cookie, so no handler knows which kind it served.

use std::collections::BTreeMap;

use axum::Json;
use axum::body::Body;
use axum::extract::{FromRequest, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::PrivateCookieJar;
use axum_extra::extract::cookie::{Cookie, SameSite};
use contract::Lang;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::operator::OperatorError;
use super::return_to;
use super::session_store::StoreError;
use crate::AppState;

pub(super) const FLASH_COOKIE: &str = "flash";
/// Every account body is a few short fields; more is refused with 413.
pub(super) const BODY_LIMIT: usize = 16 * 1024;

/// A message for a toast (spec §8): a string key the app translates (with
/// the values its text names), or a text the operator gave, already in the
/// visitor's language.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Notice {
    #[serde(rename = "type")]
    pub kind: NoticeKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<BTreeMap<String, String>>,
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
    pub(super) fn key(kind: NoticeKind, key: &str) -> Notice {
        Notice { kind, key: Some(key.to_owned()), params: None, text: None, duration: None }
    }

    pub(super) fn text(kind: NoticeKind, text: &str) -> Notice {
        Notice { kind, key: None, params: None, text: Some(text.to_owned()), duration: None }
    }

    /// The values the key's text names (`{bundle}`).
    pub(super) fn with_params<'a>(mut self, params: impl IntoIterator<Item = (&'a str, &'a str)>) -> Notice {
        self.params = Some(params.into_iter().map(|(name, value)| (name.to_owned(), value.to_owned())).collect());
        self
    }

    pub(super) fn lasting(mut self, ms: u32) -> Notice {
        self.duration = Some(ms);
        self
    }
}

/// Who is asking, read once from the request by [`finish`]: handlers take
/// it as an extractor.
#[derive(Debug, Clone)]
pub struct Visitor {
    pub lang: Lang,
    /// An HTML form post (no JavaScript): answered with a redirect.
    pub form: bool,
    /// Where a form goes back to: a path of this site, or `None`.
    pub return_to: Option<String>,
}

impl Visitor {
    /// The address of `path` in the visitor's language.
    pub fn href(&self, path: &str) -> String {
        self.lang.href(path)
    }
}

/// Fields every form and JSON body may carry besides its own.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Common {
    lang: Option<String>,
    #[serde(default, deserialize_with = "return_to::deserialize")]
    return_to: Option<String>,
}

fn is_form(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/x-www-form-urlencoded"))
}

/// The visitor's language: the app's header, a form's field, then the
/// remembered choice.
pub(crate) fn lang_of(headers: &HeaderMap, field: Option<&str>) -> Lang {
    if let Some(lang) = headers.get("x-site-lang").and_then(|v| v.to_str().ok()).or(field) {
        return Lang::parse(lang);
    }
    let cookies = headers.get(header::COOKIE).and_then(|v| v.to_str().ok()).unwrap_or("");
    cookies.split(';').filter_map(|c| c.trim().strip_prefix("lang=")).map(Lang::parse).next().unwrap_or_default()
}

/// Reads the whole body (at most [`BODY_LIMIT`]) and the visitor from it.
async fn read_visitor(request: Request) -> Result<(Visitor, Request), StatusCode> {
    let (parts, body) = request.into_parts();
    let form = is_form(&parts.headers);
    let bare = |common: &Common| Visitor {
        lang: lang_of(&parts.headers, common.lang.as_deref()),
        form,
        return_to: common.return_to.clone(),
    };
    let bytes = match axum::body::to_bytes(body, BODY_LIMIT).await {
        Ok(bytes) => bytes,
        Err(error) => {
            let too_large = error.into_inner().is::<http_body_util::LengthLimitError>();
            return Err(if too_large { StatusCode::PAYLOAD_TOO_LARGE } else { StatusCode::BAD_REQUEST });
        }
    };
    let common = if bytes.is_empty() {
        Common::default()
    } else if form {
        serde_urlencoded::from_bytes(&bytes).unwrap_or_default()
    } else {
        serde_json::from_slice(&bytes).unwrap_or_default()
    };
    let visitor = bare(&common);
    Ok((visitor, Request::from_parts(parts, Body::from(bytes))))
}

impl<S: Send + Sync> FromRequestParts<S> for Visitor {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts.extensions.get::<Visitor>().cloned().unwrap_or_else(|| Visitor {
            lang: lang_of(&parts.headers, None),
            form: false,
            return_to: None,
        }))
    }
}

/// What every account response needs. Before: the visitor read from the
/// request. After: `no-store` unless the handler said otherwise (answers
/// depend on the session or come from the operator), and a form's answer
/// turned into a redirect with its notice as the flash cookie.
pub(super) async fn finish(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let (visitor, request) = match read_visitor(request).await {
        Ok(read) => read,
        // Not a form a visitor filled in (or a body cut short): told so
        // plainly, not redirected.
        Err(status) => return AccountError::new(status, "badRequest").into_response(),
    };
    let mut request = request;
    request.extensions_mut().insert(visitor.clone());
    let path = request.uri().path().to_owned();
    let mut response = next.run(request).await;
    count(&path, response.status());
    response.headers_mut().entry(header::CACHE_CONTROL).or_insert(HeaderValue::from_static("no-store"));
    answer_form(&state, &visitor, response)
}

/// Counts code requests, code checks and purchases by their answer
/// (`/metrics`): `ok`, `limited` (429: for a code check, a lockout),
/// `signed-out` (401), `unavailable` (503), `refused` (another 4xx),
/// `failed` (5xx from the operator).
fn count(path: &str, status: StatusCode) {
    let outcome = match status.as_u16() {
        200..=299 => "ok",
        429 => "limited",
        401 => "signed-out",
        503 => "unavailable",
        400..=499 => "refused",
        _ => "failed",
    };
    let purpose = match path {
        p if p.starts_with("/api/auth/") => "sign-in",
        p if p.starts_with("/api/cpm/") => "cpm",
        p if p.starts_with("/api/modem/") => "modem-sign-in",
        p if p.starts_with("/api/alternative-number") => "modem-registration",
        _ => "",
    };
    if path == "/api/bundles/purchase" {
        metrics::counter!("purchases_total", "outcome" => outcome).increment(1);
    } else if path.ends_with("/request-otp") {
        metrics::counter!("otp_requests_total", "purpose" => purpose, "outcome" => outcome).increment(1);
    } else if path.ends_with("/validate-otp") || path == "/api/alternative-number" {
        metrics::counter!("otp_validations_total", "purpose" => purpose, "outcome" => outcome).increment(1);
    }
}

/// A form post's answer: a 303 to where the answer or the form says, the
/// notice kept for that page. A script's answer is left as it is.
fn answer_form(state: &AppState, visitor: &Visitor, mut response: Response) -> Response {
    let Some(answer) = response.extensions_mut().remove::<Answer>() else { return response };
    if !visitor.form {
        return response;
    }
    let back = answer.redirect.or_else(|| Some(with_query(visitor.return_to.as_deref()?, &answer.back_query)));
    let back = back.unwrap_or_else(|| visitor.href("/"));
    let (mut parts, _) = response.into_parts();
    parts.status = StatusCode::SEE_OTHER;
    parts.headers.remove(header::CONTENT_TYPE);
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(header::LOCATION, crate::web::Location::site(&back).header());
    let mut response = Response::from_parts(parts, Body::empty());
    if let Some(notice) = answer.notice {
        let cookie = Cookie::build((FLASH_COOKIE, serde_json::to_string(&notice).expect("notice serialises")))
            .path("/")
            .http_only(true)
            .secure(state.config.is_https())
            .same_site(SameSite::Lax)
            .max_age(cookie::time::Duration::seconds(60))
            .build();
        let jar = PrivateCookieJar::new(state.cookie_key.clone()).add(cookie);
        for set_cookie in jar.into_response().headers().get_all(header::SET_COOKIE) {
            response.headers_mut().append(header::SET_COOKIE, set_cookie.clone());
        }
    }
    response
}

/// `address` (a path with or without a query) with `edits` made to its
/// query: each named parameter set (`Some`) or removed (`None`), the others
/// kept as they were.
fn with_query(address: &str, edits: &QueryEdits) -> String {
    if edits.is_empty() {
        return address.to_owned();
    }
    let (path, query) = address.split_once('?').unwrap_or((address, ""));
    let mut pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).unwrap_or_default();
    pairs.retain(|(name, _)| !edits.iter().any(|(edited, _)| edited == name));
    pairs.extend(edits.iter().filter_map(|(name, value)| Some((name.clone(), value.clone()?))));
    match serde_urlencoded::to_string(&pairs) {
        Ok(query) if !query.is_empty() => format!("{path}?{query}"),
        _ => path.to_owned(),
    }
}

/// Query parameters a form's way back sets (`Some`) or removes (`None`).
type QueryEdits = Vec<(String, Option<String>)>;

fn query_edits(edits: &[(&str, Option<&str>)]) -> QueryEdits {
    edits.iter().map(|(name, value)| ((*name).to_owned(), value.map(str::to_owned))).collect()
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
    AccountError::new(StatusCode::FORBIDDEN, "crossSite").into_response()
}

/// The client's address for throttling ([`crate::connections::client_address`]).
pub struct ClientAddr(pub String);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(ClientAddr(crate::connections::client_address(&parts.extensions).to_string()))
    }
}

/// A body from the app (JSON) or from an HTML form.
pub struct Submitted<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequest<S> for Submitted<T> {
    type Rejection = AccountError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let value = if is_form(request.headers()) {
            axum::Form::<T>::from_request(request, state).await.map(|f| f.0).map_err(|e| malformed(e.status(), &e.body_text()))?
        } else {
            Json::<T>::from_request(request, state).await.map(|j| j.0).map_err(|e| malformed(e.status(), &e.body_text()))?
        };
        Ok(Submitted(value))
    }
}

/// A body that cannot be read: 413 when it is too large, else 400.
fn malformed(status: StatusCode, detail: &str) -> AccountError {
    tracing::debug!(detail, "malformed request body");
    let status = if status == StatusCode::PAYLOAD_TOO_LARGE { status } else { StatusCode::BAD_REQUEST };
    AccountError::new(status, "badRequest")
}

/// What [`finish`] needs of an answer to turn it into a form's redirect.
#[derive(Clone)]
struct Answer {
    notice: Option<Notice>,
    redirect: Option<String>,
    back_query: QueryEdits,
}

/// A successful answer: data for the script, a notice, where to go next.
pub struct Reply {
    data: Value,
    notice: Option<Notice>,
    redirect: Option<String>,
    back_query: QueryEdits,
}

impl Reply {
    pub fn ok(data: Value) -> Reply {
        Reply { data, notice: None, redirect: None, back_query: Vec::new() }
    }

    pub fn with_notice(mut self, notice: Notice) -> Reply {
        self.notice = Some(notice);
        self
    }

    /// The browser goes to `path` next (logout sends it home, spec §4).
    pub fn redirect(mut self, path: String) -> Reply {
        self.redirect = Some(path);
        self
    }

    /// A form goes back to its page with these query parameters set or
    /// removed, e.g. the sign-in page's code step (`step=code`).
    pub fn back_query(mut self, edits: &[(&str, Option<&str>)]) -> Reply {
        self.back_query = query_edits(edits);
        self
    }
}

impl IntoResponse for Reply {
    fn into_response(self) -> Response {
        let answer = Answer { notice: self.notice, redirect: self.redirect, back_query: self.back_query };
        json_answer(StatusCode::OK, self.data, answer)
    }
}

/// The JSON body: the data's fields, the notice and the redirect beside them.
fn json_answer(status: StatusCode, data: Value, answer: Answer) -> Response {
    let mut body = match data {
        Value::Object(map) => map,
        Value::Null => serde_json::Map::new(),
        other => serde_json::Map::from_iter([("data".to_owned(), other)]),
    };
    if let Some(notice) = &answer.notice {
        body.insert("notice".into(), serde_json::to_value(notice).expect("notice serialises"));
    }
    if let Some(redirect) = &answer.redirect {
        body.insert("redirect".into(), redirect.clone().into());
    }
    let mut response = (status, Json(Value::Object(body))).into_response();
    response.extensions_mut().insert(answer);
    response
}

/// Every way an account request fails, with what the visitor is told.
/// Handlers use `?`; the status and notice are decided here, once.
pub struct AccountError {
    status: StatusCode,
    notice: Notice,
    redirect: Option<String>,
    back_query: QueryEdits,
    /// The cookies to send with the failure (a session that just ended);
    /// boxed, as failures are the rare path.
    jar: Option<Box<PrivateCookieJar>>,
}

impl AccountError {
    pub fn new(status: StatusCode, key: &str) -> AccountError {
        AccountError::with_notice(status, Notice::key(NoticeKind::Error, key))
    }

    pub fn with_notice(status: StatusCode, notice: Notice) -> AccountError {
        AccountError { status, notice, redirect: None, back_query: Vec::new(), jar: None }
    }

    pub fn invalid_msisdn() -> AccountError {
        AccountError::new(StatusCode::BAD_REQUEST, "invalidMsisdn")
    }

    pub fn invalid_code() -> AccountError {
        AccountError::new(StatusCode::BAD_REQUEST, "invalidCode")
    }

    pub fn too_many() -> AccountError {
        AccountError::new(StatusCode::TOO_MANY_REQUESTS, "rateLimited")
    }

    /// 429 for a code asked for too soon, saying how long to wait (whole
    /// seconds under a minute, else minutes, rounded up); shown 7 s as every
    /// failed code request (spec §8).
    pub fn too_soon(wait: std::time::Duration) -> AccountError {
        let seconds = wait.as_millis().div_ceil(1000).max(1);
        let notice = if seconds < 60 {
            Notice::key(NoticeKind::Error, "codeWaitSeconds").with_params([("seconds", seconds.to_string().as_str())])
        } else {
            Notice::key(NoticeKind::Error, "codeWaitMinutes").with_params([("minutes", seconds.div_ceil(60).to_string().as_str())])
        };
        AccountError::with_notice(StatusCode::TOO_MANY_REQUESTS, notice.lasting(REQUEST_CODE_FAILURE_MS))
    }

    /// An operator failure that spec §8 words as one message.
    pub fn operator(error: &OperatorError, key: &str) -> AccountError {
        AccountError::new(status_of(error), key)
    }

    /// An operator failure where spec §8 gives "the server's message in the
    /// current language, or <fallback>".
    pub fn operator_message(error: &OperatorError, lang: Lang, fallback: &str) -> AccountError {
        let notice = match error {
            OperatorError::Refused { message: Some(message), .. } => Notice::text(NoticeKind::Error, message.get(lang)),
            OperatorError::Refused { reason: Some(reason), .. } => Notice::text(NoticeKind::Error, reason),
            _ => Notice::key(NoticeKind::Error, fallback),
        };
        AccountError::with_notice(status_of(error), notice)
    }

    /// The session is gone: the cookies that clear it go with the answer.
    pub fn session_ended(jar: PrivateCookieJar, key: &str) -> AccountError {
        AccountError { jar: Some(Box::new(jar)), ..AccountError::new(StatusCode::UNAUTHORIZED, key) }
    }

    /// The browser goes to `path` next.
    pub fn redirect(mut self, path: String) -> AccountError {
        self.redirect = Some(path);
        self
    }

    /// A form goes back to its page with these query parameters set or
    /// removed (what was typed, to keep it in its field).
    pub fn back_query(mut self, edits: &[(&str, Option<&str>)]) -> AccountError {
        self.back_query = query_edits(edits);
        self
    }
}

/// Spec §8: a failed code request shows for 7 s.
pub(super) const REQUEST_CODE_FAILURE_MS: u32 = 7000;

pub(super) fn status_of(error: &OperatorError) -> StatusCode {
    match error {
        OperatorError::Unauthorized => StatusCode::UNAUTHORIZED,
        // A refusal the visitor can act on keeps its status; the operator's
        // own failure is a bad gateway to the browser, never this server's 5xx.
        OperatorError::Refused { status: status @ 400..=499, .. } => StatusCode::from_u16(*status).unwrap_or(StatusCode::BAD_GATEWAY),
        OperatorError::Refused { .. } => StatusCode::BAD_GATEWAY,
        OperatorError::Unavailable(_) => StatusCode::BAD_GATEWAY,
        OperatorError::TimedOut => StatusCode::GATEWAY_TIMEOUT,
        // Failing fast while the API is down (or too busy): try again shortly.
        OperatorError::NotCalled(_) => StatusCode::SERVICE_UNAVAILABLE,
    }
}

/// The session store failed: nothing was saved, the visitor may try again.
impl From<StoreError> for AccountError {
    fn from(error: StoreError) -> AccountError {
        tracing::error!(%error, "session store failed");
        AccountError::new(StatusCode::SERVICE_UNAVAILABLE, "serviceUnavailable")
    }
}

/// The shared rate limits cannot be asked (Redis down): refused rather than
/// let through unlimited; the visitor is told to try again shortly.
impl From<super::limits::Unavailable> for AccountError {
    fn from(error: super::limits::Unavailable) -> AccountError {
        tracing::error!(%error, "rate limits unavailable; request refused");
        AccountError::new(StatusCode::SERVICE_UNAVAILABLE, "serviceUnavailable")
    }
}

impl IntoResponse for AccountError {
    fn into_response(self) -> Response {
        let answer = Answer { notice: Some(self.notice), redirect: self.redirect, back_query: self.back_query };
        let response = json_answer(self.status, Value::Null, answer);
        match self.jar {
            Some(jar) => (*jar, response).into_response(),
            None => response,
        }
    }
}

/// A yes/no field: a JSON boolean, or the text a form sends.
pub fn flag<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
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
