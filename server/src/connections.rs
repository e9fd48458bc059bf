//! Accepting connections, so that slow or greedy clients cannot hold the
//! server: axum's own serve loop (see `axum::serve`), plus
//!
//! - a time limit on reading a request's headers (a client sending a byte
//!   every ten seconds is closed), and on its body (`web::body_deadline`);
//! - a time limit on a write the client does not take (`SEND_TIMEOUT_SECS`):
//!   a client that sends requests and never reads the answers is closed;
//! - a cap on open connections, in all and per client address: past it a
//!   new connection is closed at once, and counted in a warning a second;
//! - the process's open-file limit raised to its hard limit at start, so
//!   the cap, not the operating system, decides.
//!
//! On shutdown the listener stops, and open connections finish what they
//! are doing and close.
//!
//! A client is its peer address ([`client_address`]), unless the peer is a
//! proxy named in `TRUSTED_PROXIES`: then it is the rightmost address of
//! `X-Forwarded-For` that is not such a proxy ([`resolve_client`]).
//! [`PerAddress`] caps the connections one peer holds, and [`Admission`] the
//! renders one client runs in `pages`.

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

use crate::locks;

/// The limits of [`serve`].
#[derive(Debug, Clone)]
pub struct ConnectionLimits {
    pub header_read: Duration,
    /// How long a write may wait for the client to read (a client that
    /// pipelines requests and never reads their answers is closed).
    pub send: Duration,
    pub max: usize,
    pub per_address: usize,
    /// Peers whose `X-Forwarded-For` names the client.
    pub trusted_proxies: Arc<[Cidr]>,
}

/// An address range: `10.0.0.0/8`, `::1/128`, or one address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    network: IpAddr,
    prefix: u8,
}

impl Cidr {
    pub fn parse(text: &str) -> Result<Cidr, String> {
        let text = text.trim();
        let (address, prefix) = match text.split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text, None),
        };
        let network: IpAddr = address.parse().map_err(|_| format!("not an address or CIDR: {text:?}"))?;
        let bits = if network.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(prefix) => prefix.parse::<u8>().ok().filter(|p| *p <= bits).ok_or_else(|| format!("bad prefix length in {text:?}"))?,
            None => bits,
        };
        Ok(Cidr { network, prefix })
    }

    pub fn contains(&self, address: IpAddr) -> bool {
        let address = match address {
            IpAddr::V6(v6) if self.network.is_ipv4() => v6.to_ipv4_mapped().map_or(address, IpAddr::V4),
            address => address,
        };
        match (self.network, address) {
            (IpAddr::V4(network), IpAddr::V4(address)) => {
                let mask = u32::MAX.checked_shl(32 - u32::from(self.prefix)).unwrap_or(0);
                u32::from(network) & mask == u32::from(address) & mask
            }
            (IpAddr::V6(network), IpAddr::V6(address)) => {
                let mask = u128::MAX.checked_shl(128 - u32::from(self.prefix)).unwrap_or(0);
                u128::from(network) & mask == u128::from(address) & mask
            }
            _ => false,
        }
    }
}

/// The client of a request [`serve`] decided on, kept in its extensions.
#[derive(Debug, Clone, Copy)]
struct Client(IpAddr);

/// Who sent a request that came from `peer`: `peer` itself, unless it is a
/// trusted proxy; then, walking `X-Forwarded-For` from the right (the hop
/// nearest to us, the only part a client cannot forge), the first address
/// that is not a trusted proxy. A header that cannot be read leaves the
/// proxy as the client, so a bad header never spreads one budget wider.
pub fn resolve_client(peer: IpAddr, headers: &axum::http::HeaderMap, trusted: &[Cidr]) -> IpAddr {
    let is_trusted = |address: IpAddr| trusted.iter().any(|cidr| cidr.contains(address));
    if !is_trusted(peer) {
        return peer;
    }
    let mut client = peer;
    let hops = headers.get_all("x-forwarded-for").iter().collect::<Vec<_>>();
    for value in hops.into_iter().rev() {
        let Ok(value) = value.to_str() else { return client };
        for hop in value.split(',').rev() {
            let Ok(address) = hop.trim().parse::<IpAddr>() else { return client };
            client = address;
            if !is_trusted(address) {
                return address;
            }
        }
    }
    client
}

/// Serves `router` on `listener` until `shutdown` completes, then lets open
/// connections finish.
pub async fn serve(listener: TcpListener, router: Router, limits: ConnectionLimits, shutdown: impl Future<Output = ()>) {
    raise_open_file_limit();
    let open = Arc::new(Semaphore::new(limits.max.max(1)));
    let per_address = PerAddress::new(limits.per_address);
    // `closing`: held by every connection task, so `signal.closed()` says
    // when the last has ended; `stop`: tells them to finish.
    let (signal, closing) = watch::channel(());
    let (stop, stopping) = watch::channel(false);
    let refused = crate::sampled::Sampled::new();
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
        let trusted = limits.trusted_proxies.clone();
        let service = router.clone().map_request(move |request: hyper::Request<Incoming>| {
            let mut request = request.map(Body::new);
            let client = resolve_client(remote.ip(), request.headers(), &trusted);
            request.extensions_mut().insert(ConnectInfo(remote));
            request.extensions_mut().insert(Client(client));
            request
        });
        let service = TowerToHyperService::new(service);
        let (closing, mut stopping) = (closing.clone(), stopping.clone());
        let (header_read, send) = (limits.header_read, limits.send);
        tokio::spawn(async move {
            let mut stream = tokio_io_timeout::TimeoutStream::new(stream);
            stream.set_write_timeout(Some(send));
            let mut builder = Builder::new(TokioExecutor::new());
            builder.http1().timer(TokioTimer::new()).header_read_timeout(header_read);
            builder.http2().timer(TokioTimer::new()).keep_alive_interval(Some(Duration::from_secs(30)));
            let mut connection = pin!(builder.serve_connection_with_upgrades(TokioIo::new(Box::pin(stream)), service));
            let mut stopping = pin!(
                async move {
                    let _ = stopping.wait_for(|stop| *stop).await;
                }
                .fuse()
            );
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
    let _ = stop.send(true);
    drop(closing);
    // Every connection task holds a receiver; they are gone when it closes.
    signal.closed().await;
}

/// The client a request came from, as [`serve`] decided it
/// ([`resolve_client`]): the one place every per-client budget asks. A
/// request served in-process (a test's `oneshot`) counts as the unspecified
/// address.
pub fn client_address(extensions: &Extensions) -> IpAddr {
    match extensions.get::<Client>() {
        Some(Client(client)) => *client,
        None => extensions.get::<ConnectInfo<SocketAddr>>().map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |info| info.0.ip()),
    }
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
        let mut map = locks::lock(&self.counts);
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
        let mut map = locks::lock(&self.counts);
        if let Some(count) = map.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                map.remove(&self.address);
            }
        }
    }
}

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
            let (semaphore, holders) = map.entry(address.clone()).or_insert_with(|| (Arc::new(Semaphore::new(self.running)), 0));
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

/// The soft open-file limit (often 1,024) up to the hard one.
fn raise_open_file_limit() {
    #[cfg(unix)]
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => tracing::debug!(limit, "open-file limit"),
        Err(error) => tracing::warn!(%error, "could not raise the open-file limit"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderMap;

    fn forwarded(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append("x-forwarded-for", value.parse().unwrap());
        }
        headers
    }

    #[test]
    fn cidrs_parse_and_match() {
        let lan = Cidr::parse("10.0.0.0/8").unwrap();
        assert!(lan.contains("10.1.2.3".parse().unwrap()));
        assert!(!lan.contains("11.0.0.1".parse().unwrap()));
        assert!(lan.contains("::ffff:10.0.0.1".parse().unwrap()), "an IPv4-mapped peer");
        let one = Cidr::parse("127.0.0.1").unwrap();
        assert!(one.contains("127.0.0.1".parse().unwrap()) && !one.contains("127.0.0.2".parse().unwrap()));
        assert!(Cidr::parse("fd00::/8").unwrap().contains("fd12::1".parse().unwrap()));
        assert!(Cidr::parse("0.0.0.0/0").unwrap().contains("8.8.8.8".parse().unwrap()));
        for bad in ["", "10.0.0.0/33", "host", "10.0.0.0/x"] {
            assert!(Cidr::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn only_a_trusted_proxy_names_the_client_and_only_its_own_hop_counts() {
        let trusted = [Cidr::parse("127.0.0.1").unwrap(), Cidr::parse("10.0.0.0/8").unwrap()];
        let proxy: IpAddr = "127.0.0.1".parse().unwrap();
        let stranger: IpAddr = "203.0.113.9".parse().unwrap();
        assert_eq!(resolve_client(stranger, &forwarded(&["1.2.3.4"]), &trusted), stranger, "an untrusted peer's header is ignored");
        assert_eq!(resolve_client(proxy, &forwarded(&["1.2.3.4"]), &trusted), "1.2.3.4".parse::<IpAddr>().unwrap());
        // A client sending its own header: the forged hops are left of the one our proxy added.
        assert_eq!(resolve_client(proxy, &forwarded(&["6.6.6.6, 1.2.3.4"]), &trusted), "1.2.3.4".parse::<IpAddr>().unwrap());
        assert_eq!(resolve_client(proxy, &forwarded(&["6.6.6.6", "1.2.3.4, 10.0.0.7"]), &trusted), "1.2.3.4".parse::<IpAddr>().unwrap());
        assert_eq!(resolve_client(proxy, &forwarded(&["junk, 1.2.3.4"]), &trusted), "1.2.3.4".parse::<IpAddr>().unwrap());
        assert_eq!(resolve_client(proxy, &forwarded(&["1.2.3.4, junk"]), &trusted), proxy, "an unreadable nearest hop leaves the proxy");
        assert_eq!(resolve_client(proxy, &HeaderMap::new(), &trusted), proxy);
        assert_eq!(resolve_client(proxy, &forwarded(&["1.2.3.4"]), &[]), proxy, "no proxy trusted by default");
    }
}
