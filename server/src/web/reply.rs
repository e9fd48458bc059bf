//! [`Reply`]: an API answer as JSON, its data with its [`Feedback`] beside
//! it. Handlers answer a script and a form post alike; the form post's
//! redirect is made from the same reply ([`super::form_post`]).

use std::collections::BTreeMap;

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::{Map, Value};

use super::form_post::{FormAnswer, QueryEdits, query_edits};
use super::{Feedback, Notice, NoticeKey, NoticeKind};

/// Data for the script, a notice, where to go next; or a refusal.
pub struct Reply {
    status: StatusCode,
    data: Map<String, Value>,
    feedback: Feedback,
    back_query: QueryEdits,
}

impl Reply {
    /// 200 with `data`'s members (a value that is no object is `data`).
    pub fn ok(data: Value) -> Reply {
        let data = match data {
            Value::Object(map) => map,
            Value::Null => Map::new(),
            other => Map::from_iter([("data".to_owned(), other)]),
        };
        Reply { status: StatusCode::OK, data, feedback: Feedback::default(), back_query: Vec::new() }
    }

    /// A failure told as `notice`.
    pub fn refused(status: StatusCode, notice: Notice) -> Reply {
        Reply { status, data: Map::new(), feedback: Feedback { notice: Some(notice), ..Feedback::default() }, back_query: Vec::new() }
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

    /// A form's fields refused, with a message each.
    pub fn invalid(status: StatusCode, errors: BTreeMap<String, String>) -> Reply {
        Reply { status, data: Map::new(), feedback: Feedback { errors: Some(errors), ..Feedback::default() }, back_query: Vec::new() }
    }

    pub fn with_notice(mut self, notice: Notice) -> Reply {
        self.feedback.notice = Some(notice);
        self
    }

    /// The browser goes to `path` next (logging out sends it home).
    pub fn redirect(mut self, path: String) -> Reply {
        self.feedback.redirect = Some(path);
        self
    }

    /// A form goes back to its page with these query parameters set or
    /// removed: the sign-in page's code step (`step=code`), or what was
    /// typed, to keep it in its field.
    pub fn back_query(mut self, edits: &[(&str, Option<&str>)]) -> Reply {
        self.back_query = query_edits(edits);
        self
    }
}

/// The body: the data's members, then the feedback's.
#[derive(Serialize)]
struct Body<'a> {
    #[serde(flatten)]
    data: &'a Map<String, Value>,
    #[serde(flatten)]
    feedback: &'a Feedback,
}

/// JSON, `no-store` (an answer that may be kept says so over it), and what
/// a form post's redirect is made of.
impl IntoResponse for Reply {
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
    use serde_json::json;

    use super::*;

    async fn body(reply: Reply) -> (StatusCode, Value) {
        let response = reply.into_response();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    #[tokio::test]
    async fn a_failure_is_its_feedback_alone() {
        let refused = Reply::refused_key(StatusCode::FORBIDDEN, NoticeKey::CrossSite);
        assert_eq!(body(refused).await, (StatusCode::FORBIDDEN, json!({ "notice": { "type": "error", "key": "crossSite" } })));
        let invalid = Reply::invalid(StatusCode::UNPROCESSABLE_ENTITY, BTreeMap::from([("name".to_owned(), "Required".to_owned())]));
        assert_eq!(body(invalid).await, (StatusCode::UNPROCESSABLE_ENTITY, json!({ "errors": { "name": "Required" } })));
    }

    #[tokio::test]
    async fn a_success_has_its_feedback_beside_its_data() {
        let reply = Reply::ok(json!({ "msisdn": "255754000001" })).with_notice(Notice::text(NoticeKind::Info, "Sent")).redirect("/cpm-otp".into());
        let expected = json!({ "msisdn": "255754000001", "notice": { "type": "info", "text": "Sent" }, "redirect": "/cpm-otp" });
        assert_eq!(body(reply).await, (StatusCode::OK, expected));
        assert_eq!(body(Reply::ok(json!(3))).await.1, json!({ "data": 3 }));
    }
}
