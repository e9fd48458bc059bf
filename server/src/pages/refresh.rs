//! The page cache's background renders: pages whose content changed,
//! rendered again while their earlier copy is served. A newsroom that keeps
//! publishing asks for far more of them than the engines can render at
//! once, so they wait here, bounded:
//!
//! - one per address: a later ask (for newer content) takes the place of
//!   the one waiting, so an address is rendered once for its newest content
//!   however often it changed meanwhile;
//! - the address asked for last is rendered first: it is the one visitors
//!   are reading now;
//! - at most [`QUEUE`] wait; past that the address asked for longest ago is
//!   dropped (its next visitor asks again);
//! - at most `running` render at once, each as a task of its own;
//! - each ask gets a [`Refreshed`] that says when its address has been
//!   rendered again (or dropped from the queue): the fast path serves the
//!   earlier copy until then.

use std::collections::{HashMap, HashSet, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Addresses that may wait for a background render.
const QUEUE: usize = 4096;

/// One background render, started when its turn comes.
pub type Job = Box<dyn FnOnce() -> Pin<Box<dyn Future<Output = ()> + Send>> + Send>;

/// Whether the background render an address was asked for has ended
/// (rendered, failed, or dropped from the queue): shared by every ask it
/// answers, a later ask taking the place of a waiting one included.
#[derive(Clone, Default)]
pub struct Refreshed(Arc<AtomicBool>);

impl Refreshed {
    pub fn done(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }

    fn end(&self) {
        self.0.store(true, Ordering::Release);
    }
}

#[derive(Clone)]
pub struct Refreshes {
    inner: Arc<Mutex<Waiting>>,
    running: usize,
}

#[derive(Default)]
struct Waiting {
    /// Addresses in the order they were last asked for.
    order: VecDeque<String>,
    jobs: HashMap<String, (Job, Refreshed)>,
    /// Addresses rendering now: a new ask for one waits for its turn.
    rendering: HashSet<String>,
    /// Tasks taking jobs off the queue.
    workers: usize,
}

impl Refreshes {
    /// At most `running` renders at once.
    pub fn new(running: usize) -> Refreshes {
        Refreshes { inner: Arc::default(), running: running.max(1) }
    }

    /// Queues `job` for `address`, in place of one waiting for it (whose
    /// [`Refreshed`] it takes over).
    pub fn push(&self, address: String, job: Job) -> Refreshed {
        let mut waiting = crate::infra::locks::lock(&self.inner);
        let refreshed = match waiting.jobs.remove(&address) {
            Some((_, refreshed)) => {
                waiting.order.retain(|queued| *queued != address);
                metrics::counter!("page_refreshes_total", "outcome" => "coalesced").increment(1);
                refreshed
            }
            None => Refreshed::default(),
        };
        waiting.jobs.insert(address.clone(), (job, refreshed.clone()));
        waiting.order.push_back(address);
        if waiting.order.len() > QUEUE
            && let Some(oldest) = waiting.order.pop_front()
            && let Some((_, dropped)) = waiting.jobs.remove(&oldest)
        {
            dropped.end();
            metrics::counter!("page_refreshes_total", "outcome" => "dropped").increment(1);
        }
        metrics::gauge!("page_refreshes_waiting").set(waiting.order.len() as f64);
        if waiting.workers < self.running {
            waiting.workers += 1;
            let queue = self.clone();
            tokio::spawn(async move { queue.work().await });
        }
        refreshed
    }

    /// Renders what waits, the address asked for last first, until nothing does.
    async fn work(self) {
        loop {
            let Some((address, (job, refreshed))) = self.next() else { return };
            job().await;
            refreshed.end();
            metrics::counter!("page_refreshes_total", "outcome" => "rendered").increment(1);
            crate::infra::locks::lock(&self.inner).rendering.remove(&address);
        }
    }

    /// The job of the address asked for last that is not rendering now, or
    /// `None` (and this worker stops) when there is none.
    fn next(&self) -> Option<(String, (Job, Refreshed))> {
        let mut waiting = crate::infra::locks::lock(&self.inner);
        let at = waiting.order.iter().rposition(|address| !waiting.rendering.contains(address));
        let Some(at) = at else {
            waiting.workers -= 1;
            return None;
        };
        let address = waiting.order.remove(at).expect("a position found above");
        let job = waiting.jobs.remove(&address).expect("every address waiting has its job");
        waiting.rendering.insert(address.clone());
        metrics::gauge!("page_refreshes_waiting").set(waiting.order.len() as f64);
        Some((address, job))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// A job that records its name when it renders, taking `ms`.
    fn job(done: &Arc<Mutex<Vec<String>>>, name: &str, ms: u64) -> Job {
        let (done, name) = (done.clone(), name.to_owned());
        Box::new(move || {
            Box::pin(async move {
                tokio::time::sleep(Duration::from_millis(ms)).await;
                done.lock().unwrap().push(name);
            })
        })
    }

    #[tokio::test]
    async fn newest_ask_first_each_address_once_for_its_newest_content() {
        let done = Arc::new(Mutex::new(Vec::new()));
        let refreshes = Refreshes::new(1);
        // The first starts at once; the rest wait behind it.
        refreshes.push("/a".into(), job(&done, "a v1", 50));
        tokio::task::yield_now().await;
        refreshes.push("/b".into(), job(&done, "b v1", 1));
        refreshes.push("/c".into(), job(&done, "c v1", 1));
        refreshes.push("/b".into(), job(&done, "b v2", 1));
        // Asked again while rendering: rendered again after, for the newer content.
        refreshes.push("/a".into(), job(&done, "a v2", 1));
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(*done.lock().unwrap(), ["a v1", "a v2", "b v2", "c v1"]);
    }

    /// Each ask learns when its address has been rendered again: an ask
    /// taken over by a later one too, when the later one's render ends.
    #[tokio::test]
    async fn an_ask_is_told_when_its_address_is_rendered_again() {
        let done = Arc::new(Mutex::new(Vec::new()));
        let refreshes = Refreshes::new(1);
        let a = refreshes.push("/a".into(), job(&done, "a", 50));
        tokio::task::yield_now().await;
        let b1 = refreshes.push("/b".into(), job(&done, "b v1", 1));
        let b2 = refreshes.push("/b".into(), job(&done, "b v2", 1));
        assert!(!a.done() && !b1.done() && !b2.done(), "nothing rendered yet");
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(*done.lock().unwrap(), ["a", "b v2"]);
        assert!(a.done() && b1.done() && b2.done());
    }

    #[tokio::test]
    async fn at_most_so_many_render_at_once() {
        let done = Arc::new(Mutex::new(Vec::new()));
        let refreshes = Refreshes::new(2);
        for n in 0..6 {
            refreshes.push(format!("/{n}"), job(&done, &n.to_string(), 30));
        }
        assert_eq!(crate::infra::locks::lock(&refreshes.inner).workers, 2);
        tokio::time::sleep(Duration::from_millis(60)).await;
        let halfway = done.lock().unwrap().len();
        assert!((2..=4).contains(&halfway), "{halfway} rendered in two turns of two");
        tokio::time::sleep(Duration::from_millis(150)).await;
        assert_eq!(done.lock().unwrap().len(), 6);
        assert_eq!(crate::infra::locks::lock(&refreshes.inner).workers, 0, "workers stop when nothing waits");
    }
}
