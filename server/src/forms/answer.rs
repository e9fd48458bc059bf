//! How a post is answered. Handlers answer [`Received`] or a
//! [`super::error::RefusedSubmission`], as JSON for the page's script; for a form
//! posted without JavaScript, [`layer`] turns that into a 303 to the
//! form's page showing the reference, or asks for the page again, filled
//! in, with the messages beside the fields (`web::form_post::PageSentBack`,
//! which the page layer around the forms' routes renders). A form with no
//! page in the route table is answered JSON either way.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::MethodRouter;
use contract::Lang;
use contract::api::FormReceived;

use super::FormKind;
use super::error::SendBack;
use crate::manifest::RouteTable;
use crate::web::RedirectTo;
use crate::web::form_post::PageSentBack;

/// A submission kept (or replayed by its idempotency key).
pub struct Received {
    pub lang: Lang,
    pub script: bool,
    pub reference: String,
    /// Kept before, under the same idempotency key.
    pub replayed: bool,
}

/// The reference, for [`layer`] to show on the form's page.
#[derive(Clone)]
struct Reference {
    lang: Lang,
    reference: String,
}

const REPLAYED: &str = "idempotent-replayed";

/// 201 `{"reference"}`.
impl IntoResponse for Received {
    fn into_response(self) -> Response {
        let mut response =
            (StatusCode::CREATED, axum::Json(FormReceived { reference: self.reference.clone() })).into_response();
        response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        if self.replayed {
            response.headers_mut().insert(REPLAYED, HeaderValue::from_static("true"));
        }
        if !self.script {
            response.extensions_mut().insert(Reference { lang: self.lang, reference: self.reference });
        }
        response
    }
}

/// What [`layer`] answers for.
#[derive(Clone)]
struct FormPage {
    routes: Arc<RouteTable>,
    kind: FormKind,
}

/// `route`, the post of `kind`, with its answers to forms made pages.
pub(super) fn answered<S: Clone + Send + Sync + 'static>(
    route: MethodRouter<S>,
    routes: Arc<RouteTable>,
    kind: FormKind,
) -> MethodRouter<S> {
    route.layer(axum::middleware::from_fn_with_state(FormPage { routes, kind }, layer))
}

async fn layer(State(FormPage { routes, kind }): State<FormPage>, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let Some(route) = routes.by_form(kind) else { return response };
    if let Some(Reference { lang, reference }) = response.extensions_mut().remove::<Reference>() {
        let location = format!("{}?reference={reference}", lang.href(&route.path));
        let mut redirect = RedirectTo::site(&location).see_other();
        redirect.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        if let Some(replayed) = response.headers().get(REPLAYED) {
            redirect.headers_mut().insert(REPLAYED, replayed.clone());
        }
        return redirect;
    }
    if let Some(SendBack { lang, form }) = response.extensions_mut().remove::<SendBack>() {
        response.extensions_mut().insert(PageSentBack { lang, path: route.path.clone(), form });
    }
    response
}
