//! The request metrics, `http_requests_total` and
//! `http_request_duration_seconds`, labelled by the router that answered
//! (`kind`) and the status. [`record`] is the outermost layer of the whole
//! application, the pages' fast path included; each feature router marks
//! the requests it takes ([`marked`]) on the way in, so that an
//! answer made outside the handler (a panic caught, a body deadline
//! passed) still counts under the router that took the request.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Instant;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::Response;

/// The router that answered: a handful of label values whatever the
/// addresses asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum RouteKind {
    /// No router marked the request (none should be left).
    Unmarked,
    /// Pages, from the fast path or rendered.
    Page,
    /// A page's data (`/_data/…`).
    Data,
    Asset,
    Image,
    Account,
    Forms,
    /// The CMS's webhook.
    Webhook,
    /// The CMS's preview link.
    Preview,
    Seo,
    Health,
    /// The stand-in operator API and its switches.
    Sandbox,
    /// "Near me" of the agent and shop locator.
    Locator,
}

impl RouteKind {
    const ALL: [RouteKind; 13] = [
        RouteKind::Unmarked,
        RouteKind::Page,
        RouteKind::Data,
        RouteKind::Asset,
        RouteKind::Image,
        RouteKind::Account,
        RouteKind::Forms,
        RouteKind::Webhook,
        RouteKind::Preview,
        RouteKind::Seo,
        RouteKind::Health,
        RouteKind::Sandbox,
        RouteKind::Locator,
    ];

    pub fn label(self) -> &'static str {
        match self {
            RouteKind::Unmarked => "unmarked",
            RouteKind::Page => "page",
            RouteKind::Data => "data",
            RouteKind::Asset => "asset",
            RouteKind::Image => "image",
            RouteKind::Account => "account",
            RouteKind::Forms => "forms",
            RouteKind::Webhook => "webhook",
            RouteKind::Preview => "preview",
            RouteKind::Seo => "seo",
            RouteKind::Health => "health",
            RouteKind::Sandbox => "sandbox",
            RouteKind::Locator => "locator",
        }
    }
}

/// `router` with every request it takes marked as `kind`'s.
pub fn marked<S: Clone + Send + Sync + 'static>(router: Router<S>, kind: RouteKind) -> Router<S> {
    router.layer(axum::middleware::from_fn_with_state(kind, mark))
}

async fn mark(State(kind): State<RouteKind>, request: Request, next: Next) -> Response {
    if let Some(Answering(slot)) = request.extensions().get::<Answering>() {
        slot.store(kind as u8, Ordering::Relaxed);
    }
    next.run(request).await
}

/// Where the router that takes a request says which it is.
#[derive(Clone)]
struct Answering(Arc<AtomicU8>);

/// The outermost layer: counts and times every request (to its answer's
/// headers), under the router that took it.
pub async fn record(mut request: Request, next: Next) -> Response {
    let started = Instant::now();
    let slot = Arc::new(AtomicU8::new(RouteKind::Unmarked as u8));
    request.extensions_mut().insert(Answering(slot.clone()));
    let response = next.run(request).await;
    let marked = slot.load(Ordering::Relaxed);
    let kind = RouteKind::ALL.get(usize::from(marked)).copied().unwrap_or(RouteKind::Unmarked).label();
    // Static labels on the hot path: no allocation per answer for them.
    let status = status_label(response.status());
    metrics::counter!("http_requests_total", "kind" => kind, "status" => status).increment(1);
    metrics::histogram!("http_request_duration_seconds", "kind" => kind, "status" => status).record(started.elapsed().as_secs_f64());
    response
}

/// The status as a label: the codes this server answers by name, others by class.
fn status_label(status: StatusCode) -> &'static str {
    match status.as_u16() {
        200 => "200",
        201 => "201",
        204 => "204",
        301 => "301",
        302 => "302",
        303 => "303",
        304 => "304",
        307 => "307",
        308 => "308",
        400 => "400",
        401 => "401",
        403 => "403",
        404 => "404",
        405 => "405",
        408 => "408",
        409 => "409",
        413 => "413",
        415 => "415",
        422 => "422",
        429 => "429",
        500 => "500",
        502 => "502",
        503 => "503",
        504 => "504",
        100..=199 => "1xx",
        200..=299 => "2xx",
        300..=399 => "3xx",
        400..=499 => "4xx",
        _ => "5xx",
    }
}

#[cfg(test)]
mod tests {
    use super::RouteKind;

    #[test]
    fn every_kind_is_found_again_by_its_number() {
        for kind in RouteKind::ALL {
            assert_eq!(RouteKind::ALL[kind as usize], kind);
        }
    }
}
