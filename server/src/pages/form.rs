//! A form posted without JavaScript that needs correcting: its page sent
//! back, built for this visitor alone, with what was typed and what is wrong
//! beside its fields.

use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use contract::Lang;
use contract::page::FormState;

use super::admit::Unbuilt;
use super::cached_page::PRIVATE;
use super::locale::LocalPath;
use super::render::{Prepared, render};
use super::request::PageRequest;
use super::resolve::{Resolved, resolve};
use crate::{AppError, AppState};

/// The page at `path` in `lang` with `form` on it, answered with `status`.
pub(crate) async fn form_page(state: &AppState, lang: Lang, path: &str, status: StatusCode, form: FormState) -> Response {
    let request = PageRequest::at(state, LocalPath { lang, path: path.to_owned() }, None);
    let parts = match resolve(state, &state.content.store, &request, false).await {
        Ok(Resolved::Page(parts)) => *parts,
        Ok(Resolved::Redirect { location, .. }) => return location.see_other(),
        Err(error) => return error.into_page(&state.pages.strings, lang),
    };
    let mut page = Prepared::new(state, parts, &[]);
    page.data.status = status.as_u16();
    page.data.form = Some(form);
    let rendered = async {
        let _turn = state.pages.personal_renders.turn(None, state.pages.renderer.queue_wait()).await?;
        render(state, page).await.map_err(Unbuilt::Render)
    };
    match rendered.await {
        Ok(rendered) => {
            let mut response = rendered.respond(&HeaderMap::new(), PRIVATE);
            *response.status_mut() = status;
            response
        }
        Err(error) => AppError::from(error).into_page(&state.pages.strings, lang),
    }
}
