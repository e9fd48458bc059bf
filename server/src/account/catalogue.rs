//! The operator's bundle catalogue (`GET api/v1/gsm-static-bundles`): public
//! price information, and the one list that both content's bundle tables and
//! the purchase read, so an advertised price is the price sold.
//!
//! Kept in memory the way content is: fresh for `CONTENT_TTL_SECS`, then
//! served while one refresh runs in the background; while the operator
//! fails, the last good copy is served for `CONTENT_STALE_IF_ERROR_SECS`.
//! Each copy has a version that changes only when the catalogue does (part
//! of the page cache key of the pages that show it).

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use contract::Lang;
use contract::content::{BundleTableSection, Section};
use contract::page::BundleOffer;
use futures::FutureExt;
use futures::future::{BoxFuture, Shared};

use super::operator::{CatalogueBundle, OperatorClient};

/// One reading of the catalogue.
pub struct Snapshot {
    pub bundles: Vec<CatalogueBundle>,
    /// Changes whenever the catalogue does.
    pub version: u64,
    fetched: Instant,
}

impl Snapshot {
    pub fn find(&self, id: &str) -> Option<&CatalogueBundle> {
        self.bundles.iter().find(|b| b.id == id)
    }

    /// The bundles `sections`' bundle tables list, in `lang`, each once.
    pub fn for_sections(&self, sections: &[Section], lang: Lang) -> Vec<BundleOffer> {
        let tables: Vec<&BundleTableSection> = sections
            .iter()
            .filter_map(|section| match section {
                Section::BundleTable(table) => Some(table),
                _ => None,
            })
            .collect();
        self.offers(lang, |bundle| tables.iter().any(|table| table.lists(&bundle.id, &bundle.category)))
    }

    /// Every bundle sold online, in `lang`.
    pub fn purchasable(&self, lang: Lang) -> Vec<BundleOffer> {
        self.offers(lang, |bundle| bundle.purchasable)
    }

    fn offers(&self, lang: Lang, keep: impl Fn(&CatalogueBundle) -> bool) -> Vec<BundleOffer> {
        self.bundles.iter().filter(|b| keep(b)).map(|b| offer(b, lang)).collect()
    }
}

/// A catalogue bundle as the app shows it, in `lang`.
pub fn offer(bundle: &CatalogueBundle, lang: Lang) -> BundleOffer {
    BundleOffer {
        id: bundle.id.clone(),
        name: bundle.name.get(lang).to_owned(),
        price: bundle.price,
        validity: bundle.validity.get(lang).to_owned(),
        kind: bundle.kind.clone(),
        category: bundle.category.clone(),
        ussd: bundle.ussd.clone(),
        purchasable: bundle.purchasable,
    }
}

type Refresh = Shared<BoxFuture<'static, ()>>;

#[derive(Clone)]
pub struct Catalogue {
    inner: Arc<Inner>,
}

struct Inner {
    operator: OperatorClient,
    fresh: Duration,
    stale_if_error: Duration,
    state: Mutex<State>,
    /// Counts new versions: pages kept whole compare it.
    changes: AtomicU64,
}

#[derive(Default)]
struct State {
    snapshot: Option<Arc<Snapshot>>,
    /// When the operator was last asked, successfully or not.
    checked: Option<Instant>,
    refreshing: Option<Refresh>,
}

impl Catalogue {
    pub fn new(operator: OperatorClient, fresh: Duration, stale_if_error: Duration) -> Catalogue {
        let inner = Inner { operator, fresh, stale_if_error, state: Mutex::default(), changes: AtomicU64::new(0) };
        Catalogue { inner: Arc::new(inner) }
    }

    /// The catalogue: the copy in memory while fresh; a stale one while it
    /// is refreshed; none read yet, the first reading (waited for). `None`
    /// when the operator cannot be read and no copy young enough is left.
    pub async fn get(&self) -> Option<Arc<Snapshot>> {
        let refresh = {
            let mut state = crate::infra::locks::lock(&self.inner.state);
            // Asked within its freshness: that copy (or, if the asking
            // failed, the last one) until it is time to ask again.
            if state.checked.is_some_and(|checked| checked.elapsed() < self.inner.fresh) {
                return self.servable(&state);
            }
            let refresh = state.refreshing.get_or_insert_with(|| self.refresh()).clone();
            if let Some(stale) = self.servable(&state) {
                return Some(stale);
            }
            refresh
        };
        let asked = Instant::now();
        refresh.await;
        let state = crate::infra::locks::lock(&self.inner.state);
        // The reading waited for is served, however short the freshness.
        state.snapshot.clone().filter(|s| s.fetched >= asked).or_else(|| self.servable(&state))
    }

    /// How many times the catalogue has changed since the start.
    pub fn changes(&self) -> u64 {
        self.inner.changes.load(Ordering::Acquire)
    }

    fn servable(&self, state: &State) -> Option<Arc<Snapshot>> {
        state.snapshot.clone().filter(|s| s.fetched.elapsed() < self.inner.fresh + self.inner.stale_if_error)
    }

    /// One reading of the operator's catalogue, run as its own task (a
    /// visitor who leaves does not cancel it for the others waiting).
    fn refresh(&self) -> Refresh {
        let catalogue = self.clone();
        let task = tokio::spawn(async move {
            let read = catalogue.inner.operator.bundles().await;
            let mut state = crate::infra::locks::lock(&catalogue.inner.state);
            state.checked = Some(Instant::now());
            state.refreshing = None;
            match read {
                Ok(bundles) => {
                    let version = version_of(&bundles);
                    if state.snapshot.as_ref().is_none_or(|s| s.version != version) {
                        catalogue.inner.changes.fetch_add(1, Ordering::Release);
                    }
                    state.snapshot = Some(Arc::new(Snapshot { bundles, version, fetched: Instant::now() }));
                }
                Err(error) => tracing::warn!(%error, "bundle catalogue unavailable; the last copy is kept"),
            }
        });
        task.map(|_| ()).boxed().shared()
    }
}

/// A version that changes with the catalogue's content (never 0: that is
/// "no catalogue" in a page's versions).
fn version_of(bundles: &[CatalogueBundle]) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    serde_json::to_string(bundles).unwrap_or_default().hash(&mut hasher);
    hasher.finish().max(1)
}
