//! The Strapi REST client, used when `CMS_URL` is set.
//!
//! Paths: single types are read at `/api/<key>`, where `<key>` is the
//! route's content key in `app/src/routes.ts` (the Strapi single type's API
//! ID); that table is the one place single-type names are chosen. Collections
//! are `news-updates`, `sport-updates`, `foundation-updates`,
//! `device-updates`, `vbu-services`, `trick-mobiles` and `popups`. Items are
//! asked for with `filters[id][$eq]` on their collection, which Strapi 4 and 5
//! both answer (Strapi 5 reads `/api/<collection>/<id>` as a `documentId`).
//!
//! Every request carries `locale` and populate parameters. Any Strapi works
//! with only `CMS_URL` set: the configured [`PopulateStrategy`] is tried
//! first (by default the spec's `populate=deep,N`); a CMS that refuses it
//! with 400 gets explicit `populate[…]` parameters derived from the content
//! model ([`contract::cms`]), and a key it calls invalid (`Invalid key
//! sections`: its schema lacks the field) is left out from then on. What
//! works is learnt once (a missing plugin for the whole CMS, a missing field
//! per content type), logged and kept.
//!
//! At most `max_requests` requests are in flight at once, so a client asking
//! for many addresses cannot fan out to the CMS. Idle connections are dropped after 4 s, before Node's default keep-alive
//! of 5 s closes them under a request; a request that fails to be sent at
//! all is sent once more.
//!
//! A whole collection (the fraudster tricks, and every collection's index,
//! asked with `fields[…]` for the few fields it needs and no populate) is
//! read page after page of [`PAGE_SIZE`], Strapi's largest, until the
//! answers' `meta.pagination` says there is no more: `page`/`pageCount`,
//! or `start`/`limit`/`total`, whichever the CMS answers with (without
//! either, until a page comes back short). A page that fails fails the
//! whole read, so the cache keeps serving the last complete copy.
//!
//! A client made for the preview (`draft`) asks every request with
//! `status=draft` (Strapi 5): the latest version of each entry, published or
//! not. Strapi 4's `publicationState=preview` is not sent.
//!
//! Strapi 5 gives each locale of an entry its own id (one `documentId`):
//! an item asked for by the id of its other-language version is found
//! through that version's `documentId`, and comes back with its own id.

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Mutex;
use std::time::Duration;

use async_trait::async_trait;
use contract::Lang;
use contract::cms::TypeShape;
use reqwest::StatusCode;
use serde_json::{Map, Value, json};

use super::{ContentError, ContentQuery, ContentSource, Normalizer};

/// Single types populated three levels deep instead of ten.
const SHALLOW_SINGLES: [&str; 3] = ["business-small", "business-mid", "business-large"];
const DEEP_LEVEL: u32 = 10;
const SHALLOW_LEVEL: u32 = 3;
/// Strapi's default maximum page size: what a whole collection is read by.
const PAGE_SIZE: u64 = 100;
/// Pages one read of a whole collection takes at most.
const MAX_PAGES: usize = 10_000;
/// Refusals one fetch may learn from before it gives up.
const MAX_ATTEMPTS: usize = 16;

/// How relations, media and components are asked for first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PopulateStrategy {
    /// `populate=deep,N`: the strapi-plugin-populate-deep plugin for v4, as
    /// the spec; explicit parameters when the CMS refuses it.
    #[default]
    Deep,
    /// `pLevel=N`: the Strapi 5 forks of that plugin; explicit parameters
    /// when the CMS refuses it.
    Level,
    /// Explicit `populate[…]` parameters from the content model: a stock
    /// Strapi 4 or 5 with no plugin.
    Explicit,
}

impl FromStr for PopulateStrategy {
    type Err = String;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        match value {
            "deep" | "auto" => Ok(PopulateStrategy::Deep),
            "plevel" => Ok(PopulateStrategy::Level),
            "explicit" => Ok(PopulateStrategy::Explicit),
            other => Err(format!("unknown populate strategy {other:?}: use deep, plevel or explicit")),
        }
    }
}

#[derive(Debug, Clone)]
pub struct StrapiSettings {
    pub base_url: String,
    pub token: Option<String>,
    pub populate: PopulateStrategy,
    pub timeout: Duration,
    pub max_requests: usize,
    /// Reads drafts (`status=draft`, Strapi 5), for the preview: each
    /// entry's latest version, published or not.
    pub draft: bool,
}

/// A key the CMS called invalid, and where it did.
#[derive(Debug, Clone, PartialEq)]
struct Refused {
    key: String,
    /// The attribute path of the component or relation whose populate named
    /// it, as Strapi 5 reports it (`seo` for the SEO component's
    /// `shareImage`; a dynamic zone's members add nothing to their zone's
    /// path); empty at the top; `None` when the CMS did not say where (Strapi
    /// 4), and the key is then left out wherever it is asked for.
    under: Option<Vec<String>>,
}

/// What a content type of this CMS accepts, as learnt from its refusals.
#[derive(Debug, Clone, PartialEq)]
struct Accepted {
    strategy: PopulateStrategy,
    /// Populate keys the CMS called invalid: fields its schema lacks.
    invalid_keys: Vec<Refused>,
    /// Refused even explicit populate with no key named: ask without.
    no_populate: bool,
}

pub struct StrapiClient {
    http: reqwest::Client,
    settings: StrapiSettings,
    normalizer: Normalizer,
    /// The explicit populate tree of each shape, from the content model.
    explicit: HashMap<TypeShape, Value>,
    /// By model (`home`, `news-updates`).
    accepted: Mutex<HashMap<String, Accepted>>,
    /// The strategy a type not asked for yet starts with: the configured
    /// one until the CMS refused it for some type.
    first: Mutex<PopulateStrategy>,
    in_flight: tokio::sync::Semaphore,
}

/// One answer of the CMS.
enum Answer {
    Found(Value, Option<Pagination>),
    Missing,
    Refused(String),
}

/// Where an answer is in its collection, as its `meta.pagination` says.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Pagination {
    Pages { page: u64, page_count: u64 },
    Offset { start: u64, total: u64 },
}

impl Pagination {
    fn of(answer: &Value) -> Option<Pagination> {
        let pagination = answer.pointer("/meta/pagination")?;
        let number = |name: &str| pagination.get(name).and_then(Value::as_u64);
        if let (Some(page), Some(page_count)) = (number("page"), number("pageCount")) {
            return Some(Pagination::Pages { page, page_count });
        }
        match (number("start"), number("total")) {
            (Some(start), Some(total)) => Some(Pagination::Offset { start, total }),
            _ => None,
        }
    }
}

/// Which page of a whole collection to ask for.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Paging {
    Page(u64),
    Start(u64),
}

impl Paging {
    fn params(self) -> Vec<(String, String)> {
        match self {
            Paging::Page(page) => vec![("pagination[page]".into(), page.to_string()), ("pagination[pageSize]".into(), PAGE_SIZE.to_string())],
            Paging::Start(start) => vec![("pagination[start]".into(), start.to_string()), ("pagination[limit]".into(), PAGE_SIZE.to_string())],
        }
    }

    /// The page after this one, which brought `got` items and `pagination`,
    /// if there is one.
    fn next(self, pagination: Option<Pagination>, got: usize) -> Option<Paging> {
        let got = got as u64;
        if got == 0 {
            return None;
        }
        match pagination {
            Some(Pagination::Pages { page, page_count }) => (page < page_count).then_some(Paging::Page(page + 1)),
            Some(Pagination::Offset { start, total }) => (start + got < total).then_some(Paging::Start(start + got)),
            None if got < PAGE_SIZE => None,
            None => Some(match self {
                Paging::Page(page) => Paging::Page(page + 1),
                Paging::Start(start) => Paging::Start(start + got),
            }),
        }
    }
}

impl StrapiClient {
    pub fn new(settings: StrapiSettings, normalizer: Normalizer) -> Result<StrapiClient, ContentError> {
        let http = reqwest::Client::builder()
            .timeout(settings.timeout)
            .pool_idle_timeout(Duration::from_secs(4))
            .user_agent(concat!("site/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| ContentError::Upstream(e.to_string()))?;
        let shapes = [
            TypeShape::Page,
            TypeShape::Sidebar,
            TypeShape::News,
            TypeShape::Device,
            TypeShape::BusinessService,
            TypeShape::Trick,
            TypeShape::Popup,
        ];
        let explicit = shapes.into_iter().map(|shape| (shape, shape.populate())).collect();
        let (settings_populate, settings_max_requests) = (settings.populate, settings.max_requests);
        Ok(StrapiClient {
            http,
            settings: StrapiSettings { base_url: settings.base_url.trim_end_matches('/').to_owned(), ..settings },
            normalizer,
            explicit,
            accepted: Mutex::new(HashMap::new()),
            first: Mutex::new(settings_populate),
            in_flight: tokio::sync::Semaphore::new(settings_max_requests.max(1)),
        })
    }

    fn accepted(&self, model: &str) -> Accepted {
        let accepted = crate::locks::lock(&self.accepted);
        accepted.get(model).cloned().unwrap_or_else(|| {
            let strategy = *crate::locks::lock(&self.first);
            Accepted { strategy, invalid_keys: Vec::new(), no_populate: false }
        })
    }

    /// Keeps what `model` accepts; a plugin the CMS lacks, it lacks for every type.
    fn learnt(&self, model: &str, before: &Accepted, now: &Accepted, refusal: &str) {
        if before.strategy != now.strategy {
            let mut first = crate::locks::lock(&self.first);
            if *first != now.strategy {
                tracing::warn!(refused = %short(refusal), "the CMS refused {:?} populate; asking with explicit populate parameters from now on", *first);
                *first = now.strategy;
            }
        } else {
            tracing::warn!(model, refused = %short(refusal), without = ?now.invalid_keys, no_populate = now.no_populate, "the CMS refused a populate key: its schema lacks the field; asking without it");
        }
        crate::locks::lock(&self.accepted).insert(model.to_owned(), now.clone());
    }

    /// The path under `/api/` and the query parameters for `query`, as the
    /// CMS accepts them so far.
    fn request(&self, query: &ContentQuery, lang: Lang, accepted: &Accepted) -> (String, Vec<(String, String)>) {
        let mut params = vec![("locale".to_owned(), lang.code().to_owned())];
        if self.settings.draft {
            params.push(("status".to_owned(), "draft".to_owned()));
        }
        let populate = |level: u32, shape: TypeShape| self.populate(level, shape, accepted);
        let path = match query {
            ContentQuery::Single(key) => {
                let level = if SHALLOW_SINGLES.contains(&key.as_str()) { SHALLOW_LEVEL } else { DEEP_LEVEL };
                params.extend(populate(level, TypeShape::of_single(key)));
                key.clone()
            }
            ContentQuery::List { collection, page_size, filter, page } => {
                params.extend(populate(DEEP_LEVEL, TypeShape::of_collection(*collection)));
                if let Some((field, value)) = filter {
                    params.push((format!("filters[{field}][$eq]"), value.clone()));
                }
                // Then by id, so that pages neither overlap nor skip where dates tie.
                params.push(("sort[0]".into(), "publishDate:desc".into()));
                params.push(("sort[1]".into(), "id:desc".into()));
                params.push(("pagination[page]".into(), page.to_string()));
                params.push(("pagination[pageSize]".into(), page_size.to_string()));
                collection.api_name().to_owned()
            }
            ContentQuery::Item { collection, id } => {
                params.extend(populate(DEEP_LEVEL, TypeShape::of_collection(*collection)));
                params.push(("filters[id][$eq]".into(), id.to_string()));
                collection.api_name().to_owned()
            }
            ContentQuery::All(collection) => {
                params.extend(populate(DEEP_LEVEL, TypeShape::of_collection(*collection)));
                // Then by id, so that pages neither overlap nor skip where dates tie.
                params.push(("sort[0]".into(), "publishDate:desc".into()));
                params.push(("sort[1]".into(), "id:desc".into()));
                collection.api_name().to_owned()
            }
            ContentQuery::Index(collection) => {
                let fields = super::index::fields(*collection).into_iter().filter(|field| !accepted.invalid_keys.iter().any(|invalid| invalid.key == *field));
                params.extend(fields.enumerate().map(|(n, field)| (format!("fields[{n}]"), field.to_owned())));
                // Oldest first: an item published while the pages are read comes last, shifting none.
                params.push(("sort".into(), "id:asc".into()));
                collection.api_name().to_owned()
            }
            ContentQuery::Popups(kind) => {
                params.push(("sort".into(), "id:desc".into()));
                params.push(("filters[type][$eq]".into(), kind.clone()));
                params.extend(populate(DEEP_LEVEL, TypeShape::Popup));
                contract::cms::POPUPS.to_owned()
            }
        };
        (format!("/api/{path}"), params)
    }

    fn populate(&self, level: u32, shape: TypeShape, accepted: &Accepted) -> Vec<(String, String)> {
        if accepted.no_populate {
            return Vec::new();
        }
        match accepted.strategy {
            PopulateStrategy::Deep => vec![("populate".into(), format!("deep,{level}"))],
            PopulateStrategy::Level => vec![("pLevel".into(), level.to_string())],
            PopulateStrategy::Explicit => {
                let tree = accepted.invalid_keys.iter().fold(self.explicit[&shape].clone(), |tree, invalid| match tree {
                    Value::Object(fields) => Value::Object(without(&fields, &invalid.key, invalid.under.as_deref())),
                    other => other,
                });
                contract::cms::populate_params(&tree)
            }
        }
    }

    /// Asks until the CMS answers or nothing is left to learn from its refusals.
    async fn ask(&self, query: &ContentQuery, lang: Lang) -> Result<Option<Value>, ContentError> {
        Ok(self.ask_page(query, lang, None).await?.map(|(value, _)| value))
    }

    /// [`StrapiClient::ask`] for one page of a whole collection, with where
    /// the answer is in it.
    async fn ask_page(&self, query: &ContentQuery, lang: Lang, paging: Option<Paging>) -> Result<Option<(Value, Option<Pagination>)>, ContentError> {
        // An index asks for fields, not populate: what it learns is kept apart.
        let model = if matches!(query, ContentQuery::Index(_)) { format!("{}?fields", query.model()) } else { query.model().to_owned() };
        let mut accepted = self.accepted(&model);
        for _ in 0..MAX_ATTEMPTS {
            let (path, mut params) = self.request(query, lang, &accepted);
            params.extend(paging.map(Paging::params).unwrap_or_default());
            match self.get(&path, &params).await? {
                Answer::Found(value, pagination) => return Ok(Some((value, pagination))),
                Answer::Missing => return Ok(None),
                Answer::Refused(body) => {
                    let learnt = match query {
                        ContentQuery::Index(collection) => learn_field(&accepted, &body, &super::index::fields(*collection)),
                        _ => learn(&accepted, &body),
                    };
                    let learnt = learnt.ok_or_else(|| ContentError::Upstream(format!("GET {path}: HTTP 400 {}", short(&body))))?;
                    self.learnt(&model, &accepted, &learnt, &body);
                    accepted = learnt;
                }
            }
        }
        Err(ContentError::Upstream(format!("{model}: the CMS kept refusing every populate parameter")))
    }

    /// Every item of a collection, page after page (see the module docs);
    /// `None` when the CMS has no such collection.
    async fn every_page(&self, query: &ContentQuery, lang: Lang) -> Result<Option<Value>, ContentError> {
        let mut items = Vec::new();
        let mut paging = Paging::Page(1);
        for _ in 0..MAX_PAGES {
            let Some((answer, pagination)) = self.ask_page(query, lang, Some(paging)).await? else {
                if paging == Paging::Page(1) {
                    return Ok(None);
                }
                return Err(ContentError::Upstream(format!("{query}: a page past the first was missing")));
            };
            let page = match answer {
                Value::Array(page) => page,
                Value::Null => Vec::new(),
                other => vec![other],
            };
            let got = page.len();
            items.extend(page);
            match paging.next(pagination, got) {
                Some(next) => paging = next,
                None => return Ok(Some(Value::Array(items))),
            }
        }
        tracing::warn!(%query, lang = lang.code(), pages = MAX_PAGES, "collection read stopped at its page limit");
        Ok(Some(Value::Array(items)))
    }

    async fn get(&self, path: &str, params: &[(String, String)]) -> Result<Answer, ContentError> {
        crate::monitoring::time_upstream("cms", self.get_once(path, params), |result| match result {
            Ok(Answer::Found(..)) => "ok",
            Ok(Answer::Missing) => "missing",
            Ok(Answer::Refused(_)) => "refused",
            Err(ContentError::Timeout(_)) => "timeout",
            Err(_) => "error",
        })
        .await
    }

    async fn get_once(&self, path: &str, params: &[(String, String)]) -> Result<Answer, ContentError> {
        let _turn = self.in_flight.acquire().await.map_err(|e| ContentError::Upstream(e.to_string()))?;
        let send = || {
            let request = self.http.get(format!("{}{path}", self.settings.base_url)).query(params);
            match &self.settings.token {
                Some(token) => request.bearer_auth(token).send(),
                None => request.send(),
            }
        };
        let response = match send().await {
            // A connection the CMS closed as it was reused: once more on a new one.
            Err(error) if error.is_request() && !error.is_timeout() => send().await,
            result => result,
        };
        let response = response.map_err(|e| {
            if e.is_timeout() { ContentError::Timeout(self.settings.timeout) } else { ContentError::Upstream(e.to_string()) }
        })?;
        let status = response.status();
        let bytes = response.bytes().await.map_err(|e| ContentError::Upstream(e.to_string()))?;
        match status {
            StatusCode::OK => {}
            // Strapi's answer for a missing type, entry or locale.
            StatusCode::NOT_FOUND => return Ok(Answer::Missing),
            StatusCode::BAD_REQUEST => return Ok(Answer::Refused(String::from_utf8_lossy(&bytes).into_owned())),
            status => return Err(ContentError::Upstream(format!("GET {path}: HTTP {status}"))),
        }
        let answer: Value = serde_json::from_slice(&bytes).map_err(|e| ContentError::Malformed(format!("GET {path}: {e}")))?;
        if !answer.is_object() || answer.get("data").is_none() {
            return Err(ContentError::Malformed(format!("GET {path}: no `data` in the answer")));
        }
        let pagination = Pagination::of(&answer);
        Ok(match self.normalizer.normalize(answer) {
            Value::Null => Answer::Missing,
            value => Answer::Found(value, pagination),
        })
    }

    /// An item by id in `lang`; in Strapi 5 perhaps by the id of its version
    /// in the other language (see the module docs).
    async fn item(&self, query: &ContentQuery, lang: Lang) -> Result<Option<Value>, ContentError> {
        if let Some(item) = first(self.ask(query, lang).await?) {
            return Ok(Some(item));
        }
        let ContentQuery::Item { collection, .. } = query else { return Ok(None) };
        let other = if lang == Lang::En { Lang::Sw } else { Lang::En };
        let Some(document) = first(self.ask(query, other).await?).and_then(|item| item.get("documentId").cloned()) else {
            return Ok(None);
        };
        let Value::String(document) = document else { return Ok(None) };
        let by_document = ContentQuery::List { collection: *collection, page_size: 1, filter: Some(("documentId".into(), document)), page: 1 };
        Ok(first(self.ask(&by_document, lang).await?))
    }
}

/// What to ask next after a 400 with `body`, if anything is left to try.
fn learn(accepted: &Accepted, body: &str) -> Option<Accepted> {
    if accepted.no_populate {
        return None;
    }
    if accepted.strategy != PopulateStrategy::Explicit {
        // The deep-populate plugin is not installed: ask a stock Strapi's way.
        return Some(Accepted { strategy: PopulateStrategy::Explicit, ..accepted.clone() });
    }
    match invalid_key(body) {
        Some(key) if !accepted.invalid_keys.contains(&key) => {
            let mut invalid_keys = accepted.invalid_keys.clone();
            invalid_keys.push(key);
            Some(Accepted { invalid_keys, ..accepted.clone() })
        }
        _ => Some(Accepted { no_populate: true, ..accepted.clone() }),
    }
}

/// What an index asks next after a 400 with `body`: without the field of
/// `fields` it names, which the collection's schema lacks.
fn learn_field(accepted: &Accepted, body: &str, fields: &[&str]) -> Option<Accepted> {
    let key = invalid_key(body).filter(|refused| fields.contains(&refused.key.as_str()) && !accepted.invalid_keys.contains(refused))?;
    let mut invalid_keys = accepted.invalid_keys.clone();
    invalid_keys.push(key);
    Some(Accepted { invalid_keys, ..accepted.clone() })
}

/// The key a Strapi validation error names and where: `error.details`
/// (`key`, and `path` in Strapi 5), or the message `Invalid key <key>`
/// (`… at <path>`).
fn invalid_key(body: &str) -> Option<Refused> {
    let error: Value = serde_json::from_str(body).ok()?;
    let error = error.get("error")?;
    let path = |path: &str| path.split('.').filter(|step| !step.is_empty()).map(str::to_owned).collect::<Vec<_>>();
    if let Some(Value::String(key)) = error.pointer("/details/key") {
        let under = match error.pointer("/details/path") {
            None => None,
            Some(Value::String(at)) => Some(path(at)),
            Some(_) => Some(Vec::new()),
        };
        return Some(Refused { key: key.clone(), under });
    }
    let message = error.get("message")?.as_str()?.strip_prefix("Invalid key ")?;
    let (key, under) = match message.split_once(" at ") {
        Some((key, at)) => (key, Some(path(at.trim()))),
        None => (message, None),
    };
    let key = key.trim().trim_matches(['"', '\'', '`']);
    (!key.is_empty()).then(|| Refused { key: key.to_owned(), under })
}

/// A populate tree's `fields` without `key` where the CMS refused it:
/// in the populate of the attribute path `under` (a dynamic zone's members
/// all share their zone's path), or wherever it is asked for when `under`
/// is `None`. Everything that held it is still populated (`true`, or `*`
/// for a dynamic zone's member): Strapi 5 leaves out a component nobody
/// asked for, so dropping the parent with the refused key would lose every
/// field it has (a `shared.seo` without `shareImage` would lose
/// `metaTitle`), and an image refused in one component stays asked for in
/// the others.
fn without(fields: &Map<String, Value>, key: &str, under: Option<&[String]>) -> Map<String, Value> {
    let here = under.is_none_or(<[String]>::is_empty);
    fields
        .iter()
        .filter(|(name, _)| !(here && *name == key))
        .map(|(name, entry)| {
            let entry = match under {
                None => entry_without(entry, key, None),
                Some([first, rest @ ..]) if first == name => entry_without(entry, key, Some(rest)),
                Some(_) => entry.clone(),
            };
            (name.clone(), entry)
        })
        .collect()
}

fn entry_without(entry: &Value, key: &str, under: Option<&[String]>) -> Value {
    if let Some(Value::Object(nested)) = entry.get("populate") {
        let nested = without(nested, key, under);
        return if nested.is_empty() { Value::Bool(true) } else { json!({ "populate": nested }) };
    }
    if let Some(Value::Object(members)) = entry.get("on") {
        let members: Map<String, Value> = members
            .iter()
            .map(|(uid, member)| {
                let member = match entry_without(member, key, under) {
                    Value::Bool(true) => json!({ "populate": "*" }),
                    member => member,
                };
                (uid.clone(), member)
            })
            .collect();
        return json!({ "on": members });
    }
    entry.clone()
}

/// The first element of a list answer, or the answer itself.
fn first(value: Option<Value>) -> Option<Value> {
    match value? {
        Value::Array(items) => items.into_iter().next(),
        Value::Null => None,
        item => Some(item),
    }
}

fn short(text: &str) -> String {
    text.chars().take(300).collect()
}

#[async_trait]
impl ContentSource for StrapiClient {
    async fn fetch(&self, query: &ContentQuery, lang: Lang) -> Result<Option<Value>, ContentError> {
        match query {
            ContentQuery::Item { .. } => self.item(query, lang).await,
            query if query.reads_every_page() => self.every_page(query, lang).await,
            _ => self.ask(query, lang).await,
        }
    }

    /// Asked with `populate=*`: every component, media field, relation and
    /// dynamic zone one level deep. A collection's first page only.
    async fn everything(&self, query: &ContentQuery, lang: Lang) -> Result<Option<Value>, ContentError> {
        if matches!(query, ContentQuery::Index(_)) {
            return Ok(None);
        }
        let bare = Accepted { strategy: PopulateStrategy::Explicit, invalid_keys: Vec::new(), no_populate: true };
        let (path, mut params) = self.request(query, lang, &bare);
        params.push(("populate".into(), "*".into()));
        match self.get(&path, &params).await? {
            Answer::Found(value, _) => Ok(Some(value)),
            Answer::Missing => Ok(None),
            Answer::Refused(body) => Err(ContentError::Upstream(format!("GET {path} with populate=*: HTTP 400 {}", short(&body)))),
        }
    }
}

#[cfg(test)]
mod tests {
    use contract::content::Collection;

    use super::*;

    fn client(populate: PopulateStrategy) -> StrapiClient {
        let settings = StrapiSettings { base_url: "http://cms/".into(), token: None, populate, timeout: Duration::from_secs(3), max_requests: 4, draft: false };
        StrapiClient::new(settings, Normalizer::default()).unwrap()
    }

    fn query_string(client: &StrapiClient, query: &ContentQuery, lang: Lang) -> (String, String) {
        let (path, params) = client.request(query, lang, &client.accepted(query.model()));
        (path, params.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&"))
    }

    #[test]
    fn builds_the_spec_requests() {
        let client = client(PopulateStrategy::Deep);
        assert_eq!(query_string(&client, &ContentQuery::single("home"), Lang::Sw), ("/api/home".into(), "locale=sw&populate=deep,10".into()));
        assert_eq!(query_string(&client, &ContentQuery::single("business-mid"), Lang::En).1, "locale=en&populate=deep,3");
        let list = ContentQuery::List { collection: Collection::NewsUpdates, page_size: 9, filter: None, page: 3 };
        assert_eq!(
            query_string(&client, &list, Lang::En),
            ("/api/news-updates".into(), "locale=en&populate=deep,10&sort[0]=publishDate:desc&sort[1]=id:desc&pagination[page]=3&pagination[pageSize]=9".into())
        );
        let index = ContentQuery::Index(Collection::DeviceUpdates);
        assert_eq!(
            query_string(&client, &index, Lang::Sw),
            ("/api/device-updates".into(), "locale=sw&fields[0]=slug&fields[1]=name&fields[2]=updatedAt&fields[3]=publishDate&sort=id:asc".into())
        );
        let services = ContentQuery::List { collection: Collection::VbuServices, page_size: 100, filter: Some(("categoryId".into(), "5".into())), page: 1 };
        assert!(query_string(&client, &services, Lang::En).1.contains("&filters[categoryId][$eq]=5&sort[0]=publishDate:desc&sort[1]=id:desc"));
        let item = ContentQuery::Item { collection: Collection::TrickMobiles, id: 4 };
        assert_eq!(query_string(&client, &item, Lang::En), ("/api/trick-mobiles".into(), "locale=en&populate=deep,10&filters[id][$eq]=4".into()));
        let popups = ContentQuery::Popups("home".into());
        assert_eq!(query_string(&client, &popups, Lang::En), ("/api/popups".into(), "locale=en&sort=id:desc&filters[type][$eq]=home&populate=deep,10".into()));
    }

    #[test]
    fn a_draft_client_asks_for_drafts() {
        let settings = StrapiSettings { base_url: "http://cms".into(), token: None, populate: PopulateStrategy::Deep, timeout: Duration::from_secs(3), max_requests: 4, draft: true };
        let client = StrapiClient::new(settings, Normalizer::default()).unwrap();
        assert_eq!(query_string(&client, &ContentQuery::single("home"), Lang::Sw).1, "locale=sw&status=draft&populate=deep,10");
    }

    #[test]
    fn the_first_strategy_is_a_setting() {
        let (_, query) = query_string(&client(PopulateStrategy::Level), &ContentQuery::single("large"), Lang::En);
        assert_eq!(query, "locale=en&pLevel=10");
        let (_, query) = query_string(&client(PopulateStrategy::Explicit), &ContentQuery::single("home"), Lang::En);
        assert!(query.contains("populate[seo][populate][shareImage]=true"), "{query}");
        assert!(query.contains("populate[sections][on][sections.card-grid][populate][cards][populate][image]=true"), "{query}");
        assert!(!query.contains("deep"), "{query}");
        assert_eq!("plevel".parse::<PopulateStrategy>(), Ok(PopulateStrategy::Level));
        assert!("deeper".parse::<PopulateStrategy>().is_err());
    }

    #[test]
    fn reads_on_while_either_pagination_says_there_is_more() {
        let pages = |page, page_count| Some(Pagination::Pages { page, page_count });
        assert_eq!(Paging::Page(1).next(pages(1, 3), 100), Some(Paging::Page(2)));
        assert_eq!(Paging::Page(3).next(pages(3, 3), 100), None);
        let offset = |start, total| Some(Pagination::Offset { start, total });
        assert_eq!(Paging::Page(1).next(offset(0, 250), 100), Some(Paging::Start(100)));
        assert_eq!(Paging::Start(200).next(offset(200, 250), 50), None);
        // A CMS capping the page below what was asked: on from what came.
        assert_eq!(Paging::Start(0).next(offset(0, 250), 25), Some(Paging::Start(25)));
        // No pagination: on while pages come full.
        assert_eq!(Paging::Page(1).next(None, 100), Some(Paging::Page(2)));
        assert_eq!(Paging::Page(2).next(None, 40), None);
        assert_eq!(Paging::Page(2).next(pages(2, 9), 0), None);
        let v4 = serde_json::json!({ "data": [], "meta": { "pagination": { "page": 2, "pageSize": 100, "pageCount": 3, "total": 250 } } });
        assert_eq!(Pagination::of(&v4), pages(2, 3));
        let offset_answer = serde_json::json!({ "data": [], "meta": { "pagination": { "start": 100, "limit": 100, "total": 250 } } });
        assert_eq!(Pagination::of(&offset_answer), offset(100, 250));
    }

    #[test]
    fn a_refusal_teaches_what_to_ask_next() {
        let deep = Accepted { strategy: PopulateStrategy::Deep, invalid_keys: vec![], no_populate: false };
        let invalid = |key: &str| format!(r#"{{"data":null,"error":{{"status":400,"name":"ValidationError","message":"Invalid key {key}","details":{{"key":"{key}","path":null}}}}}}"#);
        let explicit = learn(&deep, &invalid("deep")).unwrap();
        assert_eq!(explicit.strategy, PopulateStrategy::Explicit);
        let without_sections = learn(&explicit, &invalid("sections")).unwrap();
        assert_eq!(without_sections.invalid_keys, vec![Refused { key: "sections".into(), under: Some(vec![]) }]);
        let client = client(PopulateStrategy::Deep);
        let params = client.populate(DEEP_LEVEL, TypeShape::Page, &without_sections);
        assert!(!params.is_empty() && params.iter().all(|(k, _)| !k.contains("[sections]")), "{params:?}");
        // The same key again, or no key named: ask without populate, then give up.
        let bare = learn(&without_sections, &invalid("sections")).unwrap();
        assert!(bare.no_populate);
        assert_eq!(learn(&bare, "{}"), None);
        assert_eq!(invalid_key(r#"{"error":{"message":"Invalid key sections"}}"#), Some(Refused { key: "sections".into(), under: None }));
        let nested = r#"{"error":{"message":"Invalid key image at sections.cards","details":{"key":"image","path":"sections.cards"}}}"#;
        assert_eq!(invalid_key(nested), Some(Refused { key: "image".into(), under: Some(vec!["sections".into(), "cards".into()]) }));
        assert_eq!(invalid_key(r#"{"error":{"message":"Invalid key image at seo.shareImage"}}"#).unwrap().under, Some(vec!["seo".into(), "shareImage".into()]));
    }

    /// A stock Strapi 5 whose `shared.seo` lacks `shareImage`: the key goes,
    /// `seo` itself is still asked for (Strapi 5 returns no component that
    /// is not), and so is a card grid whose cards lose their image.
    #[test]
    fn a_refused_key_leaves_its_parent_populated() {
        let client = client(PopulateStrategy::Explicit);
        let accepted = |keys: &[&str]| Accepted {
            strategy: PopulateStrategy::Explicit,
            invalid_keys: keys.iter().map(|k| Refused { key: k.to_string(), under: None }).collect(),
            no_populate: false,
        };
        let params = client.populate(DEEP_LEVEL, TypeShape::Page, &accepted(&["shareImage"]));
        let keys: Vec<&str> = params.iter().map(|(k, _)| k.as_str()).collect();
        assert!(keys.contains(&"populate[seo]"), "{keys:?}");
        assert!(!keys.iter().any(|k| k.contains("shareImage")), "{keys:?}");
        assert!(keys.iter().any(|k| k.starts_with("populate[sections][on]")), "the rest stays: {keys:?}");
        let params = client.populate(DEEP_LEVEL, TypeShape::Page, &accepted(&["image", "shareImage"]));
        let grid = params.iter().find(|(k, _)| k.contains("[sections.card-grid]")).expect("the card grid still asked for");
        assert!(!grid.0.contains("[image]"), "{grid:?}");
        assert!(grid.0.contains("[cards]") || grid.1 == "*", "{grid:?}");
        assert!(params.iter().all(|(k, _)| !k.contains("[image]")), "{params:?}");
    }

    /// Strapi 5 says where it refused a key: only that component's populate
    /// loses it. Cards without an image keep their other fields, and every
    /// other image (in other dynamic zone members, other components) is
    /// still asked for; a key refused at the top goes from the top only.
    #[test]
    fn a_key_refused_at_a_path_goes_from_there_only() {
        let client = client(PopulateStrategy::Explicit);
        let everything = client.populate(DEEP_LEVEL, TypeShape::Page, &Accepted { strategy: PopulateStrategy::Explicit, invalid_keys: vec![], no_populate: false });
        let at = |key: &str, under: &[&str]| Accepted {
            strategy: PopulateStrategy::Explicit,
            invalid_keys: vec![Refused { key: key.into(), under: Some(under.iter().map(|s| s.to_string()).collect()) }],
            no_populate: false,
        };
        let params = client.populate(DEEP_LEVEL, TypeShape::Page, &at("image", &["sections", "cards"]));
        let images = |params: &[(String, String)]| params.iter().filter(|(k, _)| k.ends_with("[image]")).count();
        assert!(params.iter().all(|(k, _)| !k.contains("[cards][populate][image]")), "{params:?}");
        assert!(params.iter().any(|(k, _)| k.contains("[sections.card-grid][populate][cards]")), "the cards stay: {params:?}");
        let card_images = everything.iter().filter(|(k, _)| k.contains("[cards][populate][image]")).count();
        assert!(card_images > 0 && images(&params) == images(&everything) - card_images, "{params:?}");
        // A media field of a component in a component.
        let params = client.populate(DEEP_LEVEL, TypeShape::Page, &at("shareImage", &["seo"]));
        assert!(params.iter().any(|(k, _)| k == "populate[seo]"), "{params:?}");
        assert!(params.iter().all(|(k, _)| !k.contains("shareImage")), "{params:?}");
        assert_eq!(params.len(), everything.len(), "nothing else changes: {params:?}");
        // A path that is not asked for changes nothing.
        assert_eq!(client.populate(DEEP_LEVEL, TypeShape::Page, &at("image", &["nowhere"])), everything);
    }
}
