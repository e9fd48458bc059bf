//! The route table's shape: what one route of `app/src/routes.ts` says.
//! The table itself is written in TypeScript, typed by these definitions
//! (generated, as `RouteDef`), and read by the server from the
//! `routes.json` the app's build writes; so a field the two sides name
//! differently, or a value one of them does not know (a page kind, a
//! collection, a form), fails `tsc` or stops the server's start.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::Collection;
use crate::page::PageKind;

/// The name of the home page's route in `app/src/routes.ts` (`HOME` there):
/// where the server sends a visitor who signed out, or whose session the
/// operator ended.
pub const HOME: &str = "home";

/// A route: an address of the site (English as written, Swahili under
/// `/sw`), or a menu heading (an empty path, which no address reaches).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct RouteDef {
    /// Unique route name; also its menu label key and page name.
    pub name: String,
    /// `:param` and `:param?` segments, `*` for the rest; empty for a menu heading.
    pub path: String,
    /// The page kind that renders it; absent for menu headings and redirects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub page: Option<PageKind>,
    /// Single-type content key (`/api/<key>` in the CMS); pass-through routes use their parent's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub content: Option<String>,
    /// The collection the page lists, a page of it at a time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub list: Option<CollectionList>,
    /// Collection whose item `:id` the page shows; `:slug` must match the item's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub item: Option<Collection>,
    /// Collection shown whole (the fraudster tricks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub all: Option<Collection>,
    /// Popup type shown on the page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub popups: Option<String>,
    /// Query parameters the page reads (`services`); every other one is left
    /// out of its render and its cache key, so no query string buys a render.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub query: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub redirect: Option<Redirect>,
    /// Name of the parent route, for the menu tree, breadcrumbs and pass-through content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub parent: Option<String>,
    /// The form whose page this is (`/api/forms/<form>`): where its posts
    /// without JavaScript come back to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub form: Option<FormKind>,
    /// On a locator page: the places it finds (`/mpesa-agents`: agents; `/vodashop`: shops).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub locations: Option<crate::locations::LocationKind>,
    pub meta: RouteMeta,
}

/// What the menu, the breadcrumbs, the sitemap and the guards read of a route.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RouteMeta {
    /// Menu label: the key under `nav.` in the strings; absent: not in the menu.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub navigation: Option<String>,
    /// Behind the CPM sign-in.
    pub requires_auth: bool,
    /// Content is fetched from the server on every route change.
    pub is_dynamic: bool,
    /// The parent route's content is used.
    pub is_pass_through: bool,
    /// Hidden from the menu.
    pub invisible: bool,
    /// Not for search engines: `noindex`, left out of the sitemap (and so of
    /// pre-rendering and the site search): a visitor's own pages, search results.
    #[serde(default)]
    pub noindex: bool,
    /// Children hidden from the menu.
    pub invisible_children: bool,
    /// The menu entry is a link (false: a heading only).
    pub is_clickable: bool,
    pub is_visible: bool,
    /// Analytics / document name.
    pub page_name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub icon: Option<String>,
}

/// A collection listed a page at a time, newest first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CollectionList {
    pub collection: Collection,
    /// Pages of this size (9 news, 20 sport, 30 foundation); page N at
    /// `?page=N`, which the route's `query` names.
    pub page_size: u32,
    /// Only the items whose `field` is `value`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub filter: Option<ListFilter>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ListFilter {
    pub field: String,
    pub value: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Redirect {
    /// A path of this site (kept in the visitor's language) or an external URL.
    pub to: String,
    pub permanent: bool,
    /// Menu links open it in a new tab; the route itself sends the visitor on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub new_tab: bool,
}

/// The forms the site takes, by their name in addresses
/// (`/api/forms/<name>`, `?form=<name>`) and in the route table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum FormKind {
    BusinessCommunity,
    FoundationApplication,
}

impl FormKind {
    pub const ALL: [FormKind; 2] = [FormKind::BusinessCommunity, FormKind::FoundationApplication];

    /// `business-community`, `foundation-application`.
    pub fn name(self) -> &'static str {
        match self {
            FormKind::BusinessCommunity => "business-community",
            FormKind::FoundationApplication => "foundation-application",
        }
    }

    pub fn parse(name: &str) -> Option<FormKind> {
        FormKind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// The CMS collection its submissions go to.
    pub fn collection(self) -> &'static str {
        match self {
            FormKind::BusinessCommunity => "business-community-leads",
            FormKind::FoundationApplication => "foundation-applications",
        }
    }

    /// The start of its references: `BC-…`, `FA-…`.
    pub fn prefix(self) -> &'static str {
        match self {
            FormKind::BusinessCommunity => "BC",
            FormKind::FoundationApplication => "FA",
        }
    }
}

impl RouteDef {
    /// The route's address with `params` filled in (`/devices/:id/:slug?`);
    /// `None` without a required one ([`fill_path`]).
    pub fn href(&self, params: &[(&str, &str)]) -> Option<String> {
        fill_path(&self.path, params)
    }

    /// The address of the route's page with no parameters, its optional
    /// parts left out (`/faq/:item?` is `/faq`): what a sitemap lists.
    /// `None` for a menu heading, a route that needs a parameter (an item's
    /// `:id`) and the catch-all.
    pub fn address(&self) -> Option<String> {
        if self.path.is_empty() { None } else { self.href(&[]) }
    }

    /// Whether an address that matched this route is no page: it gets the
    /// one not-found page of its language. A redirect or a page behind the
    /// CPM sign-in is answered as such instead.
    pub fn is_unrouted(&self) -> bool {
        self.redirect.is_none() && !self.meta.requires_auth && matches!(self.page, None | Some(PageKind::NotFound))
    }
}

/// `pattern` (`/devices/:id/:slug?`) with its `:param` segments filled in
/// from `params`, each value percent-encoded as one path segment; an
/// optional parameter without a value, or with an empty one, is left out
/// (an item whose heading gives no slug is `/news-event/3`, not
/// `/news-event/3/`, which would redirect back). `None` when a required
/// parameter has no value or the pattern ends in the catch-all `*`. The
/// app's `fillPath` (`app/src/navigation/paths.ts`) fills the same patterns:
/// `tests/twins/route-hrefs.json` holds the cases both are checked against.
pub fn fill_path(pattern: &str, params: &[(&str, &str)]) -> Option<String> {
    let mut path = String::new();
    for segment in pattern.split('/').filter(|s| !s.is_empty()) {
        if segment == "*" {
            return None;
        }
        let Some(name) = segment.strip_prefix(':') else {
            path.push('/');
            path.push_str(segment);
            continue;
        };
        let (name, optional) = name.strip_suffix('?').map_or((name, false), |name| (name, true));
        match params.iter().find(|(key, _)| *key == name).map(|(_, value)| *value).filter(|value| !value.is_empty()) {
            Some(value) => {
                path.push('/');
                path.extend(percent_encoding::utf8_percent_encode(value, URI_COMPONENT));
            }
            None if optional => {}
            None => return None,
        }
    }
    Some(if path.is_empty() { "/".to_owned() } else { path })
}

/// What `encodeURIComponent` leaves as it is: letters, digits and `-_.!~*'()`.
const URI_COMPONENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'!')
    .remove(b'~')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')');
