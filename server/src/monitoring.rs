//! What the server tells its operators, besides logs:
//!
//! - `GET /healthz`: alive (with `?detail`, the outbox and page counters);
//! - `GET /readyz`: ready for traffic: the engines started, content
//!   readable, Redis answering when `REDIS_URL` is set, and not draining
//!   (after SIGTERM it answers 503 while requests under way finish);
//! - `GET /metrics` in Prometheus text format, on its own listener
//!   (`METRICS_ADDR`, loopback by default) so it is never public. Counters
//!   and histograms are recorded where things happen, with the `metrics`
//!   macros (the request metrics by `web::request_metrics`); gauges of
//!   state (render queue, page cache bytes, what every cache holds, the
//!   outbox backlog) are read when scraped.
//!
//! None of them waits for the blocking pool or SQLite: a flood of work
//! there (the crawl once parked hundreds of threads on disk writes)
//! must not make a server that answers look dead. What they show of the
//! outbox is what it last read ([`crate::forms::Forms::backlog`]); the
//! content `/readyz` needs is taken from memory when it is held.

use axum::Router;
use axum::extract::{Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::get;
use serde::Serialize;

use crate::content::ContentQuery;
use crate::forms::Seen;
use crate::state::AppState;
use contract::Lang;

pub fn router() -> Router<AppState> {
    Router::new().route("/healthz", get(health)).route("/readyz", get(ready))
}

#[derive(serde::Deserialize)]
struct HealthQuery {
    detail: Option<String>,
}

fn no_store(mut response: Response) -> Response {
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// `GET /healthz`: `ok` while the process serves. With `?detail`, JSON that
/// adds the form deliveries still waiting for the CMS (`forms.pending`, the
/// oldest one's age, the most tries of one), the pages answered by the fast
/// path (`pages.fastHits`), the last pre-render pass
/// (`pages.prerendered`: pages, rendered, failed, secs, passes; null before
/// the first ends), the renders for one visitor under way
/// (`pages.personalRenders`, at most half the engines), and the operator API's circuit breaker
/// (`operator.circuit`: closed, open, half-open) and calls under way, the
/// originals the image endpoint decoded (`images.decoded`), and
/// what the allocator holds (`memory`: `allocatedBytes`, `residentBytes`;
/// see `memory`).
async fn health(State(state): State<AppState>, Query(query): Query<HealthQuery>) -> Response {
    if query.detail.is_none() {
        return "ok".into_response();
    }
    let forms = match state.forms.backlog() {
        Some(Seen::Backlog(backlog)) => Outbox::Backlog(backlog),
        None => Outbox::Off { delivery: "off: no CMS_URL; read them with the export" },
        Some(Seen::Unreadable(_)) => Outbox::Unreadable { error: "outbox unreadable" },
        Some(Seen::NotYetRead) => Outbox::Off { delivery: "starting: the outbox is not read yet" },
    };
    let pages = PagesHealth {
        fast_hits: state.pages.fast.hits(),
        prerendered: state.pages.prerender.last(),
        personal_renders: state.pages.personal_renders.running(),
    };
    let operator =
        OperatorHealth { circuit: state.account.operator.circuit(), in_flight: state.account.operator.in_flight() };
    let health = Health {
        status: "ok",
        forms,
        pages,
        operator,
        images: ImagesHealth { decoded: state.pages.images.decoded() },
        memory: crate::infra::memory::held(),
    };
    no_store(Json(health).into_response())
}

/// `/healthz?detail`'s body.
#[derive(Serialize)]
struct Health {
    status: &'static str,
    forms: Outbox,
    pages: PagesHealth,
    operator: OperatorHealth,
    images: ImagesHealth,
    memory: Option<crate::infra::memory::Held>,
}

/// The forms' outbox: its backlog, or why there is none to show.
#[derive(Serialize)]
#[serde(untagged)]
enum Outbox {
    Backlog(crate::forms::Backlog),
    Off { delivery: &'static str },
    Unreadable { error: &'static str },
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PagesHealth {
    fast_hits: u64,
    prerendered: Option<crate::pages::passes::Pass>,
    personal_renders: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OperatorHealth {
    circuit: crate::account::breaker::Circuit,
    in_flight: usize,
}

#[derive(Serialize)]
struct ImagesHealth {
    decoded: u64,
}

/// The content `/readyz` reads: the frame every page has.
const READY_CONTENT: &str = "sidebar";

/// `GET /readyz`: 200 `ready`, or 503 with what is not (`draining`,
/// `content`, `redis`) as JSON. The engines started before the server
/// took its first connection, so an answer at all says they did.
async fn ready(State(state): State<AppState>) -> Response {
    let mut failing = Failing::default();
    if state.infra.drain.draining() {
        failing.draining = Some("shutting down");
    }
    // Held in memory (fresh or not) is readable, without waiting for a
    // read, the disk or the blocking pool; else it is read now.
    let frame = ContentQuery::single(READY_CONTENT);
    if state.content.store.cache().peek(&frame, Lang::En).is_none()
        && let Err(error) = state.content.store.get(&frame, Lang::En).await
    {
        failing.content = Some(error.to_string());
    }
    if let Some(redis) = &state.infra.redis
        && let Err(error) = redis.ping().await
    {
        failing.redis = Some(error.to_string());
    }
    let response = if failing == Failing::default() {
        "ready".into_response()
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, Json(NotReady { ready: false, failing })).into_response()
    };
    no_store(response)
}

/// `/readyz`'s body when it is not ready.
#[derive(Serialize)]
struct NotReady {
    ready: bool,
    failing: Failing,
}

/// What is not ready, and why: only what fails is named.
#[derive(Default, PartialEq, Serialize)]
struct Failing {
    #[serde(skip_serializing_if = "Option::is_none")]
    draining: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    content: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    redis: Option<String>,
}

/// The private listener's router: `GET /metrics`.
pub fn metrics_router(state: AppState) -> Router {
    Router::new().route("/metrics", get(metrics)).with_state(state)
}

async fn metrics(State(state): State<AppState>) -> Response {
    metrics::gauge!("render_queue_depth").set(state.pages.renderer.in_flight() as f64);
    for (reason, waiting) in [
        ("address", state.pages.renders.waiting()),
        ("session", state.pages.personal_renders.waiting()),
        ("engine", state.pages.renderer.queued()),
    ] {
        metrics::gauge!("renders_waiting", "reason" => reason).set(waiting as f64);
    }
    metrics::gauge!("page_cache_bytes").set(state.pages.cache.bytes() as f64);
    if let Some(disk) = state.pages.cache.disk() {
        let (bytes, pages) = disk.size();
        metrics::gauge!("cache_bytes", "cache" => "pages_disk").set(bytes as f64);
        metrics::gauge!("cache_entries", "cache" => "pages_disk").set(pages as f64);
    }
    if let Some(held) = crate::infra::memory::held() {
        metrics::gauge!("memory_allocated_bytes").set(held.allocated_bytes as f64);
        metrics::gauge!("memory_resident_bytes").set(held.resident_bytes as f64);
    }
    metrics::gauge!("operator_circuit_open").set(match state.account.operator.circuit() {
        crate::account::breaker::Circuit::Closed => 0.0,
        crate::account::breaker::Circuit::HalfOpen => 0.5,
        crate::account::breaker::Circuit::Open => 1.0,
    });
    metrics::gauge!("operator_calls_in_flight").set(state.account.operator.in_flight() as f64);
    if let Some(Seen::Backlog(backlog)) = state.forms.backlog() {
        metrics::gauge!("forms_outbox_pending").set(backlog.pending as f64);
    }
    state.content.store.cache().record_held();
    state.pages.images.record_held();
    let (bytes, pages) = state.content.search.held();
    crate::infra::cache_metrics::held("search", bytes, pages);
    let handle = crate::telemetry::handle();
    handle.run_upkeep();
    let mut response = handle.render().into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"));
    response
}

/// Serves `GET /metrics` on `listener` until `stop` completes.
pub async fn serve_metrics(
    listener: tokio::net::TcpListener,
    state: AppState,
    stop: impl Future<Output = ()> + Send + 'static,
) {
    let address = listener.local_addr().map(|a| a.to_string()).unwrap_or_default();
    tracing::info!(%address, "metrics at /metrics");
    if let Err(error) = axum::serve(listener, metrics_router(state)).with_graceful_shutdown(stop).await {
        tracing::error!(%error, "metrics listener failed");
    }
}
