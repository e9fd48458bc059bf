//! Admission: what one client address (or session) runs at once, and how
//! many more of its own wait their turn; `pages` admits its renders so.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::infra::locks;

/// What one client address (or another holder `K`: a session) may run at
/// once, each at most `running`, with up to `waiting` more of its own
/// waiting their turn behind them in the order they came (a crawler
/// fetching pages in parallel, or the visitors behind one carrier address,
/// are served one after another, not refused). Past that,
/// [`Admission::take`] refuses at once.
///
/// Each holder's cap is what keeps holders fair to each other: a holder's
/// waiting requests are let through only as its own running ones end, so
/// however many it sends it never has more than `running` at the engines
/// while another holder's wait there too.
pub struct Admission<K = IpAddr> {
    holders: Holders<K>,
    running: usize,
    waiting: usize,
}

type Holders<K> = Arc<Mutex<HashMap<K, (Arc<Semaphore>, usize)>>>;

impl<K> Clone for Admission<K> {
    fn clone(&self) -> Admission<K> {
        Admission { holders: self.holders.clone(), running: self.running, waiting: self.waiting }
    }
}

/// Why [`Admission::take`] admitted nothing.
#[derive(Debug, PartialEq, Eq)]
pub enum NotAdmitted {
    /// The address already runs and queues all it may.
    Busy,
    /// Its turn did not come within the wait.
    Waited(Duration),
}

impl<K: std::hash::Hash + Eq + Clone> Admission<K> {
    pub fn new(running: usize, waiting: usize) -> Admission<K> {
        Admission { holders: Arc::default(), running: running.max(1), waiting }
    }

    /// Admits one more of `address`'s once those ahead of it let it through,
    /// waiting at most `per_turn` for each round of them (see [`longest_wait`]).
    pub async fn take(&self, address: K, per_turn: Duration) -> Result<Admitted<K>, NotAdmitted> {
        let (semaphore, ahead) = {
            let mut map = locks::lock(&self.holders);
            let (semaphore, holders) =
                map.entry(address.clone()).or_insert_with(|| (Arc::new(Semaphore::new(self.running)), 0));
            if *holders >= self.running + self.waiting {
                return Err(NotAdmitted::Busy);
            }
            let ahead = *holders;
            *holders += 1;
            (semaphore.clone(), ahead)
        };
        // Counted from here, so a request that gives up (or whose client
        // left) is uncounted when this is dropped.
        let held = Held { holders: self.holders.clone(), address };
        let wait = longest_wait(ahead, self.running, per_turn);
        // Tokio's semaphore is fair: its permits go to the waiting in the
        // order they asked, so an address's requests run in the order they came.
        match tokio::time::timeout(wait, semaphore.acquire_owned()).await {
            Ok(Ok(permit)) => Ok(Admitted { _permit: permit, _held: held }),
            // The semaphore is never closed.
            Ok(Err(_)) | Err(_) => Err(NotAdmitted::Waited(wait)),
        }
    }

    /// Whether [`take`](Self::take) would refuse one more of `address`'s now.
    pub fn full(&self, address: &K) -> bool {
        locks::lock(&self.holders).get(address).is_some_and(|(_, holders)| *holders >= self.running + self.waiting)
    }

    /// Requests waiting their turn behind their own holder's, of every holder.
    pub fn waiting(&self) -> usize {
        locks::lock(&self.holders).values().map(|(_, holders)| holders.saturating_sub(self.running)).sum()
    }
}

/// How long a request with `ahead` of its own holder's before it (running
/// or waiting) may wait for its turn: `per_turn` (as long as one of theirs
/// may take) for each round of `running` of them that must end first. So a
/// crawler's requests queued deep behind each other are each given the time
/// those ahead may take, rather than one wait that the last of them would
/// outlast while nothing is wrong (a page answered late beats a 503).
pub fn longest_wait(ahead: usize, running: usize, per_turn: Duration) -> Duration {
    let rounds = (ahead / running.max(1)).max(1);
    per_turn.saturating_mul(u32::try_from(rounds).unwrap_or(u32::MAX))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Long enough that no test here sees it pass while a request waits.
    const LONG: Duration = Duration::from_secs(60);

    /// Lets the tasks spawned so far run until they wait.
    async fn settle() {
        for _ in 0..20 {
            tokio::task::yield_now().await;
        }
    }

    /// An address's requests past what it runs wait, and are let through
    /// in the order they came as those ahead end.
    #[tokio::test(flavor = "current_thread")]
    async fn waiting_requests_run_in_the_order_they_came() {
        let admission = Admission::<u8>::new(1, 8);
        let first = admission.take(1, LONG).await.unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut waiting = Vec::new();
        for n in 0..8 {
            let (admission, order) = (admission.clone(), order.clone());
            waiting.push(tokio::spawn(async move {
                let admitted = admission.take(1, LONG).await.unwrap();
                order.lock().unwrap().push(n);
                settle().await;
                drop(admitted);
            }));
            // Each asks before the next.
            settle().await;
        }
        assert_eq!(admission.waiting(), 8);
        assert!(order.lock().unwrap().is_empty(), "none ran beside the first");
        drop(first);
        for task in waiting {
            task.await.unwrap();
        }
        assert_eq!(*order.lock().unwrap(), (0..8).collect::<Vec<_>>());
        assert_eq!(admission.waiting(), 0);
        assert!(locks::lock(&admission.holders).is_empty(), "an address with nothing under way is forgotten");
    }

    /// Past what it runs and what may wait, an address is refused at once;
    /// another address is admitted meanwhile, and a freed place takes one more.
    #[tokio::test(flavor = "current_thread")]
    async fn past_its_queue_an_address_is_refused_and_others_are_not() {
        let admission = Admission::<u8>::new(2, 3);
        let running = [admission.take(1, LONG).await.unwrap(), admission.take(1, LONG).await.unwrap()];
        let queued: Vec<_> = (0..3)
            .map(|_| {
                let admission = admission.clone();
                tokio::spawn(async move { admission.take(1, LONG).await.map(drop) })
            })
            .collect();
        settle().await;
        assert!(admission.full(&1));
        assert_eq!(admission.take(1, LONG).await.err(), Some(NotAdmitted::Busy));
        assert!(!admission.full(&2));
        let other = admission.take(2, LONG).await;
        assert!(other.is_ok(), "another address is not held up by the first one's queue");
        drop(running);
        for task in queued {
            task.await.unwrap().unwrap();
        }
        assert!(!admission.full(&1));
        assert!(admission.take(1, LONG).await.is_ok());
    }

    /// A request that gives up (or whose client leaves) while waiting gives
    /// its place back.
    #[tokio::test(flavor = "current_thread")]
    async fn a_request_that_gives_up_frees_its_place() {
        let admission = Admission::<u8>::new(1, 1);
        let _running = admission.take(1, LONG).await.unwrap();
        let waited = admission.take(1, Duration::from_millis(20)).await;
        assert_eq!(waited.err(), Some(NotAdmitted::Waited(Duration::from_millis(20))));
        assert_eq!(admission.waiting(), 0);
        let left = {
            let admission = admission.clone();
            tokio::spawn(async move { admission.take(1, LONG).await.map(drop) })
        };
        settle().await;
        assert!(admission.full(&1));
        left.abort();
        let _ = left.await;
        assert!(!admission.full(&1), "a request dropped while it waited is uncounted");
    }

    /// The wait grows with the rounds ahead: one round for anything within
    /// the first, then one per `running` ahead.
    #[test]
    fn the_wait_is_one_turn_per_round_ahead() {
        let turn = Duration::from_secs(4);
        assert_eq!(longest_wait(0, 1, turn), turn);
        assert_eq!(longest_wait(1, 1, turn), turn);
        assert_eq!(longest_wait(7, 1, turn), turn * 7);
        assert_eq!(longest_wait(3, 2, turn), turn);
        assert_eq!(longest_wait(4, 2, turn), turn * 2);
        assert_eq!(longest_wait(16, 0, turn), turn * 16);
    }
}
