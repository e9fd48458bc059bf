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
use axum_extra::extract::{CookieJar, PrivateCookieJar};
use axum_extra::extract::cookie::{Cookie, SameSite};
use ssr_runtime::{Lang, MatchedRoute, PageContent, PageData, RenderRequest};

pub use cache::PageCache;
use cache::CachedPage;

use crate::content::{ContentQuery, Loaded};
use crate::manifest::{NOT_FOUND_PAGE, RouteDef};
use crate::{AppError, AppState};

/// The cookie remembering the visitor's language (spec §9 stores it under `lang`).
pub const LANG_COOKIE: &str = "lang";
/// A visitor with one of these may be signed in: pages are built for them alone.
pub const SESSION_COOKIES: [&str; 5] = ["__Host-session", "session", "__Host-cpm", "cpm_session", "flash"];
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

async fn page(State(state): State<AppState>, jar: CookieJar, private: PrivateCookieJar, request: Request) -> Response {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, [(header::ALLOW, "GET, HEAD")]).into_response();
    }
    let uri = request.uri().clone();
    let local = LocalPath::parse(uri.path());
    if let Some(redirect) = canonical_redirect(&uri, &local, &jar) {
        return redirect;
    }
    match serve_page(&state, &uri, &local, request.headers(), &jar, private).await {
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
    jar: &CookieJar,
    private: PrivateCookieJar,
) -> Result<Response, AppError> {
    let cpm_signed_in = crate::account::has_cpm_session(state, &private);
    let parts = match resolve(state, local, cpm_signed_in).await? {
        Resolved::Page(parts) => *parts,
        Resolved::Redirect { location, permanent: true } => return Ok(Redirect::permanent(&location).into_response()),
        Resolved::Redirect { location, permanent: false } => return Ok(Redirect::to(&location).into_response()),
    };
    let url = uri.path_and_query().map_or_else(|| uri.path().to_owned(), |pq| pq.as_str().to_owned());
    let versions = parts.versions();
    if signed_in(jar) {
        // Built for this visitor alone: their names and balances in the first HTML.
        let mut data = parts.into_data(&state.config.site_url);
        let (subscriber, private) = crate::account::page_subscriber(state, private).await;
        let (notice, private) = crate::account::take_flash(private);
        let (cpm, private) = if data.route.name == CPM_PAGE {
            crate::account::cpm_page_permissions(state, private, local.lang).await
        } else {
            (None, private)
        };
        data.bundles = account_bundles(state, &data, subscriber.is_some()).await;
        data.subscriber = subscriber;
        data.notice = notice.map(|n| serde_json::to_value(n).expect("notice serialises"));
        data.cpm = cpm;
        let page = render(state, url, data, versions).await?;
        return Ok((private, page.respond(headers, PRIVATE)).into_response());
    }
    let key = PageCache::key(&url, &versions);
    let data = parts.into_data(&state.config.site_url);
    let page = state.pages.get_or_render(key, render(state, url, data, versions)).await?;
    Ok(page.respond(headers, &public_cache_control(state)))
}

/// The page whose purchase form lists the bundles a signed-in subscriber can buy.
const ACCOUNT_PAGE: &str = "account";

/// The catalogue in the page's language, for the account page of a signed-in
/// subscriber (the purchase form works without JavaScript too).
async fn account_bundles(state: &AppState, data: &PageData, signed_in: bool) -> Option<serde_json::Value> {
    if !signed_in || data.route.name != ACCOUNT_PAGE {
        return None;
    }
    match state.operator.bundles().await {
        Ok(bundles) => Some(crate::account::localize_bundles(&bundles, data.lang).into()),
        Err(error) => {
            tracing::warn!(%error, "bundle catalogue unavailable");
            None
        }
    }
}

/// The page whose data includes the CPM session's permissions.
const CPM_PAGE: &str = "customer-permission-management";

async fn render(state: &AppState, url: String, data: PageData, versions: Vec<u64>) -> Result<CachedPage, ssr_runtime::RenderError> {
    let assets = state.assets.for_page(&data.route.page);
    let output = state.renderer.render(RenderRequest { url, data: data.clone(), assets }).await?;
    let html = document::document(data.lang, &output, &data, &state.assets.entry);
    let status = StatusCode::from_u16(output.status).unwrap_or(StatusCode::OK);
    Ok(CachedPage::new(status, data.lang, html, versions))
}

/// `GET /_data/<path>`: the data of the page at `/<path>`, status included.
async fn page_data(State(state): State<AppState>, jar: CookieJar, private: PrivateCookieJar, uri: Uri) -> Response {
    let path = uri.path().strip_prefix(DATA_PREFIX).unwrap_or("/");
    let local = LocalPath::parse(if path.is_empty() { "/" } else { path });
    let cpm_signed_in = crate::account::has_cpm_session(&state, &private);
    match resolve(&state, &local, cpm_signed_in).await {
        // Client-side navigation to a redirect: the app follows it itself.
        Ok(Resolved::Redirect { location, .. }) => {
            (StatusCode::OK, [(header::CACHE_CONTROL, "no-store")], Json(serde_json::json!({ "redirect": location })))
                .into_response()
        }
        Ok(Resolved::Page(parts)) => {
            let mut data = parts.into_data(&state.config.site_url);
            let status = StatusCode::from_u16(data.status).unwrap_or(StatusCode::OK);
            if !signed_in(&jar) {
                return (status, [(header::CACHE_CONTROL, public_cache_control(&state))], Json(data)).into_response();
            }
            let (subscriber, private) = crate::account::page_subscriber(&state, private).await;
            let (cpm, private) = if data.route.name == CPM_PAGE {
                crate::account::cpm_page_permissions(&state, private, local.lang).await
            } else {
                (None, private)
            };
            data.bundles = account_bundles(&state, &data, subscriber.is_some()).await;
            data.subscriber = subscriber;
            data.cpm = cpm;
            (status, private, [(header::CACHE_CONTROL, PRIVATE)], Json(data)).into_response()
        }
        Err(error) => {
            let status = error.status();
            tracing::error!(%error, path = %uri.path(), "page data failed");
            (status, [(header::CACHE_CONTROL, "no-store")], Json(serde_json::json!({ "error": status.as_u16() })))
                .into_response()
        }
    }
}

/// What a path resolves to.
enum Resolved {
    Page(Box<PageParts>),
    Redirect { location: String, permanent: bool },
}

/// A matched route with its content, before it becomes [`PageData`].
struct PageParts {
    lang: Lang,
    path: String,
    status: u16,
    route: MatchedRoute,
    page: Option<Loaded>,
    sidebar: Option<Loaded>,
    list: Option<Loaded>,
    item: Option<Loaded>,
    popups: Option<Loaded>,
    alternates: Option<serde_json::Map<String, serde_json::Value>>,
}

impl PageParts {
    /// The content versions the page is built from (its cache key).
    fn versions(&self) -> Vec<u64> {
        [&self.page, &self.sidebar, &self.list, &self.item, &self.popups]
            .into_iter()
            .map(|loaded| loaded.as_ref().map_or(0, |l| l.version))
            .collect()
    }

    fn into_data(self, site_url: &str) -> PageData {
        let value = |loaded: &Option<Loaded>| loaded.as_ref().and_then(|l| l.value.as_deref().cloned());
        let page_lang = self.page.as_ref().map(|l| l.lang).filter(|lang| *lang != self.lang);
        PageData {
            lang: self.lang,
            status: self.status,
            route: self.route,
            content: PageContent {
                page: value(&self.page),
                page_lang,
                sidebar: value(&self.sidebar),
                list: value(&self.list),
                item: value(&self.item),
                popups: value(&self.popups),
            },
            alternates: self.alternates,
            subscriber: None,
            notice: None,
            cpm: None,
            bundles: None,
            site_url: site_url.to_owned(),
            path: self.path,
        }
    }

    fn not_found(state: &AppState, lang: Lang, path: &str, sidebar: Option<Loaded>) -> Resolved {
        let route = state.routes.not_found();
        Resolved::Page(Box::new(PageParts {
            lang,
            path: path.to_owned(),
            status: 404,
            route: MatchedRoute { name: route.name.clone(), page: NOT_FOUND_PAGE.into(), params: Default::default() },
            page: None,
            sidebar,
            list: None,
            item: None,
            popups: None,
            alternates: None,
        }))
    }
}

/// Matches the route, then loads everything it shows in parallel: its
/// content (or its parent's), the sidebar, its list, its item and popups.
/// The sidebar is not worth failing a page for; the rest is.
async fn resolve(state: &AppState, local: &LocalPath, cpm_signed_in: bool) -> Result<Resolved, AppError> {
    let matched = state.routes.matches(&local.path);
    let route = matched.route;
    let param = |name: &str| matched.params.get(name).and_then(|v| v.as_str());
    if let Some(redirect) = &route.redirect {
        let location = if redirect.to.starts_with('/') { LocalPath::href(local.lang, &redirect.to) } else { redirect.to.clone() };
        return Ok(Resolved::Redirect { location, permanent: redirect.permanent });
    }
    if route.meta.requires_auth && !cpm_signed_in {
        let login = state.routes.by_name("cpm-login").map_or("/", |r| r.path.as_str());
        return Ok(Resolved::Redirect { location: LocalPath::href(local.lang, login), permanent: false });
    }
    let lang = local.lang;
    let content = &state.content;
    let item_id = param("id").map(|id| id.parse::<u64>().ok());
    let query = |query: Option<ContentQuery>| async move {
        match query {
            Some(query) => content.get(&query, lang).await.map(Some),
            None => Ok(None),
        }
    };
    let list_query = route.list.as_ref().map(|list| ContentQuery::List {
        collection: list.collection.clone(),
        page_size: list.page_size,
        filter: list.filter.as_ref().map(|f| (f.field.clone(), f.value.clone())),
    });
    let list_query = list_query.or_else(|| route.all.clone().map(ContentQuery::All));
    let item_query = match (&route.item, item_id) {
        (Some(collection), Some(Some(id))) => Some(ContentQuery::Item { collection: collection.clone(), id }),
        _ => None,
    };
    let (page, sidebar, list, item, popups) = tokio::join!(
        query(content_key(state, route).map(ContentQuery::single)),
        query(Some(ContentQuery::single("sidebar"))),
        query(list_query),
        query(item_query.clone()),
        query(route.popups.clone().map(ContentQuery::Popups)),
    );
    let sidebar = sidebar.map_err(|error| tracing::warn!(%error, "sidebar unavailable")).ok().flatten();
    let (page, list, item, popups) = (page?, list?, item?, popups?);

    // Anything the route needs and the source lacks makes the path as
    // missing as an unknown one.
    let lacks = |loaded: &Option<Loaded>| loaded.as_ref().is_none_or(|l| l.value.is_none());
    let missing = route.page.as_deref() == Some(NOT_FOUND_PAGE)
        || route.page.is_none()
        || (route.content.is_some() && lacks(&page))
        || (route.item.is_some() && lacks(&item))
        || (route.page.as_deref() == Some("faq") && param("item").is_some_and(|slug| !has_question(&page, slug)));
    if missing {
        return Ok(PageParts::not_found(state, lang, &local.path, sidebar));
    }

    let mut alternates = None;
    if let (Some(item_query), Some(loaded)) = (&item_query, &item) {
        let slug = item_slug(loaded);
        let id = item_id.flatten().unwrap_or_default().to_string();
        if param("slug") != Some(slug.as_str()) {
            let canonical = route.href(&[("id", &id), ("slug", &slug)]);
            return Ok(Resolved::Redirect { location: LocalPath::href(lang, &canonical), permanent: true });
        }
        // Each language has its own slug: alternates point at both.
        let other = if lang == Lang::En { Lang::Sw } else { Lang::En };
        let other_slug = content.get(item_query, other).await.ok().filter(|l| l.value.is_some()).map(|l| item_slug(&l));
        let mut paths = serde_json::Map::new();
        paths.insert(lang.code().into(), route.href(&[("id", &id), ("slug", &slug)]).into());
        let other_slug = other_slug.unwrap_or(slug);
        paths.insert(other.code().into(), route.href(&[("id", &id), ("slug", &other_slug)]).into());
        alternates = Some(paths);
    }

    Ok(Resolved::Page(Box::new(PageParts {
        lang,
        path: local.path.clone(),
        status: 200,
        route: MatchedRoute {
            name: route.name.clone(),
            page: route.page.clone().unwrap_or_default(),
            params: matched.params,
        },
        page,
        sidebar,
        list,
        item,
        popups,
        alternates,
    })))
}

fn item_slug(item: &Loaded) -> String {
    item.value.as_deref().and_then(|v| v.get("slug")).and_then(|s| s.as_str()).unwrap_or_default().to_owned()
}

/// Whether a FAQ page has a question whose slug is `slug`.
fn has_question(page: &Option<Loaded>, slug: &str) -> bool {
    let Some(value) = page.as_ref().and_then(|p| p.value.as_deref()) else { return false };
    let sections = value.get("sections").and_then(|s| s.as_array()).into_iter().flatten();
    sections
        .filter_map(|section| section.get("items").and_then(|items| items.as_array()))
        .flatten()
        .filter_map(|item| item.get("question").and_then(|q| q.as_str()))
        .any(|question| crate::slug::slugify(question) == slug)
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
