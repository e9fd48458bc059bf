//! [`Reply`]: an API answer as JSON, its data (one of the contract's
//! `api` types) with its [`Feedback`] beside it. Handlers answer a script
//! and a form post alike; the form post's redirect is made from the same
//! reply ([`super::form_post`]).

use std::collections::BTreeMap;

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use contract::feedback::Problem;
use serde::Serialize;

use super::form_post::{FormAnswer, QueryEdits, query_edits};
use super::{Feedback, Notice, NoticeKey, NoticeKind};

/// Data for the script (a struct, whose fields the body has), a notice,
/// where to go next; or a refusal, which has no data.
pub struct Reply<T = ()> {
    status: StatusCode,
    data: T,
    feedback: Feedback,
    back_query: QueryEdits,
}

impl<T> Reply<T> {
    /// 200 with `data`'s fields.
    pub fn ok(data: T) -> Reply<T> {
        Reply { status: StatusCode::OK, data, feedback: Feedback::default(), back_query: Vec::new() }
    }
}

impl Reply {
    /// 200 with no data: the feedback alone.
    pub fn done() -> Reply {
        Reply::ok(())
    }

    /// A failure told as `notice`.
    pub fn refused(status: StatusCode, notice: Notice) -> Reply {
        Reply {
            status,
            data: (),
            feedback: Feedback { notice: Some(notice), ..Feedback::default() },
            back_query: Vec::new(),
        }
    }

    /// A failure told as an error notice with the app's text for `key`.
    pub fn refused_key(status: StatusCode, key: NoticeKey) -> Reply {
        Reply::refused(status, Notice::key(NoticeKind::Error, key))
    }

    /// A failure told as an error notice in so many words: for the
    /// endpoints the CMS and staff call, which have no app to translate.
    pub fn refused_text(status: StatusCode, text: &str) -> Reply {
        Reply::refused(status, Notice::text(NoticeKind::Error, text))
    }

    /// A form refused, with what is wrong with each field.
    pub fn invalid(status: StatusCode, errors: BTreeMap<String, Problem>) -> Reply {
        Reply {
            status,
            data: (),
            feedback: Feedback { errors: Some(errors), ..Feedback::default() },
            back_query: Vec::new(),
        }
    }
}

impl<T> Reply<T> {
    pub fn with_notice(mut self, notice: Notice) -> Reply<T> {
        self.feedback.notice = Some(notice);
        self
    }

    /// The browser goes to `path` next (logging out sends it home).
    pub fn redirect(mut self, path: String) -> Reply<T> {
        self.feedback.redirect = Some(path);
        self
    }

    /// A form goes back to its page with these query parameters set or
    /// removed: the sign-in page's code step (`step=code`), or what was
    /// typed, to keep it in its field.
    pub fn back_query(mut self, edits: &[(&str, Option<&str>)]) -> Reply<T> {
        self.back_query = query_edits(edits);
        self
    }
}

/// The body: the data's fields, then the feedback's.
#[derive(Serialize)]
struct Body<'a, T> {
    #[serde(flatten)]
    data: &'a T,
    #[serde(flatten)]
    feedback: &'a Feedback,
}

/// JSON, `no-store` (an answer that may be kept says so over it), and what
/// a form post's redirect is made of.
impl<T: Serialize> IntoResponse for Reply<T> {
    fn into_response(self) -> Response {
        let body = Body { data: &self.data, feedback: &self.feedback };
        let mut response = (self.status, Json(body)).into_response();
        response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        let Feedback { notice, redirect, .. } = self.feedback;
        response.extensions_mut().insert(FormAnswer { notice, redirect, back_query: self.back_query });
        response
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    async fn body<T: Serialize>(reply: Reply<T>) -> (StatusCode, Value) {
        let response = reply.into_response();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    #[tokio::test]
    async fn a_failure_is_its_feedback_alone() {
        let refused = Reply::refused_key(StatusCode::FORBIDDEN, NoticeKey::CrossSite);
        assert_eq!(
            body(refused).await,
            (StatusCode::FORBIDDEN, json!({ "notice": { "type": "error", "key": "crossSite" } }))
        );
        let invalid = Reply::invalid(
            StatusCode::UNPROCESSABLE_ENTITY,
            BTreeMap::from([("name".to_owned(), Problem::TooLong { max: 100 })]),
        );
        let expected = json!({ "errors": { "name": { "key": "tooLong", "params": { "max": 100 } } } });
        assert_eq!(body(invalid).await, (StatusCode::UNPROCESSABLE_ENTITY, expected));
    }

    #[tokio::test]
    async fn a_success_has_its_feedback_beside_its_data() {
        let sent = contract::api::CpmCodeSent { msisdn: "255754000001".into() };
        let reply = Reply::ok(sent).with_notice(Notice::text(NoticeKind::Info, "Sent")).redirect("/cpm-otp".into());
        let expected =
            json!({ "msisdn": "255754000001", "notice": { "type": "info", "text": "Sent" }, "redirect": "/cpm-otp" });
        assert_eq!(body(reply).await, (StatusCode::OK, expected));
        assert_eq!(body(Reply::done()).await.1, json!({}));
    }
}
