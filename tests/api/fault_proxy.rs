//! A fault-injecting HTTP proxy on its own port in front of an upstream (the
//! operator sandbox): it forwards every request, or, once told, hangs
//! (never answers), answers after a delay, resets the connection or answers
//! with a status, for every path or only those containing a given part. It
//! records every path asked for. Each answer closes its connection, so every
//! call comes on a new one and a reset applies to the next call at once.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use tokio::net::{TcpListener, TcpStream};

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Fault {
    Pass,
    Hang,
    Slow(Duration),
    Reset,
    Status(u16),
}

struct Behaviour {
    fault: Fault,
    /// Only paths containing this are faulty; the rest pass.
    only: Option<String>,
    requests: Vec<String>,
}

#[derive(Clone)]
pub struct FaultProxy {
    pub url: String,
    upstream: String,
    behaviour: Arc<Mutex<Behaviour>>,
    http: reqwest::Client,
}

impl FaultProxy {
    /// Starts it in front of `upstream`, a base URL without trailing slash.
    pub async fn start(upstream: &str) -> FaultProxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let proxy = FaultProxy {
            url,
            upstream: upstream.to_owned(),
            behaviour: Arc::new(Mutex::new(Behaviour { fault: Fault::Pass, only: None, requests: Vec::new() })),
            http: reqwest::Client::new(),
        };
        let app = Router::new().fallback(forward).with_state(proxy.clone());
        let listener = Resetting { listener, proxy: proxy.clone() };
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        proxy
    }

    /// From now on every path gets `fault`.
    pub fn behave(&self, fault: Fault) {
        let mut behaviour = self.behaviour.lock().unwrap();
        (behaviour.fault, behaviour.only) = (fault, None);
    }

    /// From now on paths containing `part` get `fault`; the rest pass
    /// (but for `Reset`, which comes before a path is read: it resets all).
    pub fn behave_on(&self, part: &str, fault: Fault) {
        let mut behaviour = self.behaviour.lock().unwrap();
        (behaviour.fault, behaviour.only) = (fault, Some(part.to_owned()));
    }

    /// How many requests so far had a path containing `part`.
    pub fn count(&self, part: &str) -> usize {
        self.behaviour.lock().unwrap().requests.iter().filter(|path| path.contains(part)).count()
    }

    fn fault_for(&self, path: &str) -> Fault {
        let behaviour = self.behaviour.lock().unwrap();
        match &behaviour.only {
            Some(part) if !path.contains(part.as_str()) => Fault::Pass,
            _ => behaviour.fault,
        }
    }
}

async fn forward(State(proxy): State<FaultProxy>, request: Request) -> Response {
    let path = request.uri().path_and_query().map_or("/", |p| p.as_str()).to_owned();
    proxy.behaviour.lock().unwrap().requests.push(path.clone());
    let mut response = match proxy.fault_for(&path) {
        Fault::Hang => std::future::pending().await,
        Fault::Status(status) => {
            (StatusCode::from_u16(status).unwrap(), [(header::CONTENT_TYPE, "application/json")], "{}").into_response()
        }
        // Reset at the next accept; this connection's request, being on
        // the way already, is answered by the upstream.
        Fault::Reset | Fault::Pass => pass(&proxy, &path, request).await,
        Fault::Slow(delay) => {
            tokio::time::sleep(delay).await;
            pass(&proxy, &path, request).await
        }
    };
    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

async fn pass(proxy: &FaultProxy, path: &str, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, 1 << 20).await.unwrap();
    let mut outgoing = proxy.http.request(parts.method, format!("{}{path}", proxy.upstream)).body(body);
    for name in [header::AUTHORIZATION, header::CONTENT_TYPE] {
        if let Some(value) = parts.headers.get(&name) {
            outgoing = outgoing.header(name, value);
        }
    }
    let answer = outgoing.send().await.unwrap();
    let status = answer.status();
    let content_type = answer.headers().get(header::CONTENT_TYPE).cloned();
    let mut response = Response::new(Body::from(answer.bytes().await.unwrap()));
    *response.status_mut() = status;
    if let Some(content_type) = content_type {
        response.headers_mut().insert(header::CONTENT_TYPE, content_type);
    }
    response
}

/// The proxy's listener: while the fault is `Reset`, each connection is
/// reset (closed with RST) as soon as it is accepted.
struct Resetting {
    listener: TcpListener,
    proxy: FaultProxy,
}

impl axum::serve::Listener for Resetting {
    type Io = TcpStream;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (TcpStream, std::net::SocketAddr) {
        loop {
            let Ok((stream, address)) = self.listener.accept().await else { continue };
            if self.proxy.behaviour.lock().unwrap().fault != Fault::Reset {
                return (stream, address);
            }
            self.proxy.behaviour.lock().unwrap().requests.push("(reset)".into());
            let _ = stream.set_zero_linger();
            drop(stream);
        }
    }

    fn local_addr(&self) -> std::io::Result<std::net::SocketAddr> {
        self.listener.local_addr()
    }
}
