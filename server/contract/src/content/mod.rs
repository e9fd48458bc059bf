//! The content model: what the CMS (or the embedded `content/`) provides,
//! after normalisation (Strapi v4 wrappers removed, rich text rendered to
//! sanitised HTML, media URLs absolute).
//!
//! Every single type is a [`Page`] except the [`Sidebar`]; collections hold
//! [`NewsItem`]s, [`Device`]s, [`BusinessService`]s or [`Trick`]s; popups are
//! [`Popup`]s. A field marked required here is one without which its part
//! means nothing (a card without a title, a link without a URL): when it is
//! missing or mistyped the part is dropped. Every other field has a default.
//!
//! CMS hints ride on the JSON Schema: `x-cms-component` names the Strapi
//! component a struct becomes, `x-cms` picks a Strapi type other than the
//! default (`text` for long plain text).
//!
//! - this module: what every type shares (markup, dates, media, links, SEO),
//!   the single types' [`Page`] and the [`Sidebar`];
//! - `sections`: a page's dynamic zone, one [`Section`] per component;
//! - `collections`: the collections' items and the lists that hold them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

mod collections;
mod sections;

pub use collections::*;
pub use sections::*;

/// HTML the server rendered and sanitised from the CMS's rich text
/// (Markdown or Strapi 5 blocks). Safe to insert as it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct Markup(pub String);

/// A calendar date, `YYYY-MM-DD` (a date-time from the CMS is cut to its date).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema, TS)]
#[schemars(extend("format" = "date"))]
pub struct IsoDate(pub String);

/// An uploaded file (a Strapi media field).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct Media {
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternative_text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
    /// The file's media type (`image/gif`), as the CMS gives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime: Option<String>,
    /// The file's size in KB, as Strapi gives it (`287.35`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<f64>,
    /// Set by the site, never by the CMS: a photo the site resizes, at each
    /// of its fixed widths through its image endpoint, as the value of an
    /// `<img srcset>` (`/img/… 160w, …`). Absent for SVG, other files and
    /// media outside the CMS's media base.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-site" = true))]
    pub srcset: Option<String>,
}

/// A link; `url` is a path of this site without language prefix, or absolute.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[schemars(extend("x-cms-component" = "shared.link"))]
pub struct Link {
    pub label: String,
    pub url: String,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("x-cms-component" = "shared.seo"))]
#[ts(optional_fields)]
pub struct Seo {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta_title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cms" = "text"))]
    pub meta_description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share_image: Option<Media>,
}

/// A single type: a page's content.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct Page {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    #[serde(default)]
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seo: Option<Seo>,
    /// A CSS colour; the page is white without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background_color: Option<String>,
    /// The dynamic zone.
    #[serde(default)]
    pub sections: Vec<Section>,
}

/// The `sidebar` single type: quick links and a note in the footer.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct Sidebar {
    #[serde(default)]
    pub links: Vec<Link>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub footer_note: Option<String>,
}
