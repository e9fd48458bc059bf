//! An item page (`/devices/:id/:slug?`): the item its `:id` names, asked of
//! the CMS only when it may exist; its canonical address (the id and slug
//! the CMS gives it now); and its address in the other language.

use std::collections::BTreeMap;

use contract::Lang;

use super::parts::Stop;
use crate::content::{Content, ContentError, ContentQuery, ContentValue, Loaded, Verdict};
use crate::manifest::{RouteDef, RouteMatch};
use crate::pages::request::PageRequest;
use crate::state::AppState;

/// What to load for `matched`'s item, if its route shows one and the
/// collection's indexes do not already say it is not there.
pub async fn query(state: &AppState, content: &Content, matched: &RouteMatch) -> Option<ContentQuery> {
    let collection = matched.route.item?;
    // Only a positive whole number is an item id worth asking the CMS for.
    let id = matched.param("id")?.parse::<u32>().ok().filter(|id| *id > 0)?;
    (state.content.items.verdict(content, collection, id).await == Verdict::Ask)
        .then_some(ContentQuery::Item { collection, id })
}

/// The item `loaded` on `request`'s page: none for a page
/// without one. An item the CMS does not have is not found, unless its
/// slug names one whose id changed ([`Stop::Moved`]).
pub async fn found(
    content: &Content,
    request: &PageRequest,
    loaded: Result<Option<Loaded>, ContentError>,
) -> Result<Option<Loaded>, Stop> {
    let route = &request.route.route;
    match loaded {
        Ok(item) if route.item.is_some() && item.as_ref().is_none_or(|l| l.value.is_none()) => {
            match by_slug(content, route, request.route.param("slug"), request.local.lang).await {
                Some(moved) => Err(Stop::Moved(moved)),
                None => Err(Stop::NotFound),
            }
        }
        Ok(item) => Ok(item),
        Err(error) => {
            tracing::warn!(%error, path = %request.local.path, "item unavailable");
            Err(Stop::Failed)
        }
    }
}

/// The item page's path in each language; the item's own address when
/// `matched` is not it ([`Stop::Moved`]). `None` for a page without an item.
pub async fn alternates(
    content: &Content,
    matched: &RouteMatch,
    lang: Lang,
    query: &Option<ContentQuery>,
    item: &Option<Loaded>,
) -> Result<Option<BTreeMap<Lang, String>>, Stop> {
    let (Some(query), Some(loaded)) = (query, item) else { return Ok(None) };
    let route = &matched.route;
    // The item's own id: in Strapi 5 each language's version has its own.
    let (id, slug) = address(loaded).unwrap_or_default();
    let id = id.to_string();
    let own = route.href(&[("id", &id), ("slug", &slug)]);
    // An item without a slug is addressed without one.
    if matched.param("slug").unwrap_or_default() != slug || matched.param("id") != Some(id.as_str()) {
        return own.map_or(Ok(None), |own| Err(Stop::Moved(own)));
    }
    // Each language has its own slug (and perhaps id): alternates point at both.
    let other = if lang == Lang::En { Lang::Sw } else { Lang::En };
    let (other_id, other_slug) = match other_address(content, query, loaded, other).await {
        Some((id, slug)) => (id.to_string(), slug),
        // No version in the other language: this one's address serves it there (Swahili falls back to English).
        None => (id.clone(), slug.clone()),
    };
    let mut paths = BTreeMap::new();
    paths.extend(own.map(|own| (lang, own)));
    paths.extend(route.href(&[("id", &other_id), ("slug", &other_slug)]).map(|path| (other, path)));
    Ok(Some(paths))
}

/// The address of the item whose slug is `slug`, for an address whose id the
/// CMS no longer has: Strapi 5 numbers an entry anew at every publish, and
/// links and bookmarks keep the old number.
async fn by_slug(content: &Content, route: &RouteDef, slug: Option<&str>, lang: Lang) -> Option<String> {
    let slug = slug.filter(|s| s.len() <= 200 && crate::slug::is_slug(s))?;
    let collection = route.item?;
    if let Some(loaded) = content.index_now(collection, lang) {
        // The index holds every item: no need to ask.
        let item = loaded.index().by_slug(slug)?;
        return route.href(&[("id", &item.id.to_string()), ("slug", &item.slug)]);
    }
    let query =
        ContentQuery::List { collection, page_size: 1, filter: Some(("slug".into(), slug.to_owned())), page: 1 };
    let found = content.get(&query, lang).await.ok()?;
    let item = found
        .value
        .as_deref()
        .and_then(ContentValue::list)?
        .items()
        .into_iter()
        .next()
        .map(|item| (item.id(), item.slug().to_owned()))?;
    let id = item.0.to_string();
    route.href(&[("id", &id), ("slug", &item.1)])
}

/// The id and slug of `loaded`'s version in `other`: its own where it is
/// that language's already (a Swahili page showing English), else as its
/// answer names it (`localizations`, read with it: no request), else, from
/// a CMS that does not name it, as asked for.
async fn other_address(content: &Content, query: &ContentQuery, loaded: &Loaded, other: Lang) -> Option<(u32, String)> {
    if loaded.lang == other {
        return address(loaded);
    }
    match loaded.value.as_deref().and_then(ContentValue::localizations) {
        Some(named) => named.version(other, content.is_preview()).map(|version| (version.id, version.slug.clone())),
        None => content.get(query, other).await.ok().and_then(|l| address(&l)),
    }
}

/// The id and slug that address an item.
fn address(item: &Loaded) -> Option<(u32, String)> {
    let item = item.value.as_deref().and_then(ContentValue::item)?.item();
    Some((item.id(), item.slug().to_owned()))
}
