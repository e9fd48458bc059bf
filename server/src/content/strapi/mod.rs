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
//! - this module: the client, its requests and the [`ContentSource`] it is;
//! - `populate`: what is asked for first, and what the CMS's refusals teach;
//! - `paging`: reading a whole collection page after page.
//!
//! Every request carries `locale` (but that of a type that is not
//! localized, the locations) and populate parameters. Any Strapi works
//! with only `CMS_URL` set: the configured [`PopulateStrategy`] is tried
//! first (by default `populate=deep,N`, the deep-populate plugin's); a CMS that refuses it
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
//! asked with `fields[…]` for the few fields it needs and its photo's
//! address alone) is
//! read page after page of [`PAGE_SIZE`], Strapi's largest, until the
//! answers' `meta.pagination` says there is no more: `page`/`pageCount`,
//! or `start`/`limit`/`total`, whichever the CMS answers with (without
//! either, until a page comes back short). A page that fails fails the
//! whole read, so the cache keeps serving the last complete copy. The
//! locations are handed over a page at a time as they come
//! ([`ContentSource::each_page`]), never gathered into one answer.
//!
//! A client made for the preview (`draft`) asks every request with
//! `status=draft` (Strapi 5): the latest version of each entry, published or
//! not. Strapi 4's `publicationState=preview` is not sent.
//!
//! Strapi 5 gives each locale of an entry its own id (one `documentId`):
//! an item is asked for with its versions in the other language
//! (`localizations`: explicit populate asks for their address alone, the
//! deep-populate plugins give them of themselves), so that one request
//! gives its page its address in both languages. An item asked for by the
//! id of its other-language version is found through that version's
//! `documentId`, and comes back with its own id.
//!
//! A collection the CMS answers 404 for (it has no such type, as a site
//! upgraded before its editors add one) is read as none: its pages show
//! none, and it is logged once.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::time::Duration;

use async_trait::async_trait;
use contract::Lang;
use contract::cms::TypeShape;
use reqwest::StatusCode;
use serde_json::Value;

use super::{ContentError, ContentQuery, ContentSource, Localizations, Normalizer, Stamp};

mod paging;
mod populate;
#[cfg(test)]
mod tests;

pub use crate::config::PopulateStrategy;
use paging::{MAX_PAGES, Pagination, Paging};
use populate::{Accepted, learn, learn_field, without};

/// Single types populated three levels deep instead of ten: the business
/// pages nest their services' relations, which ten levels would multiply.
const SHALLOW_SINGLES: [&str; 3] = ["business-small", "business-mid", "business-large"];
const DEEP_LEVEL: u32 = 10;
const SHALLOW_LEVEL: u32 = 3;
/// Refusals one fetch may learn from before it gives up.
const MAX_ATTEMPTS: usize = 16;
/// The relation to an item's versions in the other languages, and what is
/// asked of each: its address, and whether it is published (Strapi 5 may
/// list a document's drafts beside its published rows).
const LOCALIZATIONS: &str = "localizations";
const LOCALIZATION_FIELDS: [&str; 3] = ["slug", "locale", "publishedAt"];

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
    /// Collections the CMS answered 404 for, each logged once until it has them.
    missing: Mutex<HashSet<String>>,
}

/// One answer of the CMS.
enum Answer {
    Found(Value, Option<Pagination>),
    /// An answer with no entry (`data: null`).
    Missing,
    /// HTTP 404: for a collection, the CMS has no such type.
    NotFound,
    Refused(String),
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
            TypeShape::Location,
            TypeShape::Synonym,
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
            missing: Mutex::new(HashSet::new()),
        })
    }

    fn accepted(&self, model: &str) -> Accepted {
        let accepted = crate::infra::locks::lock(&self.accepted);
        accepted.get(model).cloned().unwrap_or_else(|| {
            let strategy = *crate::infra::locks::lock(&self.first);
            Accepted { strategy, invalid_keys: Vec::new(), no_populate: false }
        })
    }

    /// Keeps what `model` accepts; a plugin the CMS lacks, it lacks for every type.
    fn learnt(&self, model: &str, before: &Accepted, now: &Accepted, refusal: &str) {
        if before.strategy != now.strategy {
            let mut first = crate::infra::locks::lock(&self.first);
            if *first != now.strategy {
                tracing::warn!(refused = %short(refusal), "the CMS refused {:?} populate; asking with explicit populate parameters from now on", *first);
                *first = now.strategy;
            }
        } else {
            tracing::warn!(model, refused = %short(refusal), without = ?now.invalid_keys, no_populate = now.no_populate, "the CMS refused a populate key: its schema lacks the field; asking without it");
        }
        crate::infra::locks::lock(&self.accepted).insert(model.to_owned(), now.clone());
    }

    /// The path under `/api/` and the query parameters for `query`, as the
    /// CMS accepts them so far.
    fn request(&self, query: &ContentQuery, lang: Lang, accepted: &Accepted) -> (String, Vec<(String, String)>) {
        // A type that is not localized is asked for without a language (Strapi 5 ignores one, 4 may refuse it).
        let mut params =
            if query.localized() { vec![("locale".to_owned(), lang.code().to_owned())] } else { Vec::new() };
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
                params.extend(localizations(accepted));
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
                let fields = super::index::fields(*collection)
                    .into_iter()
                    .filter(|field| !accepted.invalid_keys.iter().any(|invalid| invalid.key == *field));
                params.extend(fields.enumerate().map(|(n, field)| (format!("fields[{n}]"), field.to_owned())));
                let image = super::index::image_field(*collection)
                    .filter(|image| !accepted.invalid_keys.iter().any(|invalid| invalid.key == *image));
                if let Some(image) = image {
                    params.extend(
                        super::index::IMAGE_FIELDS
                            .iter()
                            .enumerate()
                            .map(|(n, field)| (format!("populate[{image}][fields][{n}]"), (*field).to_owned())),
                    );
                }
                // Oldest first: an item published while the pages are read comes last, shifting none.
                params.push(("sort".into(), "id:asc".into()));
                collection.api_name().to_owned()
            }
            ContentQuery::Locations => {
                let fields = contract::locations::LOCATION_FIELDS
                    .into_iter()
                    .filter(|field| !accepted.invalid_keys.iter().any(|invalid| invalid.key == *field));
                params.extend(fields.enumerate().map(|(n, field)| (format!("fields[{n}]"), field.to_owned())));
                // Oldest first, as an index: an entry added while the pages are read comes last.
                params.push(("sort".into(), "id:asc".into()));
                contract::cms::LOCATIONS.to_owned()
            }
            ContentQuery::Synonyms => {
                // Text only, nothing to populate; oldest first, as an index.
                params.push(("sort".into(), "id:asc".into()));
                contract::cms::SYNONYMS.to_owned()
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
                let tree =
                    accepted.invalid_keys.iter().fold(self.explicit[&shape].clone(), |tree, invalid| match tree {
                        Value::Object(fields) => {
                            Value::Object(without(&fields, &invalid.key, invalid.under.as_deref()))
                        }
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
    async fn ask_page(
        &self,
        query: &ContentQuery,
        lang: Lang,
        paging: Option<Paging>,
    ) -> Result<Option<(Value, Option<Pagination>)>, ContentError> {
        // An index asks for fields, not populate: what it learns is kept apart.
        let model = if matches!(query, ContentQuery::Index(_) | ContentQuery::Locations) {
            format!("{}?fields", query.model())
        } else {
            query.model().to_owned()
        };
        let mut accepted = self.accepted(&model);
        for _ in 0..MAX_ATTEMPTS {
            let (path, mut params) = self.request(query, lang, &accepted);
            params.extend(paging.map(Paging::params).unwrap_or_default());
            match self.get(&path, &params).await? {
                Answer::Found(value, pagination) => {
                    self.has_type(query, true);
                    return Ok(Some((value, pagination)));
                }
                Answer::Missing => return Ok(None),
                Answer::NotFound => {
                    self.has_type(query, false);
                    return Ok(None);
                }
                Answer::Refused(body) => {
                    let learnt = match query {
                        ContentQuery::Index(collection) => {
                            learn_field(&accepted, &body, &super::index::keys(*collection))
                        }
                        ContentQuery::Locations => learn_field(&accepted, &body, &contract::locations::LOCATION_FIELDS),
                        _ => learn(&accepted, &body),
                    };
                    let learnt = learnt
                        .ok_or_else(|| ContentError::Upstream(format!("GET {path}: HTTP 400 {}", short(&body))))?;
                    self.learnt(&model, &accepted, &learnt, &body);
                    accepted = learnt;
                }
            }
        }
        Err(ContentError::Upstream(format!("{model}: the CMS kept refusing every populate parameter")))
    }

    /// Notes whether the CMS has the collection `query` reads (`found`: it
    /// answered; else 404): one it lacks is logged once, not at every read,
    /// and again only if it goes missing after it was found. A single type
    /// answers 404 for a missing entry too; the page that reads it says so.
    fn has_type(&self, query: &ContentQuery, found: bool) {
        if matches!(query, ContentQuery::Single(_)) {
            return;
        }
        let model = query.model();
        let mut missing = crate::infra::locks::lock(&self.missing);
        if found {
            missing.remove(model);
        } else if missing.insert(model.to_owned()) {
            tracing::warn!(
                model,
                "the CMS has no such collection (404): the pages that read it show none until it is added"
            );
        }
    }

    /// Every item of a collection, page after page (see the module docs);
    /// `None` when the CMS has no such collection.
    async fn every_page(&self, query: &ContentQuery, lang: Lang) -> Result<Option<Value>, ContentError> {
        let mut items = Vec::new();
        let found = self
            .pages(query, lang, &mut |page| match page {
                Value::Array(page) => items.extend(page),
                Value::Null => {}
                other => items.push(other),
            })
            .await?;
        Ok(found.then_some(Value::Array(items)))
    }

    /// Each page of a whole collection handed to `take` as it comes (see
    /// [`ContentSource::each_page`]); `false` when the CMS has no such collection.
    async fn pages(
        &self,
        query: &ContentQuery,
        lang: Lang,
        take: &mut (dyn FnMut(Value) + Send),
    ) -> Result<bool, ContentError> {
        let mut paging = Paging::Page(1);
        for _ in 0..MAX_PAGES {
            let Some((answer, pagination)) = self.ask_page(query, lang, Some(paging)).await? else {
                if paging == Paging::Page(1) {
                    return Ok(false);
                }
                return Err(ContentError::Upstream(format!("{query}: a page past the first was missing")));
            };
            let got = match &answer {
                Value::Array(page) => page.len(),
                Value::Null => 0,
                _ => 1,
            };
            take(answer);
            match paging.next(pagination, got) {
                Some(next) => paging = next,
                None => return Ok(true),
            }
        }
        tracing::warn!(%query, lang = lang.code(), pages = MAX_PAGES, "collection read stopped at its page limit");
        Ok(true)
    }

    async fn get(&self, path: &str, params: &[(String, String)]) -> Result<Answer, ContentError> {
        crate::telemetry::time_upstream("cms", self.get_once(path, params), |result| match result {
            Ok(Answer::Found(..)) => "ok",
            Ok(Answer::Missing | Answer::NotFound) => "missing",
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
            if e.is_timeout() {
                ContentError::Timeout(self.settings.timeout)
            } else {
                ContentError::Upstream(e.to_string())
            }
        })?;
        let status = response.status();
        let bytes = response.bytes().await.map_err(|e| ContentError::Upstream(e.to_string()))?;
        match status {
            StatusCode::OK => {}
            // Strapi's answer for a missing type, entry or locale.
            StatusCode::NOT_FOUND => return Ok(Answer::NotFound),
            StatusCode::BAD_REQUEST => return Ok(Answer::Refused(String::from_utf8_lossy(&bytes).into_owned())),
            status => return Err(ContentError::Upstream(format!("GET {path}: HTTP {status}"))),
        }
        let answer: Value =
            serde_json::from_slice(&bytes).map_err(|e| ContentError::Malformed(format!("GET {path}: {e}")))?;
        if !answer.is_object() || answer.get("data").is_none() {
            return Err(ContentError::Malformed(format!("GET {path}: no `data` in the answer")));
        }
        let pagination = Pagination::of(&answer);
        Ok(match self.normalizer.normalize(answer) {
            Value::Null => Answer::Missing,
            value => Answer::Found(value, pagination),
        })
    }

    /// An item by id in `lang`; perhaps by the id of its version in the
    /// other language (see the module docs), found through that version's
    /// document (Strapi 5) or `localizations` (Strapi 4).
    async fn item(&self, query: &ContentQuery, lang: Lang) -> Result<Option<Value>, ContentError> {
        if let Some(item) = first(self.ask(query, lang).await?) {
            return Ok(Some(item));
        }
        let ContentQuery::Item { collection, .. } = query else { return Ok(None) };
        let other = if lang == Lang::En { Lang::Sw } else { Lang::En };
        let Some(version) = first(self.ask(query, other).await?) else { return Ok(None) };
        // Its document (Strapi 5), else the id its `localizations` give this language's version (Strapi 4).
        let filter = match version.get("documentId") {
            Some(Value::String(document)) => ("documentId".to_owned(), document.clone()),
            _ => match Localizations::of(&version).and_then(|l| l.version(lang, self.settings.draft).map(|v| v.id)) {
                Some(id) => ("id".to_owned(), id.to_string()),
                None => return Ok(None),
            },
        };
        let by = ContentQuery::List { collection: *collection, page_size: 1, filter: Some(filter), page: 1 };
        Ok(first(self.ask(&by, lang).await?))
    }
}
/// What an item's other-language versions are asked with: explicit
/// populate's `populate[localizations][fields]`, each field but those the
/// CMS refused (all of them where it refused `localizations` itself, a type
/// that is not localized). The deep-populate plugins populate
/// `localizations` of themselves (one level deep), and their `populate=deep`
/// leaves no room for more: they are asked nothing more.
fn localizations(accepted: &Accepted) -> Vec<(String, String)> {
    // A field refused in the relation's populate, or where the CMS did not say (Strapi 4).
    let refused = |key: &str, in_relation: bool| {
        accepted.invalid_keys.iter().any(|invalid| {
            invalid.key == key
                && (!in_relation || invalid.under.as_ref().is_none_or(|under| under.iter().any(|s| s == LOCALIZATIONS)))
        })
    };
    if accepted.no_populate || accepted.strategy != PopulateStrategy::Explicit || refused(LOCALIZATIONS, false) {
        return Vec::new();
    }
    LOCALIZATION_FIELDS
        .into_iter()
        .filter(|field| !refused(field, true))
        .enumerate()
        .map(|(n, field)| (format!("populate[{LOCALIZATIONS}][fields][{n}]"), field.to_owned()))
        .collect()
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

    async fn each_page(
        &self,
        query: &ContentQuery,
        lang: Lang,
        page: &mut (dyn FnMut(Value) + Send),
    ) -> Result<bool, ContentError> {
        if !query.reads_every_page() {
            let answer = self.fetch(query, lang).await?;
            return Ok(answer.map(page).is_some());
        }
        self.pages(query, lang, page).await
    }

    /// The collection's one item changed last (`sort=updatedAt:desc`, that
    /// field alone), and the count its pagination gives: one small request.
    async fn stamp(&self, query: &ContentQuery, lang: Lang) -> Result<Option<Stamp>, ContentError> {
        if !query.reads_every_page() {
            return Ok(None);
        }
        let bare = Accepted { strategy: PopulateStrategy::Explicit, invalid_keys: Vec::new(), no_populate: true };
        let (path, params) = self.request(query, lang, &bare);
        // The language and the drafts as the read asks; nothing else of it.
        let mut params: Vec<_> = params.into_iter().filter(|(name, _)| name == "locale" || name == "status").collect();
        params.extend(
            [
                ("fields[0]", "updatedAt"),
                ("sort", "updatedAt:desc"),
                ("pagination[page]", "1"),
                ("pagination[pageSize]", "1"),
            ]
            .map(|(name, value)| (name.to_owned(), value.to_owned())),
        );
        match self.get(&path, &params).await? {
            Answer::Found(value, pagination) => {
                let count = match pagination {
                    // One item a page: as many pages as items.
                    Some(Pagination::Pages { page_count, .. }) => page_count,
                    Some(Pagination::Offset { total, .. }) => total,
                    None => return Ok(None),
                };
                let newest = first(Some(value)).and_then(|item| item.get("updatedAt")?.as_str().map(str::to_owned));
                // Items without the time they changed say nothing: the collection is read whole.
                Ok((count == 0 || newest.is_some()).then_some(Stamp { count, newest }))
            }
            // No such type (its read says so), or one the CMS does not sort by when it changed.
            Answer::Missing | Answer::NotFound | Answer::Refused(_) => Ok(None),
        }
    }

    /// Asked with `populate=*`: every component, media field, relation and
    /// dynamic zone one level deep. A collection's first page only.
    async fn everything(&self, query: &ContentQuery, lang: Lang) -> Result<Option<Value>, ContentError> {
        if matches!(query, ContentQuery::Index(_) | ContentQuery::Locations) {
            return Ok(None);
        }
        let bare = Accepted { strategy: PopulateStrategy::Explicit, invalid_keys: Vec::new(), no_populate: true };
        let (path, mut params) = self.request(query, lang, &bare);
        params.push(("populate".into(), "*".into()));
        match self.get(&path, &params).await? {
            Answer::Found(value, _) => Ok(Some(value)),
            Answer::Missing | Answer::NotFound => Ok(None),
            Answer::Refused(body) => {
                Err(ContentError::Upstream(format!("GET {path} with populate=*: HTTP 400 {}", short(&body))))
            }
        }
    }
}
