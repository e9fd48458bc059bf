//! Which page a visitor gets, and how it may be kept, decided in one place
//! ([`page`]). Anonymous visitors get the page rendered once for everyone
//! (from the page cache, or the copy from the content before the last
//! change while the new one renders), which browsers revalidate and a CDN
//! may keep. A signed-in subscriber with nothing else of their own gets
//! that same page with their own parts put in (`splice`). Anyone else with
//! something of their own on the page (a session, a flash notice, a
//! preview) gets the page for them alone ([`personal`]), which no cache
//! keeps.

use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::PrivateCookieJar;
use contract::page::PageKind;

use super::cached_page::public_cache_control;
use super::error::PageError;
use super::render::{Prepared, render_for_everyone};
use super::request::PageRequest;
use super::resolve::{Resolved, resolve};
use super::{document, personal, splice, unread};
use crate::account::Visit;
use crate::state::AppState;

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
    let anonymous = previewing.is_none() && !visit.signed_in();
    // Any other cookie (junk, expired, forged) gets the page for everyone,
    // so no cookie buys a render.
    let for_everyone = anonymous && !visit.has_flash();
    // An anonymous visitor's page may be answered, or refused, before its
    // content is read.
    if anonymous && let Some(response) = unread::answer(state, request, headers, for_everyone).await? {
        return Ok(response);
    }
    let parts = match resolve(state, content, request, visit.cpm_signed_in()).await? {
        Resolved::Page(parts) => *parts,
        // A draft's address is not for browsers to remember.
        Resolved::Redirect { location, permanent: true } if previewing.is_none() => return Ok(location.permanent()),
        Resolved::Redirect { location, .. } => return Ok(location.see_other()),
    };
    let mut page = Prepared::new(state, parts, &request.query);
    page.data.preview = previewing.map(|preview| preview.page(request.local.lang, &request.local.path));
    // A signed-in subscriber with nothing else of their own: their own
    // parts, to put in the page for everyone. Not on the account page,
    // which is all theirs.
    let own = match previewing {
        None if page.data.route.page != PageKind::Account => {
            visit.subscriber_view(request.local.lang).map(|view| splice::OwnParts {
                name_html: splice::escape_text(&view.name),
                subscriber_json: document::script_json(&view.subscriber),
                csrf: visit.csrf(),
                ..splice::OwnParts::default()
            })
        }
        _ => None,
    };
    if for_everyone || own.is_some() {
        let owned = state.clone();
        let client = request.client;
        let render = move |page, waiting| render_for_everyone(owned, client, page, waiting);
        let kept = state.pages.cache.page_for_everyone(&page.key, page.confirmed, &page, render).await?;
        let Some(own) = own else {
            return Ok(kept.respond_for_everyone(headers, &public_cache_control(&state.config)));
        };
        // The page for everyone may not take them (said when it was
        // rendered): then it is rendered for them instead, below.
        if let Some(response) = kept.page.respond_own(headers, &own) {
            return Ok((visit.cookies(), response).into_response());
        }
    }
    personal::respond(state, request, page, visit, headers, previewing).await
}
