//! [`FormError`]: every way a submission is refused, with its status and
//! what is wrong by field; and [`RefusedSubmission`], the answer that carries it:
//! the one API body (`{"errors": {…}}`) for a script, the page again for a
//! form posted without JavaScript ([`super::answer`]). The app words each
//! problem in the visitor's language.

use std::collections::BTreeMap;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use contract::Lang;
use contract::page::FormState;

use super::fields::{Problem, Problems};
use super::store::StoreError;
use crate::web::Reply;

#[derive(Debug, thiserror::Error)]
pub enum FormError {
    #[error("invalid fields")]
    Invalid(Problems),
    #[error("too many submissions from one address")]
    TooMany,
    #[error("unreadable body ({0})")]
    Unreadable(StatusCode),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Unavailable(#[from] crate::limits::Unavailable),
}

impl FormError {
    /// The status and the problems by field (`form` for the whole form).
    pub fn answer(&self) -> (StatusCode, BTreeMap<String, Problem>) {
        let whole = |status, problem| (status, BTreeMap::from([("form".to_owned(), problem)]));
        match self {
            FormError::Invalid(problems) => (StatusCode::UNPROCESSABLE_ENTITY, problems.by_field()),
            FormError::TooMany => whole(StatusCode::TOO_MANY_REQUESTS, Problem::TooMany),
            FormError::Unreadable(status) => whole(*status, Problem::Unreadable),
            FormError::Store(_) | FormError::Unavailable(_) => {
                tracing::error!(error = %self, "a form could not be kept");
                whole(StatusCode::SERVICE_UNAVAILABLE, Problem::NotSaved)
            }
        }
    }
}

/// A submission refused, with what is needed to answer it.
pub struct RefusedSubmission {
    pub lang: Lang,
    /// Sent by the page's script: answered with JSON alone.
    pub script: bool,
    /// What a form without JavaScript typed, to send its page back filled in.
    pub values: BTreeMap<String, Vec<String>>,
    pub error: FormError,
}

/// The form's page again, with what was typed and what is wrong: what
/// [`super::answer`] sends back for a form posted without JavaScript.
#[derive(Clone)]
pub(super) struct SendBack {
    pub lang: Lang,
    pub form: FormState,
}

impl IntoResponse for RefusedSubmission {
    fn into_response(self) -> Response {
        let (status, errors) = self.error.answer();
        let form = (!self.script).then(|| FormState { values: self.values, errors: errors.clone() });
        let mut response = Reply::invalid(status, errors).into_response();
        if let Some(form) = form {
            response.extensions_mut().insert(SendBack { lang: self.lang, form });
        }
        response
    }
}
