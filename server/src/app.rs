//! The whole application: every feature's router merged once, the common
//! layers on top ([`app`]), and a stand-in operator API mounted beside them
//! when `DIGITAL_API_URL` is unset ([`StandIn`]).

use axum::Router;
use axum::http::{Extensions, HeaderMap, StatusCode, Version, header};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{DefaultPredicate, Predicate};
use tower_http::trace::TraceLayer;

use crate::config::Config;
use crate::error::StartError;
use crate::state::AppState;
use crate::{account, assets, content, forms, images, locator, monitoring, pages, preview, security, seo, web};

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
    pub open: fn(&Config) -> Result<Router, StartError>,
}

/// The whole application: feature routers merged once, common layers on top.
pub fn app(state: AppState) -> Router {
    app_with_stand_in(state, None)
}

/// The same with an opened stand-in operator API nested at its path.
pub(crate) fn app_with_stand_in(state: AppState, stand_in: Option<(StandIn, Router)>) -> Router {
    use web::request_metrics::{RouteKind, marked, record};
    let router = Router::new()
        .merge(marked(monitoring::router(), RouteKind::Health))
        .merge(marked(assets::router(), RouteKind::Asset))
        .merge(marked(images::router(), RouteKind::Image))
        .merge(marked(content::router(), RouteKind::Webhook))
        .merge(marked(preview::router(), RouteKind::Preview))
        .merge(marked(account::router(state.clone()), RouteKind::Account))
        .merge(marked(
            forms::router(state.clone()).layer(axum::middleware::from_fn_with_state(state.clone(), pages::sent_back)),
            RouteKind::Forms,
        ))
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
    let pages = marked(common_layers(pages::fallback(), &state), RouteKind::Page).layer(record());
    common_layers(router, &state).layer(record()).fallback_service(pages::FastPath::new(state, pages))
}

/// The layers every answer but the fast path's passes through.
fn common_layers(router: Router<AppState>, state: &AppState) -> Router {
    let deadline = web::body_deadline::Deadline {
        time: state.config.connections.body_read_timeout,
        strings: state.pages.strings.clone(),
        routes: state.pages.routes.clone(),
    };
    router
        .layer(axum::middleware::from_fn_with_state(state.clone(), security::headers))
        .layer(axum::middleware::from_fn_with_state(deadline, web::body_deadline::layer))
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
    site: axum::extract::State<web::Site>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    if request.uri().path().starts_with(api) {
        return next.run(request).await;
    }
    web::same_origin_only(site, request, next).await
}
