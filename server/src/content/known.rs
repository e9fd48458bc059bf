//! Which item ids are worth asking the CMS for. With a collection's index in
//! memory (both languages: Strapi 5 gives each language's version its own
//! id, and an address may carry the other one's), an id it holds is asked
//! for, and one it does not is not there: answered 404 from memory. An id
//! that may be newer than the index (above the newest it holds, or the
//! index read longer ago than a bound, as while the CMS fails) never
//! reaches the CMS itself: it makes the index be read again, at most once
//! every [`REREAD_EVERY`] per collection however many such ids are asked
//! (every asker waits for the one read), and is then looked up in it. So a
//! story published a moment ago is found within seconds, with or without
//! its webhook, and made-up ids cost the CMS one index read every few
//! seconds at most. Until the index was read once every id is asked for,
//! as without one.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use contract::Lang;
use contract::content::Collection;

use super::Content;

/// How often an id above the newest known may make a collection's index be
/// read again.
pub const REREAD_EVERY: Duration = Duration::from_secs(5);
/// How long a page waits for that read before answering from what is known.
const REREAD_WAIT: Duration = Duration::from_secs(3);

/// What to do with an item id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Ask the content cache (and so perhaps the CMS).
    Ask,
    /// No such item: answer 404 without asking.
    Missing,
}

/// What the indexes say of an id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Known {
    /// An index is not read yet: ask.
    Unread,
    Held,
    /// Not held, and older than anything they hold.
    Absent,
    /// Not held, but perhaps newer than they are.
    Perhaps,
}

pub struct ItemGate {
    /// Per collection: when its index was last read again for an id it may lack.
    rereads: HashMap<Collection, tokio::sync::Mutex<Option<Instant>>>,
    /// An index read longer ago than this may lack any id.
    bound: Duration,
}

impl ItemGate {
    /// An index older than `bound` is not trusted to hold every id.
    pub fn new(bound: Duration) -> ItemGate {
        ItemGate {
            rereads: Collection::ALL
                .into_iter()
                .map(|collection| (collection, tokio::sync::Mutex::new(None)))
                .collect(),
            bound,
        }
    }

    pub async fn verdict(&self, content: &Content, collection: Collection, id: u32) -> Verdict {
        let known = match self.known(content, collection, id) {
            Known::Perhaps => {
                self.reread(content, collection).await;
                self.known(content, collection, id)
            }
            known => known,
        };
        if matches!(known, Known::Unread | Known::Held) {
            return Verdict::Ask;
        }
        metrics::counter!("content_items_unknown_total", "model" => collection.api_name()).increment(1);
        Verdict::Missing
    }

    fn known(&self, content: &Content, collection: Collection, id: u32) -> Known {
        let indexes: Vec<_> = Lang::ALL.into_iter().filter_map(|lang| content.index_now(collection, lang)).collect();
        if indexes.len() < Lang::ALL.len() {
            return Known::Unread;
        }
        if indexes.iter().any(|loaded| loaded.index().contains(id)) {
            return Known::Held;
        }
        let newer = indexes.iter().all(|loaded| id > loaded.index().newest_id());
        let old = indexes.iter().any(|loaded| loaded.age > self.bound);
        if newer || old { Known::Perhaps } else { Known::Absent }
    }

    /// Reads `collection`'s index again in both languages, unless that was
    /// done less than [`REREAD_EVERY`] ago; waits for it at most
    /// [`REREAD_WAIT`] (it goes on in the background past that).
    async fn reread(&self, content: &Content, collection: Collection) {
        let mut last = self.rereads[&collection].lock().await;
        if last.is_some_and(|at| at.elapsed() < REREAD_EVERY) {
            return;
        }
        *last = Some(Instant::now());
        metrics::counter!("content_index_rereads_total", "model" => collection.api_name()).increment(1);
        let reads = futures::future::join_all(Lang::ALL.map(|lang| content.reread_index(collection, lang)));
        if tokio::time::timeout(REREAD_WAIT, reads).await.is_err() {
            tracing::warn!(
                model = collection.api_name(),
                "an index read again for a new id took too long; answered from what is known"
            );
        }
    }
}
