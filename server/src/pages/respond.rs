//! Which page a visitor gets, and how it may be kept. Anonymous visitors
//! get the page rendered once for everyone (from the page cache, or the copy
//! from the content before the last change while the new one renders), which
//! browsers revalidate and a CDN may keep. A signed-in subscriber gets that
//! same page with their own parts put in where that is all they have of
//! their own (`splice`), or the account and CPM pages at the cost of their
//! data (`account`); anyone else with something of their own on the page
//! (a session, a flash notice, a preview) gets a render for them alone,
//! which no cache keeps.

use std::net::IpAddr;
use std::sync::Arc;

use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::PrivateCookieJar;
use contract::page::{PageData, PageKind};
use contract::protocol::{CONFIRM_STEP, STEP_PARAM};

use super::admit::Unbuilt;
use super::cache::PageCache;
use super::cached_page::{CachedPage, PRIVATE, STALE, Stale};
use super::error::PageError;
use super::render::{Prepared, kept_url, refuse_unread, render, render_for};
use super::request::PageRequest;
use super::resolve::{Resolved, resolve};
use super::{account, document, splice};
use crate::account::{PageExtras, Visit};
use crate::preview::Preview;
use crate::state::AppState;
use crate::web::csrf::CsrfToken;

/// The page `request` asks for, for the visitor its cookies (`private`)
/// say; `headers` for its encodings and revalidation.
pub async fn page(
    state: &AppState,
    request: &PageRequest,
    headers: &HeaderMap,
    private: PrivateCookieJar,
) -> Result<Response, PageError> {
    // A preview of the CMS's drafts: read for this request, rendered for it alone.
    let previewing = state.content.preview.as_ref().filter(|preview| preview.active(&private));
    let content = previewing.map_or(&state.content.store, |preview| preview.content());
    let mut visit = Visit::read(&state.account, private).await;
    let for_everyone = previewing.is_none() && !visit.has_flash() && !visit.signed_in();
    if for_everyone && let Some(response) = from_disk(state, request, headers).await {
        return Ok(response);
    }
    // An anonymous visitor's page is refused here, before its content is
    // read, where its render is certain to be (`refuse_unread`).
    if previewing.is_none() && !visit.signed_in() {
        refuse_unread(state, request)?;
    }
    let parts = match resolve(state, content, request, visit.cpm_signed_in()).await? {
        Resolved::Page(parts) => *parts,
        // A draft's address is not for browsers to remember.
        Resolved::Redirect { location, permanent: true } if previewing.is_none() => return Ok(location.permanent()),
        Resolved::Redirect { location, .. } => return Ok(location.see_other()),
    };
    let mut page = Prepared::new(state, parts, &request.query);
    page.data.preview = previewing.map(|preview| preview.page(request.local.lang, &request.local.path));
    if previewing.is_none()
        && let Some(response) = spliced(state, request, &page, &mut visit, headers).await?
    {
        return Ok(response);
    }
    // Built for this visitor alone: their names (and balances, on the account
    // page) in the first HTML, or the notice a form post left them. Any other
    // cookie (junk, expired, forged) gets the cached page for everyone, so no cookie
    // buys a render.
    if previewing.is_some() || visit.has_flash() || visit.signed_in() {
        return personal(state, request, page, visit, headers, previewing).await;
    }
    page_for_everyone(state, request.client, page, headers).await
}

/// The page for everyone, with a signed-in subscriber's own parts put in
/// (`splice`), where that is all they have of their own. `None` for anyone
/// else, or for a page that cannot take them (said when it was rendered):
/// rendered for them instead.
async fn spliced(
    state: &AppState,
    request: &PageRequest,
    page: &Prepared,
    visit: &mut Visit,
    headers: &HeaderMap,
) -> Result<Option<Response>, PageError> {
    if page.data.route.page == PageKind::Account {
        return Ok(None);
    }
    let Some(view) = visit.subscriber_view(request.local.lang) else { return Ok(None) };
    let own = splice::OwnParts {
        name_html: splice::escape_text(&view.name),
        subscriber_json: document::script_json(&view.subscriber),
        csrf: visit.csrf(),
        ..splice::OwnParts::default()
    };
    let for_everyone = match stale_while_refreshing(state, page).await {
        Some((stale, _)) => stale,
        None => {
            state
                .pages
                .cache
                .get_or_render(page.key.clone(), || render_for(state, request.client, page.clone()))
                .await?
        }
    };
    Ok(for_everyone.respond_own(headers, &own).map(|response| (visit.cookies(), response).into_response()))
}

/// The page rendered for this visitor alone, or the account and CPM pages
/// at the cost of their data (`account`).
async fn personal(
    state: &AppState,
    request: &PageRequest,
    mut page: Prepared,
    visit: Visit,
    headers: &HeaderMap,
    previewing: Option<&Preview>,
) -> Result<Response, PageError> {
    let (lang, kind, client) = (request.local.lang, page.data.route.page, request.client);
    let session = visit.session_key();
    let by_parts = !state.config.pages.account_full_render;
    // The account page of a subscriber with nothing else of their own:
    // the page for their kind with their part put in.
    let account_view = kind == PageKind::Account && by_parts && visit.subscriber_view(lang).is_some();
    // The CPM page of a CPM session with nothing else of its own: the
    // page for every CPM session with its permissions put in.
    let cpm_view = (kind == PageKind::Cpm && by_parts).then(|| visit.cpm_only()).flatten();
    let (extras, private) = visit.extras(&state.account, kind, lang, true).await;
    let view = || account::View { state, client, headers, for_everyone: &page, csrf: extras.csrf.clone() };
    if let (true, Some(subscriber)) = (account_view, &extras.subscriber) {
        let confirm = request.query.iter().any(|(name, value)| name == STEP_PARAM && value == CONFIRM_STEP);
        if let Some(response) = account::respond(view(), session.clone(), subscriber.clone(), confirm).await? {
            return Ok((private, response).into_response());
        }
    }
    if let Some(cpm_session) = cpm_view
        && let Some(response) = account::respond_cpm(view(), cpm_session, extras.cpm.clone()).await?
    {
        return Ok((private, response).into_response());
    }
    with_extras(&mut page.data, extras);
    let signed_in_session = session.is_some();
    let _turn = state.pages.personal_renders.turn(session, state.pages.renderer.queue_wait()).await?;
    // A subscriber's renders are bounded by their session, not shared
    // with the pages for everyone of their address (a carrier's NAT).
    let rendered = if signed_in_session {
        render(state, page).await.map_err(Unbuilt::Render)?
    } else {
        render_for(state, client, page).await?
    };
    let response = (private, rendered.respond(headers, PRIVATE)).into_response();
    Ok(match previewing {
        Some(preview) => preview.respond(response),
        None => response,
    })
}

/// The page for everyone, from the page cache.
async fn page_for_everyone(
    state: &AppState,
    client: IpAddr,
    page: Prepared,
    headers: &HeaderMap,
) -> Result<Response, PageError> {
    if let Some((stale, copy)) = stale_while_refreshing(state, &page).await {
        // Kept by no other cache: its new copy is on its way. The fast path
        // serves it again, headers and all, until then (within the bound).
        return Ok(stale.respond_for_everyone(headers, STALE, Some(copy)));
    }
    let (key, confirmed) = (page.key.clone(), page.confirmed);
    let kept = state.pages.cache.get_or_render(key.clone(), || render_for(state, client, page)).await?;
    state.pages.cache.keep_on_disk(&key, &kept, confirmed);
    // A page whose content failed says so to no cache: the next visitor may get it whole.
    let cache_control = if kept.status.is_server_error() { "no-store".to_owned() } else { public_cache_control(state) };
    Ok(kept.respond_for_everyone(headers, &cache_control, None))
}

/// The page for everyone at `request`'s address when only the disk keeps it
/// (see `cache::PageCache::on_disk`), answered without reading its content:
/// unless the CMS said since it was built that content it was built from
/// changed, or that content was confirmed longer ago than content is served
/// while the CMS fails. Content confirmed longer than `CONTENT_TTL_SECS` ago is read
/// again in the background (rendered again only if it changed), the page
/// answered meanwhile as a stale one is. Not for a page behind a sign-in or
/// a redirect, which are never kept for everyone.
async fn from_disk(state: &AppState, request: &PageRequest, headers: &HeaderMap) -> Option<Response> {
    let url = kept_url(request)?;
    let address = PageCache::address_of(&request.route.route.name, &url);
    let invalidation = &state.content.invalidation;
    // Content is served this long after it was confirmed, while the CMS fails.
    let servable = state.config.content.ttl + state.config.content.stale_if_error;
    let owned = state.clone();
    let (page, fresh) = state
        .pages
        .cache
        .on_disk(
            &address,
            state.config.content.ttl,
            |kept| kept.fresh(servable) && !invalidation.changed_since(&kept.sources, kept.confirmed),
            move || async move { super::prerender::check(&owned, &url).await },
        )
        .await?;
    let cache_control = if fresh { public_cache_control(state) } else { STALE.to_owned() };
    Some(page.respond_for_everyone(headers, &cache_control, None))
}

/// The page kept for this address from the content before the last change,
/// with the page for the current content rendering in the background (see
/// `cache`): a page that has a kept copy is never refused or made to wait
/// for a render. `None` when there is no such copy.
async fn stale_while_refreshing(state: &AppState, page: &Prepared) -> Option<(Arc<CachedPage>, Stale)> {
    let (stale, superseded) = state.pages.cache.stale(&page.key).await?;
    let (owned, page) = (state.clone(), page.clone());
    let refreshed = state
        .pages
        .cache
        .refresh(page.key.clone(), move || async move { render(&owned, page).await.map_err(Unbuilt::Render) });
    Some((stale, Stale { superseded, refreshed }))
}

/// Anonymous pages: browsers revalidate (cheap, by `ETag`), a CDN keeps them
/// as long as the content cache does and may serve them stale the same way.
pub fn public_cache_control(state: &AppState) -> String {
    let settings = &state.config;
    format!(
        "public, max-age=0, s-maxage={fresh}, stale-while-revalidate={fresh}, stale-if-error={stale}",
        fresh = settings.content.ttl.as_secs(),
        stale = settings.content.stale_if_error.as_secs()
    )
}

/// A visitor's own parts of a page, in its data.
pub fn with_extras(data: &mut PageData, extras: PageExtras) {
    data.subscriber = extras.subscriber;
    data.notice = extras.notice;
    data.cpm = extras.cpm;
    data.csrf = extras.csrf.map(CsrfToken::into_string);
}
