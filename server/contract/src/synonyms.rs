//! The words editors say name the same thing, for the site search: the
//! CMS's `synonyms` collection ([`Synonym`]), one entry per group, the same
//! for both languages. Without it (or with none that fits) the search uses
//! its embedded list (`server/src/search/synonyms.txt`), written the same way.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// An entry of the CMS's `synonyms` collection, as the CMS must hold it (the
/// Strapi schema is generated from this type): words and phrases that name
/// one thing, in English and Swahili and as visitors say them, separated by
/// `|` ("bundle | bundles | kifurushi | vifurushi", "customer care | huduma
/// kwa wateja"). A query's word or words that are one of them also find the
/// others. Not localized: a group joins both languages' words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Synonym {
    pub id: u32,
    #[schemars(extend("x-cms" = "text"))]
    pub words: String,
}
