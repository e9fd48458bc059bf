//! One error type for the server, mapped to HTTP once. Detail of 5xx errors
//! is logged here and never shown to the visitor.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use contract::Lang;
use ssr_runtime::RenderError;

use crate::content::ContentError;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("render failed: {0}")]
    Render(#[from] RenderError),
    #[error("content unavailable: {0}")]
    Content(#[from] ContentError),
    #[error("invalid build manifest: {0}")]
    Manifest(String),
    #[error("configuration: {0}")]
    Config(String),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl AppError {
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::Render(RenderError::Overloaded) => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Content(_) => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The error page in the visitor's language: plain HTML, no script, so it
    /// shows whatever else is broken.
    pub fn into_page(self, lang: Lang) -> Response {
        let status = self.status();
        self.log();
        let (title, text, home) = match (lang, status) {
            (Lang::Sw, StatusCode::SERVICE_UNAVAILABLE) => (
                "Huduma haipatikani kwa sasa",
                "Tafadhali jaribu tena baada ya muda mfupi.",
                "Ukurasa wa mwanzo",
            ),
            (Lang::Sw, _) => ("Kuna hitilafu imetokea", "Tafadhali jaribu tena baadaye.", "Ukurasa wa mwanzo"),
            (Lang::En, StatusCode::SERVICE_UNAVAILABLE) => (
                "Temporarily unavailable",
                "Please try again in a moment.",
                "Home page",
            ),
            (Lang::En, _) => ("An Error Has occurred", "Please try again later.", "Home page"),
        };
        let home_path = if lang == Lang::Sw { "/sw" } else { "/" };
        let html = format!(
            "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <meta name=\"robots\" content=\"noindex\"><title>{title}</title></head>\
             <body style=\"font-family:system-ui,sans-serif;text-align:center;padding:3rem 1rem\">\
             <h1>{title}</h1><p>{text}</p><p><a href=\"{home_path}\">{home}</a></p></body></html>",
            lang = lang.code(),
        );
        let mut response = (status, [("content-type", "text/html; charset=utf-8")], html).into_response();
        if status == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert("retry-after", axum::http::HeaderValue::from_static("5"));
        }
        response.headers_mut().insert("cache-control", axum::http::HeaderValue::from_static("no-store"));
        response
    }

    fn log(&self) {
        match self {
            AppError::Render(RenderError::Js { message, stack }) => {
                tracing::error!(%message, stack = stack.as_deref().unwrap_or(""), "render error");
            }
            other => tracing::error!(error = %other, "request failed"),
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        self.into_page(Lang::En)
    }
}
