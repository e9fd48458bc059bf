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
//! A client is its peer address, unless the peer is a proxy named in
//! `TRUSTED_PROXIES` (see `client`).

use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use futures::FutureExt;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tower::ServiceExt;

use super::client::{Cidr, Client, resolve_client};
use super::per_address::PerAddress;

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

/// Serves `router` on `listener` until `shutdown` completes, then lets open
/// connections finish.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) {
    raise_open_file_limit();
    let open = Arc::new(Semaphore::new(limits.max.max(1)));
    let per_address = PerAddress::new(limits.per_address);
    // `closing`: held by every connection task, so `signal.closed()` says
    // when the last has ended; `stop`: tells them to finish.
    let (signal, closing) = watch::channel(());
    let (stop, stopping) = watch::channel(false);
    let refused = crate::infra::sampled::Sampled::new();
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
                tracing::warn!(
                    count,
                    per_address = limits.per_address,
                    "connections refused: one address holds as many as it may"
                );
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

/// The soft open-file limit (often 1,024) up to the hard one.
fn raise_open_file_limit() {
    #[cfg(unix)]
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => tracing::debug!(limit, "open-file limit"),
        Err(error) => tracing::warn!(%error, "could not raise the open-file limit"),
    }
}
