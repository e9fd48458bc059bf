//! [`PageError`]: why a page cannot be answered, mapped to HTTP once: the
//! one HTML error page ([`PageError::into_page`], in the app's strings) for
//! a page, the one API body ([`PageError::reply`]) for a page's data.
//! Detail of 5xx errors is logged here and never shown to the visitor.
//!
//! The API's features have an error of their own each, answered as the
//! same JSON body ([`crate::web::Feedback`]): `account::AccountError`,
//! `forms::FormError`. The errors of what they call (the operator API, the
//! CMS, the stores) are turned into those where the visitor's message is
//! decided.

use axum::http::StatusCode;
use axum::response::Response;
use contract::Lang;
use ssr_runtime::RenderError;

use crate::content::ContentError;
use crate::sampled::Sampled;
use crate::web::strings::{ErrorPage, error_page};
use crate::web::{NoticeKey, Reply, Strings};

#[derive(Debug, thiserror::Error)]
pub enum PageError {
    #[error("render failed: {0}")]
    Render(#[from] RenderError),
    #[error("content unavailable: {0}")]
    Content(#[from] ContentError),
    /// The client's address has as many renders under way as it may.
    #[error("too many renders for one client")]
    ClientBusy,
}

impl PageError {
    pub fn status(&self) -> StatusCode {
        match self {
            PageError::Render(RenderError::Overloaded | RenderError::QueueTimeout(_)) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            PageError::Content(_) => StatusCode::SERVICE_UNAVAILABLE,
            // This client's doing, not the server's state: it is told to slow down.
            PageError::ClientBusy => StatusCode::TOO_MANY_REQUESTS,
            PageError::Render(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The one API body for a page's data (`/_data/…`): the status, and a
    /// notice the app has a text for.
    pub fn reply(&self) -> Reply {
        let status = self.status();
        let key = match status {
            StatusCode::SERVICE_UNAVAILABLE => NoticeKey::ServiceUnavailable,
            StatusCode::TOO_MANY_REQUESTS => NoticeKey::RateLimited,
            _ => NoticeKey::SomethingWentWrong,
        };
        Reply::refused_key(status, key)
    }

    /// The error page in the visitor's language, worded in the app's
    /// strings (`errorPage` in `app/src/i18n`), linking to the home page
    /// (`home`).
    pub fn into_page(self, strings: &Strings, lang: Lang, home: &str) -> Response {
        let status = self.status();
        self.log();
        let page = match status {
            StatusCode::SERVICE_UNAVAILABLE => ErrorPage::Unavailable,
            StatusCode::TOO_MANY_REQUESTS => ErrorPage::Busy,
            _ => ErrorPage::Failed,
        };
        error_page(strings, lang, page, status, home)
    }

    fn log(&self) {
        match self {
            // Shedding is the server working as meant, and under attack it
            // happens thousands of times a second: a warning a second at most.
            PageError::Render(RenderError::Overloaded | RenderError::QueueTimeout(_)) => {
                if let Some(shed) = SHED.tick() {
                    tracing::warn!(
                        shed,
                        "render queue full or no engine free in time: requests answered 503 since the last warning"
                    );
                }
            }
            PageError::ClientBusy => {
                if let Some(refused) = CLIENT_BUSY.tick() {
                    tracing::warn!(
                        refused,
                        "a client address at its limit of renders: requests answered 429 since the last warning"
                    );
                }
            }
            PageError::Render(RenderError::Js { message, stack }) => {
                tracing::error!(%message, stack = stack.as_deref().unwrap_or(""), "render error");
            }
            other => tracing::error!(error = %other, "request failed"),
        }
    }
}

static SHED: Sampled = Sampled::new();
static CLIENT_BUSY: Sampled = Sampled::new();
