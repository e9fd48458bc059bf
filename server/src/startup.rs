//! Serving: the operator API chosen (`DIGITAL_API_URL` or the stand-in),
//! the state opened, the background tasks started (session and limit
//! sweeps, form delivery, the invalidation broadcast, pre-rendering,
//! upkeep, the metrics listener), then connections served until SIGTERM,
//! and drained.

use std::future::Future;
use std::process::ExitCode;

use tokio::net::TcpListener;

use crate::app::{StandIn, app_with_stand_in};
use crate::app_build::AppBuild;
use crate::config::Config;
use crate::error::StartError;
use crate::infra::memory;
use crate::state::AppState;
use crate::{connections, monitoring, pages, telemetry};

/// `site`: serves on `HOST`:`PORT` until SIGTERM or Ctrl-C ([`run`]); the
/// exit code says how it ended.
pub async fn serve(config: Config, build: AppBuild, stand_in: Option<StandIn>) -> ExitCode {
    let listener = match TcpListener::bind((config.host.as_str(), config.port)).await {
        Ok(listener) => listener,
        Err(error) => {
            tracing::error!(host = %config.host, port = config.port, %error, "cannot listen");
            return ExitCode::FAILURE;
        }
    };
    match run(listener, config, build, stand_in, shutdown_signal()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => error.exit(),
    }
}

/// Serves until `shutdown` completes, then drains: `/readyz` answers 503,
/// new connections are taken for `DRAIN_DELAY_SECS` more, then none, and
/// requests under way get `SHUTDOWN_GRACE_SECS` to finish. The operator API is `DIGITAL_API_URL`,
/// or else `stand_in`, mounted here. `GET /metrics` is served on
/// `METRICS_ADDR` alongside.
pub async fn run(
    listener: TcpListener,
    config: Config,
    build: AppBuild,
    stand_in: Option<StandIn>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), StartError> {
    let address = listener.local_addr()?;
    memory::return_freed_pages();
    let stand_in = stand_in.filter(|_| config.operator.url.is_none());
    let operator_base = match (&config.operator.url, stand_in) {
        (Some(url), _) => url.to_string(),
        (None, _) if config.production && !config.enable_sandbox => {
            return Err(StartError::Required {
                setting: "DIGITAL_API_URL",
                why: "in production (or set ENABLE_SANDBOX)",
            });
        }
        (None, None) => {
            return Err(StartError::Required {
                setting: "DIGITAL_API_URL",
                why: "here: this server has no stand-in operator API",
            });
        }
        (None, Some(StandIn { path, api, .. })) => {
            let host = if address.ip().is_unspecified() { "127.0.0.1".to_owned() } else { address.ip().to_string() };
            let host = if host.contains(':') { format!("[{host}]") } else { host };
            format!("http://{host}:{}{path}{api}", address.port())
        }
    };
    telemetry::install();
    // A metrics address in use (another instance on this host) costs the
    // metrics, not the site.
    let metrics_listener = match config.operations.metrics_addr {
        None => None,
        Some(address) => TcpListener::bind(address)
            .await
            .inspect_err(|error| tracing::error!(%address, %error, "METRICS_ADDR cannot be listened on: no /metrics"))
            .ok(),
    };
    let state = AppState::new(config, build, &operator_base)?;
    state.forms.migrate().await?;
    let stand_in = match stand_in {
        Some(stand_in) => Some((stand_in, (stand_in.open)(&state.config)?)),
        None => None,
    };
    tokio::spawn(state.account.sessions.clone().sweep_forever());
    tokio::spawn(state.account.limits.clone().sweep_forever());
    tokio::spawn(state.forms.clone().deliver_forever());
    if let Some(broadcast) = state.content.broadcast.clone() {
        // Read before any content is fetched (pre-rendering, the first
        // request): the version that content is checked against.
        let seen = broadcast.version_at_start().await;
        tokio::spawn(broadcast.listen_forever(state.content.invalidation.clone(), seen));
    }
    if state.config.pages.prerender && state.config.pages.cache_bytes > 0 {
        tokio::spawn(pages::prerender::run_forever(state.clone()));
    }
    tokio::spawn(telemetry::upkeep_forever());
    let (stopped, metrics_stop) = tokio::sync::watch::channel(false);
    if let Some(metrics_listener) = metrics_listener {
        let mut metrics_stop = metrics_stop.clone();
        tokio::spawn(monitoring::serve_metrics(metrics_listener, state.clone(), async move {
            let _ = metrics_stop.wait_for(|stopped| *stopped).await;
        }));
    }
    tracing::info!(%address, site_url = %state.config.site_url, operator = %operator_base, redis = state.infra.redis.is_some(), "serving");
    let limits = state.config.connections.limits();
    let grace = state.config.operations.shutdown_grace;
    let delay = state.config.operations.drain_delay;
    let drain = state.infra.drain.clone();
    let mut draining = metrics_stop;
    let shutdown = async move {
        shutdown.await;
        drain.start();
        tracing::info!(
            delay_secs = delay.as_secs(),
            grace_secs = grace.as_secs(),
            "draining: not ready; then finishing requests under way"
        );
        tokio::time::sleep(delay).await;
        let _ = stopped.send(true);
    };
    let serving = connections::serve(listener, app_with_stand_in(state, stand_in), limits, shutdown);
    let grace_over = async move {
        let _ = draining.wait_for(|stopped| *stopped).await;
        tokio::time::sleep(grace).await;
    };
    tokio::select! {
        () = serving => tracing::info!("stopped"),
        () = grace_over => tracing::warn!(grace_secs = grace.as_secs(), "stopped with requests still under way: the grace was over"),
    }
    Ok(())
}

/// Completes on SIGTERM or Ctrl-C.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutdown signal received");
}
