//! A page request, read once: its language and path, the route it matched,
//! its query and the redirect it gets first ([`locale::canonical`]). The
//! fast path reads it for every request that may be a page and hands it on
//! in the request's extensions; the page handler takes it from there (see
//! the [`FromRequestParts`] below), so nothing is matched or parsed twice.

use std::net::IpAddr;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{Extensions, HeaderMap, Uri};
use contract::Lang;

use super::locale::{self, Canonical, LocalPath};
use crate::manifest::RouteMatch;
use crate::state::AppState;

#[derive(Debug, Clone)]
pub struct PageRequest {
    pub local: LocalPath,
    /// The route `local.path` matched (the not-found route for an unknown one).
    pub route: RouteMatch,
    /// The query string as pairs, in the order they came; none for an
    /// absent or unreadable one.
    pub query: Vec<(String, String)>,
    /// Who asked: whose share of the engines a render takes.
    pub client: IpAddr,
    /// Where the address must go before any page is looked for.
    pub redirect: Option<Canonical>,
}

impl PageRequest {
    /// A request for a page, as a browser sent it.
    pub fn parse(state: &AppState, uri: &Uri, headers: &HeaderMap, extensions: &Extensions) -> PageRequest {
        let local = LocalPath::parse(uri.path());
        let query = query_pairs(uri.query());
        let redirect = locale::canonical(uri.path(), uri.query(), &local, &query, headers);
        let client = crate::connections::client_address(extensions);
        PageRequest { route: state.pages.routes.matches(&local.path), local, query, client, redirect }
    }

    /// The page at `local` with `query` for the server itself (pre-rendering,
    /// a form sent back) or the app's navigation (`/_data`), which no
    /// redirect comes before.
    pub fn at(state: &AppState, local: LocalPath, query: Option<&str>) -> PageRequest {
        let client = IpAddr::from([0, 0, 0, 0]);
        PageRequest {
            route: state.pages.routes.matches(&local.path),
            local,
            query: query_pairs(query),
            client,
            redirect: None,
        }
    }

    /// The first value of the query parameter `name`.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str())
    }

    /// The URL this request's page is kept under for everyone; `None` for a
    /// route whose page is never kept for everyone: a redirect, a page
    /// behind a sign-in, an address no route has.
    pub fn kept_url(&self) -> Option<String> {
        let route = &self.route.route;
        if route.redirect.is_some() || route.meta.requires_auth || route.is_unrouted() {
            return None;
        }
        Some(page_url(self.local.lang, &self.local.path, &self.query, &route.query))
    }
}

/// The address a page at `path` in `lang` is rendered and cached for: with
/// the query parameters its route `reads` of `query`.
pub fn page_url(lang: Lang, path: &str, query: &[(String, String)], reads: &[String]) -> String {
    address(&lang.href(path), query, reads)
}

/// The address a page is rendered and cached for: `href` and only the
/// query parameters `reads` of the route, in the order they came.
pub fn address(href: &str, query: &[(String, String)], reads: &[String]) -> String {
    let kept: Vec<&(String, String)> = query.iter().filter(|(name, _)| reads.contains(name)).collect();
    match serde_urlencoded::to_string(&kept) {
        Ok(query) if !query.is_empty() => format!("{href}?{query}"),
        _ => href.to_owned(),
    }
}

fn query_pairs(query: Option<&str>) -> Vec<(String, String)> {
    query.and_then(|q| serde_urlencoded::from_str(q).ok()).unwrap_or_default()
}

impl FromRequestParts<AppState> for PageRequest {
    type Rejection = std::convert::Infallible;

    /// As the fast path read it; read here only for a router without the
    /// fast path's layer.
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<PageRequest, Self::Rejection> {
        Ok(match parts.extensions.remove::<PageRequest>() {
            Some(request) => request,
            None => PageRequest::parse(state, &parts.uri, &parts.headers, &parts.extensions),
        })
    }
}
