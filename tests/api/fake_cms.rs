//! A Strapi-shaped CMS on its own port for the content tests: it answers in
//! the v4 or v5 shape, records the requests it gets, and can be told to
//! delay, hang, fail with a status or answer malformed JSON, or to check
//! populate parameters as a stock Strapi does (no deep-populate plugin; a
//! key the type lacks is a 400 "Invalid key"). It also takes form
//! submissions (`POST /api/<collection>`) as Strapi 5 does, a `reference`
//! being unique, and can be told to fail the next ones. Its media library
//! serves files put in it at `/uploads/…`, counting the requests for each.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::http::HeaderMap;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};
use tokio::net::TcpListener;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    V4,
    V5,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Behaviour {
    Normal,
    Delay(Duration),
    Hang,
    Status(u16),
    Malformed,
}

#[derive(Default)]
struct Store {
    /// (key, locale) → flat attributes.
    singles: HashMap<(String, String), Value>,
    /// Every request as "path?decoded-query".
    requests: Vec<String>,
    refused: usize,
    in_flight: usize,
    most_in_flight: usize,
    /// Every POST: path, `Authorization` header, body.
    posts: Vec<(String, String, Value)>,
    /// Entries created, by collection path.
    created: Vec<(String, Value)>,
    /// POSTs still to answer 500.
    failing_posts: usize,
    /// `/uploads/…` files: path → bytes and media type.
    files: HashMap<String, (Vec<u8>, String)>,
    /// Requests for each `/uploads/…` path.
    file_requests: HashMap<String, usize>,
    /// How long each file request waits before it is answered.
    file_delay: Duration,
}

#[derive(Clone)]
pub struct FakeCms {
    pub url: String,
    store: Arc<Mutex<Store>>,
    shape: Arc<Mutex<Shape>>,
    behaviour: Arc<Mutex<Behaviour>>,
    stock: Arc<Mutex<bool>>,
    server: Arc<Mutex<Option<tokio::task::JoinHandle<()>>>>,
}

impl FakeCms {
    pub async fn start(shape: Shape) -> FakeCms {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let cms = FakeCms {
            url,
            store: Arc::default(),
            shape: Arc::new(Mutex::new(shape)),
            behaviour: Arc::new(Mutex::new(Behaviour::Normal)),
            stock: Arc::default(),
            server: Arc::default(),
        };
        let app = Router::new()
            .route("/api/{*path}", get(answer).post(receive))
            .route("/uploads/{*path}", get(upload))
            .with_state(cms.clone());
        let server = tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        *cms.server.lock().unwrap() = Some(server);
        cms.put("sidebar", "en", json!({ "links": [ { "label": "Voice from the CMS", "url": "/voice-sms" } ], "footerNote": "CMS footer" }));
        cms
    }

    /// Sets a single type's attributes in a locale.
    pub fn put(&self, key: &str, locale: &str, attributes: Value) {
        self.store.lock().unwrap().singles.insert((key.into(), locale.into()), attributes);
    }

    /// A page with a hero (its title is the `<h1>`) and a rich text body.
    pub fn put_page(&self, key: &str, locale: &str, heading: &str, body: &str) {
        self.put(
            key,
            locale,
            json!({
                "title": heading,
                "seo": { "metaTitle": format!("{heading} | CMS"), "metaDescription": "From the fake CMS" },
                "sections": [
                    { "__component": "sections.hero", "id": 1, "title": heading, "image": self.media(5, "/uploads/hero.png") },
                    { "__component": "sections.rich-text", "id": 2, "title": "About", "body": body }
                ]
            }),
        );
    }

    fn media(&self, id: u64, url: &str) -> Value {
        let attributes = json!({ "url": url, "mime": "image/png", "alternativeText": "Hero", "width": 10, "height": 10 });
        match *self.shape.lock().unwrap() {
            Shape::V4 => json!({ "data": { "id": id, "attributes": attributes } }),
            Shape::V5 => {
                let mut flat = attributes;
                flat["id"] = json!(id);
                flat["documentId"] = json!(format!("doc{id}"));
                flat
            }
        }
    }

    /// Puts a file in the media library at `/uploads/<name>`.
    pub fn put_file(&self, name: &str, bytes: Vec<u8>, mime: &str) {
        self.store.lock().unwrap().files.insert(format!("/uploads/{name}"), (bytes, mime.to_owned()));
    }

    /// Requests for `/uploads/<name>` so far.
    pub fn file_requests(&self, name: &str) -> usize {
        self.store.lock().unwrap().file_requests.get(&format!("/uploads/{name}")).copied().unwrap_or(0)
    }

    /// Every file request waits this long.
    pub fn delay_files(&self, delay: Duration) {
        self.store.lock().unwrap().file_delay = delay;
    }

    /// An upload entity as Strapi gives it in this shape: `/uploads/<name>`
    /// with its `formats` (`small_<name>`, 500 wide) when `small` is set.
    pub fn photo(&self, id: u64, name: &str, mime: &str, width: u32, height: u32, small: bool) -> Value {
        let mut attributes = json!({
            "url": format!("/uploads/{name}"), "mime": mime, "alternativeText": "A photo", "width": width, "height": height,
            "hash": name.split('.').next(), "updatedAt": "2026-01-01T00:00:00.000Z", "provider": "local"
        });
        if small {
            attributes["formats"] = json!({ "small": { "url": format!("/uploads/small_{name}"), "mime": mime, "width": 500, "height": 500 * height / width } });
        }
        match *self.shape.lock().unwrap() {
            Shape::V4 => json!({ "data": { "id": id, "attributes": attributes } }),
            Shape::V5 => {
                let mut flat = attributes;
                flat["id"] = json!(id);
                flat["documentId"] = json!(format!("doc{id}"));
                flat
            }
        }
    }

    /// Stops listening: connections are refused from now on.
    pub async fn stop(&self) {
        let server = self.server.lock().unwrap().take();
        if let Some(server) = server {
            server.abort();
            let _ = server.await;
        }
    }

    /// Checks populate parameters as a stock Strapi 5 does.
    pub fn stock_strapi(&self) {
        *self.stock.lock().unwrap() = true;
    }

    /// The most requests it was answering at once.
    pub fn most_in_flight(&self) -> usize {
        self.store.lock().unwrap().most_in_flight
    }

    /// Requests answered 400 so far.
    pub fn refused(&self) -> usize {
        self.store.lock().unwrap().refused
    }

    /// The next `n` POSTs answer 500.
    pub fn fail_next_posts(&self, n: usize) {
        self.store.lock().unwrap().failing_posts = n;
    }

    /// Every POST so far: path, `Authorization` header, body.
    pub fn posts(&self) -> Vec<(String, String, Value)> {
        self.store.lock().unwrap().posts.clone()
    }

    /// The entries created in `collection` (`business-community-leads`).
    pub fn created(&self, collection: &str) -> Vec<Value> {
        let path = format!("/api/{collection}");
        self.store.lock().unwrap().created.iter().filter(|(p, _)| *p == path).map(|(_, data)| data.clone()).collect()
    }

    pub fn behave(&self, behaviour: Behaviour) {
        *self.behaviour.lock().unwrap() = behaviour;
    }

    pub fn requests(&self) -> Vec<String> {
        self.store.lock().unwrap().requests.clone()
    }

    pub fn requests_for(&self, path: &str) -> usize {
        self.requests().iter().filter(|r| r.split('?').next() == Some(path)).count()
    }
}

async fn answer(State(cms): State<FakeCms>, Path(path): Path<String>, RawQuery(query): RawQuery) -> Response {
    let query = query.unwrap_or_default();
    let decoded: Vec<(String, String)> = serde_urlencoded::from_str(&query).unwrap_or_default();
    let readable = decoded.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&");
    cms.store.lock().unwrap().requests.push(format!("/api/{path}?{readable}"));
    let behaviour = *cms.behaviour.lock().unwrap();
    match behaviour {
        Behaviour::Normal => {}
        Behaviour::Delay(delay) => {
            {
                let mut store = cms.store.lock().unwrap();
                store.in_flight += 1;
                store.most_in_flight = store.most_in_flight.max(store.in_flight);
            }
            tokio::time::sleep(delay).await;
            cms.store.lock().unwrap().in_flight -= 1;
        }
        Behaviour::Hang => std::future::pending::<()>().await,
        Behaviour::Status(status) => {
            return (StatusCode::from_u16(status).unwrap(), r#"{"data":null,"error":{"status":500}}"#).into_response();
        }
        Behaviour::Malformed => return (StatusCode::OK, [("content-type", "application/json")], r#"{"data": {"id": 1, "#).into_response(),
    }
    let locale = decoded.iter().find(|(k, _)| k == "locale").map_or("en", |(_, v)| v.as_str()).to_owned();
    let attributes = cms.store.lock().unwrap().singles.get(&(path.clone(), locale)).cloned();
    let Some(attributes) = attributes else {
        return (StatusCode::NOT_FOUND, r#"{"data":null,"error":{"status":404,"name":"NotFoundError"}}"#).into_response();
    };
    if *cms.stock.lock().unwrap()
        && let Some(key) = invalid_populate_key(&decoded, &attributes)
    {
        cms.store.lock().unwrap().refused += 1;
        let error = json!({ "data": null, "error": { "status": 400, "name": "ValidationError", "message": format!("Invalid key {key}"), "details": { "key": key, "path": key, "source": "query", "param": "populate" } } });
        return (StatusCode::BAD_REQUEST, axum::Json(error)).into_response();
    }
    let data = match *cms.shape.lock().unwrap() {
        Shape::V4 => json!({ "id": 1, "attributes": attributes }),
        Shape::V5 => {
            let mut flat = attributes;
            flat["id"] = json!(1);
            flat["documentId"] = json!("abc123");
            flat
        }
    };
    axum::Json(json!({ "data": data, "meta": {} })).into_response()
}

async fn upload(State(cms): State<FakeCms>, Path(path): Path<String>) -> Response {
    let path = format!("/uploads/{path}");
    let (file, delay) = {
        let mut store = cms.store.lock().unwrap();
        *store.file_requests.entry(path.clone()).or_default() += 1;
        (store.files.get(&path).cloned(), store.file_delay)
    };
    tokio::time::sleep(delay).await;
    match file {
        Some((bytes, mime)) => ([("content-type", mime)], bytes).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// What a stock Strapi refuses: the deep-populate plugin's syntax, and a
/// populate key the type's schema lacks.
fn invalid_populate_key(params: &[(String, String)], attributes: &Value) -> Option<String> {
    for (key, value) in params {
        if key == "populate" && value.starts_with("deep") {
            return Some("deep".into());
        }
        if let Some(rest) = key.strip_prefix("populate[") {
            let field = rest.split(']').next().unwrap_or_default();
            if attributes.get(field).is_none() {
                return Some(field.to_owned());
            }
        }
    }
    None
}

/// Strapi 5's create: `{"data": {...}}` in, `{"data": {...with id}}` out;
/// a `reference` seen before is its unique-attribute `ValidationError`.
async fn receive(State(cms): State<FakeCms>, Path(path): Path<String>, headers: HeaderMap, body: axum::body::Bytes) -> Response {
    let path = format!("/api/{path}");
    let authorization = headers.get("authorization").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let mut store = cms.store.lock().unwrap();
    store.posts.push((path.clone(), authorization, body.clone()));
    if store.failing_posts > 0 {
        store.failing_posts -= 1;
        return (StatusCode::INTERNAL_SERVER_ERROR, r#"{"data":null,"error":{"status":500,"name":"InternalServerError"}}"#).into_response();
    }
    let data = body["data"].clone();
    if store.created.iter().any(|(p, d)| *p == path && d["reference"] == data["reference"]) {
        let error = json!({ "data": null, "error": { "status": 400, "name": "ValidationError", "message": "This attribute must be unique",
            "details": { "errors": [ { "path": ["reference"], "message": "This attribute must be unique", "name": "ValidationError" } ] } } });
        return (StatusCode::BAD_REQUEST, axum::Json(error)).into_response();
    }
    store.created.push((path, data.clone()));
    let mut created = data;
    created["id"] = json!(store.created.len());
    created["documentId"] = json!(format!("doc{}", store.created.len()));
    (StatusCode::CREATED, axum::Json(json!({ "data": created, "meta": {} }))).into_response()
}
