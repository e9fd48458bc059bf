//! Logs through `tracing`; `RUST_LOG` filters (default: info). Metrics
//! through the `metrics` macros, where things happen, into the process's
//! Prometheus recorder ([`install`]), which `monitoring` renders at
//! `GET /metrics`; calls to the CMS and the operator API are timed here
//! ([`time_upstream`]).

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tracing_subscriber::EnvFilter;

use crate::config::Config;
use crate::config::LogFormat;

pub fn init(config: &Config) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,tower_http=info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    match config.operations.log_format {
        LogFormat::Json => builder.json().init(),
        LogFormat::Text => builder.init(),
    }
}

/// Histogram buckets, in seconds: from a page kept in memory (well under a
/// millisecond) to a render at its budget or an operator call at its limit.
const BUCKETS: &[f64] = &[0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// The process's recorder (one per process: tests start many servers in one).
pub(crate) fn handle() -> &'static PrometheusHandle {
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
    describe_histogram!(
        "http_request_duration_seconds",
        Unit::Seconds,
        "Time to answer a request (to its headers), by the router that answered (kind) and status"
    );
    describe_histogram!("render_duration_seconds", Unit::Seconds, "Server renders in the JS engines, by outcome");
    describe_gauge!("render_queue_depth", "Renders queued or running");
    describe_gauge!(
        "renders_waiting",
        "Renders waiting, by reason (address, session: behind their client's own; engine: for an engine)"
    );
    describe_counter!(
        "renders_refused_total",
        "Renders refused, by reason (client-queue-full, client-queue-full-unread: 429; client-wait, engine-queue-full, engine-wait: 503)"
    );
    describe_counter!(
        "page_cache_lookups_total",
        "Page cache lookups, by result (hit, miss, stale, too_stale: a copy for earlier content served, or past PAGE_STALE_MAX_SECS)"
    );
    describe_counter!("page_fast_hits_total", "Anonymous pages answered whole from memory (served stale included)");
    describe_histogram!(
        "page_stale_age_seconds",
        Unit::Seconds,
        "Pages served for earlier content while their new page renders: one per answer, how long since the newer content was first asked for"
    );
    describe_counter!(
        "page_refreshes_total",
        "Background renders of pages whose content changed, by outcome (rendered, coalesced, dropped)"
    );
    describe_gauge!("page_refreshes_waiting", "Background renders waiting for an engine");
    describe_gauge!("page_cache_bytes", Unit::Bytes, "Bytes held by the page cache");
    describe_gauge!(
        "cache_bytes",
        Unit::Bytes,
        "Bytes a cache holds, by cache (content, content_disk, image_disk, places, search)"
    );
    describe_gauge!("cache_entries", "Entries a cache holds, by cache");
    describe_counter!("cache_hits_total", "Lookups a cache answered, by cache");
    describe_counter!("cache_misses_total", "Lookups a cache could not answer, by cache");
    describe_counter!("cache_evictions_total", "Entries pushed out of a full cache to make room, by cache");
    describe_counter!(
        "cache_writes_dropped_total",
        "Changes to a disk cache dropped because its writer's queue was full, by cache"
    );
    describe_counter!("content_fetches_total", "Content fetched from its source, by model and outcome");
    describe_gauge!(
        "content_stale_seconds",
        Unit::Seconds,
        "Age of the copy served because the source failed (0 once it answers), by model"
    );
    describe_counter!("content_invalidations_total", "Content invalidations, by source (webhook, broadcast, catch-up)");
    describe_histogram!(
        "upstream_request_duration_seconds",
        Unit::Seconds,
        "Calls to the CMS and the operator API, by upstream and outcome"
    );
    describe_counter!("otp_requests_total", "One-time code requests, by purpose and outcome");
    describe_counter!("otp_validations_total", "One-time code checks, by purpose and outcome");
    describe_counter!("purchases_total", "Bundle purchases, by outcome");
    describe_gauge!(
        "operator_circuit_open",
        "The operator API's circuit breaker: 0 closed, 0.5 half open (probing), 1 open"
    );
    describe_gauge!("operator_calls_in_flight", "Operator API calls under way (at most DIGITAL_API_MAX_REQUESTS)");
    describe_counter!(
        "operator_calls_refused_total",
        "Operator API calls failed at once without being sent, by reason (circuit-open, bulkhead-full)"
    );
    describe_counter!("rate_limit_rejections_total", "Requests refused by a rate limit, by budget");
    describe_counter!("forms_accepted_total", "Form submissions kept, by form");
    describe_gauge!("forms_outbox_pending", "Form submissions waiting for delivery to the CMS");
}

/// Times `call` into the upstream histogram, labelled by `outcome` of its result.
pub async fn time_upstream<T, E>(
    upstream: &'static str,
    call: impl Future<Output = Result<T, E>>,
    outcome: impl Fn(&Result<T, E>) -> &'static str,
) -> Result<T, E> {
    let started = Instant::now();
    let result = call.await;
    metrics::histogram!("upstream_request_duration_seconds", "upstream" => upstream, "outcome" => outcome(&result))
        .record(started.elapsed().as_secs_f64());
    result
}

/// Keeps the histograms' buckets drained between scrapes.
pub async fn upkeep_forever() {
    let mut every = tokio::time::interval(Duration::from_secs(10));
    loop {
        every.tick().await;
        handle().run_upkeep();
    }
}
