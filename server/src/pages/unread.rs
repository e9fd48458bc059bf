//! What a request for a page is answered before its content is read: the
//! page the disk keeps for an anonymous visitor, or a refusal when the
//! visitor's address already has every render it may and the page would
//! need one. Either way the request costs the CMS nothing.

use axum::http::HeaderMap;
use axum::response::Response;

use super::cache::PageCache;
use super::cached_page::{STALE, public_cache_control};
use super::error::PageError;
use super::request::PageRequest;
use crate::state::AppState;

/// The answer to `request` from an anonymous visitor before its content is
/// read, if there is one. Not for a page behind a sign-in or a redirect, or
/// an address no route has, which are never kept for everyone.
///
/// For a visitor with nothing of their own (`for_everyone`: no flash notice
/// either), the page for everyone when only the disk keeps it (see
/// `cache::PageCache::on_disk`): unless the CMS said since it was built that
/// content it was built from changed, or that content was confirmed longer
/// ago than content is served while the CMS fails. Content confirmed longer
/// than `CONTENT_TTL_SECS` ago is read again in the background (rendered
/// again only if it changed), the page answered meanwhile as a stale one is.
///
/// Otherwise a refusal, when the client's address already has as many
/// renders running and waiting as it may and the page cache keeps no page
/// at the address (for this content or an earlier one, which would be
/// served while the new one renders): the page needs a render it would be
/// refused. What cannot be known before the content is read goes on,
/// refused (if at all) when its render is admitted: a route that redirects
/// or asks to sign in, an address no route has (whose not-found page is kept
/// once per language), a page the cache dropped since.
pub async fn answer(
    state: &AppState,
    request: &PageRequest,
    headers: &HeaderMap,
    for_everyone: bool,
) -> Result<Option<Response>, PageError> {
    let Some(url) = request.kept_url() else { return Ok(None) };
    let address = PageCache::address_of(&request.route.route.name, &url);
    let cache = &state.pages.cache;
    if for_everyone {
        let invalidation = &state.content.invalidation;
        // Content is served this long after it was confirmed, while the CMS fails.
        let servable = state.config.content.ttl + state.config.content.stale_if_error;
        let owned = state.clone();
        let url = url.clone();
        let usable = |kept: &super::disk::IndexedPage| {
            kept.fresh(servable) && !invalidation.changed_since(&kept.sources, kept.confirmed)
        };
        let check = move || async move { super::prerender::check(&owned, &url).await };
        if let Some((page, fresh)) = cache.on_disk(&address, state.config.content.ttl, usable, check).await {
            let cache_control = if fresh { public_cache_control(&state.config) } else { STALE.to_owned() };
            return Ok(Some(page.respond_for_everyone(headers, &cache_control, None)));
        }
    }
    if state.pages.renders.full(&request.client) && !cache.holds(&address) {
        return Err(PageError::ClientBusyUnread);
    }
    Ok(None)
}
