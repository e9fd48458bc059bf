//! The site's HTTP server.
//!
//! - [`config`]: typed configuration from flags and environment.
//! - `manifest`: the route table and asset manifest generated from `app/`.
//! - `pages`: every page (server-rendered HTML) and its data (`/_data/…`).
//! - `content`: the [`content::ContentSource`] trait and the embedded source.
//! - `assets`: hashed and static files, precompressed.
//! - `images`: the image endpoint (`/img/…`): the CMS's photos resized to
//!   fixed widths, WebP by `Accept`, kept on disk.
//! - `forms`: the business community form and the foundation application,
//!   kept in SQLite before they are answered, exported for staff.
//! - `connections`: accepting connections with time limits and caps.
//! - [`StandIn`]: a stand-in operator API this server mounts when
//!   `DIGITAL_API_URL` is unset (the `site` binary's sandbox).
//! - `security`: headers every response carries.
//! - [`shared`]: Redis, shared by every instance behind one address
//!   (`REDIS_URL`): sessions, rate limits, the outbox lease, invalidation.
//! - `monitoring`: `/healthz`, `/readyz`, `/metrics` and draining.
//! - `error`: one error type mapped to HTTP once.
//! - `bounded_dir`: the cache directories bounded in bytes (content's last
//!   good answers, resized photos) that instances sharing `DATA_DIR` share.
//! - `sqlite`: the SQLite files in `DATA_DIR`, opened so that instances
//!   sharing the directory wait for each other's locks.
//! - `single_flight`: loads made once per key for every waiter, as their
//!   own tasks (the content cache's, the account cache's).
//! - `locks`: one way to take a lock a panic left poisoned.
//! - [`telemetry`]: `tracing` set-up.
//! - `preview`: the CMS's preview of drafts (`/api/preview`, the cookie).
//! - `web`: the site's HTTP toolkit, what every feature's handlers share:
//!   the visitor's language, the client's address, the same-origin guard,
//!   the one API body, form posts and flash notices, request metrics.
//! - `twins` (tests only): the rules the app runs too, checked against the
//!   cases in `tests/twins/` that the app's tests read.

pub mod account;
pub mod config;
pub mod content;
pub mod forms;
pub mod shared;
pub mod telemetry;

mod assets;
mod bounded_dir;
pub mod connections;
mod error;
mod images;
mod keys;
mod locks;
mod manifest;
mod memory;
mod monitoring;
mod pages;
mod preview;
mod render_bench;
pub mod search;
mod security;
pub mod seo;
mod single_flight;
mod slug;
mod sqlite;
#[cfg(test)]
mod twins;
mod web;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use tokio::net::TcpListener;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::trace::TraceLayer;

pub use config::Config;
/// The content model and page data, for tools and tests.
pub use contract;
pub use error::AppError;
pub use render_bench::render_bench;

/// What `build.rs` embeds in the binary: the app's bundles and manifests, the
/// public files and the default content.
#[derive(Clone, Copy)]
pub struct AppBundle {
    pub server_js: &'static str,
    pub assets_json: &'static str,
    pub routes_json: &'static str,
    /// Paths relative to the public root (`assets/…`, `static/…`), with `.br`/`.gz` twins.
    pub public_files: &'static [(&'static str, &'static [u8])],
    /// Paths relative to `content/`.
    pub content_files: &'static [(&'static str, &'static [u8])],
}

/// Shared by every handler: one allocation, so that the handlers and
/// layers a request passes through each take it for one reference count.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// What [`AppState`] holds.
pub struct Shared {
    pub config: Arc<Config>,
    pub routes: Arc<manifest::RouteTable>,
    pub assets: Arc<manifest::AssetManifest>,
    pub files: Arc<assets::PublicFiles>,
    /// The image endpoint.
    pub images: images::Images,
    /// `Content-Security-Policy`: images from the site and the CMS's media origin.
    pub csp: axum::http::HeaderValue,
    pub content: content::Content,
    /// The CMS's preview of drafts (`PREVIEW_SECRET` with `CMS_URL`).
    pub preview: Option<preview::Preview>,
    /// Item ids answered 404 from the collections' indexes, unasked.
    pub items: content::ItemGate,
    /// The sitemap, built once per version of the indexes.
    pub sitemap: seo::Sitemap,
    pub pages: pages::PageCache,
    /// Whole answers of anonymous pages, served before anything else.
    pub fast: pages::FastPages,
    /// Renders every page in the background (`PRERENDER`).
    pub prerender: pages::Prerender,
    /// The site search's index, built by each pre-render pass.
    pub search: search::Search,
    pub renderer: ssr_runtime::Renderer,
    /// Renders running and waiting, per client address (`RENDERS_PER_ADDRESS`).
    renders: connections::Shares,
    /// Renders for one visitor, bounded so they never hold every engine.
    pub personal_renders: pages::PersonalRenders,
    pub operator: account::operator::OperatorClient,
    /// The operator's bundle catalogue, kept like content.
    pub catalogue: account::catalogue::Catalogue,
    /// Purchases just made, so none is sent twice unconfirmed.
    pub recent_purchases: Arc<account::repeats::RecentPurchases>,
    /// Subscribers' details and balances per session.
    pub account_cache: account::cache::AccountCache,
    pub cookie_key: axum_extra::extract::cookie::Key,
    pub sessions: account::session::Sessions,
    pub limits: Arc<account::limits::Limits>,
    pub forms: forms::Forms,
    /// Redis, when `REDIS_URL` is set.
    pub redis: Option<shared::Redis>,
    /// Tells the other instances what the CMS's webhook changed (with Redis).
    pub broadcast: Option<content::Broadcast>,
    /// Set on SIGTERM: `/readyz` answers 503.
    pub drain: monitoring::Drain,
}

impl AppState {
    /// Parses the manifests, opens the keys and starts the render engines.
    /// `operator_base` is where the operator API answers (`DIGITAL_API_URL`,
    /// or a stand-in this server mounts).
    pub fn new(config: Config, bundle: AppBundle, operator_base: &str) -> Result<AppState, AppError> {
        // The image addresses in content are signed with the session key,
        // read (or made) in DATA_DIR: checked first, to name it if it fails.
        writable_data_dir(&config.data_dir)?;
        let signer = image_signer(&config, &keys::session_key(&config)?);
        let source = content_source(&config, bundle, signer)?;
        AppState::with_content_source(config, bundle, operator_base, source)
    }

    /// The same with content from `source` (a test's failure injection).
    pub fn with_content_source(
        config: Config,
        bundle: AppBundle,
        operator_base: &str,
        source: Arc<dyn content::ContentSource>,
    ) -> Result<AppState, AppError> {
        writable_data_dir(&config.data_dir)?;
        let routes = manifest::RouteTable::from_json(bundle.routes_json)?;
        let assets = manifest::AssetManifest::from_json(bundle.assets_json)?;
        let content = content::Content::new(source, content_cache(&config)?);
        let ttl = config.content.ttl;
        let items = content::ItemGate::new(ttl, ttl * 2 + Duration::from_secs(10));
        let pages = pages::PageCache::new(
            config.pages.cache_bytes,
            config.content.ttl + config.content.stale_if_error,
            config.content.ttl,
            config.pages.renderer().workers.div_ceil(2),
        );
        // Its entries share their bodies with the page cache: this bounds
        // keys and headers.
        let fast = pages::FastPages::new(config.pages.cache_bytes / 8, config.content.ttl);
        let renderer = ssr_runtime::Renderer::start(bundle.server_js.into(), config.pages.renderer())?;
        let renders = connections::Shares::new(config.pages.renders_per_address());
        let personal_renders = pages::PersonalRenders::new(config.pages.renderer().workers);
        let operator = account::operator::OperatorClient::new(operator_base, config.operator.settings()).map_err(AppError::Operator)?;
        let account_cache = account::cache::AccountCache::new(operator.clone(), config.operator.account_cache);
        let cookie_key = keys::session_key(&config)?;
        let preview = preview::Preview::new(&config, &content, drafts_source(&config, image_signer(&config, &cookie_key))?);
        let images = images(&config, &cookie_key)?;
        let redis = match &config.operations.redis_url {
            Some(url) => Some(shared::Redis::open(url.expose()).map_err(AppError::Redis)?),
            None => None,
        };
        let resend = config.sessions.otp_resend;
        let (session_store, limits): (Arc<dyn account::session_store::SessionStore>, _) = match &redis {
            Some(redis) => (
                Arc::new(account::session_redis::RedisSessionStore::new(redis.clone(), config.sessions.lifetimes())),
                account::limits::Limits::shared(redis.clone(), resend),
            ),
            None => (
                Arc::new(account::session_store::SqliteSessionStore::open(&config.data_dir, config.sessions.lifetimes())?),
                account::limits::Limits::new(resend),
            ),
        };
        let sessions = account::session::Sessions::new(session_store, config.is_https());
        let forms = forms::Forms::open(&config, &routes, redis.clone())?;
        let broadcast = redis.clone().map(content::Broadcast::new);
        let catalogue = account::catalogue::Catalogue::new(
            operator.clone(),
            config.content.ttl,
            config.content.stale_if_error,
        );
        let recent_purchases = match &redis {
            Some(redis) => account::repeats::RecentPurchases::shared(redis.clone()),
            None => account::repeats::RecentPurchases::local(),
        };
        let csp = security::content_security_policy(&config);
        Ok(AppState(Arc::new(Shared {
            config: Arc::new(config),
            routes: Arc::new(routes),
            assets: Arc::new(assets),
            files: Arc::new(assets::PublicFiles::new(bundle.public_files)),
            images,
            csp,
            content,
            preview,
            items,
            sitemap: seo::Sitemap::default(),
            pages,
            fast,
            prerender: pages::Prerender::default(),
            search: search::Search::default(),
            renderer,
            renders,
            personal_renders,
            operator,
            catalogue,
            recent_purchases: Arc::new(recent_purchases),
            account_cache,
            cookie_key,
            sessions,
            limits: Arc::new(limits),
            forms,
            redis,
            broadcast,
            drain: monitoring::Drain::default(),
        })))
    }
}

/// The content cache's settings, with the disk for the CMS's last good
/// answers when there is a CMS and `CONTENT_DISK_CACHE_MB` is not 0.
fn content_cache(config: &Config) -> Result<content::CacheSettings, AppError> {
    let mut settings = config.content_cache();
    if config.cms.url.is_some() && config.content.disk_cache_bytes > 0 {
        let disk = content::DiskCache::open(&config.data_dir, config.content.disk_cache_bytes)
            .map_err(|source| AppError::Disk { what: "content disk cache", dir: config.data_dir.clone(), source })?;
        settings.disk = Some(disk);
    }
    Ok(settings)
}

/// Signs the image endpoint's addresses of the CMS's media, with a key
/// derived from the session key; `None` without a CMS (the embedded
/// content's pictures are SVG, served as they are).
fn image_signer(config: &Config, key: &axum_extra::extract::cookie::Key) -> Option<images::Signer> {
    config.cms.media_base().map(|base| images::Signer::new(key.master(), base.as_str()))
}

/// The image endpoint, its disk in `DATA_DIR/image-cache/` (`IMAGE_CACHE_MB`).
fn images(config: &Config, key: &axum_extra::extract::cookie::Key) -> Result<images::Images, AppError> {
    let disk = if config.images.cache_bytes > 0 {
        let disk = images::ImageDisk::open(&config.data_dir, config.images.cache_bytes)
            .map_err(|source| AppError::Disk { what: "image disk cache", dir: config.data_dir.clone(), source })?;
        Some(disk)
    } else {
        None
    };
    let settings = images::Settings {
        signer: image_signer(config, key),
        disk,
        encodes: config.images.encodes.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get() / 2)).max(1),
        max_pixels: config.images.max_pixels,
        timeout: config.images.timeout,
    };
    images::Images::new(settings).map_err(|source| AppError::HttpClient { what: "image endpoint", source })
}

/// `DATA_DIR` exists (it is created) and takes writes; if not, the error
/// names the directory and what to do, rather than "Permission denied".
/// Instances sharing one `DATA_DIR` start together, so each probes with a
/// file of its own: with one shared name, one instance's remove could find
/// the file already removed by another and refuse to start.
fn writable_data_dir(dir: &std::path::Path) -> Result<(), AppError> {
    static PROBES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let probe_number = PROBES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let probe = dir.join(format!(".write-probe-{}-{probe_number}", std::process::id()));
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&probe, b""))
        .and_then(|()| std::fs::remove_file(&probe))
        .map_err(|source| AppError::DataDir { dir: dir.to_owned(), source })
}

/// `site content-model`: the content model as a CMS must hold it (JSON),
/// with the collection types the forms are delivered to (`formTypes`) and
/// where each type is seen on the site (`previewPaths`).
pub fn content_model(bundle: AppBundle) -> Result<serde_json::Value, AppError> {
    let routes = manifest::RouteTable::from_json(bundle.routes_json)?;
    let mut model = content::check::content_model(&routes);
    model["formTypes"] = forms::cms_types();
    model["previewPaths"] = preview::paths(&routes);
    Ok(model)
}

/// `site check-cms`: checks the CMS at `CMS_URL` against the content model.
pub async fn check_cms(config: &Config, bundle: AppBundle) -> Result<content::check::Report, AppError> {
    if config.cms.url.is_none() {
        return Err(AppError::Required { setting: "CMS_URL", why: "for check-cms: it checks the CMS there" });
    }
    let routes = manifest::RouteTable::from_json(bundle.routes_json)?;
    let source = content_source(config, bundle, None)?;
    Ok(content::check::check(source.as_ref(), &routes).await)
}

/// The Strapi client when `CMS_URL` is set, else the embedded content.
fn content_source(config: &Config, bundle: AppBundle, images: Option<images::Signer>) -> Result<Arc<dyn content::ContentSource>, AppError> {
    let normalizer = normalizer(config, images);
    Ok(match strapi_settings(config) {
        Some(settings) => {
            tracing::info!(base_url = %settings.base_url, populate = ?config.cms.populate, "content from the CMS");
            Arc::new(content::StrapiClient::new(settings, normalizer)?)
        }
        None => Arc::new(content::EmbeddedContent::new(bundle.content_files, &normalizer)?),
    })
}

/// A Strapi client of its own reading drafts, for the preview: with
/// `PREVIEW_SECRET` and `CMS_URL` only.
fn drafts_source(config: &Config, images: Option<images::Signer>) -> Result<Option<Arc<dyn content::ContentSource>>, AppError> {
    let Some(settings) = strapi_settings(config).filter(|_| config.cms.preview_secret.is_some()) else { return Ok(None) };
    let settings = content::StrapiSettings { draft: true, ..settings };
    Ok(Some(Arc::new(content::StrapiClient::new(settings, normalizer(config, images))?)))
}

fn normalizer(config: &Config, images: Option<images::Signer>) -> content::Normalizer {
    content::Normalizer {
        media_base: config.cms.media_base().map(ToString::to_string),
        images,
        file_hosts: config.cms.file_hosts.iter().map(ToString::to_string).collect(),
        site_url: config.site_url.to_string(),
    }
}

/// How the CMS at `CMS_URL` is read, if one is set.
fn strapi_settings(config: &Config) -> Option<content::StrapiSettings> {
    Some(content::StrapiSettings {
        base_url: config.cms.url.as_ref()?.to_string(),
        token: config.cms.token.as_ref().map(|t| t.expose().to_owned()),
        populate: config.cms.populate,
        timeout: config.cms.timeout,
        max_requests: config.cms.max_requests,
        draft: false,
    })
}

/// A stand-in for the operator's digital-service API that this server serves
/// itself when `DIGITAL_API_URL` is unset: the `site` binary passes its
/// sandbox, so that sign-in and purchases work with no operator account.
#[derive(Clone, Copy)]
pub struct StandIn {
    /// Where it is nested: `/sandbox`.
    pub path: &'static str,
    /// Where, below `path`, the operator API answers: `/digital/`. This
    /// server calls it itself, with no browser headers, so it is open; the
    /// rest below `path` (switches that change what every visitor gets)
    /// answers only the site's own pages.
    pub api: &'static str,
    /// Opens it for this configuration (its `DATA_DIR`, production mode);
    /// an error stops the start.
    pub open: fn(&Config) -> Result<Router, AppError>,
}

/// The whole application: feature routers merged once, shared layers on top.
pub fn app(state: AppState) -> Router {
    app_with_stand_in(state, None)
}

/// The same with an opened stand-in operator API nested at its path.
fn app_with_stand_in(state: AppState, stand_in: Option<(StandIn, Router)>) -> Router {
    use web::request_metrics::{RouteKind, marked, record};
    let router = Router::new()
        .merge(marked(monitoring::router(), RouteKind::Health))
        .merge(marked(assets::router(), RouteKind::Asset))
        .merge(marked(images::router(), RouteKind::Image))
        .merge(marked(content::router(), RouteKind::Webhook))
        .merge(marked(preview::router(), RouteKind::Preview))
        .merge(marked(account::router(state.clone()), RouteKind::Account))
        .merge(marked(forms::router(state.clone()), RouteKind::Forms))
        .merge(marked(seo::router(), RouteKind::Seo))
        .merge(marked(pages::router(), RouteKind::Data));
    let router = match stand_in {
        Some((StandIn { path, api, .. }, service)) => {
            let guard = move |state, request, next| stand_in_guard(api, state, request, next);
            let service = service.layer(axum::middleware::from_fn_with_state(state.clone(), guard));
            router.nest_service(path, marked(service, RouteKind::Sandbox))
        }
        None => router,
    };
    // Pages are what no route answers, and they alone go through the fast
    // path first: a page kept whole skips everything else but the request
    // metrics, which count and time every answer.
    let pages = shared_layers(pages::fallback(), &state).layer(axum::middleware::from_fn_with_state(state.clone(), pages::fast_path));
    shared_layers(router, &state).fallback_service(marked(pages, RouteKind::Page)).layer(axum::middleware::from_fn(record))
}

/// The layers every answer but the fast path's passes through.
fn shared_layers(router: Router<AppState>, state: &AppState) -> Router {
    let body_read = state.config.connections.body_read_timeout;
    router
        .layer(axum::middleware::from_fn_with_state(state.clone(), security::headers))
        .layer(axum::middleware::from_fn_with_state(body_read, web::body_deadline::layer))
        .with_state(state.clone())
        .layer(CompressionLayer::new())
        .layer(axum::middleware::map_response(web::vary::one_line))
        .layer(axum::middleware::map_response(web::retry_after::when_refused))
        .layer(CatchPanicLayer::new())
        // 5xx detail is logged once, where the error is mapped (`error`), and
        // shed load at most once a second: the trace layer only traces.
        .layer(TraceLayer::new_for_http().on_failure(()))
}

/// A stand-in's switches (the sandbox's `/sandbox/fail-next`) change what
/// every visitor gets: only the site's own pages may use them. Its operator
/// API (`api`, paths as seen below the stand-in's own) stays open.
async fn stand_in_guard(
    api: &'static str,
    state: axum::extract::State<AppState>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    if request.uri().path().starts_with(api) {
        return next.run(request).await;
    }
    web::same_origin_only(state, request, next).await
}

/// Serves until `shutdown` completes, then drains: `/readyz` answers 503,
/// new connections are taken for `DRAIN_DELAY_SECS` more, then none, and
/// requests under way get `SHUTDOWN_GRACE_SECS` to finish. The operator API is `DIGITAL_API_URL`,
/// or else `stand_in`, mounted here. `GET /metrics` is served on
/// `METRICS_ADDR` alongside.
pub async fn run(
    listener: TcpListener,
    config: Config,
    bundle: AppBundle,
    stand_in: Option<StandIn>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), AppError> {
    let address = listener.local_addr()?;
    memory::return_freed_pages();
    let stand_in = stand_in.filter(|_| config.operator.url.is_none());
    let operator_base = match (&config.operator.url, stand_in) {
        (Some(url), _) => url.to_string(),
        (None, _) if config.production && !config.enable_sandbox => {
            return Err(AppError::Required { setting: "DIGITAL_API_URL", why: "in production (or set ENABLE_SANDBOX)" });
        }
        (None, None) => return Err(AppError::Required { setting: "DIGITAL_API_URL", why: "here: this server has no stand-in operator API" }),
        (None, Some(StandIn { path, api, .. })) => {
            let host = if address.ip().is_unspecified() { "127.0.0.1".to_owned() } else { address.ip().to_string() };
            let host = if host.contains(':') { format!("[{host}]") } else { host };
            format!("http://{host}:{}{path}{api}", address.port())
        }
    };
    monitoring::install();
    // A metrics address in use (another instance on this host) costs the
    // metrics, not the site.
    let metrics_listener = match config.operations.metrics_addr {
        None => None,
        Some(address) => TcpListener::bind(address)
            .await
            .inspect_err(|error| tracing::error!(%address, %error, "METRICS_ADDR cannot be listened on: no /metrics"))
            .ok(),
    };
    let state = AppState::new(config, bundle, &operator_base)?;
    let stand_in = match stand_in {
        Some(stand_in) => Some((stand_in, (stand_in.open)(&state.config)?)),
        None => None,
    };
    tokio::spawn(state.sessions.clone().sweep_forever());
    tokio::spawn(state.limits.clone().sweep_forever());
    tokio::spawn(state.forms.clone().deliver_forever());
    if let Some(broadcast) = state.broadcast.clone() {
        // Read before any content is fetched (pre-rendering, the first
        // request): the version that content is checked against.
        let seen = broadcast.version_at_start().await;
        tokio::spawn(broadcast.listen_forever(state.clone(), seen));
    }
    if state.config.pages.prerender && state.config.pages.cache_bytes > 0 {
        tokio::spawn(pages::Prerender::run_forever(state.clone()));
    }
    tokio::spawn(monitoring::upkeep_forever());
    let (stopped, metrics_stop) = tokio::sync::watch::channel(false);
    if let Some(metrics_listener) = metrics_listener {
        let mut metrics_stop = metrics_stop.clone();
        tokio::spawn(monitoring::serve_metrics(metrics_listener, state.clone(), async move {
            let _ = metrics_stop.wait_for(|stopped| *stopped).await;
        }));
    }
    tracing::info!(%address, site_url = %state.config.site_url, operator = %operator_base, redis = state.redis.is_some(), "serving");
    let limits = state.config.connections.limits();
    let grace = state.config.operations.shutdown_grace;
    let delay = state.config.operations.drain_delay;
    let drain = state.drain.clone();
    let mut draining = metrics_stop;
    let shutdown = async move {
        shutdown.await;
        drain.start();
        tracing::info!(delay_secs = delay.as_secs(), grace_secs = grace.as_secs(), "draining: not ready; then finishing requests under way");
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

#[cfg(test)]
mod tests {
    use super::writable_data_dir;

    /// Several instances given one `DATA_DIR` start at once (`make
    /// test-scale` starts three): none may refuse to start because another's
    /// probe came and went under it.
    #[test]
    fn instances_starting_together_on_one_data_dir_all_find_it_writable() {
        let dir = std::env::temp_dir().join(format!("site-probe-{}", std::process::id()));
        let starts: Vec<_> = (0..8)
            .map(|_| {
                let dir = dir.clone();
                std::thread::spawn(move || (0..200).map(|_| writable_data_dir(&dir)).find(Result::is_err))
            })
            .collect();
        let refusals: Vec<_> = starts.into_iter().filter_map(|start| start.join().unwrap()).collect();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(refusals.is_empty(), "{refusals:?}");
    }
}
