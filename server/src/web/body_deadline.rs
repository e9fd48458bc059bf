//! A request body must arrive whole within `BODY_READ_TIMEOUT_SECS` of the
//! request's start. tower-http's body timeout restarts with every frame, so
//! a client sending a byte every few seconds could hold a form post open
//! for as long as it liked; this is a deadline instead. A body past it ends
//! in an error for whatever reads it, and the answer is `408 Request
//! Timeout` with the connection closed, whatever the handler made of it:
//! to a script, the one API body with its notice (`requestTimeout`); to a
//! browser's own form post, the error page saying to send it again; both
//! in the visitor's language, in the app's words.

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
use contract::Lang;
use http_body::{Body as HttpBody, Frame, SizeHint};
use tokio::time::{Instant, Sleep};

use super::strings::{ErrorPage, error_page};
use super::submitted::wants_json;
use super::{NoticeKey, Reply, Strings, visitor_lang};
use crate::manifest::RouteTable;

/// What the middleware needs: how long a whole body may take, and the
/// words of the answer to one that took longer.
#[derive(Clone)]
pub struct Deadline {
    pub time: Duration,
    pub strings: Arc<Strings>,
    /// The home page, which the error page links to.
    pub routes: Arc<RouteTable>,
}

/// The middleware.
pub async fn layer(State(deadline): State<Deadline>, request: Request, next: Next) -> Response {
    if request.body().is_end_stream() {
        // No body to wait for.
        return next.run(request).await;
    }
    // Who would read the answer, known before the request is handed on.
    let (lang, script) = (visitor_lang(request.headers(), None), wants_json(request.headers()));
    let expired = Arc::new(AtomicBool::new(false));
    let flag = expired.clone();
    let request = request.map(|body| {
        Body::new(DeadlineBody {
            inner: body,
            sleep: Box::pin(tokio::time::sleep_until(Instant::now() + deadline.time)),
            expired: flag,
        })
    });
    let response = next.run(request).await;
    if expired.load(Ordering::Relaxed) {
        tracing::debug!(deadline = ?deadline.time, "request body not received in time");
        let mut response = deadline.timed_out(lang, script);
        response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
        return response;
    }
    response
}

impl Deadline {
    /// The 408: the notice for a script, the error page for a browser.
    fn timed_out(&self, lang: Lang, script: bool) -> Response {
        let status = StatusCode::REQUEST_TIMEOUT;
        if script {
            return Reply::refused_key(status, NoticeKey::RequestTimeout).into_response();
        }
        error_page(&self.strings, lang, ErrorPage::TimedOut, status, self.routes.home())
    }
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

#[cfg(test)]
mod tests {
    use axum::Router;
    use axum::routing::post;
    use tower::ServiceExt;

    use super::*;

    const STRINGS: &str = r#"{ "en": { "errorPage": { "failed": { "title": "f", "text": "f" }, "unavailable": { "title": "u", "text": "u" },
        "busy": { "title": "b", "text": "b" }, "timedOut": { "title": "Too late", "text": "Send it again." }, "home": "Home page" } },
        "sw": { "errorPage": { "failed": { "title": "f", "text": "f" }, "unavailable": { "title": "u", "text": "u" },
        "busy": { "title": "b", "text": "b" }, "timedOut": { "title": "Imechelewa", "text": "Tuma tena." }, "home": "Mwanzo" } } }"#;

    const META: &str = r#"{"requiresAuth":false,"isDynamic":true,"isPassThrough":false,"invisible":false,
        "invisibleChildren":false,"isClickable":true,"isVisible":true,"pageName":"x"}"#;

    /// What a post whose body never ends is answered, with `headers`.
    async fn timed_out(headers: &[(&'static str, &'static str)]) -> (StatusCode, String, String) {
        let routes = format!(
            r#"[{{"name":"home","path":"/","page":"content","meta":{META}}},
               {{"name":"not-found","path":"/*","page":"notFound","meta":{META}}}]"#
        );
        let deadline = Deadline {
            time: Duration::from_millis(20),
            strings: Arc::new(Strings::from_json(STRINGS).unwrap()),
            routes: Arc::new(RouteTable::from_json(&routes).unwrap()),
        };
        let app = Router::new()
            .route("/post", post(|body: Bytes| async move { format!("{} bytes", body.len()) }))
            .layer(axum::middleware::from_fn_with_state(deadline, layer));
        let never = futures::stream::pending::<Result<Bytes, std::io::Error>>();
        let mut request = Request::post("/post").body(Body::from_stream(never)).unwrap();
        for (name, value) in headers {
            request.headers_mut().insert(*name, HeaderValue::from_static(value));
        }
        let response = app.oneshot(request).await.unwrap();
        let status = response.status();
        let content_type = response.headers()[header::CONTENT_TYPE].to_str().unwrap().to_owned();
        assert_eq!(response.headers()[header::CONNECTION], "close");
        let body = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
        (status, content_type, String::from_utf8(body.to_vec()).unwrap())
    }

    /// A script is told by the notice its strings word; a browser's own
    /// form post gets the error page, in the visitor's language.
    #[tokio::test]
    async fn a_body_past_its_deadline_is_answered_in_the_visitors_words() {
        let (status, content_type, body) = timed_out(&[("accept", "application/json"), ("x-site-lang", "sw")]).await;
        assert_eq!((status, content_type.as_str()), (StatusCode::REQUEST_TIMEOUT, "application/json"));
        assert_eq!(body, r#"{"notice":{"type":"error","key":"requestTimeout"}}"#);
        let (status, content_type, page) = timed_out(&[("cookie", "lang=sw")]).await;
        assert_eq!((status, content_type.as_str()), (StatusCode::REQUEST_TIMEOUT, "text/html; charset=utf-8"));
        assert!(
            page.contains("<h1>Imechelewa</h1><p>Tuma tena.</p>") && page.contains(r#"<a href="/sw">Mwanzo</a>"#),
            "{page}"
        );
        let (_, _, page) = timed_out(&[]).await;
        assert!(page.contains(r#"<html lang="en">"#) && page.contains("<h1>Too late</h1>"), "{page}");
    }
}
