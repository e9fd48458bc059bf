//! The content cache in front of any [`ContentSource`] (RFC 5861 semantics):
//!
//! - fresh for `fresh` (the locations for `locations_fresh`: reading them
//!   takes every page of a large collection): served from memory;
//! - then stale-while-revalidate: the stale copy is served and one refresh
//!   runs in the background;
//! - stale-if-error: while the source fails or times out, the last good copy
//!   is served until it is `stale_if_error` past its freshness;
//! - single flight: concurrent misses for one key make one upstream request,
//!   which runs as its own task, so a visitor who disconnects does not cancel
//!   it for the others waiting on it;
//! - last known good on disk (with a CMS, `disk`): each answer is kept there
//!   too, and read back when the source fails for a key memory does not
//!   hold (after a restart, a webhook's invalidation, an eviction); the
//!   locations as the compact entries read page by page ([`Answer`]).
//!
//! Each entry carries a version that changes only when its value does (a
//! hash of the source's answer: the same in every process and after a
//! restart); pages are cached, in memory and on disk, under the versions of
//! the content they were built from.
//! Answers are parsed on the way in (one of a whole collection, such as the
//! locator's index of every agent, on the blocking pool, off the runtime's
//! workers); what parsing dropped is logged once per version, with the
//! query, the language and each part's JSON path. An entry can also be read
//! again in place ([`Cached::read_again`]): served as it is until the new
//! answer replaces it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use contract::Lang;
use contract::repair::Parsed;
use serde_json::Value;

use super::disk::DiskCache;
use super::index::{CollectionIndex, IndexPages};
use super::{ContentError, ContentQuery, ContentSource, ContentValue, Key, Stamp, parse_answer};
use crate::infra::cache_metrics;
use crate::infra::sampled::Sampled;
use crate::infra::single_flight::{Flight, SingleFlight};
use crate::places::PlaceList;

#[derive(Debug, Clone)]
pub struct CacheSettings {
    /// How long an entry is served without asking the source again.
    pub fresh: Duration,
    /// The same for the locations (`LOCATIONS_TTL_SECS`).
    pub locations_fresh: Duration,
    /// How long past freshness a copy is still served while the source fails.
    pub stale_if_error: Duration,
    /// Upstream time limit for one fetch.
    pub timeout: Duration,
    /// Memory for entries, in bytes: each weighs what the answer it was
    /// parsed from weighs (`CONTENT_CACHE_MB`).
    pub bytes: u64,
    /// Where the last good answers are kept on disk, if anywhere.
    pub disk: Option<DiskCache>,
}

impl CacheSettings {
    /// How long the answer to `query` is served without asking the source again.
    pub fn fresh_for(&self, query: &ContentQuery) -> Duration {
        if matches!(query, ContentQuery::Locations) { self.locations_fresh } else { self.fresh }
    }
}

#[derive(Debug, Clone)]
pub struct Entry {
    pub value: Option<Arc<ContentValue>>,
    pub version: u64,
    /// The size of the answer it was parsed from, reckoned once when it is
    /// stored (the locations': their index as held).
    bytes: u64,
    /// What it weighs against `CacheSettings::bytes` (see [`weight`]).
    weight: u32,
    /// When the value was last fetched successfully.
    fetched: Instant,
    /// When the source was last asked, successfully or not.
    checked: Instant,
    /// A collection read whole: what the source said of it just before,
    /// and when (where the source can say).
    stamp: Option<(Stamp, Instant)>,
}

impl Entry {
    /// How long ago the value was fetched.
    pub fn age(&self) -> Duration {
        self.fetched.elapsed()
    }
}

/// A read of every page of a collection gets this many times the time
/// limit of one fetch.
const EVERY_PAGE_TIMEOUTS: u32 = 40;

/// A collection read whole is read whole again at least this often, even
/// while its [`Stamp`] says nothing changed: a change the stamp does not
/// see (a photo replaced in the media library, the item naming it left as
/// it was) lasts an hour at most, as does anything read wrong.
const READ_WHOLE_EVERY: Duration = Duration::from_secs(3600);

/// The memory cache's label in metrics (its disk's is `content_disk`).
const METRICS: &str = "content";

/// What an entry holds besides its value: its key, its `Entry`, the cache's
/// own bookkeeping. An answer of nothing weighs this alone, and so do the
/// locations (see [`weight`]).
const ENTRY_OVERHEAD: u64 = 256;

#[derive(Clone)]
pub struct Cached {
    inner: Arc<Inner>,
}

struct Inner {
    source: Arc<dyn ContentSource>,
    settings: CacheSettings,
    entries: moka::sync::Cache<Key, Arc<Entry>>,
    loads: SingleFlight<Key, Arc<Entry>, ContentError>,
    /// Counts changes: a new version of an entry, or entries dropped,
    /// evicted or expired (what comes back may differ).
    changes: Arc<AtomicU64>,
    /// Counts edits: a new version of an entry, or entries dropped because
    /// the CMS said they changed; not what memory let go of.
    edits: AtomicU64,
}

/// An entry lives until it is too old even to be served on error.
struct ServeLimit {
    settings: CacheSettings,
}

impl ServeLimit {
    fn left(&self, key: &Key, entry: &Entry, now: Instant) -> Duration {
        let lifetime = self.settings.fresh_for(&key.0) + self.settings.stale_if_error;
        (entry.fetched + lifetime).saturating_duration_since(now)
    }
}

impl moka::Expiry<Key, Arc<Entry>> for ServeLimit {
    fn expire_after_create(&self, key: &Key, entry: &Arc<Entry>, now: Instant) -> Option<Duration> {
        Some(self.left(key, entry, now))
    }

    fn expire_after_update(
        &self,
        key: &Key,
        entry: &Arc<Entry>,
        now: Instant,
        _: Option<Duration>,
    ) -> Option<Duration> {
        Some(self.left(key, entry, now))
    }
}

impl Cached {
    pub fn new(source: Arc<dyn ContentSource>, settings: CacheSettings) -> Cached {
        let changes = Arc::new(AtomicU64::new(0));
        let removed = changes.clone();
        let evictions = Arc::new(Sampled::new());
        let entries = moka::sync::Cache::builder()
            .max_capacity(settings.bytes)
            .weigher(|_, entry: &Arc<Entry>| entry.weight)
            .expire_after(ServeLimit { settings: settings.clone() })
            .eviction_listener(move |_, _, cause| {
                if cause == moka::notification::RemovalCause::Size {
                    cache_metrics::evicted(METRICS, &evictions);
                }
                if cause != moka::notification::RemovalCause::Replaced {
                    removed.fetch_add(1, Ordering::Release);
                }
            })
            .build();
        let edits = AtomicU64::new(0);
        Cached { inner: Arc::new(Inner { source, settings, entries, loads: SingleFlight::default(), changes, edits }) }
    }

    pub async fn get(&self, query: &ContentQuery, lang: Lang) -> Result<Arc<Entry>, ContentError> {
        let key = key(query, lang);
        let fresh = self.inner.settings.fresh_for(query);
        if let Some(entry) = self.inner.entries.get(&key) {
            cache_metrics::hit(METRICS);
            if entry.checked.elapsed() < fresh {
                return Ok(entry);
            }
            // Stale: serve it and refresh once in the background.
            drop(self.load(key));
            return Ok(entry);
        }
        cache_metrics::miss(METRICS);
        self.load(key).await
    }

    /// The entry for `query` in `lang` if memory holds one, without waiting;
    /// a missing or stale one is fetched in the background.
    pub fn peek(&self, query: &ContentQuery, lang: Lang) -> Option<Arc<Entry>> {
        let key = key(query, lang);
        let entry = self.inner.entries.get(&key);
        if entry.is_some() {
            cache_metrics::hit(METRICS)
        } else {
            cache_metrics::miss(METRICS)
        }
        if entry.as_ref().is_none_or(|entry| entry.checked.elapsed() >= self.inner.settings.fresh_for(query)) {
            drop(self.load(key));
        }
        entry
    }

    /// The entry for `query` in `lang` fetched from the source now, whatever
    /// memory holds (joining a fetch under way).
    pub async fn reload(&self, query: &ContentQuery, lang: Lang) -> Result<Arc<Entry>, ContentError> {
        self.load(key(query, lang)).await
    }

    /// The shared upstream fetch for `key`, started if none is running.
    fn load(&self, key: Key) -> Flight<Arc<Entry>, ContentError> {
        let inner = self.inner.clone();
        self.inner.loads.run(key.clone(), move || async move { inner.fetch_and_store(&key).await })
    }

    /// Goes up whenever an entry gets a new version or is dropped (by the
    /// webhook, or evicted or expired: it may come back different): what
    /// was built from content read before is as current as content read now
    /// while this is unchanged.
    pub fn generation(&self) -> u64 {
        self.inner.changes.load(Ordering::Acquire)
    }

    /// Goes up whenever content is known to have changed: an entry read
    /// again with a new version, or entries dropped by the webhook. Unlike
    /// [`generation`](Self::generation), entries memory let go of do not
    /// move it: a crawl through a large newsroom evicts all day, and each
    /// eviction counted as a change made the pre-renderer render its pass
    /// and rebuild the search's index every minute for nothing.
    pub fn edits(&self) -> u64 {
        self.inner.edits.load(Ordering::Acquire)
    }

    /// Sets the gauges of what memory and the disk hold (`/metrics`).
    pub fn record_held(&self) {
        let entries = &self.inner.entries;
        entries.run_pending_tasks();
        cache_metrics::held(METRICS, entries.weighted_size(), entries.entry_count());
        // The locator's places are one entry: what it weighs is their index.
        let places = entries.get(&key(&ContentQuery::Locations, Lang::default())).and_then(|entry| {
            let Some(ContentValue::Locations(locations)) = entry.value.as_deref() else { return None };
            Some((entry.bytes, locations.len() as u64))
        });
        let (bytes, count) = places.unwrap_or_default();
        cache_metrics::held("places", bytes, count);
        if let Some(disk) = &self.inner.settings.disk {
            let (bytes, files) = disk.held();
            cache_metrics::held("content_disk", bytes, files);
        }
    }

    /// Drops every entry `matches` selects (a change: the generation moves);
    /// returns the versions dropped.
    pub fn invalidate(&self, matches: impl Fn(&Key) -> bool) -> Vec<u64> {
        let dropped: Vec<(Arc<Key>, Arc<Entry>)> = self.inner.entries.iter().filter(|(key, _)| matches(key)).collect();
        for (key, _) in &dropped {
            self.inner.entries.invalidate(key.as_ref());
        }
        // Counted here, before the caller goes on: the eviction listener
        // may be told later. Counted even when memory held none of them:
        // pages answered from disk were built from content memory never read.
        self.inner.changes.fetch_add(1, Ordering::Release);
        self.inner.edits.fetch_add(1, Ordering::Release);
        dropped.into_iter().map(|(_, entry)| entry.version).collect()
    }

    /// Reads every entry `matches` selects again in the background, and
    /// every one whose first read is under way, serving what memory holds
    /// until the new answer replaces it; returns how many. A read already
    /// under way may have read past the change: the new one starts once it
    /// has ended (however many changes come meanwhile, one read follows).
    pub fn read_again(&self, matches: impl Fn(&Key) -> bool) -> usize {
        let held = self.inner.entries.iter().map(|(key, _)| (*key).clone());
        let keys: std::collections::HashSet<Key> =
            held.chain(self.inner.loads.keys()).filter(|key| matches(key)).collect();
        for key in &keys {
            let under_way = self.inner.loads.current(key);
            let (cache, key) = (self.clone(), key.clone());
            tokio::spawn(async move {
                if let Some(read) = under_way {
                    let _ = read.await;
                }
                // Its outcome is the cache's: stored, or logged and the copy kept.
                let _ = cache.load(key).await;
            });
        }
        keys.len()
    }
}

/// What `query` in `lang` is kept by: a query whose answer is the same in
/// every language ([`ContentQuery::localized`]) is kept once, under the default.
fn key(query: &ContentQuery, lang: Lang) -> Key {
    (query.clone(), if query.localized() { lang } else { Lang::default() })
}

impl Inner {
    async fn fetch_and_store(&self, key: &Key) -> Result<Arc<Entry>, ContentError> {
        let result = match self.stamp(key).await {
            Ok(stamp) => {
                if let Some(confirmed) = self.unchanged(key, stamp.as_ref()) {
                    return Ok(confirmed);
                }
                let timeout = if key.0.reads_every_page() {
                    self.settings.timeout * EVERY_PAGE_TIMEOUTS
                } else {
                    self.settings.timeout
                };
                tokio::time::timeout(timeout, Answer::fetch(&*self.source, key))
                    .await
                    .unwrap_or(Err(ContentError::Timeout(timeout)))
                    .map(|answer| (answer, stamp))
            }
            Err(error) => Err(error),
        };
        let now = Instant::now();
        let previous = self.entries.get(key);
        let model = key.0.model().to_owned();
        let outcome = match &result {
            Ok((Some(_), _)) => "ok",
            Ok((None, _)) => "missing",
            Err(ContentError::Timeout(_)) => "timeout",
            Err(ContentError::Malformed(_)) => "malformed",
            Err(ContentError::Upstream(_)) => "error",
        };
        let stale_secs = match (&result, &previous) {
            (Err(_), Some(previous)) => now.saturating_duration_since(previous.fetched).as_secs_f64(),
            _ => 0.0,
        };
        record_fetch(model, outcome, stale_secs);
        let before = previous.as_ref().and_then(|previous| previous.value.clone());
        let result = match result {
            Ok((Some(answer), stamp)) => parse(&key.0, answer, before, self.settings.disk.is_some())
                .await
                .map(|(parsed, same, kept, measure)| (Some(parsed), same, kept, measure, stamp)),
            Ok((None, stamp)) => Ok((None, before.is_none(), None, Measure { version: ABSENT, bytes: 0 }, stamp)),
            Err(error) => Err(error),
        };
        match result {
            Ok((parsed, same, kept, Measure { version: fingerprint, bytes }, stamp)) => {
                let value = parsed.as_ref().and_then(|p| p.value.clone());
                let version = match &previous {
                    Some(previous) if same => previous.version,
                    _ => {
                        for dropped in parsed.iter().flat_map(|p| &p.dropped) {
                            tracing::warn!(query = %key.0, lang = key.1.code(), path = dropped.place(), reason = %dropped.reason, "content part dropped");
                        }
                        fingerprint
                    }
                };
                let changed = previous.as_ref().is_none_or(|previous| previous.version != version);
                self.keep_on_disk(key, kept, changed);
                let entry = Arc::new(Entry {
                    value: value.map(Arc::new),
                    version,
                    bytes,
                    weight: weight(&key.0, bytes),
                    fetched: now,
                    checked: now,
                    stamp: stamp.map(|stamp| (stamp, now)),
                });
                self.entries.insert(key.clone(), entry.clone());
                // A first answer changes no page built before: each was built
                // from content already here.
                if previous.is_some() && changed {
                    self.changes.fetch_add(1, Ordering::Release);
                    self.edits.fetch_add(1, Ordering::Release);
                }
                Ok(entry)
            }
            Err(error) => {
                let previous = match previous {
                    Some(previous) => Some(previous),
                    None => self.restore(key, now).await,
                };
                tracing::warn!(query = %key.0, lang = key.1.code(), %error, stale = previous.is_some(), "content fetch failed");
                match previous {
                    // Stale-if-error: keep serving the last good copy, and
                    // ask again only after another freshness period.
                    Some(previous) => {
                        let entry = Arc::new(Entry { checked: now, ..(*previous).clone() });
                        self.entries.insert(key.clone(), entry.clone());
                        Ok(entry)
                    }
                    None => Err(error),
                }
            }
        }
    }

    /// For a collection read whole, what the source says of it now: asked
    /// before the read, so that a change made while the pages are read is
    /// seen by the next check. `None` for any other query, or where the
    /// source cannot say.
    async fn stamp(&self, key: &Key) -> Result<Option<Stamp>, ContentError> {
        if !key.0.reads_every_page() {
            return Ok(None);
        }
        let timeout = self.settings.timeout;
        tokio::time::timeout(timeout, self.source.stamp(&key.0, key.1))
            .await
            .unwrap_or(Err(ContentError::Timeout(timeout)))
    }

    /// The collection memory holds for `key`, confirmed as it is when the
    /// source's `stamp` is the one it was read under (within
    /// [`READ_WHOLE_EVERY`]): its pages are not read again, and its copy on
    /// disk is only touched. A newsroom of 10,000 stories a language read
    /// every minute some 200 pages of index for nothing.
    fn unchanged(&self, key: &Key, stamp: Option<&Stamp>) -> Option<Arc<Entry>> {
        let held = self.entries.get(key)?;
        let (read_under, read) = held.stamp.as_ref()?;
        if Some(read_under) != stamp || read.elapsed() >= READ_WHOLE_EVERY || held.value.is_none() {
            return None;
        }
        // Current again: no longer stale, if it was while the source failed.
        record_fetch(key.0.model().to_owned(), "unchanged", 0.0);
        if let Some(disk) = &self.settings.disk {
            disk.touch(key);
        }
        let now = Instant::now();
        let confirmed = Arc::new(Entry { fetched: now, checked: now, ..(*held).clone() });
        self.entries.insert(key.clone(), confirmed.clone());
        Some(confirmed)
    }

    /// Keeps the source's answer for `key` on disk (an answer of nothing
    /// deletes the copy): handed to the disk's writer, never waited for.
    fn keep_on_disk(&self, key: &Key, answer: Option<Answer>, changed: bool) {
        let Some(disk) = &self.settings.disk else { return };
        match answer {
            Some(Answer::Json(answer)) => disk.keep(key, answer, changed),
            Some(Answer::Index(index)) => disk.keep(key, index, changed),
            Some(Answer::Places(places)) => disk.keep(key, places, changed),
            None => disk.forget(key),
        }
    }

    /// The answer kept on disk for `key`, unless it is older than content is
    /// served on error, parsed as the source's would be.
    async fn restore(&self, key: &Key, now: Instant) -> Option<Arc<Entry>> {
        let disk = self.settings.disk.clone()?;
        let wanted = key.clone();
        let (answer, age) = tokio::task::spawn_blocking(move || Answer::read(&disk, &wanted)).await.ok()??;
        if age > self.settings.fresh_for(&key.0) + self.settings.stale_if_error {
            return None;
        }
        let (parsed, _, _, Measure { version, bytes }) = parse(&key.0, answer, None, false).await.ok()?;
        tracing::info!(query = %key.0, lang = key.1.code(), age_secs = age.as_secs(), "content restored from disk");
        let fetched = now.checked_sub(age).unwrap_or(now);
        let weight = weight(&key.0, bytes);
        let value = parsed.value.map(Arc::new);
        Some(Arc::new(Entry { value, version, bytes, weight, fetched, checked: now, stamp: None }))
    }
}

/// Counts a fetch by its outcome, and sets how long the model's content has
/// been served stale since the source last gave it (0 when it just did).
fn record_fetch(model: String, outcome: &'static str, stale_secs: f64) {
    metrics::counter!("content_fetches_total", "model" => model.clone(), "outcome" => outcome).increment(1);
    metrics::gauge!("content_stale_seconds", "model" => model).set(stale_secs);
}

/// An answer of the source as the cache parses it and keeps it on disk:
/// most as the source gave it, normalised JSON; a collection's index and
/// the locations (180,000 places would be some 4 KB each as JSON values)
/// as the entries they are built from, each page of the CMS's answer read
/// into them and dropped before the next is asked for.
enum Answer {
    Json(Value),
    Index(CollectionIndex),
    Places(PlaceList),
}

impl Answer {
    /// The source's answer for `key`; `None` when it has nothing.
    async fn fetch(source: &dyn ContentSource, key: &Key) -> Result<Option<Answer>, ContentError> {
        let (query, lang) = (&key.0, key.1);
        match query {
            ContentQuery::Index(_) => {
                let mut pages = IndexPages::default();
                let found = source.each_page(query, lang, &mut |page| pages.read_page(&page)).await?;
                Ok(found.then(|| Answer::Index(pages.index())))
            }
            ContentQuery::Locations => {
                let mut places = PlaceList::default();
                let found = source.each_page(query, lang, &mut |page| places.read_page(page)).await?;
                Ok(found.then_some(Answer::Places(places)))
            }
            _ => Ok(source.fetch(query, lang).await?.map(Answer::Json)),
        }
    }

    /// The answer kept on disk for `key` and how long ago the source gave it.
    fn read(disk: &DiskCache, key: &Key) -> Option<(Answer, Duration)> {
        match key.0 {
            ContentQuery::Index(_) => disk.read(key).map(|(index, age)| (Answer::Index(index), age)),
            ContentQuery::Locations => disk.read(key).map(|(places, age)| (Answer::Places(places), age)),
            _ => disk.read(key).map(|(answer, age)| (Answer::Json(answer), age)),
        }
    }

    /// Parsed as the answer to `query`; if `keep`, what of it a disk
    /// keeps; and its [`Measure`]: its version, and its size (the answer's
    /// as JSON, what the CMS sent near enough, or the locations' index as it
    /// is held).
    fn parse(self, query: &ContentQuery, keep: bool) -> (Parsed<ContentValue>, Option<Answer>, Measure) {
        match self {
            Answer::Json(raw) => {
                let measure = Measure::of(&raw);
                let kept = keep.then(|| raw.clone());
                (parse_answer(query, raw), kept.map(Answer::Json), measure)
            }
            Answer::Index(index) => {
                let measure = Measure::of(&index);
                let kept = keep.then(|| Answer::Index(index.clone()));
                let parsed =
                    Parsed { value: Some(ContentValue::Index(index)), dropped: Vec::new(), absent: Vec::new() };
                (parsed, kept, measure)
            }
            Answer::Places(places) => {
                let version = Measure::of(&places).version;
                let (locations, dropped) = places.index();
                let measure = Measure { version, bytes: locations.heap_bytes() as u64 };
                let parsed = Parsed { value: Some(ContentValue::Locations(locations)), dropped, absent: Vec::new() };
                (parsed, keep.then_some(Answer::Places(places)), measure)
            }
        }
    }
}

/// The version of an entry the source has nothing for.
const ABSENT: u64 = 1;

/// An answer's version and size, from one pass over it as JSON.
struct Measure {
    /// A hash of the source's answer, so that the same content has the
    /// same version in every process that reads it, after a restart too,
    /// and the pages kept on disk for it (`pages::cache`) are found again.
    /// Never 0, which marks content kept nowhere (a preview's).
    version: u64,
    /// Its bytes as JSON (the locations': their index's, as it is held).
    bytes: u64,
}

impl Measure {
    fn of<T: serde::Serialize>(answer: &T) -> Measure {
        use std::hash::Hasher;
        /// Feeds what is serialised to the hasher and counts it, never
        /// holding it whole.
        struct Feed(std::collections::hash_map::DefaultHasher, u64);
        impl std::io::Write for Feed {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                self.0.write(bytes);
                self.1 += bytes.len() as u64;
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut feed = Feed(std::collections::hash_map::DefaultHasher::new(), 0);
        // Serialising a JSON value or the places to a hasher cannot fail.
        let _ = serde_json::to_writer(&mut feed, answer);
        Measure { version: feed.0.finish().max(ABSENT + 1), bytes: feed.1 }
    }
}

/// What the entry for `query`, of an answer of `bytes`, weighs in the
/// cache: its size and [`ENTRY_OVERHEAD`]. The locations weigh only the
/// overhead: their index (some 24 MB for 180,000 places) would take most
/// of `CONTENT_CACHE_MB`, and a collection read by 1,800 requests is not
/// to be pushed out by a crawl of stories; it is one per site, seen apart
/// in the metrics (`cache="places"`).
fn weight(query: &ContentQuery, bytes: u64) -> u32 {
    let counted = if matches!(query, ContentQuery::Locations) { 0 } else { bytes };
    u32::try_from(counted + ENTRY_OVERHEAD).unwrap_or(u32::MAX)
}

/// `answer` parsed as the answer to `query`, whether it is the same as
/// `before`, (if `keep`) what of it a disk keeps, and its [`Measure`]. An answer
/// read through every page of a collection (the locator's index of 180,000
/// places takes most of a second) is parsed and compared on the blocking
/// pool, so that the runtime's workers go on answering meanwhile.
async fn parse(
    query: &ContentQuery,
    answer: Answer,
    before: Option<Arc<ContentValue>>,
    keep: bool,
) -> Result<(Parsed<ContentValue>, bool, Option<Answer>, Measure), ContentError> {
    let work = move |query: &ContentQuery| {
        let (parsed, kept, measure) = answer.parse(query, keep);
        let same = before.as_deref() == parsed.value.as_ref();
        (parsed, same, kept, measure)
    };
    if !query.reads_every_page() {
        return Ok(work(query));
    }
    let query = query.clone();
    Ok(tokio::task::spawn_blocking(move || work(&query)).await?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use async_trait::async_trait;
    use std::sync::Mutex;
    use std::sync::atomic::AtomicUsize;

    /// What `look` sees once `holds` accepts it, looked at every 10 ms: what
    /// happens in the background (a write, a refresh) has taken seconds on
    /// a loaded machine. A hang guard of two minutes fails the test, naming
    /// `what`; how soon is for the benches.
    async fn until<T: std::fmt::Debug>(what: &str, mut look: impl AsyncFnMut() -> T, holds: impl Fn(&T) -> bool) -> T {
        let hang_guard = std::time::Instant::now() + Duration::from_secs(120);
        loop {
            let seen = look().await;
            if holds(&seen) {
                return seen;
            }
            assert!(std::time::Instant::now() < hang_guard, "{what}: never; last seen {seen:?}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
    fn title(entry: &Entry) -> &str {
        entry.value.as_deref().and_then(ContentValue::page).map_or("", |page| page.title.as_str())
    }

    /// A source that counts calls, answers after a delay, and can be told to fail.
    struct Scripted {
        calls: AtomicUsize,
        delay: Duration,
        failing: std::sync::atomic::AtomicBool,
        value: Mutex<Value>,
    }

    #[async_trait]
    impl ContentSource for Scripted {
        async fn fetch(&self, _: &ContentQuery, _: Lang) -> Result<Option<Value>, ContentError> {
            self.calls.fetch_add(1, Ordering::SeqCst);
            tokio::time::sleep(self.delay).await;
            if self.failing.load(Ordering::SeqCst) {
                return Err(ContentError::Upstream("down".into()));
            }
            Ok(Some(self.value.lock().unwrap().clone()))
        }
    }

    fn setup(delay: Duration, fresh: Duration) -> (Arc<Scripted>, Cached) {
        setup_with_disk(delay, fresh, None)
    }

    fn setup_with_disk(delay: Duration, fresh: Duration, disk: Option<DiskCache>) -> (Arc<Scripted>, Cached) {
        let source = Arc::new(Scripted {
            calls: AtomicUsize::new(0),
            delay,
            failing: Default::default(),
            value: Mutex::new(serde_json::json!({ "title": "v1" })),
        });
        let settings = CacheSettings {
            fresh,
            locations_fresh: fresh,
            stale_if_error: Duration::from_secs(3600),
            timeout: Duration::from_secs(1),
            bytes: 1 << 20,
            disk,
        };
        (source.clone(), Cached::new(source, settings))
    }

    /// The cache is bounded by what its answers weigh, not by their count:
    /// answers of 10 KB in 64 KB, a few entries kept whatever their number.
    #[tokio::test]
    async fn memory_holds_answers_within_its_bytes() {
        let (source, cache) = setup(Duration::from_millis(1), Duration::from_secs(60));
        *source.value.lock().unwrap() = serde_json::json!({ "title": "v1", "body": "x".repeat(10_000) });
        let mut settings = cache.inner.settings.clone();
        settings.bytes = 64 << 10;
        let cache = Cached::new(source, settings);
        for n in 0..40 {
            cache.get(&ContentQuery::single(&format!("page-{n}")), Lang::En).await.unwrap();
        }
        let entries = &cache.inner.entries;
        entries.run_pending_tasks();
        assert!(entries.weighted_size() <= 64 << 10, "{} bytes held", entries.weighted_size());
        assert!((1..=6).contains(&entries.entry_count()), "{} entries of some 10 KB", entries.entry_count());
        let held = entries.iter().next().unwrap().1;
        assert!((10_000..11_000).contains(&held.weight), "an entry weighs its answer: {}", held.weight);
    }

    /// A collection's source that says what its collection's stamp is.
    struct Stamped {
        reads: AtomicUsize,
        stamps: AtomicUsize,
        items: Mutex<Value>,
        stamp: Mutex<Option<Stamp>>,
    }

    #[async_trait]
    impl ContentSource for Stamped {
        async fn fetch(&self, _: &ContentQuery, _: Lang) -> Result<Option<Value>, ContentError> {
            self.reads.fetch_add(1, Ordering::SeqCst);
            Ok(Some(self.items.lock().unwrap().clone()))
        }

        async fn stamp(&self, _: &ContentQuery, _: Lang) -> Result<Option<Stamp>, ContentError> {
            self.stamps.fetch_add(1, Ordering::SeqCst);
            Ok(self.stamp.lock().unwrap().clone())
        }
    }

    /// A collection read whole is read again only when its stamp moved, or
    /// where the source cannot give one.
    #[tokio::test]
    async fn a_collection_whose_stamp_stands_is_not_read_again() {
        let stamp = |count: u64, newest: &str| Some(Stamp { count, newest: Some(newest.to_owned()) });
        let source = Arc::new(Stamped {
            reads: AtomicUsize::new(0),
            stamps: AtomicUsize::new(0),
            items: Mutex::new(serde_json::json!([{ "id": 1, "title": "One", "slug": "one" }])),
            stamp: Mutex::new(stamp(1, "2026-01-01T00:00:00.000Z")),
        });
        let (_, scripted) = setup(Duration::ZERO, Duration::from_secs(60));
        let cache = Cached::new(source.clone(), scripted.inner.settings.clone());
        let query = ContentQuery::Index(contract::content::Collection::NewsUpdates);
        let count =
            |entry: &Entry| entry.value.as_deref().and_then(ContentValue::index).map_or(0, |i| i.entries().len());
        let first = cache.reload(&query, Lang::En).await.unwrap();
        assert_eq!((source.stamps.load(Ordering::SeqCst), source.reads.load(Ordering::SeqCst)), (1, 1));

        // Asked again, nothing changed: one small request, the copy confirmed.
        let again = cache.reload(&query, Lang::En).await.unwrap();
        assert_eq!((source.stamps.load(Ordering::SeqCst), source.reads.load(Ordering::SeqCst)), (2, 1));
        assert_eq!(again.version, first.version);
        assert!(again.fetched > first.fetched, "confirmed now");

        // An item added: the stamp moves and the collection is read whole.
        *source.items.lock().unwrap() =
            serde_json::json!([{ "id": 1, "title": "One", "slug": "one" }, { "id": 2, "title": "Two", "slug": "two" }]);
        *source.stamp.lock().unwrap() = stamp(2, "2026-01-02T00:00:00.000Z");
        let changed = cache.reload(&query, Lang::En).await.unwrap();
        assert_eq!(source.reads.load(Ordering::SeqCst), 2);
        assert_eq!(count(&changed), 2);
        assert_ne!(changed.version, first.version);

        // A source that cannot say: read whole each time.
        *source.stamp.lock().unwrap() = None;
        cache.reload(&query, Lang::En).await.unwrap();
        cache.reload(&query, Lang::En).await.unwrap();
        assert_eq!(source.reads.load(Ordering::SeqCst), 4);

        // Other queries are never stamped.
        cache.reload(&ContentQuery::single("home"), Lang::En).await.unwrap();
        assert_eq!(source.stamps.load(Ordering::SeqCst), 5);
    }

    #[tokio::test]
    async fn concurrent_misses_make_one_upstream_request() {
        let (source, cache) = setup(Duration::from_millis(100), Duration::from_secs(60));
        let query = ContentQuery::single("home");
        let gets = (0..50).map(|_| cache.get(&query, Lang::En));
        let results = futures::future::join_all(gets).await;
        assert!(results.iter().all(|r| title(r.as_ref().unwrap()) == "v1"));
        assert_eq!(source.calls.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_dropped_waiter_does_not_cancel_the_fetch_for_the_others() {
        let (source, cache) = setup(Duration::from_millis(100), Duration::from_secs(60));
        let query = ContentQuery::single("home");
        let first = tokio::spawn({
            let (cache, query) = (cache.clone(), query.clone());
            async move { cache.get(&query, Lang::En).await }
        });
        tokio::time::sleep(Duration::from_millis(10)).await;
        first.abort();
        assert!(cache.get(&query, Lang::En).await.is_ok());
        assert_eq!(source.calls.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn stale_content_is_served_while_revalidating_and_while_the_source_fails() {
        let (source, cache) = setup(Duration::from_millis(5), Duration::from_millis(50));
        let query = ContentQuery::single("home");
        let first = cache.get(&query, Lang::En).await.unwrap();
        *source.value.lock().unwrap() = serde_json::json!({ "title": "v2" });
        tokio::time::sleep(Duration::from_millis(60)).await;
        // Stale: the old copy at once, a refresh behind it.
        let stale = cache.get(&query, Lang::En).await.unwrap();
        assert_eq!(title(&stale), "v1");
        // The refresh runs as its own task: on a loaded machine it may take
        // longer than the source's 5 ms, so wait for it (generously).
        let refreshed =
            until("the refresh", async || cache.get(&query, Lang::En).await.unwrap(), |e| title(e) == "v2").await;
        assert_ne!(refreshed.version, first.version);
        // The source goes down: the last good copy keeps being served.
        source.failing.store(true, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(60)).await;
        for _ in 0..3 {
            assert_eq!(title(&cache.get(&query, Lang::En).await.unwrap()), "v2");
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }

    #[tokio::test]
    async fn an_unchanged_refresh_keeps_the_version() {
        let (_, cache) = setup(Duration::from_millis(1), Duration::from_millis(10));
        let query = ContentQuery::single("home");
        let first = cache.get(&query, Lang::En).await.unwrap();
        tokio::time::sleep(Duration::from_millis(20)).await;
        let _ = cache.get(&query, Lang::En).await.unwrap();
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(cache.get(&query, Lang::En).await.unwrap().version, first.version);
    }

    #[tokio::test]
    async fn a_miss_while_the_source_fails_is_an_error() {
        let (source, cache) = setup(Duration::from_millis(1), Duration::from_secs(60));
        source.failing.store(true, Ordering::SeqCst);
        assert!(cache.get(&ContentQuery::single("home"), Lang::En).await.is_err());
    }

    #[tokio::test]
    async fn invalidation_drops_entries_and_reports_their_versions() {
        let (source, cache) = setup(Duration::from_millis(1), Duration::from_secs(60));
        let home = cache.get(&ContentQuery::single("home"), Lang::En).await.unwrap();
        let _ = cache.get(&ContentQuery::single("sidebar"), Lang::En).await.unwrap();
        let dropped = cache.invalidate(|(query, _)| query.model() == "home");
        assert_eq!(dropped, vec![home.version]);
        let _ = cache.get(&ContentQuery::single("home"), Lang::En).await.unwrap();
        let _ = cache.get(&ContentQuery::single("sidebar"), Lang::En).await.unwrap();
        assert_eq!(source.calls.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn reading_again_in_place_serves_the_copy_meanwhile_and_follows_a_read_under_way() {
        let (source, cache) = setup(Duration::from_millis(100), Duration::from_secs(3600));
        let query = ContentQuery::single("home");
        let first = cache.get(&query, Lang::En).await.unwrap();
        // A read under way when the change comes may have read past it.
        let under_way = tokio::spawn({
            let (cache, query) = (cache.clone(), query.clone());
            async move { cache.reload(&query, Lang::En).await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        *source.value.lock().unwrap() = serde_json::json!({ "title": "v2" });
        assert_eq!(cache.read_again(|(query, _)| query.model() == "home"), 1);
        assert_eq!(cache.read_again(|(query, _)| query.model() == "home"), 1, "a second change joins the same read");
        let served = tokio::time::timeout(Duration::from_millis(50), cache.get(&query, Lang::En))
            .await
            .expect("no wait")
            .unwrap();
        assert_eq!(served.version, first.version, "the copy in memory, meanwhile");
        under_way.await.unwrap().unwrap();
        let read_again = async || {
            (source.calls.load(Ordering::SeqCst), title(&cache.get(&query, Lang::En).await.unwrap()).to_owned())
        };
        until("the read after the one under way", read_again, |(calls, title)| *calls == 3 && *title == "v2").await;
        tokio::time::sleep(Duration::from_millis(250)).await;
        assert_eq!(source.calls.load(Ordering::SeqCst), 3, "the first read, the one under way, one after it");
    }

    #[tokio::test]
    async fn a_new_cache_serves_what_the_source_gave_before_from_disk_while_it_fails() {
        let dir = tempfile::tempdir().unwrap();
        let disk = DiskCache::open(dir.path(), 1 << 20).unwrap();
        let query = ContentQuery::single("home");
        let (_, first) = setup_with_disk(Duration::from_millis(1), Duration::from_secs(60), Some(disk.clone()));
        first.get(&query, Lang::En).await.unwrap();
        let key = (query.clone(), Lang::En);
        // Written in the background, as soon as the disk takes it: a loaded
        // machine's fsync has taken seconds.
        until("the answer written to disk", async || disk.read::<Value>(&key), Option::is_some).await;
        // A restart: nothing in memory, the source down.
        let (source, restarted) = setup_with_disk(
            Duration::from_millis(1),
            Duration::from_secs(60),
            Some(DiskCache::open(dir.path(), 1 << 20).unwrap()),
        );
        source.failing.store(true, Ordering::SeqCst);
        assert_eq!(title(&restarted.get(&query, Lang::En).await.unwrap()), "v1");
        assert_eq!(title(&restarted.get(&query, Lang::En).await.unwrap()), "v1");
        assert_eq!(source.calls.load(Ordering::SeqCst), 1, "then served as stale content for a freshness period");
        // Without a disk the same restart has nothing to serve.
        let (source, bare) = setup(Duration::from_millis(1), Duration::from_secs(60));
        source.failing.store(true, Ordering::SeqCst);
        assert!(bare.get(&query, Lang::En).await.is_err());
    }
}
