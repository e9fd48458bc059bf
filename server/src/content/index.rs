//! The index of a collection in one language: every item's id, slug,
//! heading, dates and photo, read through every page of the CMS with only those
//! fields ([`ContentQuery::Index`](super::ContentQuery::Index)). It is
//! content like any other (cached, refreshed on its time-to-live, dropped by
//! the webhook, its last complete copy kept while the CMS fails), and what
//! the sitemap lists, what the archives count their pages by, what the
//! search finds items by, and what tells an unknown item id from one to ask
//! the CMS for (`known`).
//!
//! Each page of the CMS's answer is read into [`IndexEntry`]s and dropped
//! before the next is asked for ([`IndexPages`]), and the disk keeps the
//! entries, not the answer: a newsroom of 10,000 stories a language held
//! every page of both languages' answers as JSON values twice over (once to
//! parse, once for the disk) each time its indexes were read again, some
//! 70–100 MB for a moment every minute.

use std::sync::Arc;
use std::time::Duration;

use contract::cms::TypeShape;
use contract::content::Collection;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::ContentValue;
use super::cache::Entry;
use crate::slug::{is_slug, slugify};

/// The fields of an item the index asks for (`id`, `documentId` and
/// `locale` come with every answer that has them).
pub fn fields(collection: Collection) -> Vec<&'static str> {
    let heading = if collection == Collection::DeviceUpdates { "name" } else { "title" };
    let mut fields = vec!["slug", heading, "updatedAt", "publishDate"];
    if collection == Collection::VbuServices {
        // What its list pages are filtered by.
        fields.push("categoryId");
    }
    fields
}

/// The media field of an item whose photo the sitemap lists beside its page,
/// asked for with only [`IMAGE_FIELDS`]: `image`, where the content model
/// gives the collection's type a media field of that name (`None`: items
/// without a photo).
pub fn image_field(collection: Collection) -> Option<&'static str> {
    image_in(&TypeShape::of_collection(collection).populate())
}

/// `image` where a type's populate tree has it as a media field (marked `true`).
fn image_in(populate: &Value) -> Option<&'static str> {
    const IMAGE: &str = "image";
    (populate.get(IMAGE) == Some(&Value::Bool(true))).then_some(IMAGE)
}

/// What the index asks of an item's photo: enough for the normaliser to
/// know it as media and make its address absolute, and its description.
pub const IMAGE_FIELDS: [&str; 3] = ["url", "mime", "alternativeText"];

/// Every key the index asks for: a CMS that refuses one is asked without it.
pub fn keys(collection: Collection) -> Vec<&'static str> {
    let mut keys = fields(collection);
    keys.extend(image_field(collection));
    keys
}

/// An item's photo: its address (absolute where the CMS's media are) and
/// its description.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexImage {
    pub url: String,
    pub alt: Option<String>,
}

impl IndexImage {
    fn parse(media: &Value) -> Option<IndexImage> {
        let url = media.get("url")?.as_str().filter(|url| !url.is_empty())?.to_owned();
        let alt = media
            .get("alternativeText")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|alt| !alt.is_empty())
            .map(str::to_owned);
        Some(IndexImage { url, alt })
    }
}

/// One item as the index knows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexEntry {
    pub id: u32,
    pub document_id: Option<String>,
    pub slug: String,
    /// The title, or a device's name.
    pub title: String,
    pub updated_at: Option<String>,
    pub publish_date: Option<String>,
    pub category_id: Option<u32>,
    /// Its photo, where it has one (a malformed one counts as none).
    pub image: Option<IndexImage>,
}

impl IndexEntry {
    /// An item of a normalised answer; `None` without a usable id.
    fn parse(item: &Value) -> Option<IndexEntry> {
        let id = u32::try_from(item.get("id")?.as_u64()?).ok().filter(|id| *id > 0)?;
        let text =
            |name: &str| item.get(name).and_then(Value::as_str).map(str::to_owned).filter(|text| !text.is_empty());
        let title = text("title").or_else(|| text("name")).unwrap_or_default();
        let slug = text("slug").unwrap_or_default();
        let slug = if is_slug(&slug) {
            slug
        } else {
            Some(slugify(&slug)).filter(|s| !s.is_empty()).unwrap_or_else(|| slugify(&title))
        };
        let category_id = item
            .get("categoryId")
            .and_then(|v| v.as_u64().or_else(|| v.as_str()?.parse().ok()))
            .and_then(|v| u32::try_from(v).ok());
        Some(IndexEntry {
            id,
            document_id: text("documentId"),
            slug,
            title,
            updated_at: text("updatedAt"),
            publish_date: text("publishDate"),
            category_id,
            image: item.get("image").and_then(IndexImage::parse),
        })
    }

    /// Whether the list filter `field` = `value` keeps it (the only field
    /// lists are filtered by is `categoryId`).
    fn passes(&self, filter: Option<(&str, &str)>) -> bool {
        match filter {
            None => true,
            Some(("categoryId", value)) => self.category_id.is_some_and(|id| id.to_string() == value),
            Some(_) => true,
        }
    }
}

/// Every item of a collection in one language, newest `publishDate` first;
/// kept on disk as its entries.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(from = "Vec<IndexEntry>")]
pub struct CollectionIndex {
    entries: Vec<IndexEntry>,
    /// The ids, sorted, to look one up.
    ids: Vec<u32>,
}

impl Serialize for CollectionIndex {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.entries.serialize(serializer)
    }
}

/// Items without a usable id are left out, and an id seen twice (pages
/// read while an item moved) counts once.
impl From<Vec<IndexEntry>> for CollectionIndex {
    fn from(mut entries: Vec<IndexEntry>) -> CollectionIndex {
        let mut seen = std::collections::HashSet::new();
        entries.retain(|entry| seen.insert(entry.id));
        entries.sort_by(|a, b| b.publish_date.cmp(&a.publish_date).then(b.id.cmp(&a.id)));
        entries.shrink_to_fit();
        let mut ids: Vec<u32> = entries.iter().map(|entry| entry.id).collect();
        ids.sort_unstable();
        CollectionIndex { entries, ids }
    }
}

/// A collection's index read page after page of the CMS's answer.
#[derive(Default)]
pub struct IndexPages(Vec<IndexEntry>);

impl IndexPages {
    /// Reads the items of one normalised page (a list of items, or one).
    pub fn read_page(&mut self, page: &Value) {
        match page {
            Value::Array(items) => self.0.extend(items.iter().filter_map(IndexEntry::parse)),
            Value::Null => {}
            item => self.0.extend(IndexEntry::parse(item)),
        }
    }

    pub fn index(self) -> CollectionIndex {
        CollectionIndex::from(self.0)
    }
}

impl CollectionIndex {
    /// The index of a normalised answer (a list of items).
    pub fn parse(raw: &Value) -> CollectionIndex {
        let mut pages = IndexPages::default();
        pages.read_page(raw);
        pages.index()
    }

    pub fn entries(&self) -> &[IndexEntry] {
        &self.entries
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn contains(&self, id: u32) -> bool {
        self.ids.binary_search(&id).is_ok()
    }

    /// The highest id: Strapi numbers new entries upwards.
    pub fn newest_id(&self) -> u32 {
        self.ids.last().copied().unwrap_or(0)
    }

    pub fn by_slug(&self, slug: &str) -> Option<&IndexEntry> {
        self.entries.iter().find(|entry| entry.slug == slug)
    }

    /// Items a list filtered by `filter` shows.
    pub fn count(&self, filter: Option<(&str, &str)>) -> usize {
        self.entries.iter().filter(|entry| entry.passes(filter)).count()
    }
}

/// An index as the content cache holds it, and how long ago it was read.
#[derive(Clone)]
pub struct LoadedIndex {
    value: Arc<ContentValue>,
    pub age: Duration,
    /// Changes whenever the index does.
    pub version: u64,
}

impl LoadedIndex {
    /// The index an entry holds; a collection the CMS does not have is empty.
    pub(super) fn of(entry: &Entry) -> Option<LoadedIndex> {
        let value = match &entry.value {
            Some(value) if value.index().is_some() => value.clone(),
            Some(_) => return None,
            None => Arc::new(ContentValue::Index(CollectionIndex::default())),
        };
        Some(LoadedIndex { value, age: entry.age(), version: entry.version })
    }

    pub fn index(&self) -> &CollectionIndex {
        self.value.index().expect("checked when loaded")
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_photo_asked_for_is_the_content_models_media_field() {
        // Every collection's type has its photo as `image` today.
        assert!(Collection::ALL.into_iter().all(|c| image_field(c) == Some("image")));
        // A type without it, or with `image` as something else, asks for none.
        assert_eq!(image_in(&json!({ "seo": { "populate": { "shareImage": true } } })), None);
        assert_eq!(image_in(&json!({ "image": { "populate": "*" } })), None);
    }

    #[test]
    fn read_page_after_page_and_kept_as_its_entries() {
        let mut pages = IndexPages::default();
        pages.read_page(&json!([{ "id": 2, "title": "Two", "slug": "two", "publishDate": "2025-02-01" }]));
        pages.read_page(&json!([
            { "id": 1, "title": "One", "slug": "one", "publishDate": "2025-01-01",
              "image": { "url": "/uploads/one.jpg", "mime": "image/jpeg", "alternativeText": "A tower" } },
            { "id": 2, "title": "Two again", "slug": "two" }
        ]));
        pages.read_page(&Value::Null);
        let index = pages.index();
        let ids: Vec<u32> = index.entries().iter().map(|e| e.id).collect();
        assert_eq!(ids, vec![2, 1]);
        let kept = serde_json::to_value(&index).unwrap();
        assert_eq!(kept[1]["image"], json!({ "url": "/uploads/one.jpg", "alt": "A tower" }));
        let back: CollectionIndex = serde_json::from_value(kept).unwrap();
        assert_eq!(back, index);
        assert!(back.contains(1) && back.contains(2));
    }

    #[test]
    fn keeps_each_usable_item_once_newest_first() {
        let index = CollectionIndex::parse(&json!([
            { "id": 3, "title": "Older", "slug": "older", "publishDate": "2024-01-01", "updatedAt": "2024-02-01T10:00:00.000Z" },
            { "id": 7, "title": "Newer story", "slug": null, "publishDate": "2025-01-01", "documentId": "abc" },
            { "id": 3, "title": "Older again", "slug": "older" },
            { "id": "x", "title": "no id" },
            { "id": 9, "name": "Phone", "slug": "Phone X", "categoryId": 5 }
        ]));
        let ids: Vec<u32> = index.entries().iter().map(|e| e.id).collect();
        assert_eq!(ids, vec![7, 3, 9]);
        assert_eq!(index.entries()[0].slug, "newer-story");
        assert_eq!(index.entries()[0].document_id.as_deref(), Some("abc"));
        assert_eq!(index.entries()[2].slug, "phone-x");
        assert_eq!(index.entries()[2].title, "Phone");
        assert!(index.contains(9) && !index.contains(8));
        assert_eq!(index.newest_id(), 9);
        assert_eq!(index.count(Some(("categoryId", "5"))), 1);
        assert_eq!(index.count(None), 3);
        assert_eq!(index.by_slug("older").map(|e| e.id), Some(3));
    }
}
