//! Admission: what one client address (or session) runs at once, and how
//! many more of its own wait their turn; `pages` admits its renders so.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::locks;

/// What one client address (or another holder `K`: a session) may run at
/// once, each at most `running`, with up to [`WAITING_PER_RUNNING`] times as
/// many more waiting their turn behind them (a crawler fetching a few pages
/// in parallel, or the visitors behind one carrier address, are served one
/// after another, not refused). Past that, [`Admission::take`] refuses at
/// once; a wait is bounded by the caller.
pub struct Admission<K = IpAddr> {
    holders: Holders<K>,
    running: usize,
}

type Holders<K> = Arc<Mutex<HashMap<K, (Arc<Semaphore>, usize)>>>;

impl<K> Clone for Admission<K> {
    fn clone(&self) -> Admission<K> {
        Admission { holders: self.holders.clone(), running: self.running }
    }
}

/// How many requests of one address may wait, per one it may run.
pub const WAITING_PER_RUNNING: usize = 4;

/// Why [`Admission::take`] admitted nothing.
#[derive(Debug, PartialEq, Eq)]
pub enum NotAdmitted {
    /// The address already runs and queues all it may.
    Busy,
    /// Its turn did not come within the wait.
    Waited(Duration),
}

impl<K: std::hash::Hash + Eq + Clone> Admission<K> {
    pub fn new(running: usize) -> Admission<K> {
        Admission { holders: Arc::default(), running: running.max(1) }
    }

    /// Admits one more of `address`'s, waiting at most `wait` for one of its
    /// own to end.
    pub async fn take(&self, address: K, wait: Duration) -> Result<Admitted<K>, NotAdmitted> {
        let semaphore = {
            let mut map = locks::lock(&self.holders);
            let (semaphore, holders) =
                map.entry(address.clone()).or_insert_with(|| (Arc::new(Semaphore::new(self.running)), 0));
            if *holders >= self.running * (1 + WAITING_PER_RUNNING) {
                return Err(NotAdmitted::Busy);
            }
            *holders += 1;
            semaphore.clone()
        };
        // Counted from here, so a request that gives up (or whose client
        // left) is uncounted when this is dropped.
        let held = Held { holders: self.holders.clone(), address };
        match tokio::time::timeout(wait, semaphore.acquire_owned()).await {
            Ok(Ok(permit)) => Ok(Admitted { _permit: permit, _held: held }),
            // The semaphore is never closed.
            Ok(Err(_)) | Err(_) => Err(NotAdmitted::Waited(wait)),
        }
    }
}

/// One of an address's admitted to run, given back when dropped.
pub struct Admitted<K: std::hash::Hash + Eq = IpAddr> {
    _permit: tokio::sync::OwnedSemaphorePermit,
    _held: Held<K>,
}

struct Held<K: std::hash::Hash + Eq> {
    holders: Holders<K>,
    address: K,
}

impl<K: std::hash::Hash + Eq> Drop for Held<K> {
    fn drop(&mut self) {
        let mut map = locks::lock(&self.holders);
        if let Some((_, holders)) = map.get_mut(&self.address) {
            *holders -= 1;
            if *holders == 0 {
                map.remove(&self.address);
            }
        }
    }
}
