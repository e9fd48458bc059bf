//! `GET /_data/<path>`: the data of the page at `/<path>`, status included,
//! for the app's client-side navigation. A redirect is data too (a
//! `Feedback` with its `redirect`): the app follows it itself.

use axum::extract::State;
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Json, Response};
use axum_extra::extract::PrivateCookieJar;
use contract::feedback::Feedback;

use super::cached_page::{PRIVATE, public_cache_control};
use super::locale::LocalPath;
use super::request::PageRequest;
use super::resolve::{Resolved, resolve};
use crate::account::Visit;
use crate::state::AppState;

/// Where the page data is served, before the page's own path.
const DATA_PREFIX: &str = "/_data";

pub async fn page_data(State(state): State<AppState>, private: PrivateCookieJar, uri: Uri) -> Response {
    let path = uri.path().strip_prefix(DATA_PREFIX).unwrap_or("/");
    let request = PageRequest::at(&state, LocalPath::parse(if path.is_empty() { "/" } else { path }), uri.query());
    let visit = Visit::read(&state.account, private).await;
    match resolve(&state, &state.content.store, &request, visit.cpm_signed_in()).await {
        Ok(Resolved::Redirect { location, .. }) => {
            let redirect = Feedback { redirect: Some(location.as_str().to_owned()), ..Feedback::default() };
            (StatusCode::OK, [(header::CACHE_CONTROL, "no-store")], Json(redirect)).into_response()
        }
        Ok(Resolved::Page(parts)) => {
            let mut data = parts.into_data(state.config.site_url.as_str());
            let status = StatusCode::from_u16(data.status).unwrap_or(StatusCode::OK);
            if !visit.signed_in() {
                return (status, [(header::CACHE_CONTROL, public_cache_control(&state.config))], Json(data))
                    .into_response();
            }
            let (extras, private) = visit.extras(&state.account, data.route.page, request.local.lang, false).await;
            extras.put_into(&mut data);
            (status, private, [(header::CACHE_CONTROL, PRIVATE)], Json(data)).into_response()
        }
        Err(error) => {
            tracing::error!(%error, path = %uri.path(), "page data failed");
            error.reply().into_response()
        }
    }
}
