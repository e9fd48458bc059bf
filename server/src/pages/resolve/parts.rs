//! What a page shows, as [`resolve`](super::resolve) finds it: a matched
//! route with its content ([`PageParts`]), before it becomes the
//! [`PageData`] a render receives; or where the address must go instead.

use std::collections::BTreeMap;
use std::sync::Arc;

use contract::Lang;
use contract::Pager;
use contract::locations::LocatorPage;
use contract::page::{BundleOffer, MatchedRoute, PageContent, PageData, PageKind, SearchResults};

use crate::content::{ContentError, ContentQuery, ContentValue, Loaded, Source};
use crate::manifest::RouteDef;
use crate::state::AppState;
use crate::web::RedirectTo;

/// What a path resolves to.
pub enum Resolved {
    Page(Box<PageParts>),
    Redirect { location: RedirectTo, permanent: bool },
}

/// Why a route's page is not what its address shows: a step of
/// [`resolve`](super::resolve) stops with one of these.
pub enum Stop {
    /// No such item, question or list page: the not-found page.
    NotFound,
    /// The content could not be loaded (logged where it failed): the frame.
    Failed,
    /// The item is at another address (a path without language prefix).
    Moved(String),
}

/// A matched route with its content.
pub struct PageParts {
    pub lang: Lang,
    pub path: String,
    pub status: u16,
    pub route: MatchedRoute,
    /// The route as the table defines it: the query parameters it reads
    /// are what of the query goes into the page's address.
    pub def: Arc<RouteDef>,
    pub page: Option<Loaded>,
    pub sidebar: Option<Loaded>,
    pub list: Option<Loaded>,
    pub item: Option<Loaded>,
    pub popups: Option<Loaded>,
    pub alternates: Option<BTreeMap<Lang, String>>,
    /// The catalogue's bundles the page shows, if it shows any.
    pub bundles: Option<PageBundles>,
    /// On a list page, which of its pages this is, and the version of the
    /// index that counted them (0: counted from the list itself).
    pub pager: Option<(Pager, u64)>,
    /// On the search page, what the search found, and the build of the
    /// index it was found in.
    pub search: Option<(SearchResults, u64)>,
    /// On a locator page, its form and what it found, and the versions it
    /// is made from (see [`crate::locator::Outcome::Page`]).
    pub locator: Option<(Box<LocatorPage>, [u64; 2])>,
    /// The content could not be loaded: the page frame with the
    /// content-failure message.
    pub failed: bool,
    /// The CMS models and languages it is built from, which the pages kept
    /// on disk are checked against when the CMS says what changed.
    pub sources: Vec<Source>,
}

/// The bundles of the operator's catalogue a page shows, and the version of
/// the catalogue they come from.
pub struct PageBundles {
    /// `None`: the catalogue cannot be read (tables say so instead).
    pub offers: Option<Vec<BundleOffer>>,
    pub version: u64,
}

/// The status of a page whose content failed: its own when it is an error
/// already (a 404 stays a 404), else 503 so crawlers come back later.
pub fn failure_status(status: u16) -> u16 {
    if status >= 400 { status } else { 503 }
}

/// A part of the page that is not worth failing it for: logged, then left out.
pub fn or_leave_out(part: Result<Option<Loaded>, ContentError>, what: &str) -> Option<Loaded> {
    part.map_err(|error| tracing::warn!(%error, "{what} unavailable")).ok().flatten()
}

impl PageParts {
    /// The content, catalogue and search versions the page is built from (its cache key).
    pub fn versions(&self) -> Vec<u64> {
        let content = [&self.page, &self.sidebar, &self.list, &self.item, &self.popups]
            .into_iter()
            .map(|loaded| loaded.as_ref().map_or(0, |l| l.version));
        content
            .chain(self.bundles.as_ref().map(|bundles| bundles.version))
            .chain(self.pager.map(|(_, version)| version))
            .chain(self.search.as_ref().map(|(_, build)| *build))
            .chain(self.locator.iter().flat_map(|(_, versions)| *versions))
            .collect()
    }

    /// When the content it shows was given by the CMS: the oldest of it.
    pub fn confirmed(&self) -> std::time::SystemTime {
        let age = [&self.page, &self.sidebar, &self.list, &self.item, &self.popups]
            .into_iter()
            .flatten()
            .map(|loaded| loaded.age)
            .max()
            .unwrap_or_default();
        std::time::SystemTime::now() - age
    }

    pub fn into_data(self, site_url: &str) -> PageData {
        fn part<'a, T: Clone + 'a>(
            loaded: &'a Option<Loaded>,
            pick: impl Fn(&'a ContentValue) -> Option<&'a T>,
        ) -> Option<T> {
            loaded.as_ref().and_then(|l| l.value.as_deref()).and_then(pick).cloned()
        }
        let page_lang = self.page.as_ref().map(|l| l.lang).filter(|lang| *lang != self.lang);
        PageData {
            lang: self.lang,
            status: self.status,
            route: self.route,
            content: PageContent {
                page: part(&self.page, ContentValue::page),
                page_lang,
                sidebar: part(&self.sidebar, ContentValue::sidebar),
                list: part(&self.list, ContentValue::list),
                item: part(&self.item, ContentValue::item),
                popups: part(&self.popups, ContentValue::popups),
                failed: self.failed,
            },
            alternates: self.alternates,
            subscriber: None,
            notice: None,
            cpm: None,
            bundles: self.bundles.and_then(|bundles| bundles.offers),
            form: None,
            search: self.search.map(|(results, _)| results),
            locator: self.locator.map(|(page, _)| *page),
            pager: self.pager.map(|(pager, _)| pager),
            preview: None,
            site_url: site_url.to_owned(),
            csrf: None,
            path: self.path,
        }
    }

    /// The same page for every address that has none: it is rendered and
    /// cached once per language and content version, so random addresses
    /// cost no render. Having no address of its own, its links (the
    /// language switch, the way back after signing in) lead home.
    pub fn not_found(state: &AppState, lang: Lang, sidebar: Option<Loaded>) -> Resolved {
        let route = state.pages.routes.not_found();
        let matched = MatchedRoute { name: route.name.clone(), page: PageKind::NotFound, params: Default::default() };
        PageParts::frame(lang, "/", 404, matched, route.clone(), sidebar, false)
    }

    /// The route's frame without its content, which could not be loaded.
    pub fn failed(
        lang: Lang,
        path: &str,
        route: MatchedRoute,
        def: Arc<RouteDef>,
        sidebar: Option<Loaded>,
    ) -> Resolved {
        PageParts::frame(lang, path, failure_status(200), route, def, sidebar, true)
    }

    /// A page with no content of its own: header, menu, footer around its message.
    fn frame(
        lang: Lang,
        path: &str,
        status: u16,
        route: MatchedRoute,
        def: Arc<RouteDef>,
        sidebar: Option<Loaded>,
        failed: bool,
    ) -> Resolved {
        Resolved::Page(Box::new(PageParts {
            lang,
            path: path.to_owned(),
            status,
            route,
            def,
            page: None,
            sidebar,
            list: None,
            item: None,
            popups: None,
            alternates: None,
            bundles: None,
            pager: None,
            search: None,
            locator: None,
            failed,
            sources: vec![Source::of(&ContentQuery::single(contract::cms::SIDEBAR), lang)],
        }))
    }
}
