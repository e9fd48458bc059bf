//! The site's HTTP server. A request enters [`app`]: the fast path for
//! pages kept whole, else the feature router that owns its address (see
//! the README's table), through the shared layers.
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
//! - [`StandIn`] (here): a stand-in operator API this server mounts when
//!   `DIGITAL_API_URL` is unset (the `site` binary's sandbox); [`app`]
//!   (here): every feature's router merged once, the shared layers on top.
//! - `state`: [`AppState`], what every handler shares, grouped as pages,
//!   content, account, forms and infrastructure, and how it is opened
//!   from the configuration (`sources`: the content sources and the image
//!   endpoint as configured).
//! - `startup`: [`run`]: serving, the background tasks, draining on SIGTERM.
//! - `tools`: `site content-model` and `site check-cms`; `render_bench`:
//!   `site render-bench`.
//! - `search`: the site search's index; `seo`: the sitemap and robots.
//! - `account`: the self-service backend (`/api/auth`, `/api/account`,
//!   `/api/bundles`, `/api/modem`, `/api/cpm`) and the operator API client.
//! - `keys`: the session key; `memory`: the allocator's figures; `slug`:
//!   slugs of titles.
//! - `security`: headers every response carries.
//! - [`shared`]: Redis, shared by every instance behind one address
//!   (`REDIS_URL`): sessions, rate limits, the outbox lease, invalidation.
//! - `monitoring`: `/healthz`, `/readyz`, `/metrics` and draining.
//! - `error`: one error type mapped to HTTP once.
//! - `sampled`: log lines for events that come in floods (renders shed,
//!   connections refused): one a second, with the count since the last.
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
pub mod locator;
mod locks;
mod manifest;
mod memory;
mod monitoring;
mod pages;
mod preview;
mod render_bench;
mod sampled;
pub mod search;
mod security;
pub mod seo;
mod single_flight;
mod slug;
mod sources;
mod sqlite;
mod startup;
mod state;
mod tools;
#[cfg(test)]
mod twins;
mod web;

use axum::Router;
use axum::http::{Extensions, HeaderMap, StatusCode, Version, header};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{DefaultPredicate, Predicate};
use tower_http::trace::TraceLayer;

pub use config::Config;
/// The content model and page data, for tools and tests.
pub use contract;
pub use error::AppError;
pub use render_bench::render_bench;
pub use startup::{run, shutdown_signal};
pub use state::{AccountState, AppState, ContentState, Infrastructure, PagesState, Shared};
pub use tools::{check_cms, content_model};

/// What `build.rs` embeds in the binary: the app's bundles and manifests, the
/// public files and the default content.
#[derive(Clone, Copy)]
pub struct AppBundle {
    pub server_js: &'static str,
    pub assets_json: &'static str,
    pub routes_json: &'static str,
    /// The app's strings by language (`app/src/i18n`), for the error page.
    pub strings_json: &'static str,
    /// Paths relative to the public root (`assets/…`, `static/…`), with `.br`/`.gz` twins.
    pub public_files: &'static [(&'static str, &'static [u8])],
    /// Paths relative to `content/`.
    pub content_files: &'static [(&'static str, &'static [u8])],
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
        .merge(marked(locator::router(), RouteKind::Locator))
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
    // path first: a page kept whole is answered with the very headers the
    // layers gave it when it was kept, and runs none of them (the fast
    // path counts and times it in the request metrics itself).
    let record = || axum::middleware::from_fn(record);
    let pages = marked(shared_layers(pages::fallback(), &state), RouteKind::Page).layer(record());
    shared_layers(router, &state).layer(record()).fallback_service(pages::FastPath::new(state, pages))
}

/// The layers every answer but the fast path's passes through.
fn shared_layers(router: Router<AppState>, state: &AppState) -> Router {
    let body_read = state.config.connections.body_read_timeout;
    router
        .layer(axum::middleware::from_fn_with_state(state.clone(), security::headers))
        .layer(axum::middleware::from_fn_with_state(body_read, web::body_deadline::layer))
        .with_state(state.clone())
        .layer(CompressionLayer::new().compress_when(DefaultPredicate::new().and(untagged)))
        .layer(axum::middleware::map_response(web::vary::one_line))
        .layer(axum::middleware::map_response(web::set_cookie::path_first))
        .layer(axum::middleware::map_response(web::retry_after::when_refused))
        .layer(CatchPanicLayer::new())
        // 5xx detail is logged once, where the error is mapped (`error`), and
        // shed load at most once a second: the trace layer only traces.
        .layer(TraceLayer::new_for_http().on_failure(()))
}

/// An answer with an `ETag` is left in the encoding its handler chose: the
/// tag names that body (`web::etag`), and would name another once compressed.
fn untagged(_: StatusCode, _: Version, headers: &HeaderMap, _: &Extensions) -> bool {
    !headers.contains_key(header::ETAG)
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
