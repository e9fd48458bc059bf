//! Page content.
//!
//! - [`ContentQuery`]: what a page asks for (a single type, a list, an item,
//!   popups), the same for every source.
//! - [`ContentSource`]: where content comes from: the Strapi client
//!   (`strapi`, when `CMS_URL` is set) or the embedded default (`embedded`).
//! - `normalize`: Strapi v4 and v5 answers into one internal shape.
//! - `parse`: that shape parsed into the content model ([`contract::content`]),
//!   degrading what does not fit: the boundary no content crosses unparsed.
//! - `cache`: the resilient cache in front of any source (fresh, then
//!   stale-while-revalidate, stale-if-error; single flight), holding parsed
//!   content; `disk`: the last good answers in `DATA_DIR`, which it falls
//!   back on when the CMS fails for content memory does not hold.
//! - [`Content`]: what handlers use: the cache plus the locale fallback; or,
//!   for a preview, drafts read from the CMS for each request, kept nowhere.
//! - `webhook`: `POST /api/cms/webhook` drops what the CMS changed;
//!   `broadcast`: the same on every other instance (Redis pub/sub).
//! - [`check`]: the model a CMS must hold, and a check of a CMS against it.
//! - `index`: every item of a collection by its address and dates (the
//!   sitemap's, the archives' page counts, the search's items), and
//!   `known`: unknown item ids answered from it without asking the CMS.
//! - `localizations`: an item's versions in the other language, as its own
//!   answer names them (its address in both languages from one request).

mod broadcast;
mod cache;
pub mod check;
mod disk;
mod embedded;
mod index;
mod known;
mod localizations;
mod normalize;
mod parse;
mod strapi;
mod webhook;

use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use contract::Lang;
use contract::content::Collection;
use serde_json::Value;

pub use broadcast::Broadcast;
pub use cache::{CacheSettings, Cached};
pub use disk::DiskCache;
pub use embedded::EmbeddedContent;
pub use index::{CollectionIndex, IndexEntry, IndexImage, LoadedIndex};
pub use known::{ItemGate, REREAD_EVERY, Verdict};
pub use localizations::Localizations;
pub use normalize::Normalizer;
pub use parse::{ContentValue, parse_answer};
pub use strapi::{PopulateStrategy, StrapiClient, StrapiSettings};
pub use webhook::{Invalidation, Source, Webhook, router};

#[derive(Debug, Clone, thiserror::Error)]
pub enum ContentError {
    #[error("content source failed: {0}")]
    Upstream(String),
    #[error("content source timed out after {0:?}")]
    Timeout(std::time::Duration),
    #[error("content answer malformed: {0}")]
    Malformed(String),
}

impl From<tokio::task::JoinError> for ContentError {
    fn from(error: tokio::task::JoinError) -> ContentError {
        ContentError::Upstream(format!("content fetch task: {error}"))
    }
}

/// What an answer is kept by, in memory and on disk: the query and its language.
pub type Key = (ContentQuery, Lang);

/// What to load. Names follow the CMS's: single types by key, collections by
/// their API name (`news-updates`, …).
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ContentQuery {
    /// A single type, e.g. `home`, `sidebar`.
    Single(String),
    /// Page `page` (from 1) of a collection, newest `publishDate` first,
    /// optionally only the items whose `field` equals `value`.
    List { collection: Collection, page_size: u32, filter: Option<(String, String)>, page: u32 },
    /// One item of a collection by id.
    Item { collection: Collection, id: u32 },
    /// Every item of a collection (the fraudster tricks), read through
    /// every page of the CMS.
    All(Collection),
    /// Every item of a collection with only the fields that address and
    /// date it ([`CollectionIndex`]), read through every page of the CMS.
    Index(Collection),
    /// Popups of one type, newest first.
    Popups(String),
    /// Every M-Pesa agent and Vodashop with the fields the locator shows
    /// ([`contract::locations::LOCATION_FIELDS`]), read through every page
    /// of the CMS like an index, parsed into the locator's spatial index.
    Locations,
    /// Every group of the search's synonyms ([`contract::synonyms::Synonym`]),
    /// read through every page of the CMS when the search's index is built.
    Synonyms,
}

impl ContentQuery {
    pub fn single(key: &str) -> ContentQuery {
        ContentQuery::Single(key.to_owned())
    }

    /// What the content type it reads holds; `None` for an index, which
    /// reads a few fields only.
    pub fn shape(&self) -> Option<contract::cms::TypeShape> {
        use contract::cms::TypeShape;
        match self {
            ContentQuery::Single(key) => Some(TypeShape::of_single(key)),
            ContentQuery::List { collection, .. }
            | ContentQuery::Item { collection, .. }
            | ContentQuery::All(collection) => Some(TypeShape::of_collection(*collection)),
            ContentQuery::Index(_) => None,
            ContentQuery::Popups(_) => Some(TypeShape::Popup),
            ContentQuery::Locations => Some(TypeShape::Location),
            ContentQuery::Synonyms => Some(TypeShape::Synonym),
        }
    }

    /// Whether its answer differs by language. One that does not (a CMS
    /// type that is not localized: the locations) is asked for without a
    /// language and kept once, under the default language ([`Lang::default`]).
    pub fn localized(&self) -> bool {
        self.shape().is_none_or(contract::cms::TypeShape::localized)
    }

    /// Whether a change the webhook reports reads it again in the
    /// background, the copy in memory served meanwhile, rather than
    /// dropping it: the locations, whose every page no visitor should wait
    /// for (they have a lifetime of their own, `LOCATIONS_TTL_SECS`).
    pub fn read_again_in_place(&self) -> bool {
        matches!(self, ContentQuery::Locations)
    }

    /// Whether answering it reads every page of a collection (and so may
    /// take many requests).
    pub fn reads_every_page(&self) -> bool {
        matches!(self, ContentQuery::All(_) | ContentQuery::Index(_) | ContentQuery::Locations | ContentQuery::Synonyms)
    }

    /// The single type or collection this query reads (the CMS "model").
    pub fn model(&self) -> &str {
        match self {
            ContentQuery::Single(key) => key,
            ContentQuery::All(collection)
            | ContentQuery::Index(collection)
            | ContentQuery::List { collection, .. }
            | ContentQuery::Item { collection, .. } => collection.api_name(),
            ContentQuery::Popups(_) => contract::cms::POPUPS,
            ContentQuery::Locations => contract::cms::LOCATIONS,
            ContentQuery::Synonyms => contract::cms::SYNONYMS,
        }
    }
}

impl fmt::Display for ContentQuery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContentQuery::Single(key) => write!(f, "{key}"),
            ContentQuery::List { collection, page_size, filter, page } => {
                write!(f, "{}?pageSize={page_size}", collection.api_name())?;
                if let Some((field, value)) = filter {
                    write!(f, "&{field}={value}")?;
                }
                if *page > 1 {
                    write!(f, "&page={page}")?;
                }
                Ok(())
            }
            ContentQuery::Item { collection, id } => write!(f, "{}/{id}", collection.api_name()),
            ContentQuery::All(collection) => write!(f, "{}?all", collection.api_name()),
            ContentQuery::Index(collection) => write!(f, "{}?index", collection.api_name()),
            ContentQuery::Popups(kind) => write!(f, "popups?type={kind}"),
            ContentQuery::Locations => write!(f, "{}?index", contract::cms::LOCATIONS),
            ContentQuery::Synonyms => write!(f, "{}?all", contract::cms::SYNONYMS),
        }
    }
}

/// Where content comes from: the CMS or the embedded default.
#[async_trait]
pub trait ContentSource: Send + Sync {
    /// The normalised answer in `lang`, not parsed yet (the cache parses
    /// it); `None` when the source has nothing (a missing single type or
    /// item). Lists are arrays, possibly empty.
    async fn fetch(&self, query: &ContentQuery, lang: Lang) -> Result<Option<Value>, ContentError>;

    /// [`fetch`](Self::fetch) for a query read through every page of a
    /// collection ([`ContentQuery::reads_every_page`]): each page of the
    /// normalised answer (a list) handed to `page` as it comes, and dropped
    /// before the next is asked for, so that a read of a large collection
    /// never holds it whole as JSON; `false` when the source has no such
    /// collection. By default, the whole answer as one page.
    async fn each_page(
        &self,
        query: &ContentQuery,
        lang: Lang,
        page: &mut (dyn FnMut(Value) + Send),
    ) -> Result<bool, ContentError> {
        let answer = self.fetch(query, lang).await?;
        Ok(answer.map(page).is_some())
    }

    /// For a query read through every page: the collection's [`Stamp`], from
    /// one request for one item, which a copy read before is checked
    /// against instead of reading every page again; `None` where the source
    /// cannot say (the collection is read whole).
    async fn stamp(&self, _query: &ContentQuery, _lang: Lang) -> Result<Option<Stamp>, ContentError> {
        Ok(None)
    }

    /// `query` asked for every field one level deep, whatever the model
    /// populates, for `site check-cms` to see what the source has that
    /// [`fetch`](Self::fetch) leaves out; `None` where the source cannot say.
    async fn everything(&self, _query: &ContentQuery, _lang: Lang) -> Result<Option<Value>, ContentError> {
        Ok(None)
    }
}

/// What tells whether a collection changed since it was read: how many
/// items it has, and when the one changed last was changed. An edit moves
/// the newest change; an item deleted or unpublished lowers the count, one
/// added or published moves both.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    pub count: u64,
    /// The newest `updatedAt`; `None` for an empty collection.
    pub newest: Option<String>,
}

/// The agents and shops as memory holds them ([`Content::locations`]).
pub enum Places {
    /// Read, with their version.
    Listed(crate::places::Locations, u64),
    /// Read, and there are none: the CMS has no `locations` collection (a
    /// site upgraded before its editors add the type) or an empty one; with
    /// the version of that answer.
    None(u64),
    /// Not read yet, or the CMS failed with no copy to serve.
    Unread,
}

/// A loaded piece of content with what the page needs to know about it.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub value: Option<Arc<ContentValue>>,
    /// The language the content is in: English when Swahili was missing.
    pub lang: Lang,
    /// Changes whenever the content does; part of the page cache key.
    pub version: u64,
    /// How long ago the source gave it (it may be served stale).
    pub age: std::time::Duration,
}

/// Content as handlers see it: cached, with the locale fallback.
#[derive(Clone)]
pub struct Content {
    cache: Cached,
    /// For a preview: where drafts are read, on every request, past the cache.
    drafts: Option<Drafts>,
}

/// Drafts read for a preview, each time, within the time limit of one fetch.
#[derive(Clone)]
struct Drafts {
    source: Arc<dyn ContentSource>,
    timeout: std::time::Duration,
}

impl Content {
    pub fn new(source: Arc<dyn ContentSource>, settings: CacheSettings) -> Content {
        Content { cache: Cached::new(source, settings), drafts: None }
    }

    /// This content as a preview shows it: pages, lists and items read
    /// from `drafts` for every request, never kept in memory or on disk nor
    /// seen by anyone else; only collections' indexes (what list pages are
    /// counted by) are the published ones of the cache.
    pub fn previewing(&self, drafts: Arc<dyn ContentSource>, timeout: std::time::Duration) -> Content {
        Content { cache: self.cache.clone(), drafts: Some(Drafts { source: drafts, timeout }) }
    }

    /// Whether this is a preview's content (see [`Content::previewing`]).
    pub fn is_preview(&self) -> bool {
        self.drafts.is_some()
    }

    /// Strapi has no locale fallback: when the Swahili answer is missing or
    /// empty, the English one is served instead and marked as English.
    pub async fn get(&self, query: &ContentQuery, lang: Lang) -> Result<Loaded, ContentError> {
        let entry = self.read(query, lang).await?;
        if lang == Lang::Sw && is_missing(entry.value.as_deref()) {
            let english = self.read(query, Lang::En).await?;
            if !is_missing(english.value.as_deref()) {
                return Ok(Loaded { lang: Lang::En, ..english });
            }
        }
        Ok(Loaded { lang, ..entry })
    }

    async fn read(&self, query: &ContentQuery, lang: Lang) -> Result<Loaded, ContentError> {
        let Some(drafts) = &self.drafts else {
            let entry = self.cache.get(query, lang).await?;
            return Ok(Loaded { value: entry.value.clone(), lang, version: entry.version, age: entry.age() });
        };
        let answer = tokio::time::timeout(drafts.timeout, drafts.source.fetch(query, lang))
            .await
            .unwrap_or(Err(ContentError::Timeout(drafts.timeout)))?;
        // Version 0: a preview is rendered for its request and kept nowhere.
        let value = answer.and_then(|raw| parse_answer(query, raw).value).map(Arc::new);
        Ok(Loaded { value, lang, version: 0, age: std::time::Duration::ZERO })
    }

    /// The index of `collection` in `lang` as memory holds it, without
    /// waiting: `None` until it was read once (reading it starts now), so
    /// that no visitor waits for every page of a collection to be read.
    /// A preview has none: an item is found by asking for drafts.
    pub fn index_now(&self, collection: Collection, lang: Lang) -> Option<LoadedIndex> {
        if self.is_preview() {
            return None;
        }
        LoadedIndex::of(&*self.cache.peek(&ContentQuery::Index(collection), lang)?)
    }

    /// The index of `collection` in `lang` read from the source again now
    /// (joining a read under way), whatever memory holds.
    pub async fn reread_index(&self, collection: Collection, lang: Lang) {
        if let Err(error) = self.cache.reload(&ContentQuery::Index(collection), lang).await {
            tracing::warn!(%error, model = collection.api_name(), "an index could not be read again; the one in memory stays");
        }
    }

    /// The index of `collection` in `lang`, read now if memory lacks it.
    pub async fn index(&self, collection: Collection, lang: Lang) -> Result<LoadedIndex, ContentError> {
        let entry = self.cache.get(&ContentQuery::Index(collection), lang).await?;
        LoadedIndex::of(&entry).ok_or_else(|| ContentError::Malformed(format!("{}: no index", collection.api_name())))
    }

    /// Every M-Pesa agent and Vodashop (one index for both languages) as
    /// memory holds them; read now if memory lacks them, waiting at most
    /// `wait` (the read goes on past it). A preview shows the published ones.
    pub async fn locations(&self, wait: std::time::Duration) -> Places {
        let query = ContentQuery::Locations;
        let entry = match self.cache.peek(&query, Lang::default()) {
            Some(entry) => entry,
            None => match tokio::time::timeout(wait, self.cache.get(&query, Lang::default())).await {
                Ok(Ok(entry)) => entry,
                Ok(Err(error)) => {
                    tracing::warn!(%error, "the locations could not be read");
                    return Places::Unread;
                }
                Err(_) => return Places::Unread,
            },
        };
        match entry.value.as_deref().and_then(ContentValue::locations).filter(|l| !l.is_empty()) {
            Some(locations) => Places::Listed(locations.clone(), entry.version),
            None => Places::None(entry.version),
        }
    }

    /// See [`Cached::generation`].
    pub fn generation(&self) -> u64 {
        self.cache.generation()
    }

    /// See [`Cached::edits`].
    pub fn edits(&self) -> u64 {
        self.cache.edits()
    }

    pub fn cache(&self) -> &Cached {
        &self.cache
    }
}

fn is_missing(value: Option<&ContentValue>) -> bool {
    value.is_none_or(ContentValue::is_empty)
}
