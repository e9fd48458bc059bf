//! Rendered pages for anonymous visitors ([`CachedPage`]), kept once per
//! (route, address, content versions). Content that changes gets a new
//! version, so a stale page is never served for it; the webhook also drops
//! pages built from content it invalidates.
//!
//! `PAGE_CACHE_MB` bounds the keys as well as the pages, and an address
//! longer than [`MAX_KEY`] is rendered for its request and not kept: no
//! client fills the memory with addresses of up to 64 KiB. Pages for
//! addresses a visitor typed (a search, a business page's chosen services:
//! any query parameter the route reads but a list's page number) keep to an
//! eighth of it ([`TYPED_SHARE`]): a scanner makes one for every payload it
//! tries, and those neither grow memory past that share nor push out the
//! pages the site links to.
//!
//! When content changes, an address's page for the new content is not kept
//! yet, but the one for an earlier content usually is: that one is served
//! ([`PageCache::stale`]) while the new one renders in the background
//! ([`PageCache::refresh`]), as HTTP's stale-while-revalidate does, for at
//! most `stale_for` (`PAGE_STALE_MAX_SECS`) after the change was first asked
//! for, however often content changes meanwhile (a newsroom publishing all
//! day). So a publish (which may touch every page, through the sidebar)
//! costs visitors no wait and no refusal; only an address never rendered,
//! or one whose refresh has not come in that time, waits for its render.
//! Refreshes wait in a queue of their own (`refresh`): one per address,
//! the newest content asked for replacing what it waited with, the address
//! asked for last rendered first, at most `refreshes` at once, and never
//! charged to a visitor's share of renders. A stale page's answer carries
//! when its content was superseded and when its refresh has ended, so the
//! fast path serves it again within the same bound ([`super::fast`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant, SystemTime};

use super::cached_page::{CachedPage, Kept, Stale};
use super::disk::{IndexedPage, PageDisk};
use super::refresh::{Refreshed, Refreshes};

/// The query parameter of a list page's number: the one the site's own
/// links (the pager's) put in an address.
pub const LIST_PAGE: &str = "page";
/// The longest key (address with the query it keeps, and content versions)
/// that is cached; the site's own addresses are far shorter.
pub const MAX_KEY: usize = 2048;
/// What an entry costs the cache besides its key and bodies (its `Arc`,
/// the page's fields, moka's bookkeeping), roughly.
const ENTRY_OVERHEAD: usize = 256;
/// Pages for typed addresses get `1 / TYPED_SHARE` of the capacity, the
/// pages the site links to the rest.
const TYPED_SHARE: u64 = 8;

type Pages = moka::future::Cache<String, Arc<CachedPage>>;

/// Who waits for a render of a page for everyone: the visitor who asked
/// (within their address's share of the engines), or nobody (a refresh in
/// the background, charged to no one's share).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waiting {
    Visitor,
    Nobody,
}

#[derive(Clone)]
pub struct PageCache {
    /// None with `PAGE_CACHE_MB=0`: every page is rendered for its request.
    pages: Option<Partitions>,
    /// By address (a key without its content versions): the key of the
    /// newest page kept for it.
    latest: moka::sync::Cache<String, Arc<Latest>>,
    /// Pages being rendered again in the background, and those waiting to be.
    refreshes: Refreshes,
    stale_for: Duration,
    /// The second tier: pages on disk (`PAGE_DISK_CACHE_MB`), if any.
    disk: Option<PageDisk>,
    /// Pages read from disk whose content is checked again in the
    /// background, at most [`CHECKS`] at once (see [`PageCache::on_disk`]).
    checks: Arc<tokio::sync::Semaphore>,
}

/// Pages read from disk with content older than its time-to-live whose
/// content is checked again at once; past them, a page is served without
/// a check, which the next visitor's request starts.
const CHECKS: usize = 2;

/// The newest page kept for an address.
struct Latest {
    key: String,
    /// When a page for newer content was first asked for.
    superseded: OnceLock<Instant>,
}

/// The page cache's two partitions, each bounded by its own share of the
/// capacity.
#[derive(Clone)]
struct Partitions {
    /// Pages for addresses the site links to (no query, or a list's page).
    linked: Pages,
    /// Pages for addresses a visitor typed.
    typed: Pages,
}

impl Partitions {
    fn new(capacity_bytes: u64, lifetime: Duration) -> Partitions {
        let build = |capacity| {
            moka::future::Cache::builder()
                .max_capacity(capacity)
                .weigher(|key: &String, page: &Arc<CachedPage>| {
                    (ENTRY_OVERHEAD + key.len() + page.bytes()).try_into().unwrap_or(u32::MAX)
                })
                .time_to_live(lifetime)
                .build()
        };
        let typed = capacity_bytes / TYPED_SHARE;
        Partitions { linked: build(capacity_bytes - typed), typed: build(typed) }
    }

    /// The part that keeps `key`'s page.
    fn of(&self, key: &str) -> &Pages {
        if typed(key) { &self.typed } else { &self.linked }
    }
}

/// What a key names besides its content versions.
fn address(key: &str) -> &str {
    key.rsplit_once('#').map_or(key, |(address, _)| address)
}

/// Whether `key`'s address carries a query parameter a visitor typed: one
/// its route reads, other than a list's page number (the pager links those).
fn typed(key: &str) -> bool {
    address(key)
        .split_once('?')
        .is_some_and(|(_, query)| query.split('&').any(|pair| pair.split('=').next() != Some(LIST_PAGE)))
}

impl PageCache {
    /// `lifetime`: how long a page is kept; `stale_for`: how long after
    /// content changed the page for the previous content may still be
    /// served; `refreshes`: background renders at once.
    pub fn new(
        capacity_bytes: u64,
        lifetime: Duration,
        stale_for: Duration,
        refreshes: usize,
        disk: Option<PageDisk>,
    ) -> PageCache {
        let pages = (capacity_bytes > 0).then(|| Partitions::new(capacity_bytes, lifetime));
        let latest = moka::sync::Cache::builder()
            .max_capacity(capacity_bytes / 8)
            .weigher(|address: &String, latest: &Arc<Latest>| {
                (address.len() + latest.key.len() + ENTRY_OVERHEAD).try_into().unwrap_or(u32::MAX)
            })
            .time_to_live(lifetime)
            .build();
        let disk = disk.filter(|_| pages.is_some());
        let checks = Arc::new(tokio::sync::Semaphore::new(CHECKS));
        PageCache { pages, latest, refreshes: Refreshes::new(refreshes.max(1)), stale_for, disk, checks }
    }

    /// An address as keys name it: the route and the URL.
    pub fn address_of(route: &str, url: &str) -> String {
        format!("{route} {url}")
    }

    /// Keeps `page`, just answered for everyone under `key` from content
    /// the CMS gave at `confirmed`, on disk, or marks the copy there
    /// confirmed then. Only the pages for everyone come here: what the disk
    /// keeps is served to anonymous visitors without reading content.
    pub fn keep_on_disk(&self, key: &str, page: &CachedPage, confirmed: SystemTime) {
        let Some(disk) = &self.disk else { return };
        let address = address(key);
        if !disk.confirm(address, key, confirmed)
            && !typed(key)
            && let Some((header, br, gzip)) = page.to_disk(address, key, confirmed)
        {
            disk.keep(&header, &br, &gzip);
        }
    }

    /// The route names the page as much as its address: the not-found page,
    /// one for every unknown address, is rendered for `/` like home.
    pub fn key(route: &str, url: &str, versions: &[u64]) -> String {
        let versions: Vec<String> = versions.iter().map(u64::to_string).collect();
        format!("{}#{}", PageCache::address_of(route, url), versions.join("."))
    }

    /// `key`'s page for everyone, built from content the CMS gave at
    /// `confirmed`: the one kept, or while it is not kept the one kept for
    /// the same address from earlier content ([`Self::stale`]) with `page`
    /// rendered again in the background for nobody ([`Self::refresh`]), or
    /// `page` rendered now for the visitor waiting. One kept for this
    /// content is kept on disk too, for anonymous visitors to get without
    /// their content being read. `render` renders a copy of `page`, taken
    /// only when a render is needed.
    pub async fn page_for_everyone<P, E, F>(
        &self,
        key: &str,
        confirmed: SystemTime,
        page: &P,
        render: impl FnOnce(P, Waiting) -> F + Send + 'static,
    ) -> Result<Kept, E>
    where
        P: Clone + Send + 'static,
        E: Clone + Send + Sync + std::fmt::Debug + 'static,
        F: Future<Output = Result<CachedPage, E>> + Send + 'static,
    {
        if let Some((page_kept, superseded)) = self.stale(key).await {
            let page = page.clone();
            let refreshed = self.refresh(key.to_owned(), move || render(page, Waiting::Nobody));
            return Ok(Kept { page: page_kept, stale: Some(Stale { superseded, refreshed }) });
        }
        let kept = self.get_or_render(key.to_owned(), || render(page.clone(), Waiting::Visitor)).await?;
        self.keep_on_disk(key, &kept, confirmed);
        Ok(Kept { page: kept, stale: None })
    }

    /// The cached page, or the one `render()` builds; concurrent requests for
    /// a missing page share one render (and its error), and `render` is
    /// called only for a page that is missing. A key longer than
    /// [`MAX_KEY`] is rendered every time and not kept, as is every page when
    /// the cache is off.
    pub async fn get_or_render<E: Clone + Send + Sync + 'static, F: Future<Output = Result<CachedPage, E>>>(
        &self,
        key: String,
        render: impl FnOnce() -> F,
    ) -> Result<Arc<CachedPage>, E> {
        let Some(pages) = self.pages.as_ref().filter(|_| key.len() <= MAX_KEY).map(|shares| shares.of(&key)) else {
            metrics::counter!("page_cache_lookups_total", "result" => "miss").increment(1);
            return render().await.map(Arc::new);
        };
        let (missed, read) = (AtomicBool::new(false), AtomicBool::new(false));
        let page = pages
            .try_get_with(key.clone(), async {
                missed.store(true, Ordering::Relaxed);
                if let Some(page) = self.read(&key).await {
                    read.store(true, Ordering::Relaxed);
                    return Ok(page);
                }
                render().await.map(Arc::new)
            })
            .await
            .map_err(|error| (*error).clone());
        let (missed, read) = (missed.into_inner(), read.into_inner());
        let result = if read {
            "disk"
        } else if missed {
            "miss"
        } else {
            "hit"
        };
        metrics::counter!("page_cache_lookups_total", "result" => result).increment(1);
        if missed && page.is_ok() {
            let address = address(&key).to_owned();
            // The page it supersedes is served no more (only the newest
            // is served stale): dropped, so a newsroom publishing all day
            // keeps one page per address, not one per edition.
            if let Some(previous) = self.latest.get(&address).filter(|previous| previous.key != key) {
                pages.invalidate(&previous.key).await;
            }
            self.latest.insert(address, Arc::new(Latest { key, superseded: OnceLock::new() }));
        }
        page
    }

    /// `key`'s page if the disk keeps it.
    async fn read(&self, key: &str) -> Option<Arc<CachedPage>> {
        let disk = self.disk.clone()?;
        let (address, key) = (address(key).to_owned(), key.to_owned());
        let read = move || disk.read(&address, &key).and_then(CachedPage::restore);
        tokio::task::spawn_blocking(read).await.ok().flatten().map(Arc::new)
    }

    /// The newest page of `address` (a route and URL, as keys name it) if
    /// only the disk keeps it (memory keeps no page for the address, nor
    /// knows of a newer one) and `usable` says its content is still what it
    /// was built from: read into memory, with what the disk knows of it.
    /// When its content was confirmed longer than `fresh` ago, `check` runs
    /// in the background (unless [`CHECKS`] run already), to read it again.
    pub async fn on_disk<F: Future<Output = ()> + Send + 'static>(
        &self,
        address: &str,
        fresh: Duration,
        usable: impl FnOnce(&IndexedPage) -> bool,
        check: impl FnOnce() -> F,
    ) -> Option<(Arc<CachedPage>, bool)> {
        let (disk, pages) = (self.disk.as_ref()?, self.pages.as_ref()?.of(address));
        let kept = disk.kept(address).filter(usable)?;
        if let Some(latest) = self.latest.get(address)
            && (*latest.key != *kept.key || pages.contains_key(&latest.key))
        {
            return None;
        }
        let page = self.read(&kept.key).await?;
        metrics::counter!("page_cache_lookups_total", "result" => "disk").increment(1);
        pages.insert(kept.key.to_string(), page.clone()).await;
        let latest = Latest { key: kept.key.to_string(), superseded: OnceLock::new() };
        self.latest.insert(address.to_owned(), Arc::new(latest));
        let fresh = kept.fresh(fresh);
        if !fresh && let Ok(turn) = self.checks.clone().try_acquire_owned() {
            let check = check();
            tokio::spawn(async move {
                check.await;
                drop(turn);
            });
        }
        Some((page, fresh))
    }

    /// Whether a page is kept for `address` (see [`Self::address_of`]), from
    /// this content or an earlier one.
    pub fn holds(&self, address: &str) -> bool {
        self.latest.contains_key(address)
    }

    /// When `key`'s page is not kept: the page kept for the same address
    /// from older content, and when newer content was first asked for,
    /// unless that was longer than `stale_for` ago. The caller starts its
    /// [`refresh`](Self::refresh).
    async fn stale(&self, key: &str) -> Option<(Arc<CachedPage>, Instant)> {
        let pages = self.pages.as_ref()?.of(key);
        if pages.contains_key(key) {
            return None;
        }
        let latest = self.latest.get(address(key)).filter(|latest| latest.key != key)?;
        let superseded = *latest.superseded.get_or_init(Instant::now);
        let age = superseded.elapsed();
        if age > self.stale_for {
            metrics::counter!("page_cache_lookups_total", "result" => "too_stale").increment(1);
            return None;
        }
        // A page whose content had failed is no copy worth serving.
        let page = pages.get(&latest.key).await.filter(|page| !page.status.is_server_error())?;
        metrics::counter!("page_cache_lookups_total", "result" => "stale").increment(1);
        metrics::histogram!("page_stale_age_seconds").record(age.as_secs_f64());
        Some((page, superseded))
    }

    /// Renders `key`'s page in the background and keeps it: queued for its
    /// address, in place of any older content's render waiting there. The
    /// answer says when that render has ended.
    fn refresh<E, F>(&self, key: String, render: impl FnOnce() -> F + Send + 'static) -> Refreshed
    where
        E: Clone + Send + Sync + std::fmt::Debug + 'static,
        F: Future<Output = Result<CachedPage, E>> + Send + 'static,
    {
        let address = address(&key).to_owned();
        let cache = self.clone();
        let logged = address.clone();
        self.refreshes.push(
            address,
            Box::new(move || {
                Box::pin(async move {
                    if let Err(error) = cache.get_or_render(key, render).await {
                        tracing::warn!(
                            ?error,
                            address = logged,
                            "a page could not be rendered again; its previous copy is served meanwhile"
                        );
                    }
                })
            }),
        )
    }

    /// Bytes held (`/metrics`).
    pub fn bytes(&self) -> u64 {
        self.pages.as_ref().map_or(0, |shares| shares.linked.weighted_size() + shares.typed.weighted_size())
    }

    /// The pages on disk, if any.
    pub fn disk(&self) -> Option<&PageDisk> {
        self.disk.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use axum::http::StatusCode;
    use contract::Lang;

    use super::*;

    /// Pages with long keys fill `PAGE_CACHE_MB` by their keys too: tiny
    /// pages under 2 KiB keys do not hold ten times the memory allowed.
    #[test]
    fn keys_count_against_the_capacity() {
        let capacity = 64 << 10;
        let cache = PageCache::new(capacity, Duration::from_secs(60), Duration::from_secs(60), 1, None);
        futures::executor::block_on(async {
            for n in 0..200 {
                let key = format!("{n:0>width$}", width = MAX_KEY - 8);
                let page = CachedPage::new(StatusCode::OK, Lang::En, "<p>x</p>".into(), vec![1], |_| None);
                cache.get_or_render(key, || async { Ok::<_, ()>(page) }).await.unwrap();
            }
            cache.pages.as_ref().unwrap().linked.run_pending_tasks().await;
        });
        let linked = &cache.pages.as_ref().unwrap().linked;
        let held = linked.iter().map(|(key, page)| key.len() + page.bodies()).sum::<usize>();
        assert!(held as u64 <= capacity, "{held} bytes held in {} entries", linked.entry_count());
    }

    /// A scan's searches (a page for every payload) fill their own share and
    /// stop there: the pages the site links to, list pages among them, stay.
    #[test]
    fn typed_addresses_keep_to_their_share() {
        let capacity = 4 << 20;
        let cache = PageCache::new(capacity, Duration::from_secs(60), Duration::from_secs(60), 1, None);
        let page = |n: usize| {
            CachedPage::new(
                StatusCode::OK,
                Lang::En,
                format!("<p>{n}</p>{}", "<p>results</p>".repeat(2000)),
                vec![1],
                |_| None,
            )
        };
        let linked = ["news-events /news-events#1", "news-events /news-events?page=2#1", "home /#1"];
        futures::executor::block_on(async {
            for key in linked {
                cache.get_or_render(key.into(), || async { Ok::<_, ()>(page(0)) }).await.unwrap();
            }
            for n in 0..2000 {
                let key = PageCache::key("search", &format!("/search?q=%27{n}%22%3E%3Cscript%3E"), &[1]);
                cache.get_or_render(key, || async { Ok::<_, ()>(page(n)) }).await.unwrap();
            }
            let shares = cache.pages.as_ref().unwrap();
            shares.linked.run_pending_tasks().await;
            shares.typed.run_pending_tasks().await;
            for key in linked {
                assert!(shares.linked.contains_key(key), "{key} was pushed out");
            }
            assert!(
                shares.typed.weighted_size() <= capacity / TYPED_SHARE,
                "{} bytes of searches",
                shares.typed.weighted_size()
            );
            assert!(shares.typed.entry_count() > 10);
        });
    }

    /// Content changes again and again: each address keeps its newest
    /// page (served stale while the next renders), not one per edition.
    #[test]
    fn a_page_for_newer_content_drops_the_one_it_supersedes() {
        let cache = PageCache::new(4 << 20, Duration::from_secs(60), Duration::from_secs(60), 1, None);
        let page = |edition: u64| {
            CachedPage::new(StatusCode::OK, Lang::En, format!("<p>edition {edition}</p>"), vec![edition], |_| None)
        };
        futures::executor::block_on(async {
            for edition in 1..=5 {
                let key = PageCache::key("voice", "/voice-sms", &[edition]);
                assert_eq!(
                    cache.stale(&key).await.is_some(),
                    edition > 1,
                    "edition {edition}: the previous page served stale"
                );
                cache.get_or_render(key, || async { Ok::<_, ()>(page(edition)) }).await.unwrap();
            }
            let linked = &cache.pages.as_ref().unwrap().linked;
            linked.run_pending_tasks().await;
            let kept: Vec<String> = linked.iter().map(|(key, _)| key.to_string()).collect();
            assert_eq!(kept, [PageCache::key("voice", "/voice-sms", &[5])]);
        });
    }

    #[test]
    fn a_list_page_number_is_linked_and_any_other_parameter_typed() {
        assert!(!typed("news-events /news-events?page=3#1.2"));
        assert!(!typed("home /#1"));
        assert!(typed("search /search?q=bundles#1.2"));
        assert!(typed("business-iot /vodacom-business/5/iot?page=1&services=a#1"));
    }
}
