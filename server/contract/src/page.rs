//! What a render receives and returns. [`PageData`] is also what the browser
//! gets for hydration (inert JSON in the page) and client navigation
//! (`/_data/<path>`), so one value feeds the server render and the browser.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::account::{CpmPermissions, Subscriber};
use crate::content::{CollectionItem, ItemList, Page, Popup, Sidebar};
use crate::feedback::{Notice, Problem};
use crate::{Lang, Pager};

/// Which page component renders a route (`app/src/pages/<kind>.tsx`). The
/// route table (`app/src/routes.ts`) names one per route; the server reads
/// it as this enum, so a kind the server does not know stops the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum PageKind {
    /// A single type's sections.
    Content,
    NewsList,
    NewsItem,
    DeviceList,
    DeviceItem,
    /// Questions and answers; `/faq/:item?` opens one of them.
    Faq,
    BusinessCategory,
    BusinessItem,
    Fraudster,
    /// The subscriber's own page: details, balances, every bundle sold online.
    Account,
    /// The sign-in of customer permission management, where its guarded page sends a visitor without a session.
    CpmLogin,
    CpmOtp,
    /// Customer permission management: the signed-in number's permissions.
    Cpm,
    BusinessCommunity,
    FoundationApplication,
    /// The site search's results for `?q=`.
    Search,
    /// M-Pesa agents or Vodashops by region, district or place name.
    Locator,
    Offline,
    /// Every address no route has.
    NotFound,
}

/// The kind's name as the route table writes it (`notFound`).
impl std::fmt::Display for PageKind {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        self.serialize(f)
    }
}

/// The route the path matched, by name, with its page kind and parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct MatchedRoute {
    pub name: String,
    pub page: PageKind,
    #[serde(default)]
    pub params: BTreeMap<String, String>,
}

/// The content a page shows, already parsed into the content model.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PageContent {
    pub page: Option<Page>,
    /// Set when the page's content is in another language than the page
    /// (Swahili missing in the CMS, English served instead).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub page_lang: Option<Lang>,
    pub sidebar: Option<Sidebar>,
    /// The route's collection list, or whole collection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub list: Option<ItemList>,
    /// The route's item (by `:id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub item: Option<CollectionItem>,
    /// Popups of the route's popup type, newest first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub popups: Option<Vec<Popup>>,
    /// The page's content could not be loaded or shown: the page frame is
    /// rendered with the content-failure message instead.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub failed: bool,
}

/// Everything a page needs to render, on the server and in the browser.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PageData {
    pub lang: Lang,
    /// The path without language prefix, e.g. `/internet-overview`.
    pub path: String,
    pub status: u16,
    pub route: MatchedRoute,
    pub content: PageContent,
    /// The page's path (without language prefix) in each language, when they
    /// differ (items have a slug per language).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub alternates: Option<BTreeMap<Lang, String>>,
    /// What a form post (no JavaScript) left for this page to show: the
    /// notice of its outcome, carried across the redirect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub notice: Option<Notice>,
    /// The customer permission management session, on its page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub cpm: Option<CpmPermissions>,
    /// The operator's bundles the page shows, in its language: those its
    /// bundle tables name, or on the account page every one sold online.
    /// Absent when the page names none, or the catalogue cannot be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub bundles: Option<Vec<BundleOffer>>,
    /// A form sent back to its page by the server (a post without
    /// JavaScript that needs correcting): what was typed and what is wrong.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub form: Option<FormState>,
    /// The search page's query and what it found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub search: Option<SearchResults>,
    /// The locator page's form and the places it found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub locator: Option<crate::locations::LocatorPage>,
    /// On a list page, which of its pages this is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub pager: Option<Pager>,
    /// A preview of the CMS's drafts: the page says so, with a way out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub preview: Option<PagePreview>,
    /// Public address of the site, for canonical and alternate links.
    pub site_url: String,
    /// The browser session's token for the page's forms (a hidden `csrf`
    /// field; the scripts' `x-csrf-token` header), on a page rendered for
    /// one visitor alone. Pages for everyone have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub csrf: Option<String>,
    /// The signed-in subscriber, if any. Last:
    /// a signed-in visitor's page is the page for everyone with this put
    /// in, and the less of the page follows it, the less is compressed
    /// apart (`server/src/pages/splice.rs`).
    pub subscriber: Option<Subscriber>,
}

/// What a page shown as a preview of the CMS's drafts carries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PagePreview {
    /// Ends the preview and comes back to this page as visitors see it.
    pub exit: String,
    /// The CMS admin's origin, whose update message (`strapiUpdate`) reloads the page.
    pub admin_origin: String,
}

/// A bundle of the operator's catalogue, in the page's language: what a
/// bundle table shows and a purchase sells.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct BundleOffer {
    pub id: String,
    pub name: String,
    /// Tanzanian shillings.
    pub price: f64,
    pub validity: String,
    /// `DATA`, `VOICE`, `SMS`, `MIXED` or `SERVICE`.
    #[serde(rename = "type")]
    pub kind: String,
    pub category: String,
    /// The USSD code that buys it (`*149*01#`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ussd: Option<String>,
    /// Sold online, through the purchase; otherwise only by its code.
    pub purchasable: bool,
}

/// What the site search found for a query, in the page's language.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
pub struct SearchResults {
    /// The query as typed (trimmed, at most 100 characters).
    pub query: String,
    /// False until the first index of the site's pages is built (a few
    /// seconds after start): the page then says to try again shortly.
    pub ready: bool,
    pub hits: Vec<SearchHit>,
    /// Words of the query no page holds, left out of the search.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub unmatched: Vec<String>,
    /// The query with a word found only with a typo written as the pages
    /// write it: "did you mean".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub suggestion: Option<String>,
    /// The query found no page as typed, by stem, synonym or typo, in
    /// either language: the hits are the pages that come closest (the
    /// search's last resort), and the page says so.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub close: bool,
}

/// One page found.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SearchHit {
    pub title: String,
    /// The page's address, language prefix included.
    pub href: String,
    /// Words of the page around the first one matching the query.
    pub snippet: String,
    /// A page of the other language, added when the visitor's finds little.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub other_language: bool,
}

/// A form as it was sent, with the server's messages.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
pub struct FormState {
    /// Every field as typed, by input name (`applicants[1].email`); a
    /// group of checkboxes has several values.
    pub values: BTreeMap<String, Vec<String>>,
    /// What is wrong, by input name; `form` is about the whole form (too
    /// many sent, not saved). The page words it in its language.
    #[ts(type = "Record<string, Problem>")]
    pub errors: BTreeMap<String, Problem>,
}

/// Stylesheets and module chunks of the page, for `<link>` tags in the head.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
pub struct PageAssets {
    pub stylesheets: Vec<String>,
    /// Module chunks of the page, preloaded so hydration does not wait on a waterfall.
    pub preload: Vec<String>,
    /// What an interactive page's island imports when it mounts, for the
    /// enhancement script to preload on a connection measured fast (empty
    /// on other pages); never preloaded by the first view.
    #[serde(default)]
    pub island: Vec<String>,
}

/// One server render: `globalThis.__ssr.render(request)` in the bundle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RenderRequest {
    /// The request path and query as the visitor sent them.
    pub url: String,
    pub data: PageData,
    pub assets: PageAssets,
    /// Set for a page rendered for everyone that signed-in subscribers get
    /// too, with their own account control put in: the text the control's
    /// name is rendered as in [`RenderOutput::account`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub account_slot: Option<String>,
    /// With `account_slot`: the text the signed-in control's form token is
    /// rendered as.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub csrf_slot: Option<String>,
    /// Set for the account page of a subscriber and the CPM page: its
    /// personal part rendered alone too, as [`RenderOutput::personal`].
    #[serde(default)]
    pub personal_part: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct RenderOutput {
    pub status: u16,
    /// Tags for `<head>`: title, meta, links.
    pub head: String,
    /// The body markup to hydrate.
    pub html: String,
    /// With [`RenderRequest::account_slot`]: the header's account control.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub account: Option<AccountControls>,
    /// With [`RenderRequest::personal_part`]: the page's personal part (the
    /// account page's for its subscriber, the CPM page's for its `cpm`),
    /// exactly as it is in `html`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub personal: Option<String>,
}

/// A render of a page's personal part alone (the account page's details
/// and balances, the CPM page's permissions), for a page whose rest is
/// cached for everyone: `globalThis.__ssr.render(request)` too, answered
/// with [`PartOutput`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct PartRequest {
    pub part: Part,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(untagged)]
pub enum Part {
    Account(AccountPart),
    Cpm(CpmPart),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct AccountPart {
    pub lang: Lang,
    pub subscriber: Subscriber,
}

/// The CPM page's permissions of the signed-in number, on the page at
/// `path` (without language prefix), which its forms return to carrying
/// the browser session's token `csrf`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct CpmPart {
    pub lang: Lang,
    pub path: String,
    pub cpm: CpmPermissions,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub csrf: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct PartOutput {
    pub html: String,
}

/// The header's account control of a page, as the page renders it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AccountControls {
    /// For everyone ("Log in"): exactly as it is in the page's `html`.
    pub signed_out: String,
    /// For a subscriber whose name is the request's `account_slot`.
    pub signed_in: String,
}
