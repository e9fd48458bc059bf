//! [`Submitted`]: a body from the app's script (JSON) or from an HTML form
//! (urlencoded), read into the same type (one of the contract's `api`
//! bodies, whose yes/no fields read either way).

use axum::Json;
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, StatusCode, header};
use serde::de::DeserializeOwned;

use super::{NoticeKey, Reply};

/// Whether the body is an HTML form's.
pub fn is_form(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/x-www-form-urlencoded"))
}

/// Whether the caller wants its answer as JSON: a script says so; a
/// browser's own form post does not.
pub fn wants_json(headers: &HeaderMap) -> bool {
    headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|accept| accept.contains("application/json"))
}

/// A body from the app (JSON) or from an HTML form.
pub struct Submitted<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequest<S> for Submitted<T> {
    type Rejection = Reply;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let value = if is_form(request.headers()) {
            axum::Form::<T>::from_request(request, state)
                .await
                .map(|f| f.0)
                .map_err(|e| malformed(e.status(), &e.body_text()))?
        } else {
            Json::<T>::from_request(request, state)
                .await
                .map(|j| j.0)
                .map_err(|e| malformed(e.status(), &e.body_text()))?
        };
        Ok(Submitted(value))
    }
}

/// A body that cannot be read: 413 when it is too large, else 400.
fn malformed(status: StatusCode, detail: &str) -> Reply {
    tracing::debug!(detail, "malformed request body");
    let status = if status == StatusCode::PAYLOAD_TOO_LARGE { status } else { StatusCode::BAD_REQUEST };
    Reply::refused_key(status, NoticeKey::BadRequest)
}
