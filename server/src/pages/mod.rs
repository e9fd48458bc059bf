//! Every page of the site: `GET /…` (English) and `GET /sw/…` (Swahili) as
//! server-rendered HTML, and `GET /_data/…` as the same page's data in JSON
//! for client-side navigation.
//!
//! One request, in the order it runs:
//!
//! 1. [`fast`]: the fallback in front of the page handler (and of the
//!    layers every answer shares) reads the request
//!    once ([`request`]: language and path, matched route, query, and the
//!    redirect [`locale`] says comes first) and answers a page kept whole
//!    for anonymous visitors; anything else goes on, the reading with it.
//! 2. [`page`], below: answers a redirect from `locale`, or asks `respond`.
//! 3. [`respond`]: reads the visitor (`crate::account::Visit`) and decides,
//!    in one function, which page they get. An anonymous visitor's page may
//!    be answered before its content is read ([`unread`]: the page the disk
//!    keeps, or a refusal). Then the request is resolved, and the page is the
//!    page for everyone from the page [`cache`], with a signed-in
//!    subscriber's own parts put in ([`splice`]), or a page for the visitor
//!    alone ([`personal`]; the account and CPM pages through [`account`]).
//! 4. [`resolve`]: route, content, catalogue and search into the parts of
//!    the page (or where it must go instead).
//! 5. [`render`]: the page rendered into its HTML [`document`] when the
//!    page [`cache`] lacks it, once [`admit`] gives it an engine; kept and
//!    answered as a [`cached_page`].
//!
//! Beside the request: [`data`] (`/_data/…`), [`form`] (a form posted
//! without JavaScript, sent back), [`prerender`] (every page of the sitemap
//! rendered ahead of visitors), [`refresh`] (the queue of pages rendered
//! again in the background while their earlier copy is served).
//!
//! The pages' part of the state (`crate::state::PagesState`) is defined in
//! files that read no state, so the state imports them and nothing above:
//! [`cache`] (with its second tier on disk, [`disk`]), [`fast_pages`] (what
//! the fast path keeps), [`passes`] (the pre-render's schedule), [`admit`]
//! (the personal renders' turns).

mod account;
pub(crate) mod admit;
pub(crate) mod cache;
mod cached_page;
mod data;
pub(crate) mod disk;
pub mod document;
mod error;
mod fast;
pub(crate) mod fast_pages;
mod form;
pub(crate) mod locale;
pub(crate) mod passes;
mod personal;
pub(crate) mod prerender;
mod refresh;
mod render;
mod request;
mod resolve;
mod respond;
pub mod splice;
mod unread;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum_extra::extract::PrivateCookieJar;

pub(crate) use fast::FastPath;
pub use form::sent_back;
pub use render::{for_everyone, render_request};

use crate::state::AppState;
use request::PageRequest;

/// The page data (`/_data/…`).
pub fn router() -> Router<AppState> {
    Router::new().route("/_data/", get(data::page_data)).route("/_data/{*path}", get(data::page_data))
}

/// Every page: what no other route of the server answers.
pub fn fallback() -> Router<AppState> {
    Router::new().fallback(page)
}

async fn page(
    State(state): State<AppState>,
    page: PageRequest,
    private: PrivateCookieJar,
    request: Request,
) -> Response {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, [(header::ALLOW, "GET, HEAD")]).into_response();
    }
    if let Some(redirect) = &page.redirect {
        return redirect.respond(state.config.is_https());
    }
    match respond::page(&state, &page, request.headers(), private).await {
        Ok(response) => response,
        Err(error) => error.into_page(&state.pages.strings, page.local.lang, state.pages.routes.home()),
    }
}
