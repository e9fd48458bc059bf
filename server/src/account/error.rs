//! [`AccountError`]: every way an account request fails, with what the
//! visitor is told. Handlers use `?` and name what they refuse as a
//! [`Refused`]; the status and the notice are decided
//! here, once, and answered as the one API body ([`crate::web::Feedback`]).

use std::time::Duration;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::PrivateCookieJar;
use contract::Lang;

use super::operator::OperatorError;
use super::session_store::StoreError;
use crate::web::{Notice, NoticeKey, NoticeKind, Reply};

/// A failed code request shows this long (milliseconds): long enough to read
/// why, and when to ask again.
const REQUEST_CODE_FAILURE_MS: u32 = 7000;

/// How long "not confirmed yet" shows: it asks the visitor to read before acting.
const UNCONFIRMED_MS: u32 = 10_000;

/// Boxed, as failures are the rare path: a handler's `Result` stays the
/// size of its answer.
pub struct AccountError(Box<Failure>);

struct Failure {
    reply: Reply,
    /// The cookies to send with the failure (a session that just ended).
    jar: Option<PrivateCookieJar>,
}

/// What a handler refuses on its own, each with its status and the notice
/// the visitor reads (by key: the app words it in their language). The
/// operator's refusals keep the operator's status ([`AccountError::operator`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Not a Tanzanian mobile number.
    InvalidMsisdn,
    /// Not a one-time code's 6 digits.
    InvalidCode,
    /// Past a rate limit.
    TooMany,
    /// Never signed in, or a session that holds no usable number.
    SignInFirst,
    /// A session that has ended.
    SessionExpired,
    /// The operator's bundle catalogue could not be read.
    NoCatalogue,
    /// Buying for a modem with no modem signed in.
    NoModem,
    /// The same bundle for the same number again, not confirmed.
    PurchaseRepeat,
    /// A number the payer may not send a bundle to.
    CannotSendTo,
    /// The operator failed in a way the visitor cannot act on.
    OperatorFailed,
    /// A modem with no alternative number registered, or no modem.
    ModemNotRegistered,
    /// The session store or the shared rate limits could not be asked.
    Unavailable,
}

impl Refused {
    fn status(self) -> StatusCode {
        match self {
            Refused::InvalidMsisdn | Refused::InvalidCode | Refused::CannotSendTo => StatusCode::BAD_REQUEST,
            Refused::TooMany => StatusCode::TOO_MANY_REQUESTS,
            Refused::SignInFirst | Refused::SessionExpired => StatusCode::UNAUTHORIZED,
            Refused::NoCatalogue | Refused::OperatorFailed => StatusCode::BAD_GATEWAY,
            Refused::NoModem | Refused::PurchaseRepeat => StatusCode::CONFLICT,
            Refused::ModemNotRegistered => StatusCode::NOT_FOUND,
            Refused::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    fn key(self) -> NoticeKey {
        match self {
            Refused::InvalidMsisdn => NoticeKey::InvalidMsisdn,
            Refused::InvalidCode => NoticeKey::InvalidCode,
            Refused::TooMany => NoticeKey::RateLimited,
            Refused::SignInFirst | Refused::NoModem => NoticeKey::SignInFirst,
            Refused::SessionExpired => NoticeKey::SessionExpired,
            Refused::NoCatalogue => NoticeKey::SomethingWentWrong,
            Refused::PurchaseRepeat => NoticeKey::PurchaseRepeat,
            Refused::CannotSendTo => NoticeKey::CannotSendTo,
            Refused::OperatorFailed => NoticeKey::NotRight,
            Refused::ModemNotRegistered => NoticeKey::ModemNotRegistered,
            Refused::Unavailable => NoticeKey::ServiceUnavailable,
        }
    }
}

impl From<Refused> for AccountError {
    fn from(refused: Refused) -> AccountError {
        AccountError::new(refused.status(), refused.key())
    }
}

impl AccountError {
    fn new(status: StatusCode, key: NoticeKey) -> AccountError {
        AccountError::with_notice(status, Notice::key(NoticeKind::Error, key))
    }

    fn with_notice(status: StatusCode, notice: Notice) -> AccountError {
        AccountError(Box::new(Failure { reply: Reply::refused(status, notice), jar: None }))
    }

    /// 429 for a code asked for too soon, saying how long to wait (whole
    /// seconds under a minute, else minutes, rounded up); shown as long as
    /// every failed code request.
    pub fn too_soon(wait: Duration) -> AccountError {
        let seconds = wait.as_millis().div_ceil(1000).max(1);
        let notice = if seconds < 60 {
            Notice::key(NoticeKind::Error, NoticeKey::CodeWaitSeconds)
                .with_params([("seconds", seconds.to_string().as_str())])
        } else {
            Notice::key(NoticeKind::Error, NoticeKey::CodeWaitMinutes)
                .with_params([("minutes", seconds.div_ceil(60).to_string().as_str())])
        };
        AccountError::with_notice(StatusCode::TOO_MANY_REQUESTS, notice.lasting(REQUEST_CODE_FAILURE_MS))
    }

    /// A code the operator did not send: "Something went wrong", or the
    /// operator's reason; shown as long as every failed code request.
    pub fn code_request_failed(error: &OperatorError) -> AccountError {
        let notice = match error {
            OperatorError::Refused { reason: Some(reason), .. } => Notice::text(NoticeKind::Error, reason),
            _ => Notice::key(NoticeKind::Error, NoticeKey::SomethingWentWrong),
        };
        AccountError::with_notice(status_of(error), notice.lasting(REQUEST_CODE_FAILURE_MS))
    }

    /// A purchase whose answer did not come in time: it may have gone
    /// through, so "not confirmed yet" (504), a notice to read, not an error.
    pub fn purchase_unconfirmed() -> AccountError {
        let notice = Notice::key(NoticeKind::Info, NoticeKey::PurchaseUnconfirmed).lasting(UNCONFIRMED_MS);
        AccountError::with_notice(StatusCode::GATEWAY_TIMEOUT, notice)
    }

    /// An operator failure the visitor is told in one message, `key`.
    pub fn operator(error: &OperatorError, key: NoticeKey) -> AccountError {
        AccountError::new(status_of(error), key)
    }

    /// An operator failure told in the operator's own message in the
    /// visitor's language where it gave one, else as `fallback`.
    pub fn operator_message(error: &OperatorError, lang: Lang, fallback: NoticeKey) -> AccountError {
        let notice = match error {
            OperatorError::Refused { message: Some(message), .. } => Notice::text(NoticeKind::Error, message.get(lang)),
            OperatorError::Refused { reason: Some(reason), .. } => Notice::text(NoticeKind::Error, reason),
            _ => Notice::key(NoticeKind::Error, fallback),
        };
        AccountError::with_notice(status_of(error), notice)
    }

    /// The session is gone: the cookies that clear it go with the answer.
    pub fn session_ended(jar: PrivateCookieJar, key: NoticeKey) -> AccountError {
        let mut error = AccountError::new(StatusCode::UNAUTHORIZED, key);
        error.0.jar = Some(jar);
        error
    }

    /// The browser goes to `path` next.
    pub fn redirect(mut self, path: String) -> AccountError {
        self.0.reply = self.0.reply.redirect(path);
        self
    }

    /// A form goes back to its page with these query parameters set or
    /// removed (what was typed, to keep it in its field).
    pub fn back_query(mut self, edits: &[(&str, Option<&str>)]) -> AccountError {
        self.0.reply = self.0.reply.back_query(edits);
        self
    }
}

fn status_of(error: &OperatorError) -> StatusCode {
    match error {
        OperatorError::Unauthorized => StatusCode::UNAUTHORIZED,
        // A refusal the visitor can act on keeps its status; the operator's
        // own failure is a bad gateway to the browser, never this server's 5xx.
        OperatorError::Refused { status: status @ 400..=499, .. } => {
            StatusCode::from_u16(*status).unwrap_or(StatusCode::BAD_GATEWAY)
        }
        OperatorError::Refused { .. } => StatusCode::BAD_GATEWAY,
        OperatorError::Unavailable(_) => StatusCode::BAD_GATEWAY,
        OperatorError::TimedOut => StatusCode::GATEWAY_TIMEOUT,
        // Failing fast while the API is down (or too busy): try again shortly.
        OperatorError::NotCalled(_) => StatusCode::SERVICE_UNAVAILABLE,
    }
}

/// The session store failed: nothing was saved, the visitor may try again.
impl From<StoreError> for AccountError {
    fn from(error: StoreError) -> AccountError {
        tracing::error!(%error, "session store failed");
        Refused::Unavailable.into()
    }
}

/// The shared rate limits cannot be asked (Redis down): refused rather than
/// let through unlimited; the visitor is told to try again shortly.
impl From<crate::limits::Unavailable> for AccountError {
    fn from(error: crate::limits::Unavailable) -> AccountError {
        tracing::error!(%error, "rate limits unavailable; request refused");
        Refused::Unavailable.into()
    }
}

impl IntoResponse for AccountError {
    fn into_response(self) -> Response {
        let Failure { reply, jar } = *self.0;
        match jar {
            Some(jar) => (jar, reply).into_response(),
            None => reply.into_response(),
        }
    }
}
