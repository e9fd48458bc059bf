//! Bilingual messages and the one error type of the sandbox's handlers,
//! mapped to the contract's two failure shapes.

use std::borrow::Cow;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::json;

use super::SandboxError;
use super::domain::InvalidInput;

/// A message meant for people, in both languages of the site.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(super) struct Text {
    pub en: Cow<'static, str>,
    pub sw: Cow<'static, str>,
}

impl Text {
    pub const fn new(en: &'static str, sw: &'static str) -> Text {
        Text { en: Cow::Borrowed(en), sw: Cow::Borrowed(sw) }
    }

    pub fn owned(en: String, sw: String) -> Text {
        Text { en: Cow::Owned(en), sw: Cow::Owned(sw) }
    }

    pub const UNAUTHORIZED: Text = Text::new(
        "Your session has expired. Please log in again.",
        "Muda wa kipindi chako umekwisha. Tafadhali ingia tena.",
    );
    const INTERNAL: Text = Text::new("An Error Has occurred", "Kuna hitilafu imetokea");
}

/// Why a call of the contract failed. Answered as `{ "message": { en, sw } }`,
/// or through [`AsFailure`] where the contract wants `failure.reason`.
#[derive(Debug, thiserror::Error)]
pub(super) enum ApiError {
    #[error("{status}: {}", text.en)]
    Refused { status: StatusCode, text: Text },
    #[error(transparent)]
    Internal(#[from] SandboxError),
}

impl ApiError {
    pub fn new(status: StatusCode, text: Text) -> ApiError {
        ApiError::Refused { status, text }
    }

    pub fn bad_request(text: Text) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, text)
    }

    pub fn unauthorized() -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, Text::UNAUTHORIZED)
    }

    /// 429: a code was sent less than `resend_after` ago.
    pub fn too_soon(wait_secs: u64) -> ApiError {
        let unit = if wait_secs == 1 { "second" } else { "seconds" };
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            Text::owned(
                format!("Please wait {wait_secs} {unit} before requesting a new code."),
                format!("Tafadhali subiri sekunde {wait_secs} kabla ya kuomba msimbo mpya."),
            ),
        )
    }

    /// The status and text of a refusal; internal errors are logged here,
    /// once, and their detail never leaves the server.
    fn into_parts(self) -> (StatusCode, Text) {
        match self {
            ApiError::Refused { status, text } => (status, text),
            ApiError::Internal(error) => {
                tracing::error!(%error, "sandbox call failed");
                (StatusCode::INTERNAL_SERVER_ERROR, Text::INTERNAL)
            }
        }
    }
}

impl From<rusqlite::Error> for ApiError {
    fn from(error: rusqlite::Error) -> ApiError {
        ApiError::Internal(error.into())
    }
}

impl From<InvalidInput> for ApiError {
    fn from(invalid: InvalidInput) -> ApiError {
        let text = match invalid {
            InvalidInput::Msisdn => Text::new(
                "Enter the phone number as 12 digits starting with 255, for example 255754000001.",
                "Andika namba ya simu kwa tarakimu 12 zinazoanza na 255, kwa mfano 255754000001.",
            ),
            InvalidInput::Code => Text::new("The code is 6 digits.", "Msimbo una tarakimu 6."),
        };
        ApiError::bad_request(text)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, text) = self.into_parts();
        (status, Json(json!({ "message": text }))).into_response()
    }
}

/// The sign-in and CPM code requests fail with `{ "failure": { "reason" } }`,
/// in English: the site shows its own translation.
#[derive(Debug)]
pub(super) struct AsFailure(pub ApiError);

impl IntoResponse for AsFailure {
    fn into_response(self) -> Response {
        let (status, text) = self.0.into_parts();
        (status, Json(json!({ "failure": { "reason": text.en } }))).into_response()
    }
}

/// The JSON body of a call. Parsed by hand rather than with axum's `Json`
/// so that a malformed body gets the contract's 400 shape, not axum's text.
pub(super) fn parse_body<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|error| {
        ApiError::bad_request(Text::owned(
            format!("The request is not in the expected form: {error}."),
            format!("Ombi haliko katika muundo unaotarajiwa: {error}."),
        ))
    })
}

/// `200 { "data": … }`
pub(super) fn data(value: impl Serialize) -> Json<serde_json::Value> {
    Json(json!({ "data": value }))
}

/// `200 { "message": { en, sw } }`
pub(super) fn message(text: Text) -> Json<serde_json::Value> {
    Json(json!({ "message": text }))
}
