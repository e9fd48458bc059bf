//! From a page request to what its page shows ([`PageParts`]), or where it
//! must go instead, in steps that read top to bottom in [`resolve`]:
//!
//! 1. the route's guards: a route that is a redirect, a page behind the
//!    CPM sign-in;
//! 2. an address no route has: the not-found page;
//! 3. which page of a list, of how many ([`list`]);
//! 4. everything the page shows, loaded in parallel: its content (or its
//!    parent's), the sidebar, its list, its item and popups;
//! 5. the item asked for, at its canonical address, with its address in
//!    the other language ([`item`]);
//! 6. the page's own checks: its content is there, a FAQ has the question
//!    asked for, a list page is not past the last;
//! 7. the bundles of the operator's catalogue the page shows, and on the
//!    search page what the search finds.
//!
//! The sidebar, list and popups are not worth failing a page for. Without
//! its content or item (the CMS lacks the type, or fails with no stale
//! copy) the page is its frame with the content-failure message and 503; an
//! item the CMS does not have is a 404, and so is a list page past the last.

mod item;
mod list;
mod parts;

pub(super) use parts::{PageParts, Resolved, failure_status};

use contract::Lang;
use contract::content::Section;
use contract::page::{MatchedRoute, PageKind};

use list::Listing;
use parts::{PageBundles, Stop, or_leave_out};

use super::error::PageError;
use super::request::PageRequest;
use crate::content::{Content, ContentQuery, ContentValue, Loaded, Source};
use crate::manifest::RouteDef;
use crate::state::AppState;
use crate::web::RedirectTo;

/// What `request` shows, with the content read from `content` (the
/// published content, or a preview's drafts); `cpm_signed_in` opens the
/// pages behind the CPM sign-in.
pub(super) async fn resolve(
    state: &AppState,
    content: &Content,
    request: &PageRequest,
    cpm_signed_in: bool,
) -> Result<Resolved, PageError> {
    let route = &request.route.route;
    let lang = request.local.lang;
    if let Some(redirect) = guard(state, route, lang, cpm_signed_in) {
        return Ok(redirect);
    }
    let load = |query: Option<ContentQuery>| async move {
        match query {
            Some(query) => content.get(&query, lang).await.map(Some),
            None => Ok(None),
        }
    };
    let sidebar_query = || Some(ContentQuery::single(contract::cms::SIDEBAR));
    let Some(kind) = route.page.filter(|_| !route.is_unrouted()) else {
        let sidebar = or_leave_out(load(sidebar_query()).await, "sidebar");
        return Ok(PageParts::not_found(state, lang, sidebar));
    };
    let listing = Listing::asked(state, route, lang, request.param(crate::pages::cache::LIST_PAGE)).await;
    let item_query = item::query(state, content, &request.route).await;
    let page_query = content_key(state, route).map(ContentQuery::single);
    let list_query = listing.as_ref().and_then(Listing::query).or_else(|| route.all.map(ContentQuery::All));
    let popups_query = route.popups.clone().map(ContentQuery::Popups);
    // What the page is built from, as the CMS's changes name it (the pager
    // counts by the list's collection).
    let sources = [&page_query, &sidebar_query(), &list_query, &item_query, &popups_query]
        .into_iter()
        .flatten()
        .chain(route.locations.map(|_| &ContentQuery::Locations))
        .map(|query| Source::of(query, lang))
        .collect();
    let (page, sidebar, list, item, popups) = tokio::join!(
        load(page_query),
        load(sidebar_query()),
        load(list_query),
        load(item_query.clone()),
        load(popups_query),
    );
    let sidebar = or_leave_out(sidebar, "sidebar");
    let (list, popups) = (or_leave_out(list, "list"), or_leave_out(popups, "popups"));
    let matched = MatchedRoute { name: route.name.clone(), page: kind, params: request.route.params.clone() };
    let locator = match route.locations.filter(|_| kind == PageKind::Locator) {
        Some(locations) => match locator(content, request, locations).await {
            Ok(found) => Some(found),
            Err(Stop::NotFound) => return Ok(PageParts::not_found(state, lang, sidebar)),
            Err(Stop::Moved(path)) => {
                return Ok(Resolved::Redirect { location: RedirectTo::site(&lang.href(&path)), permanent: false });
            }
            Err(Stop::Failed) => None,
        },
        None => None,
    };

    let shown = async {
        let item = item::found(content, request, item).await?;
        let page = page_content(state, request, page)?;
        if kind == PageKind::Faq && request.route.param("item").is_some_and(|slug| !has_question(&page, slug)) {
            return Err(Stop::NotFound);
        }
        let pager = listing.as_ref().map(|listing| listing.pager(&list)).transpose()?;
        let alternates = item::alternates(content, &request.route, lang, &item_query, &item).await?;
        let bundles = page_bundles(state, kind, &page, lang).await;
        Ok((page, item, pager, alternates, bundles))
    };
    Ok(match shown.await {
        Ok((page, item, pager, alternates, bundles)) => Resolved::Page(Box::new(PageParts {
            lang,
            path: request.local.path.clone(),
            route: matched,
            def: route.clone(),
            page,
            sidebar,
            list,
            item,
            popups,
            alternates,
            bundles,
            pager,
            search: (kind == PageKind::Search).then(|| search(state, request)),
            status: if locator.as_ref().is_some_and(|(page, _)| !page.ready) { 503 } else { 200 },
            locator,
            failed: false,
            sources,
        })),
        Err(Stop::NotFound) => PageParts::not_found(state, lang, sidebar),
        Err(Stop::Failed) => PageParts::failed(lang, &request.local.path, matched, route.clone(), sidebar),
        Err(Stop::Moved(path)) => Resolved::Redirect { location: RedirectTo::site(&lang.href(&path)), permanent: true },
    })
}

/// What a route is before it is a page: a redirect, or a page behind the
/// CPM sign-in that sends a visitor without a session to sign in.
fn guard(state: &AppState, route: &RouteDef, lang: Lang, cpm_signed_in: bool) -> Option<Resolved> {
    if let Some(redirect) = &route.redirect {
        let location = if redirect.to.starts_with('/') {
            RedirectTo::site(&lang.href(&redirect.to))
        } else {
            RedirectTo::external(&redirect.to)
        };
        return Some(Resolved::Redirect { location, permanent: redirect.permanent });
    }
    if route.meta.requires_auth && !cpm_signed_in {
        let login = state.pages.routes.path_of(PageKind::CpmLogin);
        return Some(Resolved::Redirect { location: RedirectTo::site(&lang.href(login)), permanent: false });
    }
    None
}

/// The page's own content, which a route that names one cannot do without.
fn page_content(
    state: &AppState,
    request: &PageRequest,
    page: Result<Option<Loaded>, crate::content::ContentError>,
) -> Result<Option<Loaded>, Stop> {
    let (route, path) = (&request.route.route, &request.local.path);
    match page {
        Ok(page) if route.content.is_some() && page.as_ref().is_none_or(|l| l.value.is_none()) => {
            let lang = request.local.lang.code();
            tracing::warn!(path = %path, content = ?content_key(state, route), lang, "the content source has no such single type");
            Err(Stop::Failed)
        }
        Ok(page) => Ok(page),
        Err(error) => {
            tracing::warn!(%error, path = %path, "page content unavailable");
            Err(Stop::Failed)
        }
    }
}

/// Whether a FAQ page has a question whose slug is `slug`.
fn has_question(page: &Option<Loaded>, slug: &str) -> bool {
    let Some(page) = page.as_ref().and_then(|p| p.value.as_deref()).and_then(ContentValue::page) else { return false };
    page.sections
        .iter()
        .filter_map(|section| match section {
            Section::Faq(faq) => Some(&faq.items),
            _ => None,
        })
        .flatten()
        .any(|item| crate::slug::slugify(&item.question) == slug)
}

/// The single type a route shows: a pass-through route (a category of its
/// parent's page) shows its parent's.
fn content_key<'a>(state: &'a AppState, route: &'a RouteDef) -> Option<&'a str> {
    if route.meta.is_pass_through
        && let Some(parent) = route.parent.as_deref().and_then(|p| state.pages.routes.by_name(p))
    {
        return parent.content.as_deref();
    }
    route.content.as_deref()
}

/// The catalogue's bundles the page shows, in `lang`: those its bundle
/// tables name, or on the account page every one sold online. `None` for a
/// page that shows none; without a catalogue (or none within
/// `DIGITAL_API_BUDGET_MS`), a page that would is built without them (its
/// tables say prices cannot be shown), never failed.
async fn page_bundles(state: &AppState, kind: PageKind, page: &Option<Loaded>, lang: Lang) -> Option<PageBundles> {
    let sections = page
        .as_ref()
        .and_then(|p| p.value.as_deref())
        .and_then(ContentValue::page)
        .map_or(&[][..], |p| p.sections.as_slice());
    let account = kind == PageKind::Account;
    if !account && !sections.iter().any(|section| matches!(section, Section::BundleTable(_))) {
        return None;
    }
    // A page waits for the operator at most its budget; the reading goes on for the next one.
    let catalogue =
        tokio::time::timeout(state.config.operator.budget, state.account.catalogue.get()).await.ok().flatten();
    Some(match catalogue {
        Some(catalogue) => {
            let offers = if account { catalogue.purchasable(lang) } else { catalogue.for_sections(sections, lang) };
            PageBundles { offers: Some(offers), version: catalogue.version }
        }
        None => PageBundles { offers: None, version: 0 },
    })
}

/// What a locator page shows (see [`crate::locator::page`]), or where the
/// form's choice of region and district is.
async fn locator(
    content: &Content,
    request: &PageRequest,
    kind: contract::locations::LocationKind,
) -> Result<(Box<contract::locations::LocatorPage>, [u64; 2]), Stop> {
    let route = &request.route;
    let base = route.route.path.split("/:").next().unwrap_or(&route.route.path);
    let asked = crate::locator::Asked::parse(
        kind,
        |name| route.param(name).map(str::to_owned),
        |name| request.param(name).map(str::to_owned),
    );
    match crate::locator::page(content, request.local.lang, base, &asked).await {
        crate::locator::Outcome::Page(page, versions) => Ok((page, versions)),
        crate::locator::Outcome::Choose(path) => Err(Stop::Moved(path)),
        crate::locator::Outcome::NotFound => Err(Stop::NotFound),
    }
}

/// What the site search finds for the search page's `?q=`, and the build of
/// the index it searched (its results change with each).
fn search(state: &AppState, request: &PageRequest) -> (contract::page::SearchResults, u64) {
    let build = state.content.search.builds();
    (state.content.search.search(request.local.lang, request.param("q").unwrap_or_default()), build)
}
