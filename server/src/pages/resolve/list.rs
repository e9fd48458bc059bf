//! A list page's paging: which page of the list `?page=N` asks for, how
//! many there are, and the pager the page shows.

use contract::Lang;
use contract::Pager;

use super::parts::Stop;
use crate::content::{ContentQuery, ContentValue, Loaded};
use crate::manifest::{CollectionList, RouteDef};
use crate::state::AppState;

/// The page of a route's list that a request asks for.
pub struct Listing<'a> {
    list: &'a CollectionList,
    /// `None`: no page number, or a page past the last.
    page: Option<u32>,
    /// How many pages the collection's index counts, and the index's version.
    counted: Option<(u32, u64)>,
}

impl<'a> Listing<'a> {
    /// The page of `route`'s list that `asked` (the value of `?page=`) names,
    /// in `lang`; `None` for a route without a list.
    pub async fn asked(state: &AppState, route: &'a RouteDef, lang: Lang, asked: Option<&str>) -> Option<Listing<'a>> {
        let list = route.list.as_ref()?;
        let counted = pages(state, list, lang).await;
        let page = page_number(asked);
        let past_end = match (page, counted) {
            (Some(page), Some((pages, _))) => page > pages,
            (page, _) => page.is_none(),
        };
        Some(Listing { list, page: page.filter(|_| !past_end), counted })
    }

    /// What to load: the page of the list, if there is one to show.
    pub fn query(&self) -> Option<ContentQuery> {
        let list = self.list;
        self.page.map(|page| ContentQuery::List {
            collection: list.collection,
            page_size: list.page_size,
            filter: list.filter.as_ref().map(|f| (f.field.clone(), f.value.clone())),
            page,
        })
    }

    /// The pager of the page shown, counted by the index, or without it
    /// from the list `loaded` (a full page may have a next); a page past the
    /// end is not found.
    pub fn pager(&self, loaded: &Option<Loaded>) -> Result<(Pager, u64), Stop> {
        let page = self.page.ok_or(Stop::NotFound)?;
        if let Some((pages, version)) = self.counted {
            return Ok((Pager { page, pages }, version));
        }
        let shown = loaded
            .as_ref()
            .and_then(|l| l.value.as_deref())
            .and_then(ContentValue::list)
            .map_or(0, |list| list.items().len());
        if shown == 0 && page > 1 {
            return Err(Stop::NotFound);
        }
        let more = u32::from(shown >= self.list.page_size as usize);
        Ok((Pager { page, pages: page + more }, 0))
    }
}

/// The list page `asked` names: 1 without one, `None` for one that is no
/// page number.
fn page_number(asked: Option<&str>) -> Option<u32> {
    match asked {
        None => Some(1),
        Some(page) if page.len() <= 6 && page.bytes().all(|b| b.is_ascii_digit()) => {
            page.parse().ok().filter(|page| *page >= 1)
        }
        Some(_) => None,
    }
}

/// How many pages `list` has in `lang` as its collection's index counts
/// them (a Swahili list with no items shows the English one), and the
/// index's version; `None` when the index cannot be read (the pager is
/// then estimated from the list). The index is read if memory lacks it, so
/// a list page is the same whichever page was asked for first.
async fn pages(state: &AppState, list: &CollectionList, lang: Lang) -> Option<(u32, u64)> {
    let filter = list.filter.as_ref().map(|f| (f.field.as_str(), f.value.as_str()));
    let count = |lang| async move {
        match state.content.store.index(list.collection, lang).await {
            Ok(loaded) => Some((loaded.index().count(filter), loaded.version)),
            Err(error) => {
                tracing::warn!(%error, collection = list.collection.api_name(), "list page: index unavailable; pages estimated");
                None
            }
        }
    };
    let (count, version) = match count(lang).await? {
        (0, _) if lang == Lang::Sw => count(Lang::En).await?,
        counted => counted,
    };
    let pages = u32::try_from(count.div_ceil(list.page_size.max(1) as usize)).unwrap_or(u32::MAX).max(1);
    Some((pages, version))
}
