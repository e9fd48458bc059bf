//! The Strapi REST client (spec §7), used when `CMS_URL` is set.
//!
//! Paths: single types are read at `/api/<key>`, where `<key>` is the
//! route's content key in `app/src/routes.ts` (the Strapi single type's API
//! ID); that table is the one place single-type names are chosen. Collections
//! are `news-updates`, `sport-updates`, `foundation-updates`,
//! `device-updates`, `vbu-services`, `trick-mobiles` and `popups`.
//!
//! Every request carries `locale` and a populate parameter chosen by
//! [`PopulateStrategy`]; lists are `sort=publishDate:desc`, page 1.

use std::str::FromStr;
use std::time::Duration;

use async_trait::async_trait;
use reqwest::StatusCode;
use serde_json::Value;
use ssr_runtime::Lang;

use super::{ContentError, ContentQuery, ContentSource, Normalizer};

/// Single types populated three levels deep instead of ten (spec §7).
const SHALLOW_SINGLES: [&str; 3] = ["business-small", "business-mid", "business-large"];
const DEEP_LEVEL: u32 = 10;
const SHALLOW_LEVEL: u32 = 3;
/// Strapi's default maximum page size, for "all tricks".
const ALL_PAGE_SIZE: u32 = 100;

/// How relations, media and components are asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PopulateStrategy {
    /// `populate=deep,N`: the strapi-plugin-populate-deep plugin for v4, as the spec.
    #[default]
    Deep,
    /// `pLevel=N`: the Strapi 5 forks of that plugin.
    Level,
    /// Explicit `populate[…]` parameters built from the known page shape; works on
    /// a stock Strapi 4 or 5 with no plugin (see [`explicit_populate`]).
    Explicit,
}

impl FromStr for PopulateStrategy {
    type Err = String;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        match value {
            "deep" => Ok(PopulateStrategy::Deep),
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
}

pub struct StrapiClient {
    http: reqwest::Client,
    settings: StrapiSettings,
    normalizer: Normalizer,
}

impl StrapiClient {
    pub fn new(settings: StrapiSettings, normalizer: Normalizer) -> Result<StrapiClient, ContentError> {
        let http = reqwest::Client::builder()
            .timeout(settings.timeout)
            .user_agent(concat!("site/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| ContentError::Upstream(e.to_string()))?;
        Ok(StrapiClient { http, settings: StrapiSettings { base_url: settings.base_url.trim_end_matches('/').to_owned(), ..settings }, normalizer })
    }

    /// The path under `/api/` and the query parameters for `query`.
    pub fn request(&self, query: &ContentQuery, lang: Lang) -> (String, Vec<(String, String)>) {
        let mut params = vec![("locale".to_owned(), lang.code().to_owned())];
        let path = match query {
            ContentQuery::Single(key) => {
                let level = if SHALLOW_SINGLES.contains(&key.as_str()) { SHALLOW_LEVEL } else { DEEP_LEVEL };
                params.extend(self.populate(level, Shape::Page));
                key.clone()
            }
            ContentQuery::List { collection, page_size, filter } => {
                params.extend(self.populate(DEEP_LEVEL, Shape::Item));
                if let Some((field, value)) = filter {
                    params.push((format!("filters[{field}][$eq]"), value.clone()));
                }
                params.push(("sort".into(), "publishDate:desc".into()));
                params.push(("pagination[page]".into(), "1".into()));
                params.push(("pagination[pageSize]".into(), page_size.to_string()));
                collection.clone()
            }
            ContentQuery::Item { collection, id } => {
                params.extend(self.populate(DEEP_LEVEL, Shape::Item));
                format!("{collection}/{id}")
            }
            ContentQuery::All(collection) => {
                params.extend(self.populate(DEEP_LEVEL, Shape::Item));
                params.push(("pagination[pageSize]".into(), ALL_PAGE_SIZE.to_string()));
                collection.clone()
            }
            ContentQuery::Popups(kind) => {
                params.push(("sort".into(), "id:desc".into()));
                params.push(("filters[type][$eq]".into(), kind.clone()));
                params.extend(self.populate(DEEP_LEVEL, Shape::Item));
                "popups".into()
            }
        };
        (format!("/api/{path}"), params)
    }

    fn populate(&self, level: u32, shape: Shape) -> Vec<(String, String)> {
        match self.settings.populate {
            PopulateStrategy::Deep => vec![("populate".into(), format!("deep,{level}"))],
            PopulateStrategy::Level => vec![("pLevel".into(), level.to_string())],
            PopulateStrategy::Explicit => explicit_populate(shape),
        }
    }
}

#[derive(Clone, Copy)]
enum Shape {
    /// A single type: `seo` and the `sections` dynamic zone.
    Page,
    /// A collection item: its media and components one level down.
    Item,
}

/// Components of the `sections` zone and their nested parts that hold media
/// (see `content/README.md`). Components not listed come back with their own
/// fields only.
const SECTION_POPULATE: [(&str, Option<&str>); 12] = [
    ("sections.hero", None),
    ("sections.rich-text", None),
    ("sections.card-grid", Some("cards")),
    ("sections.bundle-table", Some("bundles")),
    ("sections.faq", Some("items")),
    ("sections.table", Some("rows")),
    ("sections.tariff-bands", Some("bands")),
    ("sections.steps", Some("steps")),
    ("sections.documents", Some("documents")),
    ("sections.people", Some("people")),
    ("sections.events", Some("events")),
    ("sections.cta-banner", None),
];

/// `populate[…]` parameters for a stock Strapi (no deep-populate plugin).
fn explicit_populate(shape: Shape) -> Vec<(String, String)> {
    match shape {
        Shape::Item => vec![("populate".into(), "*".into())],
        Shape::Page => {
            let mut params = vec![("populate[seo][populate]".into(), "*".into()), ("populate[links]".into(), "*".into())];
            for (component, nested) in SECTION_POPULATE {
                let key = match nested {
                    Some(field) => format!("populate[sections][on][{component}][populate][{field}][populate]"),
                    None => format!("populate[sections][on][{component}][populate]"),
                };
                params.push((key, "*".into()));
            }
            params
        }
    }
}

#[async_trait]
impl ContentSource for StrapiClient {
    async fn fetch(&self, query: &ContentQuery, lang: Lang) -> Result<Option<Value>, ContentError> {
        let (path, params) = self.request(query, lang);
        let mut request = self.http.get(format!("{}{path}", self.settings.base_url)).query(&params);
        if let Some(token) = &self.settings.token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.map_err(|e| {
            if e.is_timeout() { ContentError::Timeout(self.settings.timeout) } else { ContentError::Upstream(e.to_string()) }
        })?;
        match response.status() {
            StatusCode::OK => {}
            // Strapi's answer for a missing entry or a locale it lacks.
            StatusCode::NOT_FOUND => return Ok(None),
            status => return Err(ContentError::Upstream(format!("GET {path}: HTTP {status}"))),
        }
        let bytes = response.bytes().await.map_err(|e| ContentError::Upstream(e.to_string()))?;
        let answer: Value = serde_json::from_slice(&bytes).map_err(|e| ContentError::Malformed(format!("GET {path}: {e}")))?;
        if !answer.is_object() || answer.get("data").is_none() {
            return Err(ContentError::Malformed(format!("GET {path}: no `data` in the answer")));
        }
        Ok(match self.normalizer.normalize(answer) {
            Value::Null => None,
            value => Some(value),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(populate: PopulateStrategy) -> StrapiClient {
        let settings = StrapiSettings { base_url: "http://cms/".into(), token: None, populate, timeout: Duration::from_secs(3) };
        StrapiClient::new(settings, Normalizer::default()).unwrap()
    }

    fn query_string(params: &[(String, String)]) -> String {
        params.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&")
    }

    #[test]
    fn builds_the_spec_requests() {
        let client = client(PopulateStrategy::Deep);
        let (path, params) = client.request(&ContentQuery::single("home"), Lang::Sw);
        assert_eq!((path.as_str(), query_string(&params).as_str()), ("/api/home", "locale=sw&populate=deep,10"));
        let (_, params) = client.request(&ContentQuery::single("business-mid"), Lang::En);
        assert_eq!(query_string(&params), "locale=en&populate=deep,3");
        let list = ContentQuery::List { collection: "news-updates".into(), page_size: 9, filter: None };
        let (path, params) = client.request(&list, Lang::En);
        assert_eq!(path, "/api/news-updates");
        assert_eq!(
            query_string(&params),
            "locale=en&populate=deep,10&sort=publishDate:desc&pagination[page]=1&pagination[pageSize]=9"
        );
        let services = ContentQuery::List { collection: "vbu-services".into(), page_size: 100, filter: Some(("categoryId".into(), "5".into())) };
        let (_, params) = client.request(&services, Lang::En);
        assert!(query_string(&params).contains("&filters[categoryId][$eq]=5&sort=publishDate:desc"));
        let (path, _) = client.request(&ContentQuery::Item { collection: "trick-mobiles".into(), id: 4 }, Lang::En);
        assert_eq!(path, "/api/trick-mobiles/4");
        let (path, params) = client.request(&ContentQuery::Popups("home".into()), Lang::En);
        assert_eq!(path, "/api/popups");
        assert_eq!(query_string(&params), "locale=en&sort=id:desc&filters[type][$eq]=home&populate=deep,10");
    }

    #[test]
    fn populate_strategy_is_a_setting() {
        let (_, params) = client(PopulateStrategy::Level).request(&ContentQuery::single("large"), Lang::En);
        assert_eq!(query_string(&params), "locale=en&pLevel=10");
        let (_, params) = client(PopulateStrategy::Explicit).request(&ContentQuery::single("home"), Lang::En);
        let query = query_string(&params);
        assert!(query.contains("populate[seo][populate]=*"), "{query}");
        assert!(query.contains("populate[sections][on][sections.card-grid][populate][cards][populate]=*"), "{query}");
        assert!(!query.contains("deep"), "{query}");
        assert_eq!("plevel".parse::<PopulateStrategy>(), Ok(PopulateStrategy::Level));
        assert!("deeper".parse::<PopulateStrategy>().is_err());
    }
}
