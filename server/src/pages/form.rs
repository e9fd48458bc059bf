//! A form posted without JavaScript that needs correcting: its page sent
//! back, built for this visitor alone, with what was typed and what is wrong
//! beside its fields. [`sent_back`], a layer around the forms' routes,
//! renders the page a form's answer asks for.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use contract::Lang;
use contract::page::FormState;

use super::cached_page::PRIVATE;
use super::error::PageError;
use super::locale::LocalPath;
use super::render::{Prepared, render_alone};
use super::request::PageRequest;
use super::resolve::{Resolved, resolve};
use crate::state::AppState;
use crate::web::form_post::PageSentBack;

/// Answers a form's post that asks for its page back
/// ([`PageSentBack`]) with that page, in the answer's status.
pub async fn sent_back(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let Some(PageSentBack { lang, path, form }) = response.extensions_mut().remove::<PageSentBack>() else {
        return response;
    };
    form_page(&state, lang, &path, response.status(), form).await
}

/// The page at `path` in `lang` with `form` on it, answered with `status`.
async fn form_page(state: &AppState, lang: Lang, path: &str, status: StatusCode, form: FormState) -> Response {
    let request = PageRequest::at(state, LocalPath { lang, path: path.to_owned() }, None);
    let parts = match resolve(state, &state.content.store, &request, false).await {
        Ok(Resolved::Page(parts)) => *parts,
        Ok(Resolved::Redirect { location, .. }) => return location.see_other(),
        Err(error) => return error.into_page(&state.pages.strings, lang, state.pages.routes.home()),
    };
    let mut page = Prepared::new(state, parts, &[]);
    page.data.status = status.as_u16();
    page.data.form = Some(form);
    // A turn among the personal renders, charged to no address's share.
    match render_alone(state, page, None, None).await {
        Ok(rendered) => {
            let mut response = rendered.respond(&HeaderMap::new(), PRIVATE);
            *response.status_mut() = status;
            response
        }
        Err(error) => PageError::from(error).into_page(&state.pages.strings, lang, state.pages.routes.home()),
    }
}
