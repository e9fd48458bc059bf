//! The request metrics, `http_requests_total` and
//! `http_request_duration_seconds`, labelled by the router that answered
//! (`kind`) and the status. [`record`] is the outermost layer of every
//! router; each marks the requests it takes ([`marked`]) on the way in, so
//! that an answer made outside the handler (a panic caught, a body deadline
//! passed) still counts under the router that took the request. The pages'
//! fast path answers in front of it and counts its answers itself
//! ([`count`]), so that a page answered from memory runs no layer.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

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
    pub const ALL: [RouteKind; 13] = [
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
/// headers), under the router that took it. The pages' fast path, in front
/// of it, counts its own answers ([`count`]).
pub async fn record(mut request: Request, next: Next) -> Response {
    let started = Instant::now();
    let slot = Arc::new(AtomicU8::new(RouteKind::Unmarked as u8));
    request.extensions_mut().insert(Answering(slot.clone()));
    let response = next.run(request).await;
    let marked = slot.load(Ordering::Relaxed);
    let kind = RouteKind::ALL.get(usize::from(marked)).copied().unwrap_or(RouteKind::Unmarked);
    count(kind, response.status(), started.elapsed());
    response
}

/// One answer of `kind` with `status`, `took` to its headers: two atomic
/// additions, the series' handles taken once (a registry look-up, with its
/// labels' key made and hashed, cost more than the rest of a page answered
/// from memory).
pub fn count(kind: RouteKind, status: StatusCode, took: Duration) {
    let status = status_index(status);
    let series = SERIES[kind as usize][status].get_or_init(|| {
        // Installed before anything is served (`startup::run`); here too, so
        // that handles taken by a router served without it are not the
        // no-op ones for good.
        crate::telemetry::install();
        let (kind, status) = (kind.label(), STATUSES[status].1);
        Series {
            requests: metrics::counter!("http_requests_total", "kind" => kind, "status" => status),
            duration: metrics::histogram!("http_request_duration_seconds", "kind" => kind, "status" => status),
        }
    });
    series.requests.increment(1);
    series.duration.record(took.as_secs_f64());
}

/// The handles of one kind's and status's series.
struct Series {
    requests: metrics::Counter,
    duration: metrics::Histogram,
}

/// Every kind's series by status, taken at first use.
static SERIES: [[OnceLock<Series>; STATUSES.len()]; RouteKind::ALL.len()] =
    [const { [const { OnceLock::new() }; STATUSES.len()] }; RouteKind::ALL.len()];

/// The status labels: the codes this server answers by name, then the
/// others by class (their first digit).
const STATUSES: [(u16, &str); 29] = [
    (200, "200"),
    (201, "201"),
    (204, "204"),
    (301, "301"),
    (302, "302"),
    (303, "303"),
    (304, "304"),
    (307, "307"),
    (308, "308"),
    (400, "400"),
    (401, "401"),
    (403, "403"),
    (404, "404"),
    (405, "405"),
    (408, "408"),
    (409, "409"),
    (413, "413"),
    (415, "415"),
    (422, "422"),
    (429, "429"),
    (500, "500"),
    (502, "502"),
    (503, "503"),
    (504, "504"),
    (1, "1xx"),
    (2, "2xx"),
    (3, "3xx"),
    (4, "4xx"),
    (5, "5xx"),
];

/// Where `status` is labelled in [`STATUSES`]: by name, else by class.
fn status_index(status: StatusCode) -> usize {
    usize::from(STATUS_INDEX[usize::from(status.as_u16())])
}

/// [`status_index`] of every code a status can have (100 to 999), worked
/// out from [`STATUSES`] when the server is compiled: an answer's label is
/// one look-up, not a search of the table.
static STATUS_INDEX: [u8; 1000] = {
    let mut index = [(STATUSES.len() - 1) as u8; 1000];
    let mut code = 100;
    while code < 1000 {
        index[code] = label_of(code as u16) as u8;
        code += 1;
    }
    index
};

/// The position in [`STATUSES`] of `code` by name, else of its class.
const fn label_of(code: u16) -> usize {
    let class = if code / 100 > 5 { 5 } else { code / 100 };
    let (mut position, mut by_class) = (0, STATUSES.len() - 1);
    while position < STATUSES.len() {
        if STATUSES[position].0 == code {
            return position;
        }
        if STATUSES[position].0 == class {
            by_class = position;
        }
        position += 1;
    }
    by_class
}

#[cfg(test)]
mod tests {
    use super::{RouteKind, STATUSES, status_index};

    #[test]
    fn statuses_by_name_else_by_class() {
        use axum::http::StatusCode;
        let label = |code| STATUSES[status_index(StatusCode::from_u16(code).unwrap())].1;
        assert_eq!(label(200), "200");
        assert_eq!(label(504), "504");
        assert_eq!(label(101), "1xx");
        assert_eq!(label(206), "2xx");
        assert_eq!(label(418), "4xx");
        assert_eq!(label(599), "5xx");
    }

    /// The index worked out at compile time is the table searched: by name, else by class.
    #[test]
    fn every_status_is_labelled_as_the_table_says() {
        for code in 100..1000u16 {
            let searched = STATUSES
                .iter()
                .position(|(named, _)| *named == code)
                .or_else(|| STATUSES.iter().position(|(class, _)| *class == (code / 100).clamp(1, 5)));
            assert_eq!(Some(status_index(axum::http::StatusCode::from_u16(code).unwrap())), searched, "{code}");
        }
    }

    #[test]
    fn every_kind_is_found_again_by_its_number() {
        for kind in RouteKind::ALL {
            assert_eq!(RouteKind::ALL[kind as usize], kind);
        }
    }
}
