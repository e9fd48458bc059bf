//! Pre-rendering: every page of the sitemap but the older items (the
//! newest [`ITEMS_PER_COLLECTION`] of each collection), in both languages,
//! rendered into the page cache in the background at start and again after
//! each webhook invalidation (and when content refreshed on its
//! time-to-live has changed), so that a visitor (or a crawler) almost never
//! waits for a render. Each pass ends by building the sitemap if its
//! content changed, and the site search's index from the pages it holds
//! and the items of the collections' indexes it did not render, with the
//! synonyms the content holds (`crate::search`).
//!
//! Lowest priority: one page at a time, each started only when no other
//! render is queued or running, so it takes at most one engine and only an
//! idle one; a page a visitor is rendering already is shared, not rendered
//! twice (the page cache's single flight). `PRERENDER=false` turns it off, as
//! does `PAGE_CACHE_MB=0`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::admit::Unbuilt;
use super::cached_page::CachedPage;
use super::error::PageError;
use super::locale::LocalPath;
use super::passes::Pass;
use super::render::{Prepared, render};
use super::request::PageRequest;
use super::resolve::{Resolved, resolve};
use crate::state::AppState;

/// Items of each collection pre-rendered, newest first.
pub const ITEMS_PER_COLLECTION: usize = 100;

/// Builds the site search's index from the words of a pass's pages and the
/// items it did not render, with the synonyms the content holds now, in the
/// background.
async fn index(state: &AppState, mut pages: Vec<crate::search::Page>) {
    let search = state.content.search.clone();
    let started = Instant::now();
    let items = crate::seo::items(&state.content.seo).await;
    let synonyms = crate::search::Synonyms::read(&state.content.store).await;
    let built = crate::infra::background::run(move || {
        let rendered: std::collections::HashSet<String> = pages.iter().map(|page| page.href.clone()).collect();
        let unrendered = items.into_iter().filter(|(_, href, _)| !rendered.contains(href));
        pages.extend(unrendered.map(|(lang, href, title)| crate::search::Page::titled(lang, href, title)));
        search.rebuild(pages, synonyms)
    })
    .await;
    match built {
        Ok(count) => tracing::info!(pages = count, secs = started.elapsed().as_secs_f64(), "search index built"),
        Err(error) => tracing::error!(%error, "search index not built"),
    }
}

/// The words of `page` (rendered at `href`) for the search index, read in
/// the background. Only these are kept until the pass ends, not the page:
/// a pass holding every page it rendered (a thousand at some 40 KB each,
/// with their compressed bodies) kept them alive after the page cache had
/// let them go for the pages a crawler asked for meanwhile.
async fn words(href: &str, page: Arc<CachedPage>) -> Option<crate::search::Page> {
    let href = href.to_owned();
    crate::infra::background::run(move || crate::search::Page::from_html(page.lang, href, &page.html())).await
}

/// How often an idle engine is looked for while visitors keep them busy.
const IDLE_POLL: Duration = Duration::from_millis(2);

/// Pre-renders now and after every notification of `again`, for ever.
pub async fn run_forever(state: AppState) {
    let mut passes = 0;
    loop {
        let started = Instant::now();
        let addresses = crate::seo::addresses(&state.content.seo, ITEMS_PER_COLLECTION).await;
        let edits = state.content.store.edits();
        let (mut rendered, mut failed) = (0, 0);
        let mut built = Vec::with_capacity(addresses.len());
        for address in &addresses {
            while state.pages.renderer.in_flight() > 0 {
                tokio::time::sleep(IDLE_POLL).await;
            }
            match prerender(&state, address).await {
                Ok(Some((page, now))) => {
                    rendered += usize::from(now);
                    if page.status == axum::http::StatusCode::OK {
                        built.extend(words(address, page).await);
                    }
                }
                Ok(None) => {}
                Err(error) => {
                    failed += 1;
                    tracing::warn!(%address, %error, "pre-render failed");
                }
            }
        }
        passes += 1;
        let pass = Pass { pages: addresses.len(), rendered, failed, secs: started.elapsed().as_secs_f64(), passes };
        tracing::info!(pages = pass.pages, rendered, failed, secs = pass.secs, "pre-rendered the sitemap");
        *crate::infra::locks::lock(&state.pages.prerender.last) = Some(pass);
        state.content.seo.refresh_sitemap().await;
        index(&state, built).await;
        // Again after a webhook, or once content refreshed on its
        // time-to-live has changed.
        let period = Duration::from_secs(state.config.content.ttl.as_secs().max(1));
        loop {
            tokio::select! {
                () = state.pages.prerender.again.notified() => break,
                () = tokio::time::sleep(period) => {
                    if state.content.store.edits() != edits {
                        break;
                    }
                }
            }
        }
    }
}

/// Renders the anonymous page at `address` (a path, `/sw/…` in Swahili, with
/// the query its route reads) into the page cache unless it is there: the
/// page, and whether it was rendered now. A redirect is nothing to render.
async fn prerender(state: &AppState, address: &str) -> Result<Option<(Arc<CachedPage>, bool)>, PageError> {
    let (path, query) = address.split_once('?').map_or((address, None), |(path, query)| (path, Some(query)));
    let request = PageRequest::at(state, LocalPath::parse(path), query);
    let parts = match resolve(state, &state.content.store, &request, false).await? {
        Resolved::Page(parts) => *parts,
        Resolved::Redirect { .. } => return Ok(None),
    };
    let page = Prepared::new(state, parts, &request.query);
    let (key, confirmed) = (page.key.clone(), page.confirmed);
    let mut rendered = false;
    let build = async {
        rendered = true;
        render(state, page).await.map_err(Unbuilt::Render)
    };
    let kept = state.pages.cache.get_or_render(key.clone(), || build).await?;
    state.pages.cache.keep_on_disk(&key, &kept, confirmed);
    Ok(Some((kept, rendered)))
}

/// The page for everyone at `address` (a URL as [`prerender`] takes it),
/// served from disk with content confirmed too long ago: its content read
/// again (from the content cache, which asks the CMS for what it does not
/// hold fresh), and the page rendered again only if it changed.
pub async fn check(state: &AppState, address: &str) {
    match prerender(state, address).await {
        Ok(Some((_, true))) => tracing::debug!(address, "a page kept on disk was rendered again: its content changed"),
        Ok(_) => {}
        Err(error) => tracing::warn!(address, %error, "a page kept on disk could not be checked"),
    }
}
