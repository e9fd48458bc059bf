//! Which item ids are worth asking the CMS for. With a collection's index in
//! memory (both languages: Strapi 5 gives each language's version its own
//! id, and an address may carry the other one's), an id it holds is asked
//! for, and one it does not is not there: answered 404 from memory. Only an
//! id that may be newer than the index (above the newest it holds, or the
//! index read longer ago than a bound, as while the CMS fails) is asked for,
//! at most [`ASKS_PER_SECOND`] a second per collection; an id the CMS then
//! did not have is remembered as missing for a while. Until the index was
//! read once every id is asked for, as without one.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::time::Duration;

use contract::Lang;
use contract::content::Collection;
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};

use super::Content;

/// Ids above the newest known asked of the CMS per second and collection.
pub const ASKS_PER_SECOND: u32 = 4;

/// What to do with an item id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Ask the content cache (and so perhaps the CMS).
    Ask,
    /// No such item: answer 404 without asking.
    Missing,
}

pub struct ItemGate {
    asks: HashMap<Collection, DefaultDirectRateLimiter>,
    /// Ids the CMS answered it did not have.
    missing: moka::sync::Cache<(Collection, u32), ()>,
    /// An index read longer ago than this may lack any id.
    bound: Duration,
}

impl ItemGate {
    /// Missing ids are remembered for `remember`; an index older than
    /// `bound` is not trusted to hold every id.
    pub fn new(remember: Duration, bound: Duration) -> ItemGate {
        let quota = Quota::per_second(NonZeroU32::new(ASKS_PER_SECOND).expect("not zero"));
        ItemGate {
            asks: Collection::ALL.into_iter().map(|collection| (collection, RateLimiter::direct(quota))).collect(),
            missing: moka::sync::Cache::builder().max_capacity(100_000).time_to_live(remember.max(Duration::from_secs(1))).build(),
            bound,
        }
    }

    pub fn verdict(&self, content: &Content, collection: Collection, id: u32) -> Verdict {
        let indexes: Vec<_> = Lang::ALL.into_iter().filter_map(|lang| content.index_now(collection, lang)).collect();
        if indexes.len() < Lang::ALL.len() {
            return Verdict::Ask;
        }
        if indexes.iter().any(|loaded| loaded.index().contains(id)) {
            return Verdict::Ask;
        }
        if self.missing.contains_key(&(collection, id)) {
            return Verdict::Missing;
        }
        let newer = indexes.iter().all(|loaded| id > loaded.index().newest_id());
        let old = indexes.iter().any(|loaded| loaded.age > self.bound);
        if (newer || old) && self.asks[&collection].check().is_ok() {
            return Verdict::Ask;
        }
        metrics::counter!("content_items_unknown_total", "model" => collection.api_name()).increment(1);
        Verdict::Missing
    }

    /// The CMS did not have `id`: not asked again for a while.
    pub fn missed(&self, collection: Collection, id: u32) {
        self.missing.insert((collection, id), ());
    }
}
