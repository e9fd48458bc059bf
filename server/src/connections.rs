//! Accepting connections, so that slow or greedy clients cannot hold the
//! server: axum's own serve loop (see `axum::serve`), plus
//!
//! - a time limit on reading a request's headers (a client sending a byte
//!   every ten seconds is closed), and on its body (a layer in `app`);
//! - a cap on open connections, in all and per client address: past it a
//!   new connection is closed at once, and counted in a warning a second;
//! - the process's open-file limit raised to its hard limit at start, so
//!   the cap, not the operating system, decides.
//!
//! On shutdown the listener stops, and open connections finish what they
//! are doing and close.
//!
//! A client is its peer address ([`client_address`]): no proxy header is
//! trusted. [`PerAddress`] caps the connections one address holds, and
//! [`Shares`] the renders it runs in `pages`.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::pin::pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Extensions;
use futures::FutureExt;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tower::ServiceExt;

/// The limits of [`serve`].
#[derive(Debug, Clone)]
pub struct ConnectionLimits {
    pub header_read: Duration,
    pub max: usize,
    pub per_address: usize,
}

/// Serves `router` on `listener` until `shutdown` completes, then lets open
/// connections finish.
pub async fn serve(listener: TcpListener, router: Router, limits: ConnectionLimits, shutdown: impl Future<Output = ()>) {
    raise_open_file_limit();
    let open = Arc::new(Semaphore::new(limits.max.max(1)));
    let per_address = PerAddress::new(limits.per_address);
    let (signal, closing) = watch::channel(());
    let refused = crate::error::Sampled::new();
    let mut shutdown = pin!(shutdown.fuse());
    loop {
        let (stream, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors, typically: wait, do not spin.
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Ok(permit) = open.clone().try_acquire_owned() else {
            if let Some(count) = refused.tick() {
                tracing::warn!(count, max = limits.max, "connections refused: the server holds as many as it may");
            }
            continue;
        };
        let Some(slot) = per_address.take(remote.ip()) else {
            if let Some(count) = refused.tick() {
                tracing::warn!(count, per_address = limits.per_address, "connections refused: one address holds as many as it may");
            }
            continue;
        };
        let service = router.clone().map_request(move |request: hyper::Request<Incoming>| {
            let mut request = request.map(Body::new);
            request.extensions_mut().insert(ConnectInfo(remote));
            request
        });
        let service = TowerToHyperService::new(service);
        let (signal, closing) = (signal.clone(), closing.clone());
        let header_read = limits.header_read;
        tokio::spawn(async move {
            let mut builder = Builder::new(TokioExecutor::new());
            builder.http1().timer(TokioTimer::new()).header_read_timeout(header_read);
            builder.http2().timer(TokioTimer::new()).keep_alive_interval(Some(Duration::from_secs(30)));
            let mut connection = pin!(builder.serve_connection_with_upgrades(TokioIo::new(stream), service));
            let mut stopping = pin!(signal.closed().fuse());
            loop {
                tokio::select! {
                    result = connection.as_mut() => {
                        if let Err(error) = result {
                            tracing::debug!(%error, "connection ended");
                        }
                        break;
                    }
                    () = &mut stopping => connection.as_mut().graceful_shutdown(),
                }
            }
            drop((permit, slot, closing));
        });
    }
    drop(listener);
    drop(closing);
    // Every connection task holds a receiver; they are gone when it closes.
    signal.closed().await;
}

/// The address a request came from, as [`serve`] recorded it; a request
/// served in-process (a test's `oneshot`) counts as the unspecified address.
pub fn client_address(extensions: &Extensions) -> IpAddr {
    extensions.get::<ConnectInfo<SocketAddr>>().map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |info| info.0.ip())
}

/// How many of something each client address holds, each at most `cap`.
#[derive(Clone)]
pub struct PerAddress {
    counts: Arc<Mutex<HashMap<IpAddr, usize>>>,
    cap: usize,
}

impl PerAddress {
    pub fn new(cap: usize) -> PerAddress {
        PerAddress { counts: Arc::default(), cap }
    }

    /// One more for `address`, unless it holds `cap` already.
    pub fn take(&self, address: IpAddr) -> Option<AddressSlot> {
        let mut map = self.counts.lock().expect("address counts");
        let count = map.entry(address).or_default();
        if *count >= self.cap {
            return None;
        }
        *count += 1;
        Some(AddressSlot { counts: self.counts.clone(), address })
    }
}

/// One of what a client address holds, given back when dropped.
pub struct AddressSlot {
    counts: Arc<Mutex<HashMap<IpAddr, usize>>>,
    address: IpAddr,
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut map = self.counts.lock().expect("address counts");
        if let Some(count) = map.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                map.remove(&self.address);
            }
        }
    }
}

/// What one client address may run at once, each at most `running`, with
/// up to [`WAITING_PER_SHARE`] times as many more waiting their turn behind
/// them (a crawler fetching a few pages in parallel, or the visitors behind
/// one carrier address, are served one after another, not refused). Past
/// that, [`Shares::take`] refuses at once; a wait is bounded by the caller.
#[derive(Clone)]
pub struct Shares {
    holders: Arc<Mutex<HashMap<IpAddr, (Arc<Semaphore>, usize)>>>,
    running: usize,
}

/// How many requests of one address may wait, per one it may run.
pub const WAITING_PER_SHARE: usize = 4;

/// Why [`Shares::take`] gave no share.
#[derive(Debug, PartialEq, Eq)]
pub enum NoShare {
    /// The address already runs and queues all it may.
    Busy,
    /// Its turn did not come within the wait.
    Waited(Duration),
}

impl Shares {
    pub fn new(running: usize) -> Shares {
        Shares { holders: Arc::default(), running: running.max(1) }
    }

    /// A share for `address`, waiting at most `wait` for one of its own to
    /// end.
    pub async fn take(&self, address: IpAddr, wait: Duration) -> Result<Share, NoShare> {
        let semaphore = {
            let mut map = self.holders.lock().expect("address shares");
            let (semaphore, holders) = map.entry(address).or_insert_with(|| (Arc::new(Semaphore::new(self.running)), 0));
            if *holders >= self.running * (1 + WAITING_PER_SHARE) {
                return Err(NoShare::Busy);
            }
            *holders += 1;
            semaphore.clone()
        };
        // Counted from here, so a request that gives up (or whose client
        // left) is uncounted when this is dropped.
        let held = Held { holders: self.holders.clone(), address };
        match tokio::time::timeout(wait, semaphore.acquire_owned()).await {
            Ok(Ok(permit)) => Ok(Share { _permit: permit, _held: held }),
            // The semaphore is never closed.
            Ok(Err(_)) | Err(_) => Err(NoShare::Waited(wait)),
        }
    }
}

/// A running share of an address, given back when dropped.
pub struct Share {
    _permit: tokio::sync::OwnedSemaphorePermit,
    _held: Held,
}

struct Held {
    holders: Arc<Mutex<HashMap<IpAddr, (Arc<Semaphore>, usize)>>>,
    address: IpAddr,
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut map = self.holders.lock().expect("address shares");
        if let Some((_, holders)) = map.get_mut(&self.address) {
            *holders -= 1;
            if *holders == 0 {
                map.remove(&self.address);
            }
        }
    }
}

/// The soft open-file limit (often 1,024) up to the hard one.
fn raise_open_file_limit() {
    #[cfg(unix)]
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => tracing::debug!(limit, "open-file limit"),
        Err(error) => tracing::warn!(%error, "could not raise the open-file limit"),
    }
}
