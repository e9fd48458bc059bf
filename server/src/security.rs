//! Headers on every response (ARCHITECTURE.md, security defaults). Pages carry
//! no inline script, so one strict policy serves cached pages too.

use axum::extract::{Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;

use crate::AppState;

const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
    img-src 'self' data: https:; font-src 'self'; connect-src 'self'; object-src 'none'; \
    base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

pub async fn headers(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    let set = |headers: &mut axum::http::HeaderMap, name, value: &'static str| {
        headers.entry(name).or_insert(HeaderValue::from_static(value));
    };
    set(headers, header::CONTENT_SECURITY_POLICY, CSP);
    set(headers, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(headers, header::REFERRER_POLICY, "strict-origin-when-cross-origin");
    set(headers, header::HeaderName::from_static("permissions-policy"), "camera=(), microphone=(), geolocation=(), payment=()");
    set(headers, header::HeaderName::from_static("cross-origin-opener-policy"), "same-origin");
    set(headers, header::X_FRAME_OPTIONS, "DENY");
    if state.config.is_https() {
        set(headers, header::STRICT_TRANSPORT_SECURITY, "max-age=31536000; includeSubDomains");
    }
    response
}
