//! Every 503 and 429 says when to come back: a shed render, an operator API
//! failing fast (its circuit open, its bulkhead full), Redis down, a form
//! that could not be kept. An answer that already names a time (a page
//! whose content failed: 30 s) keeps it; any other gets [`SOON`].

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;

/// Seconds a refused client waits before asking again, unless its answer
/// says otherwise: long enough for a queue to drain or Redis to reconnect,
/// short enough that a visitor retrying by hand is not turned away twice.
pub const SOON: &str = "5";

pub async fn when_refused(mut response: Response) -> Response {
    let refused = matches!(response.status(), StatusCode::SERVICE_UNAVAILABLE | StatusCode::TOO_MANY_REQUESTS);
    if refused && !response.headers().contains_key(header::RETRY_AFTER) {
        response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static(SOON));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn retry_after(status: StatusCode, given: Option<&'static str>) -> Option<String> {
        let mut response = Response::new(axum::body::Body::empty());
        *response.status_mut() = status;
        if let Some(given) = given {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static(given));
        }
        when_refused(response).await.headers().get(header::RETRY_AFTER).map(|v| v.to_str().unwrap().to_owned())
    }

    #[tokio::test]
    async fn refusals_say_when_and_keep_a_time_they_name() {
        assert_eq!(retry_after(StatusCode::SERVICE_UNAVAILABLE, None).await.as_deref(), Some(SOON));
        assert_eq!(retry_after(StatusCode::TOO_MANY_REQUESTS, None).await.as_deref(), Some(SOON));
        assert_eq!(retry_after(StatusCode::SERVICE_UNAVAILABLE, Some("30")).await.as_deref(), Some("30"));
        assert_eq!(retry_after(StatusCode::BAD_GATEWAY, None).await, None);
        assert_eq!(retry_after(StatusCode::OK, None).await, None);
    }
}
