//! Rendering a page: its data rendered in an engine and put into the HTML
//! document ([`document`]), kept as a [`CachedPage`]. A render that throws
//! on content that passed the parser is tried once more as the page frame
//! with the content-failure message, so a broken component costs the
//! visitor the content, not the page.

use std::net::IpAddr;
use std::time::Instant;

use axum::http::StatusCode;
use contract::page::{PageContent, PageData, RenderOutput, RenderRequest};
use ssr_runtime::RenderError;

use super::admit::Unbuilt;
use super::cache::{PageCache, Waiting};
use super::cached_page::CachedPage;
use super::request::page_url;
use super::resolve::{PageParts, failure_status};
use super::{document, splice};
use crate::account::session::SessionKey;
use crate::connections;
use crate::content::Source;
use crate::manifest::AssetManifest;
use crate::state::AppState;

/// A page ready to render: its address, its data and the content versions
/// it is built from, and the key the page cache keeps it under.
#[derive(Clone)]
pub struct Prepared {
    pub key: String,
    pub url: String,
    pub data: PageData,
    pub versions: Vec<u64>,
    /// What the CMS names the content it is built from.
    pub sources: Vec<Source>,
    /// When the CMS gave the oldest of that content.
    pub confirmed: std::time::SystemTime,
}

impl Prepared {
    /// `parts` at its address with the query parameters its route reads of `query`.
    pub fn new(state: &AppState, mut parts: PageParts, query: &[(String, String)]) -> Prepared {
        let url = page_url(parts.lang, &parts.path, query, &parts.def.query);
        let versions = parts.versions();
        // The route names the page as much as its address: the not-found
        // page, one for every unknown address, is rendered for `/` like home.
        let key = PageCache::key(&parts.route.name, &url, &versions);
        let (sources, confirmed) = (std::mem::take(&mut parts.sources), parts.confirmed());
        Prepared { key, url, data: parts.into_data(state.config.site_url.as_str()), versions, sources, confirmed }
    }
}

/// A page for everyone rendered for whoever waits for it: the visitor
/// `client`, within its share of the engines ([`render_for`]), or nobody
/// (a refresh in the background).
pub async fn render_for_everyone(
    state: AppState,
    client: IpAddr,
    page: Prepared,
    waiting: Waiting,
) -> Result<CachedPage, Unbuilt> {
    match waiting {
        Waiting::Visitor => render_for(&state, client, page).await,
        Waiting::Nobody => render(&state, page).await.map_err(Unbuilt::Render),
    }
}

/// A page for one visitor alone, in its turn among the personal renders
/// ([`PersonalRenders`](super::admit::PersonalRenders)): bounded by the
/// visitor's `session` when they have one (not shared with the pages for
/// everyone of their address, a carrier's NAT), and otherwise within the
/// share of the engines of the address `client` too, when there is one to
/// charge.
pub async fn render_alone(
    state: &AppState,
    page: Prepared,
    session: Option<SessionKey>,
    client: Option<IpAddr>,
) -> Result<CachedPage, Unbuilt> {
    let charged = client.filter(|_| session.is_none());
    let _turn = state.pages.personal_renders.turn(session, state.pages.renderer.queue_wait()).await?;
    match charged {
        Some(client) => render_for(state, client, page).await,
        None => render(state, page).await.map_err(Unbuilt::Render),
    }
}

/// [`render`] on behalf of `client`, within its share of the engines
/// ([`admit_client`]).
pub async fn render_for(state: &AppState, client: IpAddr, page: Prepared) -> Result<CachedPage, Unbuilt> {
    let _share = admit_client(state, client).await?;
    render(state, page).await.map_err(Unbuilt::Render)
}

/// `client`'s share of the engines, so that no address holds every engine:
/// past its share (`RENDERS_PER_ADDRESS`) a request waits its turn behind
/// the address's own renders, in the order they came, and past
/// `RENDER_QUEUE_PER_ADDRESS` waiting it is refused at once (429). Each
/// render ahead of it may take as long as it may wait for an engine and
/// then run (`RENDER_QUEUE_TIMEOUT_MS` and `RENDER_BUDGET_MS`), so a
/// request waits that long for each round of them (then 503): the
/// deepest of a crawler's queued requests is not given up on while the
/// renders ahead of it are only slow. Requests that wait for a page
/// another request is rendering hold no share.
pub async fn admit_client(state: &AppState, client: IpAddr) -> Result<connections::Admitted<IpAddr>, Unbuilt> {
    let per_turn = state.pages.renderer.queue_wait() + state.config.pages.render_budget;
    Ok(state.pages.renders.take(client, per_turn).await?)
}

pub async fn render(state: &AppState, page: Prepared) -> Result<CachedPage, RenderError> {
    render_as(state, page, false).await
}

/// [`render`], with the page's personal part (the account page's, the CPM
/// page's) alone too when `personal_part` (see `account`).
pub async fn render_as(state: &AppState, page: Prepared, personal_part: bool) -> Result<CachedPage, RenderError> {
    let started = Instant::now();
    let page = render_page(state, page, personal_part).await;
    let outcome = match &page {
        Ok(_) => "ok",
        Err(RenderError::Overloaded | RenderError::QueueTimeout(_)) => "shed",
        Err(_) => "error",
    };
    metrics::histogram!("render_duration_seconds", "outcome" => outcome).record(started.elapsed().as_secs_f64());
    page
}

async fn render_page(state: &AppState, page: Prepared, personal_part: bool) -> Result<CachedPage, RenderError> {
    let Prepared { url, data, versions, sources, .. } = page;
    let request = render_request(url, data, &state.pages.assets, personal_part);
    let (output, data) = match state.pages.renderer.render::<_, RenderOutput>(&request).await {
        Ok(output) => (output, request.data),
        // Content that passed the parser and still breaks a component:
        // the frame (header, menu, footer) with the content-failure message instead.
        Err(RenderError::Js { message, stack }) if !request.data.content.failed => {
            tracing::error!(url = %request.url, %message, stack = stack.as_deref().unwrap_or(""), "render threw; serving the page frame without its content");
            let RenderRequest { url, mut data, assets, account_slot, csrf_slot, personal_part } = request;
            data.content = PageContent { failed: true, ..PageContent::default() };
            data.status = failure_status(data.status);
            let request = RenderRequest { url, data, assets, account_slot, csrf_slot, personal_part };
            (state.pages.renderer.render::<_, RenderOutput>(&request).await?, request.data)
        }
        Err(error) => return Err(error),
    };
    let html = document::document(data.lang, &output, &data, &state.pages.assets.enhance);
    let status = StatusCode::from_u16(output.status).unwrap_or(StatusCode::OK);
    // The personal part's member of the page data: the CPM page's permissions, the account page's subscriber.
    let member = (data.cpm.as_ref().map(|cpm| (splice::PersonalData::Cpm, document::script_json(cpm)))).or(data
        .subscriber
        .as_ref()
        .map(|subscriber| (splice::PersonalData::Subscriber, document::script_json(subscriber))));
    let controls = output.account.clone();
    let splice = move |html: &[u8]| match (&output.account, &output.personal, &member) {
        (Some(controls), _, _) => splice::prepare(html, controls),
        (None, Some(personal), Some((member, json))) => splice::prepare_personal(html, personal, *member, json),
        _ => None,
    };
    let lang = data.lang;
    // Compressing a page (brotli 9, gzip 9) takes milliseconds of CPU: in
    // the background, below the requests answered meanwhile.
    let page = move || CachedPage::new(status, lang, html, versions, splice).built_from(sources, controls);
    Ok(crate::infra::background::run(page).await)
}

/// What the engine renders for `data` at `url` (with its personal part
/// alone too when `personal_part`): a page for everyone with slots where a
/// signed-in subscriber's own parts go ([`splice`]).
pub fn render_request(url: String, data: PageData, assets: &AssetManifest, personal_part: bool) -> RenderRequest {
    let everyone = for_everyone(&data);
    let account_slot = everyone.then(|| splice::NAME_SLOT.to_owned());
    let csrf_slot = everyone.then(|| splice::CSRF_SLOT.to_owned());
    RenderRequest {
        url,
        assets: assets.page_assets(data.route.page, data.lang),
        data,
        account_slot,
        csrf_slot,
        personal_part,
    }
}

/// A page the same for everyone, that a signed-in subscriber gets with
/// their own parts put in: no visitor's parts in it, and not the account
/// page, which is all the subscriber's own.
pub fn for_everyone(data: &PageData) -> bool {
    data.subscriber.is_none()
        && data.preview.is_none()
        && data.cpm.is_none()
        && data.notice.is_none()
        && data.form.is_none()
        && data.csrf.is_none()
        && data.route.page != contract::page::PageKind::Account
}
