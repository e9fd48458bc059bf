//! Request bodies read whole, up to a limit each feature sets for its
//! posts: past the limit the answer is 413, a body that breaks off 400.

use axum::body::{Body, Bytes};
use axum::http::StatusCode;

/// The whole of `body`, or the status that says why not.
pub async fn read(body: Body, limit: usize) -> Result<Bytes, StatusCode> {
    axum::body::to_bytes(body, limit).await.map_err(|error| {
        let too_large = error.into_inner().is::<http_body_util::LengthLimitError>();
        if too_large { StatusCode::PAYLOAD_TOO_LARGE } else { StatusCode::BAD_REQUEST }
    })
}
