//! The serde contract with the JS side (`app/src/contract.ts`): one struct in,
//! one out. [`PageData`] is also what the browser receives for hydration and
//! client-side navigation, so the same value feeds both.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A site language. Anything other than `en` or `sw` is `en` (spec §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Sw,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Sw];

    pub fn parse(value: &str) -> Lang {
        if value.eq_ignore_ascii_case("sw") { Lang::Sw } else { Lang::En }
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Sw => "sw",
        }
    }
}

/// The route the path matched, by name, with its page kind and parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchedRoute {
    pub name: String,
    pub page: String,
    #[serde(default)]
    pub params: serde_json::Map<String, Value>,
}

/// Content items of a page, already normalised (see the server's content module).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageContent {
    pub page: Option<Value>,
    /// Set when the page's content is in another language than the page
    /// (Swahili missing in the CMS, English served instead).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_lang: Option<Lang>,
    pub sidebar: Option<Value>,
    /// The route's collection list or whole collection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list: Option<Value>,
    /// The route's item.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub popups: Option<Value>,
}

/// Everything a page needs to render, on the server and in the browser.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageData {
    pub lang: Lang,
    /// The path without language prefix.
    pub path: String,
    pub status: u16,
    pub route: MatchedRoute,
    pub content: PageContent,
    /// The page's path in each language when they differ (items have a slug per language).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternates: Option<serde_json::Map<String, Value>>,
    /// The signed-in subscriber (spec §3 authentication user), if any.
    pub subscriber: Option<Value>,
    /// A message left by a form post for this page (spec §8), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notice: Option<Value>,
    /// The customer permission management session's data, on its page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpm: Option<Value>,
    /// The bundles a signed-in subscriber can buy, on the account page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bundles: Option<Value>,
    pub site_url: String,
}

/// Stylesheets and module chunks of the page, for `<link>` tags in the head.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PageAssets {
    pub stylesheets: Vec<String>,
    pub preload: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RenderRequest {
    /// The request path and query as the visitor sent them.
    pub url: String,
    pub data: PageData,
    pub assets: PageAssets,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RenderOutput {
    pub status: u16,
    /// Tags for `<head>`: title, meta, links.
    pub head: String,
    /// The body markup to hydrate.
    pub html: String,
}
