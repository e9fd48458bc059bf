//! Headers on every response, strict by default. Pages carry
//! no inline script, so one strict policy serves cached pages too. Photos come
//! from the site's image endpoint; only what it does not resize (SVG, other
//! files) and its fallbacks come from the CMS's media origin, the one other
//! place images may load from. Nothing may frame the site
//! (`frame-ancestors 'none'`, `X-Frame-Options: DENY`) but the CMS's admin,
//! a preview ([`Framable`]). Pages ask for the client hints the image
//! endpoint chooses a photo's quality by (`Accept-CH`,
//! [`crate::images::ACCEPT_CH`]).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;

use crate::config::Config;
use crate::manifest::RouteTable;

/// What [`headers`] sets that depends on the configuration and the routes.
#[derive(Clone)]
pub struct Policy {
    /// `Content-Security-Policy`: images from the site and the CMS's media origin.
    csp: HeaderValue,
    /// `Strict-Transport-Security`, for a site served over https.
    hsts: bool,
    /// Which pages are the locator's, whose "near me" may ask for the position.
    routes: Arc<RouteTable>,
}

impl Policy {
    pub fn new(config: &Config, routes: Arc<RouteTable>) -> Policy {
        Policy { csp: content_security_policy(config), hsts: config.is_https(), routes }
    }
}

/// The policy for this configuration: images from the site and the CMS's
/// media origin; no page may frame the site.
fn content_security_policy(config: &Config) -> HeaderValue {
    policy(config, "'none'").unwrap_or_else(|| {
        tracing::error!(media_base = ?config.cms.media_base(), "the CMS's media origin cannot be put in a header: images from the site only");
        HeaderValue::from_static(
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; font-src 'self'; \
             connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        )
    })
}

/// The same policy letting `frame_ancestors` (a source list) frame the
/// answer; `None` when it cannot be a header.
pub fn policy(config: &Config, frame_ancestors: &str) -> Option<HeaderValue> {
    let media = config.cms.media_base().map(|base| format!(" {}", base.origin())).unwrap_or_default();
    let policy = format!(
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'{media}; font-src 'self'; \
         connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors {frame_ancestors}; form-action 'self'"
    );
    HeaderValue::from_str(&policy).ok()
}

/// Marks an answer that another origin may frame (a preview, inside the
/// CMS's admin): it carries its own `Content-Security-Policy` naming that
/// origin in `frame-ancestors`, and no `X-Frame-Options`, which would
/// refuse every frame. Every other answer is framed by nobody.
#[derive(Clone, Copy)]
pub struct Framable;

pub async fn headers(State(policy): State<Policy>, request: Request, next: Next) -> Response {
    let locator = is_locator(&policy.routes, request.uri().path());
    let mut response = next.run(request).await;
    let framable = response.extensions().get::<Framable>().is_some();
    let headers = response.headers_mut();
    let set = |headers: &mut axum::http::HeaderMap, name, value: &'static str| {
        headers.entry(name).or_insert(HeaderValue::from_static(value));
    };
    headers.entry(header::CONTENT_SECURITY_POLICY).or_insert_with(|| policy.csp.clone());
    set(headers, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(headers, header::REFERRER_POLICY, "strict-origin-when-cross-origin");
    // A locator page's "near me" asks for the visitor's position; no other page may.
    let permissions = if locator {
        "camera=(), microphone=(), geolocation=(self), payment=()"
    } else {
        "camera=(), microphone=(), geolocation=(), payment=()"
    };
    set(headers, header::HeaderName::from_static("permissions-policy"), permissions);
    set(headers, header::HeaderName::from_static("cross-origin-opener-policy"), "same-origin");
    if !framable {
        set(headers, header::X_FRAME_OPTIONS, "DENY");
    }
    if headers.get(header::CONTENT_TYPE).is_some_and(|kind| kind.as_bytes().starts_with(b"text/html")) {
        set(headers, header::HeaderName::from_static("accept-ch"), crate::images::ACCEPT_CH);
    }
    if policy.hsts {
        set(headers, header::STRICT_TRANSPORT_SECURITY, "max-age=31536000; includeSubDomains");
    }
    response
}

/// Whether `path` is a locator page's (`/mpesa-agents/…`, `/sw/vodashop`):
/// the first segment, past the language, of a route of kind `locator`.
fn is_locator(routes: &RouteTable, path: &str) -> bool {
    let path = path.strip_prefix("/sw").filter(|rest| rest.is_empty() || rest.starts_with('/')).unwrap_or(path);
    let first = |path: &str| path.trim_start_matches('/').split('/').next().unwrap_or("").to_owned();
    let segment = first(path);
    !segment.is_empty()
        && routes
            .all()
            .iter()
            .any(|route| route.page == Some(contract::page::PageKind::Locator) && first(&route.path) == segment)
}
