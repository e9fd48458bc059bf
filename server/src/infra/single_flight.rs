//! Loads that run once per key however many requests wait for them. Each
//! runs as its own task, so a waiter that gives up (a time budget spent, a
//! visitor gone) cancels it neither for the others nor for the cache it
//! fills: the content cache and the subscriber cache both build on this.
//! Its table is locked as every lock of the server is ([`crate::infra::locks`]).

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use futures::FutureExt;
use futures::future::{BoxFuture, Shared};

use crate::infra::locks;

/// A load under way, which any number of waiters may await.
pub type Flight<V, E> = Shared<BoxFuture<'static, Result<V, E>>>;

/// The loads under way, by key, each with the id that tells it from a later
/// load of the same key.
type Table<K, V, E> = Arc<Mutex<HashMap<K, (u64, Flight<V, E>)>>>;

pub struct SingleFlight<K, V, E> {
    in_flight: Table<K, V, E>,
    ids: AtomicU64,
}

impl<K, V, E> Default for SingleFlight<K, V, E> {
    fn default() -> Self {
        SingleFlight { in_flight: Arc::default(), ids: AtomicU64::new(0) }
    }
}

impl<K, V, E> SingleFlight<K, V, E>
where
    K: Eq + Hash + Clone + Send + 'static,
    V: Clone + Send + Sync + 'static,
    E: Clone + Send + Sync + From<tokio::task::JoinError> + 'static,
{
    /// The load under way for `key`, or `load()` started as a task if none is.
    pub fn run<F>(&self, key: K, load: impl FnOnce() -> F) -> Flight<V, E>
    where
        F: Future<Output = Result<V, E>> + Send + 'static,
    {
        let mut in_flight = locks::lock(&self.in_flight);
        if let Some((_, flight)) = in_flight.get(&key) {
            return flight.clone();
        }
        let id = self.ids.fetch_add(1, Ordering::Relaxed);
        let (table, task_key) = (self.in_flight.clone(), key.clone());
        let load = load();
        let task = tokio::spawn(async move {
            // Made once the task runs: a runtime shutting down drops a task
            // it is given at once, here, where this lock is held.
            let _leave = Leave { table, key: task_key, id };
            load.await
        });
        let flight = async move { task.await.unwrap_or_else(|error| Err(E::from(error))) }.boxed().shared();
        in_flight.insert(key, (id, flight.clone()));
        flight
    }

    /// The load under way for `key`, if any.
    pub fn current(&self, key: &K) -> Option<Flight<V, E>> {
        locks::lock(&self.in_flight).get(key).map(|(_, flight)| flight.clone())
    }

    /// The keys of the loads under way.
    pub fn keys(&self) -> Vec<K> {
        locks::lock(&self.in_flight).keys().cloned().collect()
    }

    /// The next `run` for `key` starts a new load, whatever is under way
    /// (which goes on for those already waiting on it).
    pub fn forget(&self, key: &K) {
        let forgotten = locks::lock(&self.in_flight).remove(key);
        // Dropped outside the lock: dropping a load may end its task, whose
        // `Leave` takes the lock.
        drop(forgotten);
    }
}

/// Takes a finished load out of the table, however its task ended; only its
/// own entry: after `forget` a newer load may hold the key.
struct Leave<K: Eq + Hash, V, E> {
    table: Table<K, V, E>,
    key: K,
    id: u64,
}

impl<K: Eq + Hash, V, E> Drop for Leave<K, V, E> {
    fn drop(&mut self) {
        let mut table = locks::lock(&self.table);
        let own = table.get(&self.key).is_some_and(|(id, _)| *id == self.id);
        let removed = if own { table.remove(&self.key) } else { None };
        drop(table);
        // Dropped outside the lock: while the runtime shuts down, dropping
        // a load cancels its task there and then, whose `Leave` takes the lock.
        drop(removed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    #[derive(Debug, Clone, PartialEq)]
    struct Failed;

    impl From<tokio::task::JoinError> for Failed {
        fn from(_: tokio::task::JoinError) -> Failed {
            Failed
        }
    }

    fn counted(calls: &Arc<AtomicUsize>, value: u32) -> impl Future<Output = Result<u32, Failed>> + use<> {
        let calls = calls.clone();
        async move {
            calls.fetch_add(1, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(50)).await;
            Ok(value)
        }
    }

    #[tokio::test]
    async fn waiters_share_one_load_and_a_later_run_starts_another() {
        let flights = SingleFlight::<&str, u32, Failed>::default();
        let calls = Arc::new(AtomicUsize::new(0));
        let waiters: Vec<_> = (0..10).map(|_| flights.run("k", || counted(&calls, 1))).collect();
        assert!(futures::future::join_all(waiters).await.iter().all(|r| *r == Ok(1)));
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        assert_eq!(flights.run("k", || counted(&calls, 2)).await, Ok(2));
        assert_eq!(calls.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_waiter_that_gives_up_does_not_cancel_the_load() {
        let flights = SingleFlight::<&str, u32, Failed>::default();
        let calls = Arc::new(AtomicUsize::new(0));
        let done = Arc::new(AtomicUsize::new(0));
        let finished = done.clone();
        let load = flights.run("k", || async move {
            tokio::time::sleep(Duration::from_millis(50)).await;
            finished.fetch_add(1, Ordering::SeqCst);
            Ok(1)
        });
        assert!(tokio::time::timeout(Duration::from_millis(5), load).await.is_err(), "gave up");
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert_eq!(done.load(Ordering::SeqCst), 1, "the load went on");
        assert_eq!(flights.run("k", || counted(&calls, 2)).await, Ok(2), "and left the table when done");
    }

    #[tokio::test]
    async fn after_forget_a_new_load_starts_and_the_old_one_does_not_remove_it() {
        let flights = SingleFlight::<&str, u32, Failed>::default();
        let calls = Arc::new(AtomicUsize::new(0));
        let old = flights.run("k", || counted(&calls, 1));
        flights.forget(&"k");
        let new = flights.run("k", || async {
            tokio::time::sleep(Duration::from_millis(150)).await;
            Ok(2)
        });
        assert_eq!(old.await, Ok(1));
        assert_eq!(flights.run("k", || counted(&calls, 3)).await, Ok(2), "joined the newer load, still under way");
        assert_eq!(new.await, Ok(2));
    }

    /// A runtime shutting down cancels the loads under way, and drops at
    /// once a task spawned then (here with the table locked): neither may
    /// wait for the lock.
    #[test]
    fn a_load_started_while_the_runtime_shuts_down_does_not_hang_it() {
        let (done, ended) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
            let flights = Arc::new(SingleFlight::<u32, u32, Failed>::default());
            let asleep = |key| async move {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                Ok(key)
            };
            runtime.block_on(async { drop(flights.run(0, || asleep(0))) });
            // A task that starts a load as it is dropped by the shutdown.
            struct StartsOnDrop(Arc<SingleFlight<u32, u32, Failed>>);
            impl Drop for StartsOnDrop {
                fn drop(&mut self) {
                    drop(self.0.run(1, || async { Ok(1) }));
                }
            }
            let starter = StartsOnDrop(flights.clone());
            runtime.spawn(async move {
                let _starter = starter;
                std::future::pending::<()>().await
            });
            drop(runtime);
            done.send(()).unwrap();
        });
        ended.recv_timeout(Duration::from_secs(20)).expect("the runtime shut down");
    }
}
