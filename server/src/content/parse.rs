//! Answers of a content source parsed into the content model, by what was
//! asked: a single type is a [`Page`] (or the [`Sidebar`]), a list or item
//! is of its collection's item type, popups are [`Popup`]s, synonyms
//! [`Synonym`]s. Parts that do
//! not fit are dropped or take their default (see [`contract::repair`]); an
//! item's slug, part of its address, is made of `a-z`, `0-9` and `-` (from
//! its heading when the CMS has none).

use contract::cms::SIDEBAR;
use contract::content::{
    BusinessService, Collection, CollectionItem, Device, ItemList, NewsItem, Page, Popup, Sidebar, Trick,
};
use contract::repair::{Parsed, parse};
use contract::synonyms::Synonym;
use serde_json::Value;

use super::{CollectionIndex, ContentQuery, Localizations};
use crate::slug::{is_slug, slugify};

/// Parsed content of one query. Its variants differ in size, which costs
/// nothing: each is held once, behind the content cache's `Arc`.
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum ContentValue {
    Page(Page),
    Sidebar(Sidebar),
    List(ItemList),
    /// An item, and its versions in the other language where its answer
    /// names them ([`Localizations`]).
    Item(CollectionItem, Option<Localizations>),
    Popups(Vec<Popup>),
    Index(CollectionIndex),
    /// Every M-Pesa agent and Vodashop, in the locator's spatial index.
    Locations(crate::places::Locations),
    /// Every group of the search's synonyms.
    Synonyms(Vec<Synonym>),
}

impl ContentValue {
    /// Nothing to show: an empty list (Swahili lists fall back to English then).
    pub fn is_empty(&self) -> bool {
        match self {
            ContentValue::List(list) => list.is_empty(),
            ContentValue::Popups(popups) => popups.is_empty(),
            ContentValue::Index(index) => index.is_empty(),
            ContentValue::Locations(locations) => locations.is_empty(),
            ContentValue::Synonyms(synonyms) => synonyms.is_empty(),
            _ => false,
        }
    }

    pub fn page(&self) -> Option<&Page> {
        match self {
            ContentValue::Page(page) => Some(page),
            _ => None,
        }
    }

    pub fn sidebar(&self) -> Option<&Sidebar> {
        match self {
            ContentValue::Sidebar(sidebar) => Some(sidebar),
            _ => None,
        }
    }

    pub fn list(&self) -> Option<&ItemList> {
        match self {
            ContentValue::List(list) => Some(list),
            _ => None,
        }
    }

    pub fn item(&self) -> Option<&CollectionItem> {
        match self {
            ContentValue::Item(item, _) => Some(item),
            _ => None,
        }
    }

    /// An item's versions in the other language, where its answer names them.
    pub fn localizations(&self) -> Option<&Localizations> {
        match self {
            ContentValue::Item(_, localizations) => localizations.as_ref(),
            _ => None,
        }
    }

    pub fn index(&self) -> Option<&CollectionIndex> {
        match self {
            ContentValue::Index(index) => Some(index),
            _ => None,
        }
    }

    pub fn locations(&self) -> Option<&crate::places::Locations> {
        match self {
            ContentValue::Locations(locations) => Some(locations),
            _ => None,
        }
    }

    pub fn synonyms(&self) -> Option<&[Synonym]> {
        match self {
            ContentValue::Synonyms(synonyms) => Some(synonyms),
            _ => None,
        }
    }

    pub fn popups(&self) -> Option<&Vec<Popup>> {
        match self {
            ContentValue::Popups(popups) => Some(popups),
            _ => None,
        }
    }
}

/// The answer to `query`, parsed.
pub fn parse_answer(query: &ContentQuery, raw: Value) -> Parsed<ContentValue> {
    let mut parsed = match query {
        ContentQuery::Single(key) if key == SIDEBAR => map(parse::<Sidebar>(raw), ContentValue::Sidebar),
        ContentQuery::Single(_) => map(parse::<Page>(raw), ContentValue::Page),
        ContentQuery::List { collection, .. } | ContentQuery::All(collection) => {
            map(list(*collection, raw), ContentValue::List)
        }
        ContentQuery::Item { collection, .. } => {
            let localizations = Localizations::of(&raw);
            map(item(*collection, raw), |item| ContentValue::Item(item, localizations))
        }
        ContentQuery::Popups(_) => map(parse::<Vec<Popup>>(raw), ContentValue::Popups),
        ContentQuery::Synonyms => map(parse::<Vec<Synonym>>(raw), ContentValue::Synonyms),
        ContentQuery::Index(_) => Parsed {
            value: Some(ContentValue::Index(CollectionIndex::parse(&raw))),
            dropped: Vec::new(),
            absent: Vec::new(),
        },
        ContentQuery::Locations => {
            let (locations, dropped) = crate::places::Locations::parse(raw);
            Parsed { value: Some(ContentValue::Locations(locations)), dropped, absent: Vec::new() }
        }
    };
    match &mut parsed.value {
        Some(ContentValue::List(list)) => list.items_mut().into_iter().for_each(fill_slug),
        Some(ContentValue::Item(item, _)) => fill_slug(item.item_mut()),
        _ => {}
    }
    parsed
}

fn fill_slug(item: &mut dyn contract::content::Item) {
    if !is_slug(item.slug()) {
        let slug = slugify(item.slug());
        *item.slug_mut() = if slug.is_empty() { slugify(item.heading()) } else { slug };
    }
}

fn map<T, U>(parsed: Parsed<T>, into: impl FnOnce(T) -> U) -> Parsed<U> {
    Parsed { value: parsed.value.map(into), dropped: parsed.dropped, absent: parsed.absent }
}

fn list(collection: Collection, raw: Value) -> Parsed<ItemList> {
    match collection {
        Collection::NewsUpdates => map(parse::<Vec<NewsItem>>(raw), ItemList::NewsUpdates),
        Collection::SportUpdates => map(parse::<Vec<NewsItem>>(raw), ItemList::SportUpdates),
        Collection::FoundationUpdates => map(parse::<Vec<NewsItem>>(raw), ItemList::FoundationUpdates),
        Collection::DeviceUpdates => map(parse::<Vec<Device>>(raw), ItemList::DeviceUpdates),
        Collection::VbuServices => map(parse::<Vec<BusinessService>>(raw), ItemList::VbuServices),
        Collection::TrickMobiles => map(parse::<Vec<Trick>>(raw), ItemList::TrickMobiles),
    }
}

fn item(collection: Collection, raw: Value) -> Parsed<CollectionItem> {
    match collection {
        Collection::NewsUpdates => map(parse::<NewsItem>(raw), CollectionItem::NewsUpdates),
        Collection::SportUpdates => map(parse::<NewsItem>(raw), CollectionItem::SportUpdates),
        Collection::FoundationUpdates => map(parse::<NewsItem>(raw), CollectionItem::FoundationUpdates),
        Collection::DeviceUpdates => map(parse::<Device>(raw), CollectionItem::DeviceUpdates),
        Collection::VbuServices => map(parse::<BusinessService>(raw), CollectionItem::VbuServices),
        Collection::TrickMobiles => map(parse::<Trick>(raw), CollectionItem::TrickMobiles),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn each_query_parses_into_its_type_and_items_without_a_slug_get_one() {
        let list = ContentQuery::List { collection: Collection::NewsUpdates, page_size: 9, filter: None, page: 1 };
        let parsed = parse_answer(
            &list,
            json!([ { "id": 1, "title": "Tanzania wins", "slug": null }, { "id": "x", "title": "bad id" } ]),
        );
        let Some(ContentValue::List(ItemList::NewsUpdates(items))) = parsed.value else { panic!("{parsed:?}") };
        assert_eq!(items.len(), 1);
        assert_eq!(items[0].slug, "tanzania-wins");
        let odd = parse_answer(&list, json!([ { "id": 2, "title": "Odd", "slug": "Karibu Sana </script>" } ]));
        let Some(ContentValue::List(ItemList::NewsUpdates(items))) = odd.value else { panic!() };
        assert_eq!(items[0].slug, "karibu-sana-script");
        assert_eq!(parsed.dropped.iter().map(|d| d.path.as_str()).collect::<Vec<_>>(), vec!["[0].slug", "[1]"]);
        let sidebar = parse_answer(&ContentQuery::single("sidebar"), json!({ "links": null }));
        assert_eq!(sidebar.value, Some(ContentValue::Sidebar(Sidebar::default())));
        let page = parse_answer(&ContentQuery::single("home"), json!({ "title": "Home" }));
        assert_eq!(page.value.and_then(|v| v.page().map(|p| p.title.clone())), Some("Home".into()));
    }

    /// A group of synonyms that does not fit is left out, named; one that
    /// does is kept.
    #[test]
    fn synonyms_that_do_not_fit_are_dropped() {
        let parsed = parse_answer(
            &ContentQuery::Synonyms,
            json!([ { "id": 1, "words": 5 }, { "id": 2 }, { "id": 3, "words": "stall | kibanda" } ]),
        );
        let synonyms = parsed.value.as_ref().and_then(ContentValue::synonyms).unwrap();
        assert_eq!(synonyms, [Synonym { id: 3, words: "stall | kibanda".into() }]);
        assert_eq!(parsed.dropped.len(), 2, "{:?}", parsed.dropped);
    }
}
