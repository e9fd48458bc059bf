//! [`AppState`], what every handler and layer shares, and how it is opened
//! from the configuration: the manifests parsed, the keys read, the engines
//! started, the stores opened.

use std::sync::Arc;
use std::time::Duration;

use crate::sources::{content_cache, content_source, drafts_source, image_signer, writable_data_dir};
use crate::{AppBundle, AppError, Config};
use crate::{account, assets, connections, content, forms, images, keys, manifest, monitoring, pages, preview, search, security, seo, shared};

/// Shared by every handler: one allocation, so that the handlers and
/// layers a request passes through each take it for one reference count.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// What [`AppState`] holds, grouped by who reads it: the page path,
/// the content it is made of, the signed-in area, the forms, and what
/// every part stands on.
pub struct Shared {
    pub config: Arc<Config>,
    pub pages: PagesState,
    pub content: ContentState,
    pub account: AccountState,
    pub forms: forms::Forms,
    pub infra: Infrastructure,
}

/// What turns a request into a page: the route table, the bundle's files,
/// the engines and the caches and limits in front of them.
pub struct PagesState {
    pub routes: Arc<manifest::RouteTable>,
    /// The app's strings, for the error page.
    pub strings: crate::web::Strings,
    pub assets: Arc<manifest::AssetManifest>,
    pub files: Arc<assets::PublicFiles>,
    /// The image endpoint.
    pub images: images::Images,
    /// `Content-Security-Policy`: images from the site and the CMS's media origin.
    pub csp: axum::http::HeaderValue,
    /// Rendered pages, kept while their content is fresh.
    pub cache: pages::PageCache,
    /// Whole answers of anonymous pages, served before anything else.
    pub fast: pages::FastPages,
    /// Renders every page in the background (`PRERENDER`).
    pub prerender: pages::Prerender,
    pub renderer: ssr_runtime::Renderer,
    /// Renders running and waiting, per client address (`RENDERS_PER_ADDRESS`).
    pub(crate) renders: connections::Shares,
    /// Renders for one visitor, bounded so they never hold every engine.
    pub personal_renders: pages::PersonalRenders,
}

/// The CMS's content and what is built from it.
pub struct ContentState {
    /// Content from the CMS (or the embedded defaults), cached.
    pub store: content::Content,
    /// The CMS's preview of drafts (`PREVIEW_SECRET` with `CMS_URL`).
    pub preview: Option<preview::Preview>,
    /// Item ids answered 404 from the collections' indexes, unasked.
    pub items: content::ItemGate,
    /// The sitemap, built once per version of the indexes.
    pub sitemap: seo::Sitemap,
    /// The site search's index, built by each pre-render pass.
    pub search: search::Search,
    /// Tells the other instances what the CMS's webhook changed (with Redis).
    pub broadcast: Option<content::Broadcast>,
}

/// The signed-in area: the operator API and the subscriber's session.
pub struct AccountState {
    pub operator: account::operator::OperatorClient,
    /// The operator's bundle catalogue, kept like content.
    pub catalogue: account::catalogue::Catalogue,
    /// Purchases just made, so none is sent twice unconfirmed.
    pub recent_purchases: Arc<account::repeats::RecentPurchases>,
    /// Subscribers' details and balances per session.
    pub details: account::cache::AccountCache,
    pub sessions: account::session::Sessions,
    pub limits: Arc<account::limits::Limits>,
}

/// What every part stands on.
pub struct Infrastructure {
    /// Signs and encrypts the cookies (sessions, flash notices) and image addresses.
    pub cookie_key: axum_extra::extract::cookie::Key,
    /// Redis, when `REDIS_URL` is set.
    pub redis: Option<shared::Redis>,
    /// Set on SIGTERM: `/readyz` answers 503.
    pub drain: monitoring::Drain,
}

impl AppState {
    /// Parses the manifests, opens the keys and starts the render engines.
    /// `operator_base` is where the operator API answers (`DIGITAL_API_URL`,
    /// or a stand-in this server mounts).
    pub fn new(config: Config, bundle: AppBundle, operator_base: &str) -> Result<AppState, AppError> {
        // The image addresses in content are signed with the session key,
        // read (or made) in DATA_DIR: checked first, to name it if it fails.
        writable_data_dir(&config.data_dir)?;
        let signer = image_signer(&config, &keys::session_key(&config)?);
        let source = content_source(&config, bundle, signer)?;
        AppState::with_content_source(config, bundle, operator_base, source)
    }

    /// The same with content from `source` (a test's failure injection).
    pub fn with_content_source(
        config: Config,
        bundle: AppBundle,
        operator_base: &str,
        source: Arc<dyn content::ContentSource>,
    ) -> Result<AppState, AppError> {
        writable_data_dir(&config.data_dir)?;
        let routes = manifest::RouteTable::from_json(bundle.routes_json)?;
        let assets = manifest::AssetManifest::from_json(bundle.assets_json)?;
        let strings = crate::web::Strings::from_json(bundle.strings_json)?;
        let content = content::Content::new(source, content_cache(&config)?);
        let ttl = config.content.ttl;
        let items = content::ItemGate::new(ttl * 2 + Duration::from_secs(10));
        let pages = pages::PageCache::new(
            config.pages.cache_bytes,
            config.content.ttl + config.content.stale_if_error,
            config.pages.stale_max,
            config.pages.renderer().workers.div_ceil(2),
        );
        // Its entries share their bodies with the page cache: this bounds
        // keys and headers.
        let fast = pages::FastPages::new(config.pages.cache_bytes / 8, config.content.ttl, config.pages.stale_max);
        let renderer = ssr_runtime::Renderer::start(bundle.server_js.into(), config.pages.renderer())?;
        let renders = connections::Shares::new(config.pages.renders_per_address());
        let personal_renders = pages::PersonalRenders::new(config.pages.renderer().workers);
        let operator = account::operator::OperatorClient::new(operator_base, config.operator.settings()).map_err(AppError::Operator)?;
        let account_cache = account::cache::AccountCache::new(operator.clone(), config.operator.account_cache);
        let cookie_key = keys::session_key(&config)?;
        let preview = preview::Preview::new(&config, &content, drafts_source(&config, image_signer(&config, &cookie_key))?);
        let images = crate::sources::images(&config, &cookie_key)?;
        let redis = match &config.operations.redis_url {
            Some(url) => Some(shared::Redis::open(url.expose()).map_err(AppError::Redis)?),
            None => None,
        };
        let resend = config.sessions.otp_resend;
        let (session_store, limits): (Arc<dyn account::session_store::SessionStore>, _) = match &redis {
            Some(redis) => (
                Arc::new(account::session_redis::RedisSessionStore::new(redis.clone(), config.sessions.lifetimes())),
                account::limits::Limits::shared(redis.clone(), resend),
            ),
            None => (
                Arc::new(account::session_store::SqliteSessionStore::open(&config.data_dir, config.sessions.lifetimes())?),
                account::limits::Limits::new(resend),
            ),
        };
        let sessions = account::session::Sessions::new(session_store, config.is_https());
        let forms = forms::Forms::open(&config, &routes, redis.clone())?;
        let broadcast = redis.clone().map(content::Broadcast::new);
        let catalogue = account::catalogue::Catalogue::new(
            operator.clone(),
            config.content.ttl,
            config.content.stale_if_error,
        );
        let recent_purchases = match &redis {
            Some(redis) => account::repeats::RecentPurchases::shared(redis.clone()),
            None => account::repeats::RecentPurchases::local(),
        };
        let csp = security::content_security_policy(&config);
        Ok(AppState(Arc::new(Shared {
            config: Arc::new(config),
            pages: PagesState {
                routes: Arc::new(routes),
                strings,
                assets: Arc::new(assets),
                files: Arc::new(assets::PublicFiles::new(bundle.public_files)),
                images,
                csp,
                cache: pages,
                fast,
                prerender: pages::Prerender::default(),
                renderer,
                renders,
                personal_renders,
            },
            content: ContentState {
                store: content,
                preview,
                items,
                sitemap: seo::Sitemap::default(),
                search: search::Search::default(),
                broadcast,
            },
            account: AccountState {
                operator,
                catalogue,
                recent_purchases: Arc::new(recent_purchases),
                details: account_cache,
                sessions,
                limits: Arc::new(limits),
            },
            forms,
            infra: Infrastructure { cookie_key, redis, drain: monitoring::Drain::default() },
        })))
    }
}
