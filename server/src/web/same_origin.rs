//! The same-origin guard: state-changing requests are taken only from the
//! site's own pages (CSRF). The account API, the forms and the sandbox's
//! switches all sit behind it.

use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::{Notice, NoticeKey, NoticeKind, Reply};
use crate::AppState;

/// Refuses state-changing requests that do not come from the site itself:
/// `Sec-Fetch-Site: same-origin`, or, from browsers without it, an `Origin`
/// equal to the site's. With neither header the request is refused (OWASP).
pub async fn same_origin_only(State(state): State<AppState>, request: Request, next: Next) -> Response {
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
    Reply::refused(StatusCode::FORBIDDEN, Notice::key(NoticeKind::Error, NoticeKey::CrossSite)).into_response()
}
