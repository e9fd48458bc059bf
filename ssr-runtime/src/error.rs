//! [`RenderError`]: why a render gave no page, from the engine or the pool.

use std::time::Duration;

/// Why a render gave no page.
#[derive(Debug, Clone, thiserror::Error)]
pub enum RenderError {
    #[error("render exceeded its time budget of {0:?}")]
    Timeout(Duration),
    #[error("JS error: {message}")]
    Js { message: String, stack: Option<String> },
    #[error("render queue is full")]
    Overloaded,
    #[error("no render engine was free within {0:?}")]
    QueueTimeout(Duration),
    #[error("no render engine is available")]
    Unavailable,
    #[error("engine failed to start: {0}")]
    Startup(String),
    #[error("render contract violated: {0}")]
    Contract(String),
}
