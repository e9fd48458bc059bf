//! A request body must arrive whole within `BODY_READ_TIMEOUT_SECS` of the
//! request's start. tower-http's body timeout restarts with every frame, so
//! a client sending a byte every few seconds could hold a form post open
//! for as long as it liked; this is a deadline instead. A body past it ends
//! in an error for whatever reads it, and the answer is `408 Request
//! Timeout` with the connection closed, whatever the handler made of it.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body::{Body as HttpBody, Frame, SizeHint};
use tokio::time::{Instant, Sleep};

/// The middleware: `deadline` is how long the whole body may take.
pub async fn layer(State(deadline): State<Duration>, request: Request, next: Next) -> Response {
    let expired = Arc::new(AtomicBool::new(false));
    let flag = expired.clone();
    let request = request.map(|body| {
        Body::new(DeadlineBody {
            inner: body,
            sleep: Box::pin(tokio::time::sleep_until(Instant::now() + deadline)),
            expired: flag,
        })
    });
    let response = next.run(request).await;
    if expired.load(Ordering::Relaxed) {
        tracing::debug!(?deadline, "request body not received in time");
        return (
            StatusCode::REQUEST_TIMEOUT,
            [(header::CONNECTION, HeaderValue::from_static("close"))],
            "Request body not received in time\n",
        )
            .into_response();
    }
    response
}

struct DeadlineBody {
    inner: Body,
    sleep: Pin<Box<Sleep>>,
    expired: Arc<AtomicBool>,
}

/// What reading the body answers once its time is up.
#[derive(Debug, thiserror::Error)]
#[error("request body not received within its time limit")]
pub struct BodyDeadline;

impl HttpBody for DeadlineBody {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|frame| frame.map_err(Into::into)));
        }
        if self.sleep.as_mut().poll(cx).is_ready() {
            self.expired.store(true, Ordering::Relaxed);
            return Poll::Ready(Some(Err(BodyDeadline.into())));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
