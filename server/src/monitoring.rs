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
//!   state (render queue, page cache bytes, outbox backlog) are read when
//!   scraped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::get;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

use crate::content::ContentQuery;
use crate::state::AppState;
use contract::Lang;

/// Histogram buckets, in seconds: from a page kept in memory (well under a
/// millisecond) to a render at its budget or an operator call at its limit.
const BUCKETS: &[f64] = &[0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// The process's recorder (one per process: tests start many servers in one).
fn handle() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let handle = PrometheusBuilder::new()
            .set_buckets(BUCKETS)
            .expect("buckets are not empty")
            .install_recorder()
            .expect("no other metrics recorder is installed");
        describe();
        handle
    })
}

/// Installs the recorder: what is recorded before this is lost.
pub fn install() {
    handle();
}

fn describe() {
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_counter!("http_requests_total", "Requests answered, by the router that answered (kind) and status");
    describe_histogram!("http_request_duration_seconds", Unit::Seconds, "Time to answer a request (to its headers), by the router that answered (kind) and status");
    describe_histogram!("render_duration_seconds", Unit::Seconds, "Server renders in the JS engines, by outcome");
    describe_gauge!("render_queue_depth", "Renders queued or running");
    describe_counter!("page_cache_lookups_total", "Page cache lookups, by result (hit, miss, stale, too_stale: a copy for earlier content served, or past PAGE_STALE_MAX_SECS)");
    describe_counter!("page_fast_hits_total", "Anonymous pages answered whole from memory (served stale included)");
    describe_histogram!("page_stale_age_seconds", Unit::Seconds, "Pages served for earlier content while their new page renders: one per answer, how long since the newer content was first asked for");
    describe_counter!("page_refreshes_total", "Background renders of pages whose content changed, by outcome (rendered, coalesced, dropped)");
    describe_gauge!("page_refreshes_waiting", "Background renders waiting for an engine");
    describe_gauge!("page_cache_bytes", Unit::Bytes, "Bytes held by the page cache");
    describe_counter!("content_fetches_total", "Content fetched from its source, by model and outcome");
    describe_gauge!("content_stale_seconds", Unit::Seconds, "Age of the copy served because the source failed (0 once it answers), by model");
    describe_counter!("content_invalidations_total", "Content invalidations, by source (webhook, broadcast, catch-up)");
    describe_histogram!("upstream_request_duration_seconds", Unit::Seconds, "Calls to the CMS and the operator API, by upstream and outcome");
    describe_counter!("otp_requests_total", "One-time code requests, by purpose and outcome");
    describe_counter!("otp_validations_total", "One-time code checks, by purpose and outcome");
    describe_counter!("purchases_total", "Bundle purchases, by outcome");
    describe_gauge!("operator_circuit_open", "The operator API's circuit breaker: 0 closed, 0.5 half open (probing), 1 open");
    describe_gauge!("operator_calls_in_flight", "Operator API calls under way (at most DIGITAL_API_MAX_REQUESTS)");
    describe_counter!("operator_calls_refused_total", "Operator API calls failed at once without being sent, by reason (circuit-open, bulkhead-full)");
    describe_counter!("rate_limit_rejections_total", "Requests refused by a rate limit, by budget");
    describe_counter!("forms_accepted_total", "Form submissions kept, by form");
    describe_gauge!("forms_outbox_pending", "Form submissions waiting for delivery to the CMS");
}

/// Times `call` into the upstream histogram, labelled by `outcome` of its result.
pub async fn time_upstream<T, E>(upstream: &'static str, call: impl Future<Output = Result<T, E>>, outcome: impl Fn(&Result<T, E>) -> &'static str) -> Result<T, E> {
    let started = Instant::now();
    let result = call.await;
    metrics::histogram!("upstream_request_duration_seconds", "upstream" => upstream, "outcome" => outcome(&result)).record(started.elapsed().as_secs_f64());
    result
}

/// Ready or draining: set once, on SIGTERM.
#[derive(Clone, Default)]
pub struct Drain {
    draining: Arc<AtomicBool>,
}

impl Drain {
    pub fn start(&self) {
        self.draining.store(true, Ordering::Release);
    }

    pub fn draining(&self) -> bool {
        self.draining.load(Ordering::Acquire)
    }
}

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
    let forms = match state.forms.backlog().await {
        Ok(Some(backlog)) => serde_json::json!(backlog),
        Ok(None) => serde_json::json!({ "delivery": "off: no CMS_URL; read them with the export" }),
        Err(error) => {
            tracing::error!(%error, "outbox unreadable");
            serde_json::json!({ "error": "outbox unreadable" })
        }
    };
    no_store(
        Json(serde_json::json!({
            "status": "ok",
            "forms": forms,
            "pages": { "fastHits": state.pages.fast.hits(), "prerendered": state.pages.prerender.last(), "personalRenders": state.pages.personal_renders.running() },
            "operator": { "circuit": state.account.operator.circuit(), "inFlight": state.account.operator.in_flight() },
            "images": { "decoded": state.pages.images.decoded() },
            "memory": crate::memory::held(),
        }))
        .into_response(),
    )
}

/// The content `/readyz` reads: the frame every page has.
const READY_CONTENT: &str = "sidebar";

/// `GET /readyz`: 200 `ready`, or 503 with what is not (`draining`,
/// `content`, `redis`) as JSON. The engines started before the server
/// took its first connection, so an answer at all says they did.
async fn ready(State(state): State<AppState>) -> Response {
    let mut failing = serde_json::Map::new();
    if state.infra.drain.draining() {
        failing.insert("draining".into(), "shutting down".into());
    }
    if let Err(error) = state.content.store.get(&ContentQuery::single(READY_CONTENT), Lang::En).await {
        failing.insert("content".into(), error.to_string().into());
    }
    if let Some(redis) = &state.infra.redis
        && let Err(error) = redis.ping().await
    {
        failing.insert("redis".into(), error.to_string().into());
    }
    let response = if failing.is_empty() {
        "ready".into_response()
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, Json(serde_json::json!({ "ready": false, "failing": failing }))).into_response()
    };
    no_store(response)
}

/// The private listener's router: `GET /metrics`.
pub fn metrics_router(state: AppState) -> Router {
    Router::new().route("/metrics", get(metrics)).with_state(state)
}

async fn metrics(State(state): State<AppState>) -> Response {
    metrics::gauge!("render_queue_depth").set(state.pages.renderer.in_flight() as f64);
    metrics::gauge!("page_cache_bytes").set(state.pages.cache.bytes() as f64);
    if let Some(held) = crate::memory::held() {
        metrics::gauge!("memory_allocated_bytes").set(held.allocated_bytes as f64);
        metrics::gauge!("memory_resident_bytes").set(held.resident_bytes as f64);
    }
    metrics::gauge!("operator_circuit_open").set(match state.account.operator.circuit() {
        crate::account::breaker::Circuit::Closed => 0.0,
        crate::account::breaker::Circuit::HalfOpen => 0.5,
        crate::account::breaker::Circuit::Open => 1.0,
    });
    metrics::gauge!("operator_calls_in_flight").set(state.account.operator.in_flight() as f64);
    if let Ok(Some(backlog)) = state.forms.backlog().await {
        metrics::gauge!("forms_outbox_pending").set(backlog.pending as f64);
    }
    let handle = handle();
    handle.run_upkeep();
    let mut response = handle.render().into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"));
    response
}

/// Serves `GET /metrics` on `listener` until `stop` completes.
pub async fn serve_metrics(listener: tokio::net::TcpListener, state: AppState, stop: impl Future<Output = ()> + Send + 'static) {
    let address = listener.local_addr().map(|a| a.to_string()).unwrap_or_default();
    tracing::info!(%address, "metrics at /metrics");
    if let Err(error) = axum::serve(listener, metrics_router(state)).with_graceful_shutdown(stop).await {
        tracing::error!(%error, "metrics listener failed");
    }
}

/// Keeps the histograms' buckets drained between scrapes.
pub async fn upkeep_forever() {
    let mut every = tokio::time::interval(Duration::from_secs(10));
    loop {
        every.tick().await;
        handle().run_upkeep();
    }
}
