//! Every page of the site: `GET /…` (English) and `GET /sw/…` (Swahili) as
//! server-rendered HTML, and `GET /_data/…` as the same page's data in JSON
//! for client-side navigation.

mod document;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Json, Redirect, Response};
use axum::routing::get;
use axum_extra::extract::CookieJar;
use axum_extra::extract::cookie::{Cookie, SameSite};
use ssr_runtime::{Lang, MatchedRoute, PageContent, PageData, RenderRequest};

use crate::manifest::{NOT_FOUND_PAGE, RouteDef};
use crate::{AppError, AppState};

/// The cookie remembering the visitor's language (spec §9 stores it under `lang`).
pub const LANG_COOKIE: &str = "lang";
const DATA_PREFIX: &str = "/_data";
/// Pages change when content does; caches revalidate every time for now.
const PAGE_CACHE_CONTROL: &str = "no-cache";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/_data/", get(page_data))
        .route("/_data/{*path}", get(page_data))
        .fallback(page)
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

async fn page(State(state): State<AppState>, jar: CookieJar, request: Request) -> Response {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, [(header::ALLOW, "GET, HEAD")]).into_response();
    }
    let uri = request.uri().clone();
    let local = LocalPath::parse(uri.path());
    if let Some(redirect) = canonical_redirect(&uri, &local, &jar) {
        return redirect;
    }
    match render_page(&state, &uri, &local).await {
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
        let trimmed = path.trim_end_matches('/');
        let target = match uri.query() {
            Some(query) => format!("{}?{query}", if trimmed.is_empty() { "/" } else { trimmed }),
            None => if trimmed.is_empty() { "/".into() } else { trimmed.into() },
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


async fn render_page(state: &AppState, uri: &Uri, local: &LocalPath) -> Result<Response, AppError> {
    let data = load_page_data(state, local).await?;
    let assets = state.assets.for_page(&data.route.page);
    let url = uri.path_and_query().map_or_else(|| uri.path().to_owned(), |pq| pq.as_str().to_owned());
    let output = state.renderer.render(RenderRequest { url, data: data.clone(), assets }).await?;
    let html = document::document(local.lang, &output, &data, &state.assets.entry);
    let status = StatusCode::from_u16(output.status).unwrap_or(StatusCode::OK);
    Ok((
        status,
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8")),
            (header::CACHE_CONTROL, HeaderValue::from_static(PAGE_CACHE_CONTROL)),
            (header::CONTENT_LANGUAGE, HeaderValue::from_static(local.lang.code())),
        ],
        html,
    )
        .into_response())
}

/// `GET /_data/<path>`: the data of the page at `/<path>`, status included.
async fn page_data(State(state): State<AppState>, uri: Uri) -> Response {
    let path = uri.path().strip_prefix(DATA_PREFIX).unwrap_or("/");
    let local = LocalPath::parse(if path.is_empty() { "/" } else { path });
    match load_page_data(&state, &local).await {
        Ok(data) => {
            let status = StatusCode::from_u16(data.status).unwrap_or(StatusCode::OK);
            (status, [(header::CACHE_CONTROL, PAGE_CACHE_CONTROL)], Json(data)).into_response()
        }
        Err(error) => {
            let status = error.status();
            tracing::error!(%error, path = %uri.path(), "page data failed");
            (status, [(header::CACHE_CONTROL, "no-store")], Json(serde_json::json!({ "error": status.as_u16() }))).into_response()
        }
    }
}

/// Matches the route and loads its content and the sidebar in parallel.
async fn load_page_data(state: &AppState, local: &LocalPath) -> Result<PageData, AppError> {
    let matched = state.routes.matches(&local.path);
    let route = matched.route;
    let key = content_key(state, route);
    let (page, sidebar) = tokio::join!(
        async {
            match key {
                Some(key) => state.content.single(key, local.lang).await,
                None => Ok(None),
            }
        },
        state.content.single("sidebar", local.lang),
    );
    let page = page?;
    let sidebar = sidebar.unwrap_or_else(|error| {
        tracing::warn!(%error, "sidebar unavailable");
        None
    });
    // A route whose content the source lacks is as missing as an unknown path.
    let (route, page, status) = if route.page == NOT_FOUND_PAGE || (key.is_some() && page.is_none()) {
        (state.routes.not_found(), None, 404)
    } else {
        (route, page, 200)
    };
    Ok(PageData {
        lang: local.lang,
        path: local.path.clone(),
        status,
        route: MatchedRoute { name: route.name.clone(), page: route.page.clone(), params: matched.params },
        content: PageContent { page, sidebar },
        subscriber: None,
        site_url: state.config.site_url.clone(),
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
