//! The render pool: engines on their own OS threads, a bounded job queue
//! whose jobs wait a bounded time, and a watchdog per engine that terminates
//! a render past its budget.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::sync::oneshot;

use crate::engine::{Engine, TerminateHandle};
use crate::error::RenderError;

#[derive(Debug, Clone)]
pub struct RendererConfig {
    /// Engines (and OS threads) in the pool.
    pub workers: usize,
    /// Wall-clock budget of one render; past it the render is terminated.
    pub budget: Duration,
    /// Renders waiting for an engine beyond which new ones are refused.
    pub queue: usize,
    /// Longest a render waits for an engine; past it the caller gets
    /// [`RenderError::QueueTimeout`] and no engine spends time on it.
    pub queue_wait: Duration,
    /// Heap limit of one engine in bytes.
    pub heap_limit: usize,
}

impl Default for RendererConfig {
    fn default() -> Self {
        RendererConfig {
            workers: thread::available_parallelism().map_or(2, |n| n.get()),
            budget: Duration::from_secs(2),
            queue: 256,
            queue_wait: Duration::from_secs(2),
            heap_limit: 512 << 20,
        }
    }
}

struct Job {
    /// The request as JSON, serialised by the caller off the engine thread.
    request: String,
    reply: oneshot::Sender<Result<serde_json::Value, RenderError>>,
    /// Set by whichever comes first: an engine taking the job, or the caller
    /// giving up waiting for one.
    claimed: Arc<AtomicBool>,
}

impl Job {
    /// Whether this side got the job (the other side then leaves it alone).
    fn claim(claimed: &AtomicBool) -> bool {
        !claimed.swap(true, Ordering::AcqRel)
    }
}

/// A pool of JS engines rendering the app's server bundle. Cheap to clone.
#[derive(Clone)]
pub struct Renderer {
    jobs: flume::Sender<Job>,
    queue_wait: Duration,
    /// Renders asked for and not yet answered.
    in_flight: Arc<AtomicUsize>,
}

/// Counts a render in flight until dropped.
struct InFlight(Arc<AtomicUsize>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Renderer {
    /// Starts the engines and waits until each has evaluated the bundle, so a
    /// bundle that fails to load is an error here rather than on first render.
    pub fn start(bundle: Arc<str>, config: RendererConfig) -> Result<Renderer, RenderError> {
        let (jobs, queue) = flume::bounded::<Job>(config.queue);
        for index in 0..config.workers.max(1) {
            let (ready_tx, ready_rx) = std::sync::mpsc::channel();
            let worker = Worker { bundle: bundle.clone(), config: config.clone(), queue: queue.clone() };
            thread::Builder::new()
                .name(format!("ssr-{index}"))
                .spawn(move || worker.run(ready_tx))
                .map_err(|e| RenderError::Startup(e.to_string()))?;
            ready_rx.recv().map_err(|_| RenderError::Unavailable)??;
        }
        Ok(Renderer { jobs, queue_wait: config.queue_wait, in_flight: Arc::default() })
    }

    /// Renders asked for and not yet answered (queued or running): 0 when
    /// every engine is idle, for work that should only use idle engines.
    pub fn in_flight(&self) -> usize {
        self.in_flight.load(Ordering::Acquire)
    }

    /// Renders waiting for an engine (and any given up on that an engine
    /// has not passed over yet).
    pub fn queued(&self) -> usize {
        self.jobs.len()
    }

    /// How long a render waits for a free engine before it is refused.
    pub fn queue_wait(&self) -> Duration {
        self.queue_wait
    }

    /// Renders `request` on the first free engine and reads what the bundle
    /// returned as `Out`; waits without blocking the caller's thread, for an
    /// engine at most `queue_wait`, then for the render at most its budget.
    pub async fn render<Req: Serialize, Out: DeserializeOwned>(&self, request: &Req) -> Result<Out, RenderError> {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        let _counted = InFlight(self.in_flight.clone());
        let request = serde_json::to_string(request).map_err(|e| RenderError::Contract(e.to_string()))?;
        let (reply, mut answer) = oneshot::channel();
        let claimed = Arc::new(AtomicBool::new(false));
        self.jobs.try_send(Job { request, reply, claimed: claimed.clone() }).map_err(|e| match e {
            flume::TrySendError::Full(_) => RenderError::Overloaded,
            flume::TrySendError::Disconnected(_) => RenderError::Unavailable,
        })?;
        let answer = match tokio::time::timeout(self.queue_wait, &mut answer).await {
            Ok(answer) => answer,
            Err(_) if Job::claim(&claimed) => return Err(RenderError::QueueTimeout(self.queue_wait)),
            // An engine took it just now: its budget bounds the rest.
            Err(_) => answer.await,
        };
        let output = answer.map_err(|_| RenderError::Unavailable)??;
        serde_json::from_value(output).map_err(|e| RenderError::Contract(e.to_string()))
    }
}

struct Worker {
    bundle: Arc<str>,
    config: RendererConfig,
    queue: flume::Receiver<Job>,
}

impl Worker {
    fn run(self, ready: std::sync::mpsc::Sender<Result<(), RenderError>>) {
        crate::priority::yield_to_requests();
        let mut engine = match Engine::new(&self.bundle, self.config.heap_limit) {
            Ok(engine) => engine,
            Err(error) => {
                let _ = ready.send(Err(error));
                return;
            }
        };
        let watchdog = Watchdog::start(engine.terminate_handle());
        let _ = ready.send(Ok(()));
        // Ends when every `Renderer` clone is dropped.
        while let Ok(job) = self.queue.recv() {
            if job.reply.is_closed() || !Job::claim(&job.claimed) {
                continue; // the visitor went away, or gave up, while queued
            }
            let started = Instant::now();
            watchdog.arm(started + self.config.budget);
            let result = engine.render(&job.request);
            let fired = watchdog.disarm();
            let result = if fired {
                tracing::warn!(budget = ?self.config.budget, "render terminated");
                engine = self.replace(engine, &watchdog);
                Err(RenderError::Timeout(self.config.budget))
            } else {
                if result.is_err() {
                    // A JS exception leaves the engine usable; an out-of-memory
                    // termination does not, so clear any pending termination.
                    engine.clear_termination();
                }
                result
            };
            tracing::debug!(elapsed = ?started.elapsed(), ok = result.is_ok(), "render");
            let _ = job.reply.send(result);
        }
        watchdog.stop();
    }

    /// A terminated engine may hold half-built state: start a fresh one.
    fn replace(&self, old: Engine, watchdog: &Watchdog) -> Engine {
        drop(old);
        loop {
            match Engine::new(&self.bundle, self.config.heap_limit) {
                Ok(mut engine) => {
                    watchdog.set_handle(engine.terminate_handle());
                    return engine;
                }
                Err(error) => {
                    tracing::error!(%error, "could not restart render engine; retrying");
                    thread::sleep(Duration::from_secs(1));
                }
            }
        }
    }
}

/// Terminates the engine's current render once its deadline passes.
struct Watchdog {
    shared: Arc<(Mutex<WatchState>, Condvar)>,
}

struct WatchState {
    handle: TerminateHandle,
    deadline: Option<Instant>,
    fired: bool,
    stopped: bool,
}

impl Watchdog {
    fn start(handle: TerminateHandle) -> Watchdog {
        let shared =
            Arc::new((Mutex::new(WatchState { handle, deadline: None, fired: false, stopped: false }), Condvar::new()));
        let watched = shared.clone();
        thread::Builder::new()
            .name("ssr-watchdog".into())
            .spawn(move || Watchdog::watch(&watched))
            .expect("spawn watchdog thread");
        Watchdog { shared }
    }

    fn watch(shared: &(Mutex<WatchState>, Condvar)) {
        let (lock, wake) = shared;
        let mut state = watched(lock);
        while !state.stopped {
            match state.deadline {
                None => state = wake.wait(state).unwrap_or_else(PoisonError::into_inner),
                Some(deadline) => {
                    let now = Instant::now();
                    if now >= deadline {
                        state.handle.terminate();
                        state.fired = true;
                        state.deadline = None;
                    } else {
                        state = wake.wait_timeout(state, deadline - now).unwrap_or_else(PoisonError::into_inner).0;
                    }
                }
            }
        }
    }

    fn arm(&self, deadline: Instant) {
        let (lock, wake) = &*self.shared;
        let mut state = watched(lock);
        state.deadline = Some(deadline);
        state.fired = false;
        wake.notify_one();
    }

    /// Stops watching; tells whether the render was terminated.
    fn disarm(&self) -> bool {
        let (lock, _) = &*self.shared;
        let mut state = watched(lock);
        state.deadline = None;
        state.fired
    }

    fn set_handle(&self, handle: TerminateHandle) {
        watched(&self.shared.0).handle = handle;
    }

    fn stop(&self) {
        let (lock, wake) = &*self.shared;
        watched(lock).stopped = true;
        wake.notify_one();
    }
}

/// The watchdog's state, taken whether or not a holder panicked: it is a
/// deadline and three flags, each written whole, so a panic cannot leave
/// it half-changed, and refusing it would stop every later render's watch.
fn watched(lock: &Mutex<WatchState>) -> MutexGuard<'_, WatchState> {
    lock.lock().unwrap_or_else(PoisonError::into_inner)
}
