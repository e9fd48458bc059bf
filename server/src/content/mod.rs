//! Page content: the [`ContentSource`] trait with the embedded source behind
//! it, and the normalisation of Strapi answers into one internal shape
//! (attributes flattened, relations unwrapped, rich text rendered to
//! sanitised HTML).

mod embedded;
mod normalize;

use async_trait::async_trait;
use serde_json::Value;
use ssr_runtime::Lang;

pub use embedded::EmbeddedContent;
pub use normalize::{normalize, render_rich_text};

#[derive(Debug, thiserror::Error)]
pub enum ContentError {
    #[error("content source failed: {0}")]
    Upstream(String),
    #[error("content answer malformed: {0}")]
    Malformed(String),
}

/// Where page content comes from: the CMS or the embedded default.
#[async_trait]
pub trait ContentSource: Send + Sync {
    /// A single type (e.g. `home`, `sidebar`) in `lang`, normalised; `None`
    /// when the source has no such entry.
    async fn single(&self, key: &str, lang: Lang) -> Result<Option<Value>, ContentError>;
}
