//! A page for one visitor alone, which no cache keeps: the account and CPM
//! pages at the cost of their data ([`account`](super::account)), or a
//! page rendered whole with the visitor's own parts in its data (a session,
//! a flash notice a form post left, a preview of the CMS's drafts).

use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use contract::page::PageKind;
use contract::protocol::{CONFIRM_STEP, STEP_PARAM};

use super::account;
use super::cached_page::PRIVATE;
use super::error::PageError;
use super::render::{Prepared, render_alone};
use super::request::PageRequest;
use crate::account::Visit;
use crate::preview::Preview;
use crate::state::AppState;

/// `page` for the visitor `visit` alone (a preview's when `previewing`).
pub async fn respond(
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
    let account_view = kind == PageKind::Account && by_parts && visit.subscriber_only();
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
    // Built for this visitor alone: their names (and balances, on the
    // account page) in the first HTML, or the notice a form post left them.
    extras.put_into(&mut page.data);
    let rendered = render_alone(state, page, session, Some(client)).await?;
    let response = (private, rendered.respond(headers, PRIVATE)).into_response();
    Ok(match previewing {
        Some(preview) => preview.respond(response),
        None => response,
    })
}
