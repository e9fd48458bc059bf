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

use std::time::Duration;

use axum::http::StatusCode;
use axum::response::Response;
use contract::Lang;
use ssr_runtime::RenderError;

use crate::content::ContentError;
use crate::infra::sampled::Sampled;
use crate::web::strings::{ErrorPage, error_page};
use crate::web::{NoticeKey, Reply, Strings};

#[derive(Debug, thiserror::Error)]
pub enum PageError {
    #[error("render failed: {0}")]
    Render(#[from] RenderError),
    #[error("content unavailable: {0}")]
    Content(#[from] ContentError),
    /// The client's address has as many renders under way and waiting as
    /// it may.
    #[error("too many renders for one client")]
    ClientBusy,
    /// The same, known before the page's content was read: a request
    /// refused so costs the CMS nothing.
    #[error("too many renders for one client, refused before its content was read")]
    ClientBusyUnread,
    /// Its turn behind the client's own renders did not come in time.
    #[error("waited {0:?} for the client's own renders")]
    ClientWaited(Duration),
}

impl PageError {
    pub fn status(&self) -> StatusCode {
        match self {
            PageError::Render(RenderError::Overloaded | RenderError::QueueTimeout(_)) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            PageError::Content(_) | PageError::ClientWaited(_) => StatusCode::SERVICE_UNAVAILABLE,
            // This client's doing, not the server's state: it is told to slow down.
            PageError::ClientBusy | PageError::ClientBusyUnread => StatusCode::TOO_MANY_REQUESTS,
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

    /// Why a render was refused (`renders_refused_total`), for an error
    /// that is a refusal rather than a failure.
    fn refusal(&self) -> Option<Shed> {
        Some(match self {
            PageError::Render(RenderError::Overloaded) => Shed::EngineQueueFull,
            PageError::Render(RenderError::QueueTimeout(_)) => Shed::EngineWait,
            PageError::ClientBusy => Shed::ClientQueueFull,
            PageError::ClientBusyUnread => Shed::ClientQueueFullUnread,
            PageError::ClientWaited(_) => Shed::ClientWait,
            _ => return None,
        })
    }

    fn log(&self) {
        if let Some(refusal) = self.refusal() {
            metrics::counter!("renders_refused_total", "reason" => refusal.label()).increment(1);
            // Refusing is the server working as meant, and under attack it
            // happens thousands of times a second: a warning a second at
            // most for each reason.
            if let Some(refused) = REFUSED[refusal as usize].tick() {
                tracing::warn!(
                    refused,
                    reason = refusal.label(),
                    status = self.status().as_u16(),
                    "renders refused (see renders_refused_total) since the last warning for this reason"
                );
            }
            return;
        }
        match self {
            PageError::Render(RenderError::Js { message, stack }) => {
                tracing::error!(%message, stack = stack.as_deref().unwrap_or(""), "render error");
            }
            other => tracing::error!(error = %other, "request failed"),
        }
    }
}

/// Why a render was refused: its client's queue was full (known after or
/// before its content was read) or its turn there did not come in time; or
/// the engines' queue was full or had no engine free in time.
#[derive(Debug, Clone, Copy)]
enum Shed {
    ClientQueueFull,
    ClientQueueFullUnread,
    ClientWait,
    EngineQueueFull,
    EngineWait,
}

impl Shed {
    fn label(self) -> &'static str {
        match self {
            Shed::ClientQueueFull => "client-queue-full",
            Shed::ClientQueueFullUnread => "client-queue-full-unread",
            Shed::ClientWait => "client-wait",
            Shed::EngineQueueFull => "engine-queue-full",
            Shed::EngineWait => "engine-wait",
        }
    }
}

/// One sampled log line per [`Shed`].
static REFUSED: [Sampled; 5] = [const { Sampled::new() }; 5];
