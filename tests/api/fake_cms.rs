//! A Strapi-shaped CMS on its own port for the content tests: it answers in
//! the v4 or v5 shape, records the requests it gets, and can be told to
//! delay, hang, fail with a status or answer malformed JSON, or to check
//! populate parameters as a stock Strapi does (no deep-populate plugin; a
//! key the type lacks is a 400 "Invalid key"). It also takes form
//! submissions (`POST /api/<collection>`) as Strapi 5 does, a `reference`
//! being unique, and can be told to fail the next ones. Collections are
//! answered as Strapi answers them: filtered (`filters[<field>][$eq]`),
//! sorted, cut to `fields[…]`, in pages of at most 100 asked by
//! `pagination[page]`/`[pageSize]` or `[start]`/`[limit]`, with
//! `meta.pagination` in either shape, and a page can be told to fail; asked
//! for `localizations` (explicitly, or by a deep-populate plugin's
//! `populate=deep`), each item lists its versions in the other locales (the
//! same `documentId`) as Strapi 5 does. Its
//! media library serves files put in it at `/uploads/…`, counting the
//! requests for each. A single type may have a draft, answered to requests
//! with `status=draft` (Strapi 5), which can be told to need a token.

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

/// How `meta.pagination` of a collection answer is given.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Paging {
    /// `page`, `pageSize`, `pageCount`, `total`.
    Pages,
    /// `start`, `limit`, `total`.
    Offset,
}

/// What the site's check of whether a collection changed asks.
pub const STAMP: &str = "sort=updatedAt:desc";

/// Strapi's largest page (`api.rest.maxLimit`).
const MAX_PAGE: usize = 100;

#[derive(Default)]
struct Store {
    /// (key, locale) → flat attributes.
    singles: HashMap<(String, String), Value>,
    /// (key, locale) → the draft's flat attributes, where it differs.
    drafts: HashMap<(String, String), Value>,
    /// The bearer token `status=draft` requests must carry, if any.
    draft_token: Option<String>,
    /// (collection, locale) → flat items (`id`, `documentId`, fields).
    collections: HashMap<(String, String), Arc<Vec<Value>>>,
    /// A collection's page (from 1, of the page asked for) that answers 500.
    failing_page: Option<(String, usize)>,
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
    paging: Arc<Mutex<Paging>>,
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
            paging: Arc::new(Mutex::new(Paging::Pages)),
            stock: Arc::default(),
            server: Arc::default(),
        };
        let app = Router::new()
            .route("/api/{*path}", get(answer).post(receive))
            .route("/uploads/{*path}", get(upload))
            .with_state(cms.clone());
        let server = tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        *cms.server.lock().unwrap() = Some(server);
        cms.put(
            "sidebar",
            "en",
            json!({ "links": [ { "label": "Voice from the CMS", "url": "/voice-sms" } ], "footerNote": "CMS footer" }),
        );
        cms
    }

    /// Sets a single type's attributes in a locale.
    pub fn put(&self, key: &str, locale: &str, attributes: Value) {
        self.store.lock().unwrap().singles.insert((key.into(), locale.into()), attributes);
    }

    /// Sets the draft of a single type in a locale: what `status=draft` answers.
    pub fn put_draft(&self, key: &str, locale: &str, attributes: Value) {
        self.store.lock().unwrap().drafts.insert((key.into(), locale.into()), attributes);
    }

    /// `status=draft` requests without `Authorization: Bearer <token>` answer 401, as Strapi does for a role that may not read drafts.
    pub fn require_draft_token(&self, token: &str) {
        self.store.lock().unwrap().draft_token = Some(token.to_owned());
    }

    /// Sets a collection's items in a locale (flat, each with its `id`).
    pub fn put_collection(&self, collection: &str, locale: &str, items: Vec<Value>) {
        self.store.lock().unwrap().collections.insert((collection.into(), locale.into()), Arc::new(items));
    }

    /// Adds an item to a collection in a locale: one published.
    pub fn add_item(&self, collection: &str, locale: &str, item: Value) {
        Arc::make_mut(self.store.lock().unwrap().collections.entry((collection.into(), locale.into())).or_default())
            .push(item);
    }

    /// How `meta.pagination` is given from now on.
    pub fn paging(&self, paging: Paging) {
        *self.paging.lock().unwrap() = paging;
    }

    /// Page `page` of every read of `collection` answers 500 (`None`: none does).
    pub fn fail_page(&self, failing: Option<(&str, usize)>) {
        self.store.lock().unwrap().failing_page = failing.map(|(collection, page)| (collection.to_owned(), page));
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

    /// A related entity (an upload) in the answer shape: v4's `{ data: { id, attributes } }`, v5's flat entity.
    fn related(&self, id: u64, attributes: Value) -> Value {
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

    fn media(&self, id: u64, url: &str) -> Value {
        let attributes =
            json!({ "url": url, "mime": "image/png", "alternativeText": "Hero", "width": 10, "height": 10 });
        self.related(id, attributes)
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

    /// An upload entity as Strapi gives it in this shape: `/uploads/<name>`,
    /// its `size` in KB (of the file put, else 0), and its `formats`, one
    /// `<format>_<name>` per (format, width) given.
    pub fn photo(&self, id: u64, name: &str, mime: &str, width: u32, height: u32, formats: &[(&str, u32)]) -> Value {
        let bytes =
            self.store.lock().unwrap().files.get(&format!("/uploads/{name}")).map_or(0, |(bytes, _)| bytes.len());
        let mut attributes = json!({
            "url": format!("/uploads/{name}"), "mime": mime, "alternativeText": "A photo", "width": width, "height": height,
            "size": (bytes as f64 / 10.24).round() / 100.0,
            "hash": name.split('.').next(), "updatedAt": "2026-01-01T00:00:00.000Z", "provider": "local"
        });
        for (format, format_width) in formats {
            attributes["formats"][*format] = json!({ "url": format!("/uploads/{format}_{name}"), "mime": mime, "width": format_width, "height": format_width * height / width });
        }
        self.related(id, attributes)
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

    /// The requests starting with `prefix` that read content: not the
    /// site's one-item checks of whether a collection changed (its item
    /// changed last, `sort=updatedAt:desc`).
    pub fn reads(&self, prefix: &str) -> Vec<String> {
        let requests = self.requests().into_iter();
        requests.filter(|r| r.starts_with(prefix) && !r.contains(STAMP)).collect()
    }

    pub fn requests_for(&self, path: &str) -> usize {
        self.requests().iter().filter(|r| r.split('?').next() == Some(path)).count()
    }
}

async fn answer(
    State(cms): State<FakeCms>,
    Path(path): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
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
        Behaviour::Malformed => {
            return (StatusCode::OK, [("content-type", "application/json")], r#"{"data": {"id": 1, "#).into_response();
        }
    }
    let locale = decoded.iter().find(|(k, _)| k == "locale").map_or("en", |(_, v)| v.as_str()).to_owned();
    let draft = decoded.iter().any(|(k, v)| k == "status" && v == "draft");
    let required = cms.store.lock().unwrap().draft_token.clone();
    if let Some(token) = required.filter(|_| draft)
        && headers.get("authorization").and_then(|v| v.to_str().ok()) != Some(format!("Bearer {token}").as_str())
    {
        return (StatusCode::UNAUTHORIZED, r#"{"data":null,"error":{"status":401,"name":"UnauthorizedError"}}"#)
            .into_response();
    }
    let is_collection = cms.store.lock().unwrap().collections.keys().any(|(collection, _)| *collection == path);
    if is_collection {
        return cms.collection(&path, &locale, &decoded);
    }
    let attributes = {
        let store = cms.store.lock().unwrap();
        let key = (path.clone(), locale);
        draft.then(|| store.drafts.get(&key)).flatten().or_else(|| store.singles.get(&key)).cloned()
    };
    let Some(attributes) = attributes else {
        return (StatusCode::NOT_FOUND, r#"{"data":null,"error":{"status":404,"name":"NotFoundError"}}"#)
            .into_response();
    };
    if *cms.stock.lock().unwrap()
        && let Some((key, at)) = invalid_populate_key(&decoded, &attributes)
    {
        cms.store.lock().unwrap().refused += 1;
        let (message, path) = if at.is_empty() {
            (format!("Invalid key {key}"), Value::Null)
        } else {
            (format!("Invalid key {key} at {}", at.join(".")), json!(at.join(".")))
        };
        let error = json!({ "data": null, "error": { "status": 400, "name": "ValidationError", "message": message, "details": { "key": key, "path": path, "source": "query", "param": "populate" } } });
        return (StatusCode::BAD_REQUEST, axum::Json(error)).into_response();
    }
    let everything = decoded.iter().any(|(key, value)| key == "populate" && value == "*");
    let attributes = match *cms.stock.lock().unwrap() {
        true if everything => populated(&attributes, None),
        true => populated(&attributes, Some(&populate_tree(&decoded))),
        false => attributes,
    };
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

impl FakeCms {
    /// A collection read: filtered, sorted, cut to its fields, one page.
    fn collection(&self, path: &str, locale: &str, params: &[(String, String)]) -> Response {
        let param = |name: &str| params.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
        let number = |name: &str| param(name).and_then(|v| v.parse::<usize>().ok());
        let (items, failing) = {
            let store = self.store.lock().unwrap();
            (
                store.collections.get(&(path.to_owned(), locale.to_owned())).cloned().unwrap_or_default(),
                store.failing_page.clone(),
            )
        };
        let mut items: Vec<&Value> = items
            .iter()
            .filter(|item| {
                params.iter().filter_map(|(k, v)| Some((k.strip_prefix("filters[")?.strip_suffix("][$eq]")?, v))).all(
                    |(field, value)| match &item[field] {
                        Value::String(text) => text == value,
                        Value::Number(n) => n.to_string() == *value,
                        _ => false,
                    },
                )
            })
            .collect();
        // `sort=f:asc`, or `sort[0]=…&sort[1]=…`; by id last.
        let mut sorts: Vec<&str> = param("sort").into_iter().collect();
        sorts.extend((0..4).map_while(|n| param(&format!("sort[{n}]"))));
        sorts.push("id:asc");
        let ascending_ids = sorts[0] == "id:asc" && items.is_sorted_by_key(|item| item["id"].as_u64());
        if !ascending_ids {
            items.sort_by(|a, b| {
                sorts.iter().fold(std::cmp::Ordering::Equal, |ordering, sort| {
                    let (field, order) = sort.split_once(':').unwrap_or((sort, "asc"));
                    let by = match (&a[field], &b[field]) {
                        (Value::Number(x), Value::Number(y)) => x.as_u64().cmp(&y.as_u64()),
                        (x, y) => x.as_str().unwrap_or("").cmp(y.as_str().unwrap_or("")),
                    };
                    ordering.then(if order == "desc" { by.reverse() } else { by })
                })
            });
        }
        let total = items.len();
        let (start, limit) = match (number("pagination[start]"), number("pagination[page]")) {
            (Some(start), _) => (start, number("pagination[limit]").unwrap_or(25).min(MAX_PAGE)),
            (None, page) => {
                let size = number("pagination[pageSize]").unwrap_or(25).min(MAX_PAGE);
                ((page.unwrap_or(1).max(1) - 1) * size, size)
            }
        };
        let page = start / limit.max(1) + 1;
        if failing.as_ref().is_some_and(|(collection, failing)| collection == path && *failing == page) {
            return (
                StatusCode::INTERNAL_SERVER_ERROR,
                r#"{"data":null,"error":{"status":500,"name":"InternalServerError"}}"#,
            )
                .into_response();
        }
        let fields: Vec<&str> =
            params.iter().filter(|(k, _)| k.starts_with("fields[")).map(|(_, v)| v.as_str()).collect();
        // A relation or media asked with `populate[<key>]…` stays beside the fields, as in Strapi.
        let populated: Vec<&str> =
            params.iter().filter_map(|(k, _)| k.strip_prefix("populate[")?.split(']').next()).collect();
        let shape = *self.shape.lock().unwrap();
        let linked = asks_localizations(params).then(|| self.other_versions(path, locale));
        let data: Vec<Value> = items
            .into_iter()
            .skip(start)
            .take(limit)
            .map(|item| {
                let mut item = item.clone();
                let localizations = linked.as_ref().map(|others| localizations_of(&item, others));
                if !fields.is_empty() {
                    let kept = ["id", "documentId", "locale"];
                    item.as_object_mut().unwrap().retain(|key, _| {
                        kept.contains(&key.as_str())
                            || fields.contains(&key.as_str())
                            || populated.contains(&key.as_str())
                    });
                }
                match shape {
                    Shape::V5 => {
                        if let Some(localizations) = localizations {
                            item["localizations"] = Value::Array(localizations);
                        }
                        item
                    }
                    Shape::V4 => {
                        let id = item["id"].clone();
                        let mut attributes = item;
                        attributes.as_object_mut().unwrap().retain(|key, _| key != "id" && key != "documentId");
                        if let Some(localizations) = localizations {
                            attributes["localizations"] =
                                json!({ "data": localizations.into_iter().map(v4_entity).collect::<Vec<_>>() });
                        }
                        json!({ "id": id, "attributes": attributes })
                    }
                }
            })
            .collect();
        let pagination = match *self.paging.lock().unwrap() {
            Paging::Pages => {
                json!({ "page": page, "pageSize": limit, "pageCount": total.div_ceil(limit.max(1)), "total": total })
            }
            Paging::Offset => json!({ "start": start, "limit": limit, "total": total }),
        };
        axum::Json(json!({ "data": data, "meta": { "pagination": pagination } })).into_response()
    }
}

impl FakeCms {
    /// The items of `collection` in every locale but `locale`, with theirs.
    fn other_versions(&self, collection: &str, locale: &str) -> Vec<(String, Value)> {
        let store = self.store.lock().unwrap();
        store
            .collections
            .iter()
            .filter(|((name, other), _)| name == collection && other != locale)
            .flat_map(|((_, other), items)| items.iter().map(|item| (other.clone(), item.clone())))
            .collect()
    }
}

/// Whether an item is asked for with its versions in the other languages:
/// explicitly (`populate[localizations]…`), or by the deep-populate
/// plugins, which populate them one level deep of themselves.
fn asks_localizations(params: &[(String, String)]) -> bool {
    params.iter().any(|(key, value)| {
        key.starts_with("populate[localizations]")
            || (key == "populate" && value.starts_with("deep"))
            || key == "pLevel"
    })
}

/// `item`'s versions among `others` as Strapi 5 lists them: the same
/// `documentId` (the same id, for items without one), each with its id,
/// `documentId`, locale, slug and `publishedAt`.
fn localizations_of(item: &Value, others: &[(String, Value)]) -> Vec<Value> {
    let same = |other: &Value| match item.get("documentId") {
        Some(document) => other.get("documentId") == Some(document),
        None => other["id"] == item["id"],
    };
    others
        .iter()
        .filter(|(_, other)| same(other))
        .map(|(locale, other)| {
            json!({ "id": other["id"], "documentId": other.get("documentId"), "locale": locale, "slug": other.get("slug"),
                    "publishedAt": other.get("publishedAt").cloned().unwrap_or(json!("2026-01-01T00:00:00.000Z")) })
        })
        .collect()
}

/// A flat entity in Strapi 4's shape.
fn v4_entity(flat: Value) -> Value {
    let id = flat["id"].clone();
    let mut attributes = flat;
    attributes.as_object_mut().unwrap().retain(|key, _| key != "id" && key != "documentId");
    json!({ "id": id, "attributes": attributes })
}

/// What a stock Strapi refuses: the deep-populate plugin's syntax, and a
/// populate key the schema lacks, at any depth (`populate[seo][populate][shareImage]`
/// on a `seo` without `shareImage`). The schema is what `attributes` holds.
/// The first populate key `attributes` lack, and the attribute path of what
/// asked for it, as Strapi 5 reports them (a dynamic zone's members add
/// nothing to the path).
fn invalid_populate_key(params: &[(String, String)], attributes: &Value) -> Option<(String, Vec<String>)> {
    if params.iter().any(|(key, value)| key == "populate" && value.starts_with("deep")) {
        return Some(("deep".into(), Vec::new()));
    }
    invalid_in(&populate_tree(params), attributes, &[])
}

/// The populate parameters as the tree Strapi reads them into.
fn populate_tree(params: &[(String, String)]) -> serde_json::Map<String, Value> {
    let mut tree = serde_json::Map::new();
    for (key, value) in params {
        let Some(rest) = key.strip_prefix("populate[") else { continue };
        let segments: Vec<&str> = rest.split(['[', ']']).filter(|s| !s.is_empty()).collect();
        let mut node = &mut tree;
        for (i, segment) in segments.iter().enumerate() {
            if i + 1 == segments.len() {
                node.entry(segment.to_string()).or_insert_with(|| Value::String(value.clone()));
            } else {
                let next = node.entry(segment.to_string()).or_insert_with(|| json!({}));
                if !next.is_object() {
                    *next = json!({});
                }
                node = next.as_object_mut().unwrap();
            }
        }
    }
    tree
}

/// The first field `fields` asks for that `entity` (an object, or a list of
/// them, at attribute path `at`) does not have, and where.
fn invalid_in(fields: &serde_json::Map<String, Value>, entity: &Value, at: &[String]) -> Option<(String, Vec<String>)> {
    let entities: Vec<&Value> = match entity {
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    for (field, request) in fields {
        for entity in &entities {
            let Some(value) = entity.get(field) else { return Some((field.clone(), at.to_vec())) };
            let inside = [at, std::slice::from_ref(field)].concat();
            if let Some(Value::Object(nested)) = request.get("populate") {
                for child in children(value) {
                    if let Some(key) = invalid_in(nested, child, &inside) {
                        return Some(key);
                    }
                }
            }
            if let Some(Value::Object(members)) = request.get("on") {
                for child in children(value) {
                    let member = child.get("__component").and_then(|c| members.get(c.as_str()?));
                    if let Some(Value::Object(nested)) = member.and_then(|m| m.get("populate"))
                        && let Some(key) = invalid_in(nested, child, &inside)
                    {
                        return Some(key);
                    }
                }
            }
        }
    }
    None
}

fn children(value: &Value) -> Vec<&Value> {
    match value {
        Value::Array(items) => items.iter().filter(|i| i.is_object()).collect(),
        Value::Object(_) => vec![value],
        _ => Vec::new(),
    }
}

/// What a stock Strapi 5 answers for `entity` given what was asked to be
/// populated: its own fields, and of its components, media and dynamic
/// zones only those named (`*` names every one). Rich text blocks (objects
/// with a `type`) are fields of their own.
fn populated(entity: &Value, fields: Option<&serde_json::Map<String, Value>>) -> Value {
    let Value::Object(object) = entity else { return entity.clone() };
    let mut kept = serde_json::Map::new();
    for (name, value) in object {
        if !is_relation(value) {
            kept.insert(name.clone(), value.clone());
            continue;
        }
        let Some(request) = fields.map_or(Some(&Value::Null), |fields| fields.get(name)) else { continue };

        let members = request.get("on").and_then(Value::as_object);
        let one = |child: &Value| match members {
            Some(members) => populated(
                child,
                inside(child.get("__component").and_then(Value::as_str).and_then(|c| members.get(c))).as_ref(),
            ),
            None => populated(child, inside(Some(request)).as_ref()),
        };
        let value = match value {
            Value::Array(items) => Value::Array(items.iter().map(one).collect()),
            child => one(child),
        };
        kept.insert(name.clone(), value);
    }
    Value::Object(kept)
}

/// What a populate request asks inside: `{ populate: {…} }` names fields,
/// `{ populate: "*" }` every one (`None`), `true` none.
fn inside(request: Option<&Value>) -> Option<serde_json::Map<String, Value>> {
    match request.and_then(|r| r.get("populate")) {
        Some(Value::Object(nested)) => Some(nested.clone()),
        Some(Value::String(all)) if all == "*" => None,
        _ => Some(serde_json::Map::new()),
    }
}

/// A component, media, relation or dynamic zone: what Strapi 5 leaves out
/// unless asked to populate it.
fn is_relation(value: &Value) -> bool {
    let entity = |v: &Value| v.as_object().is_some_and(|o| !o.contains_key("type"));
    match value {
        Value::Object(_) => entity(value),
        Value::Array(items) => items.first().is_some_and(entity),
        _ => false,
    }
}

/// Strapi 5's create: `{"data": {...}}` in, `{"data": {...with id}}` out;
/// a `reference` seen before is its unique-attribute `ValidationError`.
async fn receive(
    State(cms): State<FakeCms>,
    Path(path): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let path = format!("/api/{path}");
    let authorization = headers.get("authorization").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let mut store = cms.store.lock().unwrap();
    store.posts.push((path.clone(), authorization, body.clone()));
    if store.failing_posts > 0 {
        store.failing_posts -= 1;
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            r#"{"data":null,"error":{"status":500,"name":"InternalServerError"}}"#,
        )
            .into_response();
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
