//! The default content embedded in the binary from `content/`: one file per
//! single type and language, `content/<lang>/<key>.json`, in the Strapi v4
//! response shape so the same normalisation serves it and the CMS.

use std::collections::HashMap;

use async_trait::async_trait;
use serde_json::Value;
use ssr_runtime::Lang;

use super::{ContentError, ContentSource, normalize, render_rich_text};
use crate::AppError;

pub struct EmbeddedContent {
    singles: HashMap<(Lang, String), Value>,
}

impl EmbeddedContent {
    /// Parses and normalises every file once, at start-up; a malformed file
    /// is a start-up error, not a visitor's.
    pub fn new(files: &[(&str, &[u8])]) -> Result<EmbeddedContent, AppError> {
        let mut singles = HashMap::new();
        for (path, bytes) in files {
            let Some((lang, file)) = path.split_once('/') else { continue };
            let Some(key) = file.strip_suffix(".json") else { continue };
            let lang = match lang {
                "en" => Lang::En,
                "sw" => Lang::Sw,
                _ => continue,
            };
            let answer: Value = serde_json::from_slice(bytes)
                .map_err(|e| AppError::Content(ContentError::Malformed(format!("content/{path}: {e}"))))?;
            let mut entity = normalize(answer);
            render_rich_text(&mut entity);
            singles.insert((lang, key.to_owned()), entity);
        }
        Ok(EmbeddedContent { singles })
    }
}

#[async_trait]
impl ContentSource for EmbeddedContent {
    async fn single(&self, key: &str, lang: Lang) -> Result<Option<Value>, ContentError> {
        Ok(self.singles.get(&(lang, key.to_owned())).cloned())
    }
}
