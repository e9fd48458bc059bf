//! [`AppState`], what every handler and layer shares, and how it is opened
//! from the configuration: the manifests parsed, the keys read, the engines
//! started, the stores opened. A feature that needs less than all of it
//! takes its part by [`FromRef`] (the impls below): its handlers name that
//! part, not `AppState`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::extract::FromRef;
use axum_extra::extract::cookie::Key;

use crate::app_build::AppBuild;
use crate::config::Config;
use crate::error::StartError;
use crate::sources::{
    content_cache, content_source, drafts_source, image_signer, operator_settings, session_lifetimes, writable_data_dir,
};
// The pages' state, each from the file that defines it, none of which
// reads this state: the pages read it, so state imports nothing above them.
use crate::pages::admit::PersonalRenders;
use crate::pages::cache::PageCache;
use crate::pages::fast_pages::FastPages;
use crate::pages::passes::Prerender;
use crate::{
    account, assets, connections, content, forms, images, keys, manifest, preview, search, security, seo, web,
};

/// Shared by every handler: one allocation, so that the handlers and
/// layers a request passes through each take it for one reference count.
#[derive(Clone)]
pub struct AppState(Arc<Groups>);

impl std::ops::Deref for AppState {
    type Target = Groups;

    fn deref(&self) -> &Groups {
        &self.0
    }
}

/// What [`AppState`] holds, grouped by who reads it: the page path,
/// the content it is made of, the signed-in area, the forms, and what
/// every part stands on.
pub struct Groups {
    pub config: Arc<Config>,
    pub pages: PagesState,
    pub content: ContentState,
    pub account: Arc<account::AccountState>,
    pub forms: forms::Forms,
    pub infra: Infrastructure,
}

/// What turns a request into a page: the route table, the build's files,
/// the engines and the caches and limits in front of them.
pub struct PagesState {
    pub routes: Arc<manifest::RouteTable>,
    /// The app's strings, for the error page.
    pub strings: Arc<crate::web::Strings>,
    pub assets: Arc<manifest::AssetManifest>,
    pub files: assets::PublicFiles,
    /// The image endpoint.
    pub images: images::Images,
    /// Rendered pages, kept while their content is fresh.
    pub cache: PageCache,
    /// Whole answers of anonymous pages, served before anything else.
    pub fast: FastPages,
    /// Renders every page in the background (`PRERENDER`).
    pub prerender: Prerender,
    pub renderer: ssr_runtime::Renderer,
    /// Renders running and waiting, per client address (`RENDERS_PER_ADDRESS`,
    /// `RENDER_QUEUE_PER_ADDRESS`).
    pub(crate) renders: connections::Admission,
    /// Renders for one visitor, bounded so they never hold every engine.
    pub personal_renders: PersonalRenders,
}

/// The CMS's content and what is built from it.
pub struct ContentState {
    /// Content from the CMS (or the embedded defaults), cached.
    pub store: content::Content,
    /// The CMS's preview of drafts (`PREVIEW_SECRET` with `CMS_URL`).
    pub preview: Option<preview::Preview>,
    /// Item ids answered 404 from the collections' indexes, unasked.
    pub items: content::ItemGate,
    /// The sitemap (built once per version of the indexes) and `robots.txt`.
    pub seo: seo::Seo,
    /// The site search's index, built by each pre-render pass.
    pub search: search::Search,
    /// Drops what the CMS changed: the webhook's, the broadcast's.
    pub invalidation: content::Invalidation,
    /// Tells the other instances what the CMS's webhook changed (with Redis).
    pub broadcast: Option<content::Broadcast>,
}

/// What every part stands on.
pub struct Infrastructure {
    /// The site's origin, its scheme, and the key that signs and encrypts
    /// the cookies (sessions, flash notices) and image addresses.
    pub site: web::Site,
    /// The headers every answer carries.
    pub security: security::Policy,
    /// Redis, when `REDIS_URL` is set.
    pub redis: Option<crate::infra::redis::Redis>,
    /// Set on SIGTERM: `/readyz` answers 503.
    pub drain: Drain,
}

/// Ready or draining: set once, on SIGTERM.
#[derive(Clone, Default)]
pub struct Drain {
    draining: Arc<AtomicBool>,
}

impl Drain {
    pub fn start(&self) {
        self.draining.store(true, Ordering::Release);
    }

    pub fn draining(&self) -> bool {
        self.draining.load(Ordering::Acquire)
    }
}

/// Each feature's part of the state, which its handlers take by `FromRef`
/// (`State<Part>`) rather than the whole.
macro_rules! parts {
    ($($part:ty => |$state:ident| $take:expr;)*) => {
        $(impl FromRef<AppState> for $part {
            fn from_ref($state: &AppState) -> $part {
                $take
            }
        })*
    };
}

parts! {
    Key => |state| state.infra.site.cookie_key.clone();
    web::Site => |state| state.infra.site.clone();
    security::Policy => |state| state.infra.security.clone();
    assets::PublicFiles => |state| state.pages.files.clone();
    images::Images => |state| state.pages.images.clone();
    seo::Seo => |state| state.content.seo.clone();
    content::Content => |state| state.content.store.clone();
    Option<preview::Preview> => |state| state.content.preview.clone();
    Arc<account::AccountState> => |state| state.account.clone();
    forms::Forms => |state| state.forms.clone();
    content::Webhook => |state| content::Webhook {
        secret: state.config.cms.webhook_secret.clone(),
        invalidation: state.content.invalidation.clone(),
        broadcast: state.content.broadcast.clone(),
    };
}

impl AppState {
    /// Parses the manifests, opens the keys and starts the render engines.
    /// `operator_base` is where the operator API answers (`DIGITAL_API_URL`,
    /// or a stand-in this server mounts).
    pub fn new(config: Config, build: AppBuild, operator_base: &str) -> Result<AppState, StartError> {
        // The image addresses in content are signed with the session key,
        // read (or made) in DATA_DIR: checked first, to name it if it fails.
        writable_data_dir(&config.data_dir)?;
        let signer = image_signer(&config, &keys::session_key(&config)?);
        let source = content_source(&config, build, signer)?;
        AppState::with_content_source(config, build, operator_base, source)
    }

    /// The same with content from `source` (a test's failure injection).
    pub fn with_content_source(
        config: Config,
        build: AppBuild,
        operator_base: &str,
        source: Arc<dyn content::ContentSource>,
    ) -> Result<AppState, StartError> {
        writable_data_dir(&config.data_dir)?;
        let routes = manifest::RouteTable::from_json(build.routes_json)?;
        let assets = manifest::AssetManifest::from_json(build.assets_json)?;
        let strings = Arc::new(crate::web::Strings::from_json(build.strings_json)?);
        let content = content::Content::new(source, content_cache(&config)?);
        let ttl = config.content.ttl;
        let items = content::ItemGate::new(ttl * 2 + Duration::from_secs(10));
        let cookie_key = keys::session_key(&config)?;
        let pages = PageCache::new(
            config.pages.cache_bytes,
            config.content.ttl + config.content.stale_if_error,
            config.pages.stale_max,
            config.pages.renderer().workers.div_ceil(2),
            crate::sources::page_disk(&config, build, &cookie_key)?,
        );
        // Its entries share their bodies with the page cache: this bounds
        // keys and headers.
        let fast = FastPages::new(config.pages.cache_bytes / 8, config.content.ttl, config.pages.stale_max);
        let renderer = ssr_runtime::Renderer::start(build.server_js.into(), config.pages.renderer())?;
        let renders =
            connections::Admission::new(config.pages.renders_per_address(), config.pages.render_queue_per_address);
        let personal_renders = PersonalRenders::new(config.pages.renderer().workers);
        let operator = account::operator::OperatorClient::new(operator_base, operator_settings(&config))
            .map_err(StartError::Operator)?;
        let account_cache = account::cache::AccountCache::new(operator.clone(), config.operator.account_cache);
        let preview =
            preview::Preview::new(&config, &content, drafts_source(&config, image_signer(&config, &cookie_key))?);
        let images = crate::sources::images(&config, &cookie_key)?;
        let redis = match &config.operations.redis_url {
            Some(url) => Some(crate::infra::redis::Redis::open(url.expose()).map_err(StartError::Redis)?),
            None => None,
        };
        let resend = config.sessions.otp_resend;
        let (session_store, limits): (Arc<dyn account::session_store::SessionStore>, _) = match &redis {
            Some(redis) => (
                Arc::new(account::session_redis::RedisSessionStore::new(redis.clone(), session_lifetimes(&config))),
                crate::limits::Limits::shared(redis.clone(), resend),
            ),
            None => (
                Arc::new(account::session_store::SqliteSessionStore::open(
                    &config.data_dir,
                    session_lifetimes(&config),
                )?),
                crate::limits::Limits::new(resend),
            ),
        };
        let sessions = account::session::Sessions::new(session_store, config.is_https());
        let broadcast = redis.clone().map(content::Broadcast::new);
        let catalogue =
            account::catalogue::Catalogue::new(operator.clone(), config.content.ttl, config.content.stale_if_error);
        let recent_purchases = match &redis {
            Some(redis) => account::repeats::RecentPurchases::shared(redis.clone()),
            None => account::repeats::RecentPurchases::local(),
        };
        // Content an invalidation drops asks pre-rendering for another pass.
        let dropped = Arc::new(tokio::sync::Notify::new());
        let invalidation = content::Invalidation::new(content.clone(), dropped.clone());
        let site = web::Site { origin: config.site_url.origin().into(), https: config.is_https(), cookie_key };
        let routes = Arc::new(routes);
        let security = security::Policy::new(&config, routes.clone());
        let limits = Arc::new(limits);
        let forms = forms::Forms::open(&config, routes.clone(), limits.clone(), redis.clone())?;
        let seo = seo::Seo::new(routes.clone(), content.clone(), &config.site_url.to_string());
        let account = Arc::new(account::AccountState {
            operator,
            catalogue,
            recent_purchases,
            details: account_cache,
            sessions,
            limits,
            routes: routes.clone(),
            budget: config.operator.budget,
            catalogue_ttl: config.content.ttl,
            https: config.is_https(),
        });
        Ok(AppState(Arc::new(Groups {
            config: Arc::new(config),
            pages: PagesState {
                routes,
                strings,
                assets: Arc::new(assets),
                files: assets::PublicFiles::new(build.public_files),
                images,
                cache: pages,
                fast,
                prerender: Prerender::new(dropped),
                renderer,
                renders,
                personal_renders,
            },
            content: ContentState {
                store: content,
                preview,
                items,
                seo,
                search: search::Search::default(),
                invalidation,
                broadcast,
            },
            account,
            forms,
            infra: Infrastructure { site, security, redis, drain: Drain::default() },
        })))
    }
}
