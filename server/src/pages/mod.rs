//! Every page of the site: `GET /…` (English) and `GET /sw/…` (Swahili) as
//! server-rendered HTML, and `GET /_data/…` as the same page's data in JSON
//! for client-side navigation.

mod account;
mod cache;
mod document;
mod fast;
mod prerender;
mod splice;

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::get;
use axum_extra::extract::{CookieJar, PrivateCookieJar};
use axum_extra::extract::cookie::{Cookie, SameSite};
use contract::Lang;
use contract::content::Section;
use contract::page::{BundleOffer, FormState, MatchedRoute, PageContent, PageData, Pager, RenderOutput, RenderRequest};
use ssr_runtime::RenderError;

pub use cache::PageCache;
pub use fast::FastPages;
pub use prerender::Prerender;
pub(crate) use fast::serve as fast_path;
pub(crate) use splice::NAME_SLOT;
use cache::CachedPage;

use crate::account::{PageExtras, Visit};
use crate::content::{ContentError, ContentQuery, ContentValue, Loaded, Verdict};
use crate::manifest::{CollectionList, NOT_FOUND_PAGE, RouteDef};
use crate::web::Location;
use crate::{AppError, AppState, connections};

use crate::web::LANG_COOKIE;
const DATA_PREFIX: &str = "/_data";
const PRIVATE: &str = "private, no-store";

/// The page data (`/_data/…`).
pub fn router() -> Router<AppState> {
    Router::new().route("/_data/", get(page_data)).route("/_data/{*path}", get(page_data))
}

/// Every page: what no other route of the server answers.
pub fn fallback() -> Router<AppState> {
    Router::new().fallback(page)
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
        lang.href(path)
    }
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
    if let Some(redirect) = canonical_redirect(&uri, &local, &jar, state.config.is_https()) {
        return redirect;
    }
    let client = crate::connections::client_address(request.extensions());
    match serve_page(&state, &uri, &local, request.headers(), private, client).await {
        Ok(response) => response,
        Err(error) => error.into_page(local.lang),
    }
}

/// Redirects that come before rendering: a trailing slash, a language chosen
/// with `?lang=` (remembered in the cookie), and `/` for a visitor who chose
/// Swahili before.
fn canonical_redirect(uri: &Uri, local: &LocalPath, jar: &CookieJar, https: bool) -> Option<Response> {
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
        return Some(Location::site(&target).permanent());
    }
    let mut query = query_pairs(uri.query());
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
            // Not HttpOnly: the language switch writes it from the page too
            // (no round trip on a slow link); nothing reads it but the server.
            .secure(https)
            .build();
        let mut response = Location::site(&target).see_other();
        response.headers_mut().insert(header::SET_COOKIE, HeaderValue::from_str(&cookie.to_string()).expect("cookie"));
        response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        return Some(response);
    }
    let remembered = jar.get(LANG_COOKIE).map(|c| Lang::parse(c.value()));
    if path == "/" && remembered == Some(Lang::Sw) {
        let mut response = Location::site("/sw").see_other();
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
    private: PrivateCookieJar,
    client: IpAddr,
) -> Result<Response, AppError> {
    // A preview of the CMS's drafts: read for this request, rendered for it alone.
    let previewing = state.preview.as_ref().filter(|preview| preview.active(&private));
    let content = previewing.map_or(&state.content, |preview| preview.content());
    let visit = Visit::read(state, private).await;
    let parts = match resolve(state, content, local, visit.cpm_signed_in(), &query_pairs(uri.query())).await? {
        Resolved::Page(parts) => *parts,
        // A draft's address is not for browsers to remember.
        Resolved::Redirect { location, permanent: true } if previewing.is_none() => return Ok(location.permanent()),
        Resolved::Redirect { location, .. } => return Ok(location.see_other()),
    };
    let reads = state.routes.by_name(&parts.route.name).map_or(&[][..], |route| route.query.as_slice());
    let url = page_url(&LocalPath::href(parts.lang, &parts.path), &query_pairs(uri.query()), reads);
    let mut versions = parts.versions();
    if parts.route.page == SEARCH_PAGE {
        // Its results come from the index as much as from content.
        versions.push(state.search.builds());
    }
    let key = PageCache::key(&parts.route.name, &url, &versions);
    // A signed-in subscriber: the page cached for everyone, with their own
    // parts put in (`splice`), where that is all they have of their own.
    let own = if parts.route.page == ACCOUNT_PAGE || previewing.is_some() { None } else { visit.own_parts(local.lang) };
    let mut data = parts.into_data(&state.config.site_url);
    with_search(state, &mut data, uri.query());
    data.preview = previewing.map(|preview| preview.page(local.lang, &local.path));
    if let Some(own) = own {
        let own = splice::OwnParts {
            name_html: splice::escape_text(&own.name),
            subscriber_json: document::script_escaped(&own.subscriber.to_string()),
            ..splice::OwnParts::default()
        };
        let page = match stale_while_refreshing(state, &key, &url, &data, &versions).await {
            Some(stale) => stale,
            None => state.pages.get_or_render(key.clone(), || render_for(state, client, url.clone(), data.clone(), versions.clone())).await?,
        };
        if let Some(response) = page.respond_own(headers, &own) {
            return Ok(response);
        }
        // Not spliceable (said when it was rendered): rendered for them below.
    }
    // Built for this visitor alone: their names (and balances, on the account
    // page) in the first HTML, or the notice a form post left them. Any other
    // cookie (junk, expired, forged) gets the shared cached page, so no cookie
    // buys a render.
    if previewing.is_some() || visit.has_flash() || visit.signed_in() {
        let session = visit.session_key();
        // The account page of a subscriber with nothing else of their own:
        // the page for their kind with their part put in (`account`).
        let account_view = data.route.page == ACCOUNT_PAGE && !state.config.account_full_render && visit.own_parts(local.lang).is_some();
        // The CPM page of a CPM session with nothing else of its own: the
        // page for every CPM session with its permissions put in (`account`).
        let cpm_view = (data.route.name == crate::account::CPM_PAGE && !state.config.account_full_render).then(|| visit.cpm_only()).flatten();
        let (extras, private) = visit.extras(state, &data.route.name, local.lang, true).await;
        if let (true, Some(subscriber)) = (account_view, &extras.subscriber) {
            let confirm = query_pairs(uri.query()).iter().any(|(name, value)| name == "step" && value == "confirm");
            let shown = account::respond(state, client, session.clone(), headers, &key, &url, &data, &versions, subscriber.clone(), confirm).await?;
            if let Some(response) = shown {
                return Ok((private, response).into_response());
            }
        }
        if let Some(cpm_session) = cpm_view {
            let shown = account::respond_cpm(state, client, cpm_session, headers, &key, &url, &data, &versions, extras.cpm.clone()).await?;
            if let Some(response) = shown {
                return Ok((private, response).into_response());
            }
        }
        with_extras(&mut data, extras);
        let signed_in_session = session.is_some();
        let _turn = state.personal_renders.turn(session, state.renderer.queue_wait()).await?;
        // A subscriber's renders are bounded by their session, not shared
        // with the pages for everyone of their address (a carrier's NAT).
        let page = if signed_in_session { render(state, url, data, versions).await.map_err(Unbuilt::Render)? } else { render_for(state, client, url, data, versions).await? };
        let response = (private, page.respond(headers, PRIVATE)).into_response();
        return Ok(match previewing {
            Some(preview) => preview.respond(response),
            None => response,
        });
    }
    if let Some(stale) = stale_while_refreshing(state, &key, &url, &data, &versions).await {
        // Kept by no other cache (and not by the fast path): its new copy is on its way.
        return Ok(stale.respond(headers, "no-cache"));
    }
    let page = state.pages.get_or_render(key, || render_for(state, client, url, data, versions)).await?;
    // A page whose content failed says so to no cache: the next visitor may get it whole.
    let cache_control = if page.status.is_server_error() { "no-store".to_owned() } else { public_cache_control(state) };
    Ok(page.respond_shared(headers, &cache_control))
}

/// The page kept for this address from the content before the last change,
/// with the page for the current content rendering in the background (see
/// `cache`): a page that has a kept copy is never refused or made to wait
/// for a render. `None` when there is no such copy.
async fn stale_while_refreshing(state: &AppState, key: &str, url: &str, data: &PageData, versions: &[u64]) -> Option<Arc<CachedPage>> {
    let stale = state.pages.stale(key).await?;
    let (owned, url, data, versions) = (state.clone(), url.to_owned(), data.clone(), versions.to_vec());
    state.pages.refresh(key.to_owned(), move || async move { render(&owned, url, data, versions).await.map_err(Unbuilt::Render) });
    Some(stale)
}

/// Renders the anonymous page at `address` (a path, `/sw/…` in Swahili) into
/// the page cache unless it is there: the page, and whether it was rendered
/// now. A redirect is nothing to render.
async fn prerender(state: &AppState, address: &str) -> Result<Option<(std::sync::Arc<CachedPage>, bool)>, AppError> {
    let local = LocalPath::parse(address);
    let parts = match resolve(state, &state.content, &local, false, &[]).await? {
        Resolved::Page(parts) => *parts,
        Resolved::Redirect { .. } => return Ok(None),
    };
    let reads = state.routes.by_name(&parts.route.name).map_or(&[][..], |route| route.query.as_slice());
    let url = page_url(&LocalPath::href(parts.lang, &parts.path), &[], reads);
    let versions = parts.versions();
    let key = PageCache::key(&parts.route.name, &url, &versions);
    let data = parts.into_data(&state.config.site_url);
    let mut rendered = false;
    let build = async {
        rendered = true;
        render(state, url, data, versions).await.map_err(Unbuilt::Render)
    };
    let page = state.pages.get_or_render(key, || build).await?;
    Ok(Some((page, rendered)))
}

/// The page at `path` in `lang` built for this visitor alone, answered with
/// `status`: a form posted without JavaScript, sent back with what was typed
/// and what is wrong beside its fields.
pub(crate) async fn form_page(state: &AppState, lang: Lang, path: &str, status: StatusCode, form: FormState) -> Response {
    let local = LocalPath { lang, path: path.to_owned() };
    let parts = match resolve(state, &state.content, &local, false, &[]).await {
        Ok(Resolved::Page(parts)) => *parts,
        Ok(Resolved::Redirect { location, .. }) => return location.see_other(),
        Err(error) => return error.into_page(lang),
    };
    let versions = parts.versions();
    let mut data = parts.into_data(&state.config.site_url);
    data.status = status.as_u16();
    data.form = Some(form);
    let page = async {
        let _turn = state.personal_renders.turn(None, state.renderer.queue_wait()).await?;
        render(state, lang.href(path), data, versions).await.map_err(Unbuilt::Render)
    };
    match page.await {
        Ok(page) => {
            let mut response = page.respond(&HeaderMap::new(), PRIVATE);
            *response.status_mut() = status;
            response
        }
        Err(error) => AppError::from(error).into_page(lang),
    }
}

/// The address a page is rendered and cached for: its path and only the
/// query parameters the route reads, in the order they came.
fn page_url(path: &str, query: &[(String, String)], reads: &[String]) -> String {
    let kept: Vec<&(String, String)> = query.iter().filter(|(name, _)| reads.contains(name)).collect();
    match serde_urlencoded::to_string(&kept) {
        Ok(query) if !query.is_empty() => format!("{path}?{query}"),
        _ => path.to_owned(),
    }
}

/// A request's query string as pairs; none for an absent or unreadable one.
fn query_pairs(query: Option<&str>) -> Vec<(String, String)> {
    query.and_then(|q| serde_urlencoded::from_str(q).ok()).unwrap_or_default()
}

/// The page kind of `/search`.
const SEARCH_PAGE: &str = "search";
/// The page kind of `/account`, which sells every bundle sold online.
pub(crate) const ACCOUNT_PAGE: &str = "account";

/// On the search page, what the site search finds for its `q`.
fn with_search(state: &AppState, data: &mut PageData, query: Option<&str>) {
    if data.route.page != SEARCH_PAGE {
        return;
    }
    let q = query
        .and_then(|q| serde_urlencoded::from_str::<Vec<(String, String)>>(q).ok())
        .and_then(|pairs| pairs.into_iter().find(|(name, _)| name == "q"))
        .map(|(_, value)| value)
        .unwrap_or_default();
    data.search = Some(state.search.search(data.lang, &q));
}

/// A visitor's own parts of a page, in its data.
fn with_extras(data: &mut PageData, extras: PageExtras) {
    data.subscriber = extras.subscriber;
    data.notice = extras.notice;
    data.cpm = extras.cpm;
}

/// The status of a page whose content failed: its own when it is an error
/// already (a 404 stays a 404), else 503 so crawlers come back later.
fn failure_status(status: u16) -> u16 {
    if status >= 400 { status } else { 503 }
}

/// Why a page was not built: its client has as many renders under way as it
/// may, or the render failed. Shared by every request waiting for the page.
#[derive(Debug, Clone)]
enum Unbuilt {
    ClientBusy,
    Render(RenderError),
}

impl From<Unbuilt> for AppError {
    fn from(unbuilt: Unbuilt) -> AppError {
        match unbuilt {
            Unbuilt::ClientBusy => AppError::ClientBusy,
            Unbuilt::Render(error) => AppError::Render(error),
        }
    }
}

/// Renders for one visitor (the account page, CPM, a page with a flash
/// notice or a form sent back): one at a time per session, and at most half
/// the engines in all, so that they wait their turn (as long as an engine,
/// `RENDER_QUEUE_TIMEOUT_MS`, then 503) before they delay a page for
/// everyone, whose renders always have the other half. A subscriber's
/// session bounds their renders in place of their address's share, which
/// the pages for everyone behind the same address keep.
#[derive(Clone)]
pub struct PersonalRenders {
    engines: std::sync::Arc<tokio::sync::Semaphore>,
    limit: usize,
    sessions: connections::Shares<crate::account::session::SessionKey>,
}

/// A personal render's turn, given back when dropped.
pub struct Turn {
    _engine: tokio::sync::OwnedSemaphorePermit,
    _session: Option<connections::Share<crate::account::session::SessionKey>>,
}

impl PersonalRenders {
    pub fn new(workers: usize) -> PersonalRenders {
        let limit = (workers / 2).max(1);
        PersonalRenders { engines: std::sync::Arc::new(tokio::sync::Semaphore::new(limit)), limit, sessions: connections::Shares::new(1) }
    }

    /// Personal renders under way (`/healthz?detail`).
    pub fn running(&self) -> usize {
        self.limit - self.engines.available_permits()
    }

    /// A turn for a render for the visitor of `session`, waiting at most `wait`.
    async fn turn(&self, session: Option<crate::account::session::SessionKey>, wait: std::time::Duration) -> Result<Turn, Unbuilt> {
        let session = match session {
            Some(key) => Some(self.session_turn(key, wait).await?),
            None => None,
        };
        let engine = tokio::time::timeout(wait, self.engines.clone().acquire_owned())
            .await
            .map_err(|_| shed(Unbuilt::Render(RenderError::QueueTimeout(wait))))?
            .expect("the semaphore is never closed");
        Ok(Turn { _engine: engine, _session: session })
    }

    /// The session's turn alone, for a render as small as a page for
    /// everyone's share of one (the account page's personal part): one at a
    /// time per session, on any engine.
    async fn session_turn(
        &self,
        session: crate::account::session::SessionKey,
        wait: std::time::Duration,
    ) -> Result<connections::Share<crate::account::session::SessionKey>, Unbuilt> {
        self.sessions.take(session, wait).await.map_err(|refused| shed(refused.into()))
    }
}

/// A personal render refused: counted.
fn shed(unbuilt: Unbuilt) -> Unbuilt {
    metrics::counter!("personal_renders_shed_total").increment(1);
    unbuilt
}

impl From<connections::NoShare> for Unbuilt {
    fn from(refused: connections::NoShare) -> Unbuilt {
        match refused {
            connections::NoShare::Busy => Unbuilt::ClientBusy,
            connections::NoShare::Waited(wait) => Unbuilt::Render(RenderError::QueueTimeout(wait)),
        }
    }
}

/// [`render`] on behalf of `client`, within its share of the engines
/// (`RENDERS_PER_ADDRESS`), so that no address holds every engine: past its
/// share a request waits its turn behind the address's own renders (as long
/// as an engine, `RENDER_QUEUE_TIMEOUT_MS`, then 503), and past
/// [`connections::WAITING_PER_SHARE`] times that it is refused at once (429).
/// Requests that wait for a page another request is rendering hold no share.
async fn render_for(state: &AppState, client: IpAddr, url: String, data: PageData, versions: Vec<u64>) -> Result<CachedPage, Unbuilt> {
    let _share = state.renders.take(client, state.renderer.queue_wait()).await?;
    render(state, url, data, versions).await.map_err(Unbuilt::Render)
}

async fn render(state: &AppState, url: String, data: PageData, versions: Vec<u64>) -> Result<CachedPage, RenderError> {
    render_as(state, url, data, versions, false).await
}

/// [`render`], with the page's personal part (the account page's, the CPM
/// page's) alone too when `personal_part` (see `account`).
async fn render_as(state: &AppState, url: String, data: PageData, versions: Vec<u64>, personal_part: bool) -> Result<CachedPage, RenderError> {
    let started = std::time::Instant::now();
    let page = render_page(state, url, data, versions, personal_part).await;
    let outcome = match &page {
        Ok(_) => "ok",
        Err(RenderError::Overloaded | RenderError::QueueTimeout(_)) => "shed",
        Err(_) => "error",
    };
    metrics::histogram!("render_duration_seconds", "outcome" => outcome).record(started.elapsed().as_secs_f64());
    page
}

async fn render_page(state: &AppState, url: String, data: PageData, versions: Vec<u64>, personal_part: bool) -> Result<CachedPage, RenderError> {
    let assets = state.assets.for_page(&data.route.page);
    let account_slot = for_everyone(&data).then(|| splice::NAME_SLOT.to_owned());
    let request = RenderRequest { url, data, assets, account_slot, personal_part };
    let (output, data) = match state.renderer.render::<_, RenderOutput>(&request).await {
        Ok(output) => (output, request.data),
        // Defence in depth: content that passed the parser and still breaks a
        // component costs the visitor the content, not the page: the frame
        // (header, menu, footer) with the content-failure message instead.
        Err(RenderError::Js { message, stack }) if !request.data.content.failed => {
            tracing::error!(url = %request.url, %message, stack = stack.as_deref().unwrap_or(""), "render threw; serving the page frame without its content");
            let RenderRequest { url, mut data, assets, account_slot, personal_part } = request;
            data.content = PageContent { failed: true, ..PageContent::default() };
            data.status = failure_status(data.status);
            let request = RenderRequest { url, data, assets, account_slot, personal_part };
            (state.renderer.render::<_, RenderOutput>(&request).await?, request.data)
        }
        Err(error) => return Err(error),
    };
    let html = document::document(data.lang, &output, &data, &state.assets.enhance);
    let status = StatusCode::from_u16(output.status).unwrap_or(StatusCode::OK);
    // The personal part's member of the page data: the CPM page's permissions, the account page's subscriber.
    let member = (data.cpm.as_ref().map(|cpm| (splice::PersonalData::Cpm, cpm)))
        .or(data.subscriber.as_ref().map(|subscriber| (splice::PersonalData::Subscriber, subscriber)))
        .map(|(member, value)| (member, document::script_escaped(&value.to_string())));
    let splice = move |html: &[u8]| match (&output.account, &output.personal, &member) {
        (Some(controls), _, _) => splice::prepare(html, controls),
        (None, Some(personal), Some((member, json))) => splice::prepare_personal(html, personal, *member, json),
        _ => None,
    };
    Ok(CachedPage::new(status, data.lang, html, versions, splice))
}

/// [`splice::bench`] for the page a render gave: `output` of `data`, its
/// document loading `entry`. `None` when it cannot take a subscriber's parts.
pub(crate) fn splice_bench(output: &RenderOutput, data: &PageData, entry: &str, runs: usize) -> Option<String> {
    splice::bench(document::document(data.lang, output, data, entry), output.account.as_ref()?, runs)
}

/// A page the same for everyone, that a signed-in subscriber gets with
/// their own parts put in: no visitor's parts in it, and not the account
/// page, which is all the subscriber's own.
pub(crate) fn for_everyone(data: &PageData) -> bool {
    data.subscriber.is_none() && data.preview.is_none() && data.cpm.is_none() && data.notice.is_none() && data.form.is_none() && data.route.page != ACCOUNT_PAGE
}

/// `GET /_data/<path>`: the data of the page at `/<path>`, status included.
async fn page_data(State(state): State<AppState>, private: PrivateCookieJar, uri: Uri) -> Response {
    let path = uri.path().strip_prefix(DATA_PREFIX).unwrap_or("/");
    let local = LocalPath::parse(if path.is_empty() { "/" } else { path });
    let visit = Visit::read(&state, private).await;
    match resolve(&state, &state.content, &local, visit.cpm_signed_in(), &query_pairs(uri.query())).await {
        // Client-side navigation to a redirect: the app follows it itself.
        Ok(Resolved::Redirect { location, .. }) => {
            (StatusCode::OK, [(header::CACHE_CONTROL, "no-store")], Json(serde_json::json!({ "redirect": location.as_str() })))
                .into_response()
        }
        Ok(Resolved::Page(parts)) => {
            let mut data = parts.into_data(&state.config.site_url);
            with_search(&state, &mut data, uri.query());
            let status = StatusCode::from_u16(data.status).unwrap_or(StatusCode::OK);
            if !visit.signed_in() {
                return (status, [(header::CACHE_CONTROL, public_cache_control(&state))], Json(data)).into_response();
            }
            let (extras, private) = visit.extras(&state, &data.route.name, local.lang, false).await;
            with_extras(&mut data, extras);
            (status, private, [(header::CACHE_CONTROL, PRIVATE)], Json(data)).into_response()
        }
        Err(error) => {
            tracing::error!(%error, path = %uri.path(), "page data failed");
            error.reply().into_response()
        }
    }
}

/// What a path resolves to.
enum Resolved {
    Page(Box<PageParts>),
    Redirect { location: Location, permanent: bool },
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
    alternates: Option<BTreeMap<Lang, String>>,
    /// The catalogue's bundles the page shows, if it shows any.
    bundles: Option<PageBundles>,
    /// On a list page, which of its pages this is, and the version of the
    /// index that counted them (0: counted from the list itself).
    pager: Option<(Pager, u64)>,
    /// The content could not be loaded: the page frame with the spec §8 message.
    failed: bool,
}

/// The bundles of the operator's catalogue a page shows, and the version of
/// the catalogue they come from.
struct PageBundles {
    /// `None`: the catalogue cannot be read (tables say so instead).
    offers: Option<Vec<BundleOffer>>,
    version: u64,
}

impl PageParts {
    /// The content (and catalogue) versions the page is built from (its cache key).
    fn versions(&self) -> Vec<u64> {
        let content = [&self.page, &self.sidebar, &self.list, &self.item, &self.popups].into_iter().map(|loaded| loaded.as_ref().map_or(0, |l| l.version));
        content.chain(self.bundles.as_ref().map(|bundles| bundles.version)).chain(self.pager.map(|(_, version)| version)).collect()
    }

    fn into_data(self, site_url: &str) -> PageData {
        fn part<'a, T: Clone + 'a>(loaded: &'a Option<Loaded>, pick: impl Fn(&'a ContentValue) -> Option<&'a T>) -> Option<T> {
            loaded.as_ref().and_then(|l| l.value.as_deref()).and_then(pick).cloned()
        }
        let page_lang = self.page.as_ref().map(|l| l.lang).filter(|lang| *lang != self.lang);
        PageData {
            lang: self.lang,
            status: self.status,
            route: self.route,
            content: PageContent {
                page: part(&self.page, ContentValue::page),
                page_lang,
                sidebar: part(&self.sidebar, ContentValue::sidebar),
                list: part(&self.list, ContentValue::list),
                item: part(&self.item, ContentValue::item),
                popups: part(&self.popups, ContentValue::popups),
                failed: self.failed,
            },
            alternates: self.alternates,
            subscriber: None,
            notice: None,
            cpm: None,
            bundles: self.bundles.and_then(|bundles| bundles.offers),
            form: None,
            search: None,
            pager: self.pager.map(|(pager, _)| pager),
            preview: None,
            site_url: site_url.to_owned(),
            path: self.path,
        }
    }

    /// The same page for every address that has none: it is rendered and
    /// cached once per language and content version, so random addresses
    /// cost no render. Having no address of its own, its links (the
    /// language switch, the way back after signing in) lead home.
    fn not_found(state: &AppState, lang: Lang, sidebar: Option<Loaded>) -> Resolved {
        let route = state.routes.not_found();
        let route = MatchedRoute { name: route.name.clone(), page: NOT_FOUND_PAGE.into(), params: Default::default() };
        PageParts::frame(lang, "/", 404, route, sidebar, false)
    }

    /// The route's frame without its content, which could not be loaded.
    fn failed(lang: Lang, path: &str, route: MatchedRoute, sidebar: Option<Loaded>) -> Resolved {
        PageParts::frame(lang, path, failure_status(200), route, sidebar, true)
    }

    /// A page with no content of its own: header, menu, footer around its message.
    fn frame(lang: Lang, path: &str, status: u16, route: MatchedRoute, sidebar: Option<Loaded>, failed: bool) -> Resolved {
        Resolved::Page(Box::new(PageParts {
            lang,
            path: path.to_owned(),
            status,
            route,
            page: None,
            sidebar,
            list: None,
            item: None,
            popups: None,
            alternates: None,
            bundles: None,
            pager: None,
            failed,
        }))
    }
}

/// A part of the page that is not worth failing it for: logged, then left out.
fn or_leave_out(part: Result<Option<Loaded>, ContentError>, what: &str) -> Option<Loaded> {
    part.map_err(|error| tracing::warn!(%error, "{what} unavailable")).ok().flatten()
}

/// Whether `route` (what an address matched) is no page: the address gets
/// the one not-found page of its language. A redirect or a page behind the
/// CPM sign-in is answered before this is asked.
fn unrouted(route: &RouteDef) -> bool {
    route.redirect.is_none() && !route.meta.requires_auth && (route.page.as_deref() == Some(NOT_FOUND_PAGE) || route.page.is_none())
}

/// Matches the route, then loads everything it shows in parallel: its
/// content (or its parent's), the sidebar, its list, its item and popups.
/// The sidebar, list and popups are not worth failing a page for. Without
/// its content or item (the CMS lacks the type, or fails with no stale copy)
/// the page is its frame with the content-failure message and 503; an item
/// the CMS does not have is a 404, and so is a list page past the last
/// (`?page=N`, of the query parameters `params`).
async fn resolve(state: &AppState, content: &crate::content::Content, local: &LocalPath, cpm_signed_in: bool, params: &[(String, String)]) -> Result<Resolved, AppError> {
    let matched = state.routes.matches(&local.path);
    let route = matched.route;
    let param = |name: &str| matched.params.get(name).map(String::as_str);
    if let Some(redirect) = &route.redirect {
        let location = if redirect.to.starts_with('/') { Location::site(&LocalPath::href(local.lang, &redirect.to)) } else { Location::external(&redirect.to) };
        return Ok(Resolved::Redirect { location, permanent: redirect.permanent });
    }
    if route.meta.requires_auth && !cpm_signed_in {
        let login = state.routes.by_name("cpm-login").map_or("/", |r| r.path.as_str());
        return Ok(Resolved::Redirect { location: Location::site(&LocalPath::href(local.lang, login)), permanent: false });
    }
    let lang = local.lang;
    // Only a positive whole number is an item id worth asking the CMS for.
    let item_id = param("id").map(|id| id.parse::<u32>().ok().filter(|id| *id > 0));
    let query = |query: Option<ContentQuery>| async move {
        match query {
            Some(query) => content.get(&query, lang).await.map(Some),
            None => Ok(None),
        }
    };
    // A list page: which one, and of how many as its collection's index counts.
    let counted = match route.list.as_ref() {
        Some(list) => list_pages(state, list, lang).await,
        None => None,
    };
    let shown_page = route.list.as_ref().map(|_| {
        let page = list_page(params);
        let past_end = match (page, counted) {
            (Some(page), Some((pages, _))) => page > pages,
            (page, _) => page.is_none(),
        };
        (page.filter(|_| !past_end), counted)
    });
    let list_query = route.list.as_ref().zip(shown_page.and_then(|(page, _)| page)).map(|(list, page)| ContentQuery::List {
        collection: list.collection,
        page_size: list.page_size,
        filter: list.filter.as_ref().map(|f| (f.field.clone(), f.value.clone())),
        page,
    });
    let list_query = list_query.or_else(|| route.all.map(ContentQuery::All));
    let item_query = match (route.item, item_id) {
        (Some(collection), Some(Some(id))) if state.items.verdict(content, collection, id) == Verdict::Ask => Some(ContentQuery::Item { collection, id }),
        _ => None,
    };
    let (page, sidebar, list, item, popups) = tokio::join!(
        query(content_key(state, route).map(ContentQuery::single)),
        query(Some(ContentQuery::single("sidebar"))),
        query(list_query),
        query(item_query.clone()),
        query(route.popups.clone().map(ContentQuery::Popups)),
    );
    let sidebar = or_leave_out(sidebar, "sidebar");
    let (list, popups) = (or_leave_out(list, "list"), or_leave_out(popups, "popups"));

    let matched_route = MatchedRoute { name: route.name.clone(), page: route.page.clone().unwrap_or_default(), params: matched.params.clone() };
    let lacks = |loaded: &Option<Loaded>| loaded.as_ref().is_none_or(|l| l.value.is_none());
    if unrouted(route) {
        return Ok(PageParts::not_found(state, lang, sidebar));
    }
    let item = match item {
        Ok(item) if route.item.is_some() && lacks(&item) => {
            // A draft missing says nothing of what is published.
            if let Some(ContentQuery::Item { collection, id }) = &item_query
                && !content.is_preview()
            {
                state.items.missed(*collection, *id);
            }
            if let Some(moved) = item_by_slug(content, route, param("slug"), lang).await {
                return Ok(Resolved::Redirect { location: Location::site(&LocalPath::href(lang, &moved)), permanent: true });
            }
            return Ok(PageParts::not_found(state, lang, sidebar));
        }
        Ok(item) => item,
        Err(error) => {
            tracing::warn!(%error, path = %local.path, "item unavailable");
            return Ok(PageParts::failed(lang, &local.path, matched_route, sidebar));
        }
    };
    let page = match page {
        Ok(page) if route.content.is_some() && lacks(&page) => {
            tracing::warn!(path = %local.path, content = ?content_key(state, route), lang = lang.code(), "the content source has no such single type");
            return Ok(PageParts::failed(lang, &local.path, matched_route, sidebar));
        }
        Ok(page) => page,
        Err(error) => {
            tracing::warn!(%error, path = %local.path, "page content unavailable");
            return Ok(PageParts::failed(lang, &local.path, matched_route, sidebar));
        }
    };
    if route.page.as_deref() == Some("faq") && param("item").is_some_and(|slug| !has_question(&page, slug)) {
        return Ok(PageParts::not_found(state, lang, sidebar));
    }
    let pager = match (route.list.as_ref(), shown_page) {
        (Some(_), Some((None, _))) => return Ok(PageParts::not_found(state, lang, sidebar)),
        (Some(spec), Some((Some(page), counted))) => match list_pager(spec, page, counted, &list) {
            Some(pager) => Some(pager),
            None => return Ok(PageParts::not_found(state, lang, sidebar)),
        },
        _ => None,
    };

    let mut alternates = None;
    if let (Some(item_query), Some(loaded)) = (&item_query, &item) {
        // The item's own id: in Strapi 5 each language's version has its own.
        let (id, slug) = item_address(loaded).unwrap_or_default();
        let id = id.to_string();
        if param("slug") != Some(slug.as_str()) || param("id") != Some(id.as_str()) {
            let canonical = route.href(&[("id", &id), ("slug", &slug)]);
            return Ok(Resolved::Redirect { location: Location::site(&LocalPath::href(lang, &canonical)), permanent: true });
        }
        // Each language has its own slug (and perhaps id): alternates point at both.
        let other = if lang == Lang::En { Lang::Sw } else { Lang::En };
        let other_address = content.get(item_query, other).await.ok().and_then(|l| item_address(&l));
        let (other_id, other_slug) = other_address.map_or_else(|| (id.clone(), slug.clone()), |(id, slug)| (id.to_string(), slug));
        let mut paths = BTreeMap::new();
        paths.insert(lang, route.href(&[("id", &id), ("slug", &slug)]));
        paths.insert(other, route.href(&[("id", &other_id), ("slug", &other_slug)]));
        alternates = Some(paths);
    }

    let bundles = page_bundles(state, route, &page, lang).await;
    Ok(Resolved::Page(Box::new(PageParts {
        lang,
        path: local.path.clone(),
        status: 200,
        route: matched_route,
        page,
        sidebar,
        list,
        item,
        popups,
        alternates,
        bundles,
        pager,
        failed: false,
    })))
}

/// The list page `?page=` asks for: 1 without one, `None` for one that is
/// no page number.
fn list_page(query: &[(String, String)]) -> Option<u32> {
    match query.iter().find(|(name, _)| name == LIST_PAGE) {
        None => Some(1),
        Some((_, page)) if page.len() <= 6 && page.bytes().all(|b| b.is_ascii_digit()) => page.parse().ok().filter(|page| *page >= 1),
        Some(_) => None,
    }
}

/// The query parameter of a list page's number.
pub(super) const LIST_PAGE: &str = "page";

/// How many pages `list` has in `lang` as its collection's index counts
/// them (a Swahili list with no items shows the English one), and the
/// index's version; `None` when the index cannot be read (the pager is
/// then estimated from the list). The index is read if memory lacks it, so
/// a list page is the same whichever page was asked for first.
async fn list_pages(state: &AppState, list: &CollectionList, lang: Lang) -> Option<(u32, u64)> {
    let filter = list.filter.as_ref().map(|f| (f.field.as_str(), f.value.as_str()));
    let count = |lang| async move {
        match state.content.index(list.collection, lang).await {
            Ok(loaded) => Some((loaded.index().count(filter), loaded.version)),
            Err(error) => {
                tracing::warn!(%error, collection = list.collection.api_name(), "list page: index unavailable; pages estimated");
                None
            }
        }
    };
    let (count, version) = match count(lang).await? {
        (0, _) if lang == Lang::Sw => count(Lang::En).await?,
        counted => counted,
    };
    let pages = u32::try_from(count.div_ceil(list.page_size.max(1) as usize)).unwrap_or(u32::MAX).max(1);
    Some((pages, version))
}

/// The pager of page `page` of `list`: counted by the index, or without it
/// from the list loaded (a full page may have a next); `None` for a page
/// past the end.
fn list_pager(list: &CollectionList, page: u32, counted: Option<(u32, u64)>, loaded: &Option<Loaded>) -> Option<(Pager, u64)> {
    if let Some((pages, version)) = counted {
        return Some((Pager { page, pages }, version));
    }
    let shown = loaded.as_ref().and_then(|l| l.value.as_deref()).and_then(ContentValue::list).map_or(0, |list| list.items().len());
    if shown == 0 && page > 1 {
        return None;
    }
    let more = u32::from(shown >= list.page_size as usize);
    Some((Pager { page, pages: page + more }, 0))
}

/// The catalogue's bundles the page shows, in `lang`: those its bundle
/// tables name, or on the account page every one sold online. `None` for a
/// page that shows none; without a catalogue (or none within
/// `DIGITAL_API_BUDGET_MS`), a page that would is built without them (its
/// tables say prices cannot be shown), never failed.
async fn page_bundles(state: &AppState, route: &RouteDef, page: &Option<Loaded>, lang: Lang) -> Option<PageBundles> {
    let sections = page.as_ref().and_then(|p| p.value.as_deref()).and_then(ContentValue::page).map_or(&[][..], |p| p.sections.as_slice());
    let account = route.page.as_deref() == Some(ACCOUNT_PAGE);
    if !account && !sections.iter().any(|section| matches!(section, Section::BundleTable(_))) {
        return None;
    }
    // A page waits for the operator at most its budget; the reading goes on for the next one.
    let catalogue = tokio::time::timeout(state.config.digital_api_budget(), state.catalogue.get()).await.ok().flatten();
    Some(match catalogue {
        Some(catalogue) => {
            let offers = if account { catalogue.purchasable(lang) } else { catalogue.for_sections(sections, lang) };
            PageBundles { offers: Some(offers), version: catalogue.version }
        }
        None => PageBundles { offers: None, version: 0 },
    })
}

/// The address of the item whose slug is `slug`, for an address whose id the
/// CMS no longer has: Strapi 5 numbers an entry anew at every publish, and
/// links and bookmarks keep the old number.
async fn item_by_slug(content: &crate::content::Content, route: &RouteDef, slug: Option<&str>, lang: Lang) -> Option<String> {
    let slug = slug.filter(|s| s.len() <= 200 && crate::slug::is_slug(s))?;
    let collection = route.item?;
    if let Some(loaded) = content.index_now(collection, lang) {
        // The index holds every item: no need to ask.
        let item = loaded.index().by_slug(slug)?;
        return Some(route.href(&[("id", &item.id.to_string()), ("slug", &item.slug)]));
    }
    let query = ContentQuery::List { collection, page_size: 1, filter: Some(("slug".into(), slug.to_owned())), page: 1 };
    let found = content.get(&query, lang).await.ok()?;
    let item = found.value.as_deref().and_then(ContentValue::list)?.items().into_iter().next().map(|item| (item.id(), item.slug().to_owned()))?;
    let id = item.0.to_string();
    Some(route.href(&[("id", &id), ("slug", &item.1)]))
}

/// The id and slug that address an item.
fn item_address(item: &Loaded) -> Option<(u32, String)> {
    let item = item.value.as_deref().and_then(ContentValue::item)?.item();
    Some((item.id(), item.slug().to_owned()))
}

/// Whether a FAQ page has a question whose slug is `slug`.
fn has_question(page: &Option<Loaded>, slug: &str) -> bool {
    let Some(page) = page.as_ref().and_then(|p| p.value.as_deref()).and_then(ContentValue::page) else { return false };
    page.sections
        .iter()
        .filter_map(|section| match section {
            Section::Faq(faq) => Some(&faq.items),
            _ => None,
        })
        .flatten()
        .any(|item| crate::slug::slugify(&item.question) == slug)
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
