//! What the operator says about each signed-in subscriber (customer details
//! and balances: airtime, bundles, M-Pesa; four calls), kept per session for
//! `ACCOUNT_CACHE_SECS` so navigating does not ask again. The bundle
//! catalogue, the same for everyone, is kept apart (`catalogue`).
//!
//! - A session's entry is loaded once for every request of that session
//!   (`single_flight`), as a task of its own: a page waits for it at most
//!   its budget (`DIGITAL_API_BUDGET_MS`), and a load that takes longer goes
//!   on and fills the cache for the next request.
//! - Only a whole answer is kept: with balances that failed, the next
//!   request asks again. `GET /api/account` (the visitor asking for their
//!   balances) reads afresh, and keeps what it read.
//! - [`AccountCache::forget`] drops a session's entry (after a purchase, at
//!   logout); a load under way then fills no cache, so nothing read before
//!   it comes back.
//!
//! Keys are [`SessionKey`]s: a digest of the session id.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::operator::{AirtimeBalance, BundleBalance, CustomerDetails, MpesaBalance, OperatorClient, OperatorError};
use super::session::SessionKey;
use crate::infra::single_flight::SingleFlight;

/// Sessions whose entries are kept at most (a few hundred bytes each).
const CAPACITY: u64 = 100_000;

/// What the operator said about a subscriber.
#[derive(Debug)]
pub struct Known {
    pub details: CustomerDetails,
    /// `None`: the balances failed while the details did not.
    pub balances: Option<Balances>,
    /// The operator said the number has no M-Pesa account (a 404).
    pub no_mpesa: bool,
}

#[derive(Debug, Clone)]
pub struct Balances {
    pub airtime: AirtimeBalance,
    pub bundles: Vec<BundleBalance>,
    /// The M-Pesa wallet; `None` when the number has none or it could not be read.
    pub mpesa: Option<MpesaBalance>,
}

/// A subscriber looked up for a request.
pub enum Lookup {
    Known(Arc<Known>),
    /// No answer within the budget, or the API unavailable: what the session
    /// knows is all there is for now.
    Unknown,
    /// The operator refused the session's token (401, or customer details
    /// failing with 400 or more): the visitor is signed out.
    Refused(OperatorError),
}

#[derive(Clone)]
pub struct AccountCache {
    inner: Arc<Inner>,
}

struct Inner {
    operator: OperatorClient,
    subscribers: moka::sync::Cache<SessionKey, Arc<Known>>,
    loads: SingleFlight<SessionKey, Arc<Known>, OperatorError>,
    /// Goes up at every `forget`: a load that began before one keeps nothing.
    forgets: AtomicU64,
    /// `ACCOUNT_CACHE_SECS` is not 0.
    keeps: bool,
}

impl Inner {
    fn keep(&self, key: SessionKey, known: &Arc<Known>) {
        if self.keeps && known.balances.is_some() {
            self.subscribers.insert(key, known.clone());
        }
    }
}

impl AccountCache {
    pub fn new(operator: OperatorClient, ttl: Duration) -> AccountCache {
        let subscribers = moka::sync::Cache::builder().max_capacity(CAPACITY).time_to_live(ttl).build();
        AccountCache {
            inner: Arc::new(Inner {
                operator,
                subscribers,
                loads: SingleFlight::default(),
                forgets: AtomicU64::new(0),
                keeps: !ttl.is_zero(),
            }),
        }
    }

    /// The subscriber of the session `key` (whose operator token is
    /// `token`), from the cache or loaded, waiting for the operator at most
    /// `budget`.
    pub async fn subscriber(&self, key: &SessionKey, token: &str, budget: Duration) -> Lookup {
        match self.inner.subscribers.get(key) {
            Some(known) => Lookup::Known(known),
            None => self.load(key, token, budget).await,
        }
    }

    /// The same read afresh from the operator (a load under way is fresh
    /// enough), for a visitor who asks for their balances themselves.
    pub async fn subscriber_afresh(&self, key: &SessionKey, token: &str, budget: Duration) -> Lookup {
        self.load(key, token, budget).await
    }

    async fn load(&self, key: &SessionKey, token: &str, budget: Duration) -> Lookup {
        let inner = self.inner.clone();
        let (task_key, token) = (key.clone(), token.to_owned());
        let load = self.inner.loads.run(key.clone(), move || async move {
            let forgets = inner.forgets.load(Ordering::Acquire);
            let known = Arc::new(load(&inner.operator, &token).await?);
            if inner.forgets.load(Ordering::Acquire) == forgets {
                inner.keep(task_key, &known);
            }
            Ok(known)
        });
        match tokio::time::timeout(budget, load).await {
            Ok(Ok(known)) => Lookup::Known(known),
            // Not sent (circuit open, bulkhead full): counted in `/metrics`, not logged per page.
            Ok(Err(OperatorError::NotCalled(_))) => Lookup::Unknown,
            Ok(Err(error)) if error.unanswered() => {
                tracing::warn!(%error, "operator unavailable; the subscriber shown as the session knows them");
                Lookup::Unknown
            }
            Ok(Err(error)) => Lookup::Refused(error),
            Err(_) => {
                tracing::warn!(
                    budget_ms = budget.as_millis() as u64,
                    "the operator did not answer within the budget; the subscriber shown as the session knows them"
                );
                Lookup::Unknown
            }
        }
    }

    /// The subscriber whose token is `token`, asked of the operator now
    /// however long it takes (signing in: there is no session yet).
    pub async fn fetch(&self, token: &str) -> Result<Known, OperatorError> {
        load(&self.inner.operator, token).await
    }

    /// Keeps `known` for the session `key` (just signed in), if it is whole.
    pub fn keep(&self, key: SessionKey, known: Known) -> Arc<Known> {
        let known = Arc::new(known);
        self.inner.keep(key, &known);
        known
    }

    /// Drops what is kept for the session `key`: the next request asks the operator.
    pub fn forget(&self, key: &SessionKey) {
        self.inner.forgets.fetch_add(1, Ordering::AcqRel);
        self.inner.loads.forget(key);
        self.inner.subscribers.invalidate(key);
    }
}

/// Customer details and balances, the four calls at once (the operator's
/// authentication user). Details failing fail the whole; balances failing
/// (but for a 401) leave them out; the M-Pesa wallet failing leaves it out
/// alone.
async fn load(operator: &OperatorClient, token: &str) -> Result<Known, OperatorError> {
    let (details, airtime, bundles, mpesa) = tokio::join!(
        operator.customer_details(token),
        operator.airtime_balance(token),
        operator.bundle_balance(token),
        operator.mpesa_balance(token),
    );
    let details = details?;
    let no_mpesa = match &mpesa {
        Err(OperatorError::Unauthorized) => return Err(OperatorError::Unauthorized),
        Err(OperatorError::Refused { status: 404, .. }) => true,
        Ok(_) => false,
        Err(error) => {
            tracing::warn!(%error, "M-Pesa balance unavailable");
            false
        }
    };
    let balances = match (airtime, bundles) {
        (Ok(airtime), Ok(bundles)) => Some(Balances { airtime, bundles, mpesa: mpesa.ok() }),
        (Err(OperatorError::Unauthorized), _) | (_, Err(OperatorError::Unauthorized)) => {
            return Err(OperatorError::Unauthorized);
        }
        (Err(error), _) | (_, Err(error)) => {
            tracing::warn!(%error, "balances unavailable");
            None
        }
    };
    Ok(Known { details, balances, no_mpesa })
}
