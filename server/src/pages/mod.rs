//! Every page of the site: `GET /…` (English) and `GET /sw/…` (Swahili) as
//! server-rendered HTML, and `GET /_data/…` as the same page's data in JSON
//! for client-side navigation.

mod cache;
mod document;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Json, Redirect, Response};
use axum::routing::get;
use axum_extra::extract::CookieJar;
use axum_extra::extract::cookie::{Cookie, SameSite};
use ssr_runtime::{Lang, MatchedRoute, PageContent, PageData, RenderRequest};

pub use cache::PageCache;
use cache::CachedPage;

use crate::content::{ContentQuery, Loaded};
use crate::manifest::{NOT_FOUND_PAGE, RouteDef};
use crate::{AppError, AppState};

/// The cookie remembering the visitor's language (spec §9 stores it under `lang`).
pub const LANG_COOKIE: &str = "lang";
/// A visitor with one of these is signed in: pages are built for them alone.
pub const SESSION_COOKIES: [&str; 2] = ["__Host-session", "session"];
const DATA_PREFIX: &str = "/_data";
const PRIVATE: &str = "private, no-store";

pub fn router() -> Router<AppState> {
    Router::new().route("/_data/", get(page_data)).route("/_data/{*path}", get(page_data)).fallback(page)
}

/// A request path split into its language and the path without prefix.
#[derive(Debug, PartialEq)]
pub struct LocalPath {
    pub lang: Lang,
    pub path: String,
}

impl LocalPath {
    /// `/sw` and `/sw/…` are Swahili; every other path is English.
    pub fn parse(path: &str) -> LocalPath {
        match path.strip_prefix("/sw") {
            Some("") => LocalPath { lang: Lang::Sw, path: "/".into() },
            Some(rest) if rest.starts_with('/') => LocalPath { lang: Lang::Sw, path: rest.into() },
            _ => LocalPath { lang: Lang::En, path: if path.is_empty() { "/".into() } else { path.into() } },
        }
    }

    /// The public address of `path` in `lang`.
    pub fn href(lang: Lang, path: &str) -> String {
        match (lang, path) {
            (Lang::En, _) => path.to_owned(),
            (Lang::Sw, "/") => "/sw".to_owned(),
            (Lang::Sw, _) => format!("/sw{path}"),
        }
    }
}

fn signed_in(jar: &CookieJar) -> bool {
    SESSION_COOKIES.iter().any(|name| jar.get(name).is_some())
}

/// Anonymous pages: browsers revalidate (cheap, by `ETag`), a CDN keeps them
/// as long as the content cache does and may serve them stale the same way.
fn public_cache_control(state: &AppState) -> String {
    let settings = &state.config;
    format!(
        "public, max-age=0, s-maxage={fresh}, stale-while-revalidate={fresh}, stale-if-error={stale}",
        fresh = settings.content_ttl_secs,
        stale = settings.content_stale_if_error_secs
    )
}

async fn page(State(state): State<AppState>, jar: CookieJar, request: Request) -> Response {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, [(header::ALLOW, "GET, HEAD")]).into_response();
    }
    let uri = request.uri().clone();
    let local = LocalPath::parse(uri.path());
    if let Some(redirect) = canonical_redirect(&uri, &local, &jar) {
        return redirect;
    }
    match serve_page(&state, &uri, &local, request.headers(), signed_in(&jar)).await {
        Ok(response) => response,
        Err(error) => error.into_page(local.lang),
    }
}

/// Redirects that come before rendering: a trailing slash, a language chosen
/// with `?lang=` (remembered in the cookie), and `/` for a visitor who chose
/// Swahili before.
fn canonical_redirect(uri: &Uri, local: &LocalPath, jar: &CookieJar) -> Option<Response> {
    let path = uri.path();
    if path.len() > 1 && path.ends_with('/') {
        let trimmed = match path.trim_end_matches('/') {
            "" => "/",
            trimmed => trimmed,
        };
        let target = match uri.query() {
            Some(query) => format!("{trimmed}?{query}"),
            None => trimmed.to_owned(),
        };
        return Some(Redirect::permanent(&target).into_response());
    }
    let mut query: Vec<(String, String)> =
        uri.query().and_then(|q| serde_urlencoded::from_str(q).ok()).unwrap_or_default();
    if let Some(index) = query.iter().position(|(k, _)| k == "lang") {
        let chosen = Lang::parse(&query.remove(index).1);
        let mut target = LocalPath::href(local.lang, &local.path);
        if !query.is_empty() {
            target.push('?');
            target.push_str(&serde_urlencoded::to_string(&query).unwrap_or_default());
        }
        let cookie = Cookie::build((LANG_COOKIE, chosen.code()))
            .path("/")
            .max_age(cookie::time::Duration::days(365))
            .same_site(SameSite::Lax)
            .build();
        let mut response = Redirect::to(&target).into_response();
        response.headers_mut().insert(header::SET_COOKIE, HeaderValue::from_str(&cookie.to_string()).expect("cookie"));
        response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        return Some(response);
    }
    let remembered = jar.get(LANG_COOKIE).map(|c| Lang::parse(c.value()));
    if path == "/" && remembered == Some(Lang::Sw) {
        let mut response = Redirect::to("/sw").into_response();
        response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
        response.headers_mut().insert(header::VARY, HeaderValue::from_static("cookie"));
        return Some(response);
    }
    None
}

async fn serve_page(
    state: &AppState,
    uri: &Uri,
    local: &LocalPath,
    headers: &HeaderMap,
    signed_in: bool,
) -> Result<Response, AppError> {
    let parts = load_page(state, local).await?;
    let url = uri.path_and_query().map_or_else(|| uri.path().to_owned(), |pq| pq.as_str().to_owned());
    if signed_in {
        let page = render(state, url, parts).await?;
        return Ok(page.respond(headers, PRIVATE));
    }
    let key = PageCache::key(&url, &parts.versions());
    let page = state.pages.get_or_render(key, render(state, url, parts)).await?;
    Ok(page.respond(headers, &public_cache_control(state)))
}

async fn render(state: &AppState, url: String, parts: PageParts) -> Result<CachedPage, ssr_runtime::RenderError> {
    let versions = parts.versions();
    let data = parts.into_data(&state.config.site_url);
    let assets = state.assets.for_page(&data.route.page);
    let output = state.renderer.render(RenderRequest { url, data: data.clone(), assets }).await?;
    let html = document::document(data.lang, &output, &data, &state.assets.entry);
    let status = StatusCode::from_u16(output.status).unwrap_or(StatusCode::OK);
    Ok(CachedPage::new(status, data.lang, html, versions))
}

/// `GET /_data/<path>`: the data of the page at `/<path>`, status included.
async fn page_data(State(state): State<AppState>, jar: CookieJar, uri: Uri) -> Response {
    let path = uri.path().strip_prefix(DATA_PREFIX).unwrap_or("/");
    let local = LocalPath::parse(if path.is_empty() { "/" } else { path });
    match load_page(&state, &local).await {
        Ok(parts) => {
            let data = parts.into_data(&state.config.site_url);
            let status = StatusCode::from_u16(data.status).unwrap_or(StatusCode::OK);
            let cache_control = if signed_in(&jar) { PRIVATE.to_owned() } else { public_cache_control(&state) };
            (status, [(header::CACHE_CONTROL, cache_control)], Json(data)).into_response()
        }
        Err(error) => {
            let status = error.status();
            tracing::error!(%error, path = %uri.path(), "page data failed");
            (status, [(header::CACHE_CONTROL, "no-store")], Json(serde_json::json!({ "error": status.as_u16() })))
                .into_response()
        }
    }
}

/// A matched route with its content, before it becomes [`PageData`].
struct PageParts {
    lang: Lang,
    path: String,
    status: u16,
    route: MatchedRoute,
    page: Option<Loaded>,
    sidebar: Option<Loaded>,
}

impl PageParts {
    /// The content versions the page is built from (its cache key).
    fn versions(&self) -> Vec<u64> {
        [&self.page, &self.sidebar].into_iter().map(|loaded| loaded.as_ref().map_or(0, |l| l.version)).collect()
    }

    fn into_data(self, site_url: &str) -> PageData {
        let value = |loaded: &Option<Loaded>| loaded.as_ref().and_then(|l| l.value.as_deref().cloned());
        let page_lang = self.page.as_ref().map(|l| l.lang).filter(|lang| *lang != self.lang);
        PageData {
            lang: self.lang,
            status: self.status,
            route: self.route,
            content: PageContent { page: value(&self.page), page_lang, sidebar: value(&self.sidebar) },
            subscriber: None,
            site_url: site_url.to_owned(),
            path: self.path,
        }
    }
}

/// Matches the route and loads its content and the sidebar in parallel. The
/// sidebar is not worth failing a page for; the page's own content is.
async fn load_page(state: &AppState, local: &LocalPath) -> Result<PageParts, AppError> {
    let matched = state.routes.matches(&local.path);
    let route = matched.route;
    let key = content_key(state, route);
    let sidebar_query = ContentQuery::single("sidebar");
    let (page, sidebar) = tokio::join!(
        async {
            match key {
                Some(key) => state.content.get(&ContentQuery::single(key), local.lang).await.map(Some),
                None => Ok(None),
            }
        },
        state.content.get(&sidebar_query, local.lang),
    );
    let page = page?;
    let sidebar = sidebar.map_err(|error| tracing::warn!(%error, "sidebar unavailable")).ok();
    // A route whose content the source lacks is as missing as an unknown path.
    let missing = key.is_some() && page.as_ref().is_none_or(|p| p.value.is_none());
    let (route, page, status) = if route.page == NOT_FOUND_PAGE || missing {
        (state.routes.not_found(), None, 404)
    } else {
        (route, page, 200)
    };
    Ok(PageParts {
        lang: local.lang,
        path: local.path.clone(),
        status,
        route: MatchedRoute { name: route.name.clone(), page: route.page.clone(), params: matched.params },
        page,
        sidebar,
    })
}

/// Pass-through routes load their parent's content (spec §2).
fn content_key<'a>(state: &'a AppState, route: &'a RouteDef) -> Option<&'a str> {
    if route.meta.is_pass_through {
        if let Some(parent) = route.parent.as_deref().and_then(|p| state.routes.by_name(p)) {
            return parent.content.as_deref();
        }
    }
    route.content.as_deref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_the_language_prefix() {
        assert_eq!(LocalPath::parse("/"), LocalPath { lang: Lang::En, path: "/".into() });
        assert_eq!(LocalPath::parse("/sw"), LocalPath { lang: Lang::Sw, path: "/".into() });
        assert_eq!(LocalPath::parse("/sw/voice-sms"), LocalPath { lang: Lang::Sw, path: "/voice-sms".into() });
        assert_eq!(LocalPath::parse("/swipe-win"), LocalPath { lang: Lang::En, path: "/swipe-win".into() });
        assert_eq!(LocalPath::href(Lang::Sw, "/"), "/sw");
        assert_eq!(LocalPath::href(Lang::Sw, "/voice-sms"), "/sw/voice-sms");
        assert_eq!(LocalPath::href(Lang::En, "/voice-sms"), "/voice-sms");
    }
}
