//! Each feature's settings, a group of flags and variables of its own that
//! [`super::Config`] flattens: a feature is handed its group, not the whole
//! configuration. Every argument names its `id` because groups share field
//! names (`timeout`, `url`).

use std::net::SocketAddr;
use std::time::Duration;

use clap::Args;

use super::values::{
    DatabaseUrl, HttpUrl, LogFormat, PopulateStrategy, Secret, listen_or_off, mebibytes, millis, secs,
};

/// The CMS the content comes from, its webhook and its preview of drafts.
#[derive(Debug, Clone, Args)]
pub struct CmsConfig {
    /// Strapi base URL; unset serves the embedded content.
    #[arg(id = "cms-url", long = "cms-url", env = "CMS_URL")]
    pub url: Option<HttpUrl>,

    /// Bearer token for the Strapi API.
    #[arg(id = "cms-token", long = "cms-token", env = "CMS_TOKEN", hide_env_values = true)]
    pub token: Option<Secret>,

    /// How relations are populated: `deep` (populate=deep,N; the v4 plugin),
    /// `plevel` (pLevel=N; Strapi 5 plugins) or `explicit` (stock Strapi).
    #[arg(id = "cms-populate", long = "cms-populate", env = "CMS_POPULATE", default_value = "deep")]
    pub populate: PopulateStrategy,

    /// Time limit of one CMS request made for a server render, in milliseconds.
    #[arg(id = "cms-timeout-ms", long = "cms-timeout-ms", env = "CMS_TIMEOUT_MS", default_value = "3000", value_parser = millis)]
    pub timeout: Duration,

    /// CMS requests in flight at once, whatever the visitors ask for; more
    /// wait (within `CMS_TIMEOUT_MS`), so no client can fan out to the CMS.
    #[arg(id = "cms-max-requests", long = "cms-max-requests", env = "CMS_MAX_REQUESTS", default_value_t = 16)]
    pub max_requests: usize,

    /// Public base of media the CMS gives relative (`/uploads/…`); default `CMS_URL`.
    #[arg(id = "cms-media-url", long = "cms-media-url", env = "CMS_MEDIA_URL")]
    pub media_url: Option<HttpUrl>,

    /// Origins of the CMS's internal file hosts, comma-separated; links to them
    /// in content are rewritten to `SITE_URL`.
    #[arg(id = "cms-file-hosts", long = "cms-file-hosts", env = "CMS_FILE_HOSTS", value_delimiter = ',')]
    pub file_hosts: Vec<HttpUrl>,

    /// Shared secret of `POST /api/cms/webhook`; unset turns the webhook off.
    #[arg(id = "cms-webhook-secret", long = "cms-webhook-secret", env = "CMS_WEBHOOK_SECRET", hide_env_values = true)]
    pub webhook_secret: Option<Secret>,

    /// Secret of the CMS's preview link (`GET /api/preview?secret=…`); unset
    /// (or without `CMS_URL`), the preview endpoint answers 404.
    #[arg(id = "preview-secret", long = "preview-secret", env = "PREVIEW_SECRET", hide_env_values = true)]
    pub preview_secret: Option<Secret>,

    /// Origin of the CMS's admin panel, the one page that may frame a
    /// preview; default the origin of `CMS_URL`.
    #[arg(id = "cms-admin-url", long = "cms-admin-url", env = "CMS_ADMIN_URL")]
    pub admin_url: Option<HttpUrl>,
}

impl CmsConfig {
    /// Where media the CMS gives relative (`/uploads/…`) lives: `CMS_MEDIA_URL`, else `CMS_URL`.
    pub fn media_base(&self) -> Option<&HttpUrl> {
        self.media_url.as_ref().or(self.url.as_ref())
    }
}

/// How long content is kept, in memory and on disk.
#[derive(Debug, Clone, Args)]
pub struct ContentConfig {
    /// Seconds content is served from cache before it is refreshed.
    #[arg(id = "content-ttl-secs", long = "content-ttl-secs", env = "CONTENT_TTL_SECS", default_value = "60", value_parser = secs)]
    pub ttl: Duration,

    /// Seconds the agents and shops are served before they are read again:
    /// every page of the CMS's `locations`, 1,800 requests for 180,000
    /// places. A location's webhook reads them again at once.
    #[arg(id = "locations-ttl-secs", long = "locations-ttl-secs", env = "LOCATIONS_TTL_SECS", default_value = "3600", value_parser = secs)]
    pub locations_ttl: Duration,

    /// Seconds past freshness content is still served while the CMS fails.
    #[arg(id = "content-stale-if-error-secs", long = "content-stale-if-error-secs", env = "CONTENT_STALE_IF_ERROR_SECS", default_value = "86400", value_parser = secs)]
    pub stale_if_error: Duration,

    /// Memory for content, in MiB: each answer weighs its size as JSON
    /// (the locations, their index); past it the entries read least are
    /// dropped and read from the CMS again when asked for.
    #[arg(id = "content-cache-mb", long = "content-cache-mb", env = "CONTENT_CACHE_MB", default_value = "16", value_parser = mebibytes)]
    pub cache_bytes: u64,

    /// Disk for the last good CMS answers (`DATA_DIR/content-cache`), in
    /// MiB, served while the CMS cannot be reached for content memory does
    /// not hold (after a restart); `0` keeps none. Only with `CMS_URL`.
    #[arg(id = "content-disk-cache-mb", long = "content-disk-cache-mb", env = "CONTENT_DISK_CACHE_MB", default_value = "64", value_parser = mebibytes)]
    pub disk_cache_bytes: u64,
}

/// Rendering pages and keeping them.
#[derive(Debug, Clone, Args)]
pub struct PagesConfig {
    /// Render every page of the sitemap into the page cache in the
    /// background, at start and after each webhook invalidation.
    #[arg(id = "prerender", long = "prerender", env = "PRERENDER", default_value_t = true, action = clap::ArgAction::Set)]
    pub prerender: bool,

    /// Memory for rendered pages, in MiB; `0` keeps none.
    #[arg(id = "page-cache-mb", long = "page-cache-mb", env = "PAGE_CACHE_MB", default_value = "16", value_parser = mebibytes)]
    pub cache_bytes: u64,

    /// Disk for rendered pages (`DATA_DIR/page-cache`), in MiB, under the
    /// memory's: kept across restarts until their content changes; past it
    /// the pages used longest ago are deleted. `0` keeps none.
    #[arg(id = "page-disk-cache-mb", long = "page-disk-cache-mb", env = "PAGE_DISK_CACHE_MB", default_value = "512", value_parser = mebibytes)]
    pub disk_cache_bytes: u64,

    /// Seconds after content changed that a page rendered for earlier
    /// content is still served while its new render is on its way (however
    /// often content changes meanwhile); past it the visitor waits for the
    /// render.
    #[arg(id = "page-stale-max-secs", long = "page-stale-max-secs", env = "PAGE_STALE_MAX_SECS", default_value = "60", value_parser = secs)]
    pub stale_max: Duration,

    /// JS engines rendering pages (default: one per core).
    #[arg(id = "render-workers", long = "render-workers", env = "RENDER_WORKERS")]
    pub render_workers: Option<usize>,

    /// Time budget of one server render, in milliseconds.
    #[arg(id = "render-budget-ms", long = "render-budget-ms", env = "RENDER_BUDGET_MS", default_value = "2000", value_parser = millis)]
    pub render_budget: Duration,

    /// Renders allowed to wait for an engine before new ones get 503.
    #[arg(id = "render-queue", long = "render-queue", env = "RENDER_QUEUE", default_value_t = 256)]
    pub render_queue: usize,

    /// Longest a render waits for an engine, in milliseconds; past it the
    /// visitor gets 503 rather than a page that comes too late.
    #[arg(id = "render-queue-timeout-ms", long = "render-queue-timeout-ms", env = "RENDER_QUEUE_TIMEOUT_MS", default_value = "2000", value_parser = millis)]
    pub render_queue_timeout: Duration,

    /// Renders under way for one client address (default: half the render
    /// workers, at least one), so no client holds every engine; more wait
    /// their turn (`RENDER_QUEUE_PER_ADDRESS`). Behind a load balancer every
    /// visitor has its address: raise this there.
    #[arg(id = "renders-per-address", long = "renders-per-address", env = "RENDERS_PER_ADDRESS")]
    pub renders_per_address: Option<usize>,

    /// Renders of one client address waiting their turn behind those it
    /// runs, served in the order they came: a crawler fetching 8 or 16
    /// pages at once is slowed, not refused. More get 429.
    #[arg(
        id = "render-queue-per-address",
        long = "render-queue-per-address",
        env = "RENDER_QUEUE_PER_ADDRESS",
        default_value_t = 16
    )]
    pub render_queue_per_address: usize,

    /// Renders the whole account page (and CPM page) for each view of a
    /// subscriber (CPM session), as before they were cached for everyone
    /// but their part: the tests' and `site-bench serve-whole`'s baseline,
    /// no setting of the `site` binary.
    #[arg(skip)]
    pub account_full_render: bool,
}

impl PagesConfig {
    pub fn renderer(&self) -> ssr_runtime::RendererConfig {
        let defaults = ssr_runtime::RendererConfig::default();
        ssr_runtime::RendererConfig {
            workers: self.render_workers.unwrap_or(defaults.workers),
            budget: self.render_budget,
            queue: self.render_queue,
            queue_wait: self.render_queue_timeout,
            ..defaults
        }
    }

    pub fn renders_per_address(&self) -> usize {
        self.renders_per_address.unwrap_or_else(|| self.renderer().workers.div_ceil(2)).max(1)
    }
}

/// The image endpoint.
#[derive(Debug, Clone, Args)]
pub struct ImageConfig {
    /// Disk for resized photos (`DATA_DIR/image-cache`), in MiB; past it
    /// the files read longest ago are deleted.
    #[arg(id = "image-cache-mb", long = "image-cache-mb", env = "IMAGE_CACHE_MB", default_value = "512", value_parser = mebibytes)]
    pub cache_bytes: u64,

    /// Photos decoded or encoded at once by the image endpoint; more wait.
    /// Default: half the cores, at least one.
    #[arg(id = "image-encodes", long = "image-encodes", env = "IMAGE_ENCODES")]
    pub encodes: Option<usize>,

    /// Most pixels one decode of the image endpoint holds (width × height):
    /// a JPEG's at the reduced scale it is decoded at (a 100-megapixel
    /// photo at 1/4), other formats' by their header before decoding.
    /// Past it the photo is not decoded; the CMS's smaller file is sent.
    #[arg(id = "image-max-pixels", long = "image-max-pixels", env = "IMAGE_MAX_PIXELS", default_value_t = 25_000_000)]
    pub max_pixels: u64,

    /// Time limit of fetching, decoding and encoding one photo, in
    /// milliseconds; past it the visitor is sent the CMS's own file.
    #[arg(id = "image-timeout-ms", long = "image-timeout-ms", env = "IMAGE_TIMEOUT_MS", default_value = "10000", value_parser = millis)]
    pub timeout: Duration,
}

/// Accepting connections: time limits and caps.
#[derive(Debug, Clone, Args)]
pub struct ConnectionConfig {
    /// Seconds a client may take to send a request's headers.
    #[arg(id = "header-read-timeout-secs", long = "header-read-timeout-secs", env = "HEADER_READ_TIMEOUT_SECS", default_value = "10", value_parser = secs)]
    pub header_read_timeout: Duration,

    /// Seconds a client may take to send a request's whole body.
    #[arg(id = "body-read-timeout-secs", long = "body-read-timeout-secs", env = "BODY_READ_TIMEOUT_SECS", default_value = "20", value_parser = secs)]
    pub body_read_timeout: Duration,

    /// Seconds an answer may wait for the client to take any of it (as
    /// nginx's `send_timeout`); past it the connection is closed.
    #[arg(id = "send-timeout-secs", long = "send-timeout-secs", env = "SEND_TIMEOUT_SECS", default_value = "30", value_parser = secs)]
    pub send_timeout: Duration,

    /// Open connections in all; past it new ones are closed at once.
    #[arg(id = "max-connections", long = "max-connections", env = "MAX_CONNECTIONS", default_value_t = 20_000)]
    pub max: usize,

    /// Open connections from one client address. Behind a load balancer
    /// every connection comes from it: raise this (or let the balancer cap).
    #[arg(
        id = "max-connections-per-address",
        long = "max-connections-per-address",
        env = "MAX_CONNECTIONS_PER_ADDRESS",
        default_value_t = 256
    )]
    pub max_per_address: usize,

    /// Proxies whose `X-Forwarded-For` is believed (addresses or CIDRs,
    /// comma-separated): a request from one of them counts as coming from
    /// the rightmost address in the header that is not a trusted proxy.
    /// Default none: every client is its peer address.
    #[arg(id = "trusted-proxies", long = "trusted-proxies", env = "TRUSTED_PROXIES", value_delimiter = ',', value_parser = crate::connections::Cidr::parse)]
    pub trusted_proxies: Vec<crate::connections::Cidr>,
}

impl ConnectionConfig {
    pub fn limits(&self) -> crate::connections::ConnectionLimits {
        crate::connections::ConnectionLimits {
            header_read: self.header_read_timeout,
            send: self.send_timeout,
            max: self.max,
            per_address: self.max_per_address,
            trusted_proxies: self.trusted_proxies.clone().into(),
        }
    }
}

/// The operator's digital-service API, and what is kept of its answers.
#[derive(Debug, Clone, Args)]
pub struct OperatorConfig {
    /// Operator digital-service API base URL; unset uses the built-in sandbox.
    #[arg(id = "digital-api-url", long = "digital-api-url", env = "DIGITAL_API_URL")]
    pub url: Option<HttpUrl>,

    /// Time limit of one operator API call, in milliseconds.
    #[arg(id = "digital-api-timeout-ms", long = "digital-api-timeout-ms", env = "DIGITAL_API_TIMEOUT_MS", default_value = "10000", value_parser = millis)]
    pub timeout: Duration,

    /// Longest a signed-in page (and `/api/account`) waits for the operator
    /// API, in milliseconds; past it the page shows what the session knows
    /// and the balances as unavailable, and the call goes on for the next.
    #[arg(id = "digital-api-budget-ms", long = "digital-api-budget-ms", env = "DIGITAL_API_BUDGET_MS", default_value = "1000", value_parser = millis)]
    pub budget: Duration,

    /// Operator API calls under way at once (the bulkhead); one more fails
    /// at once, as the API being unavailable.
    #[arg(
        id = "digital-api-max-requests",
        long = "digital-api-max-requests",
        env = "DIGITAL_API_MAX_REQUESTS",
        default_value_t = 32
    )]
    pub max_requests: usize,

    /// Consecutive operator API failures (no answer in time, no connection,
    /// a 5xx) that open the circuit breaker: calls then fail at once.
    #[arg(
        id = "digital-api-breaker-failures",
        long = "digital-api-breaker-failures",
        env = "DIGITAL_API_BREAKER_FAILURES",
        default_value_t = 5
    )]
    pub breaker_failures: u32,

    /// How long the circuit stays open before one call probes the API, in milliseconds.
    #[arg(id = "digital-api-breaker-cooldown-ms", long = "digital-api-breaker-cooldown-ms", env = "DIGITAL_API_BREAKER_COOLDOWN_MS", default_value = "15000", value_parser = millis)]
    pub breaker_cooldown: Duration,

    /// Seconds a session's customer details and balances are kept before
    /// the operator is asked again (a purchase or a logout drops them at
    /// once); `0` keeps none. The bundle catalogue is kept like content.
    #[arg(id = "account-cache-secs", long = "account-cache-secs", env = "ACCOUNT_CACHE_SECS", default_value = "30", value_parser = secs)]
    pub account_cache: Duration,
}

/// Sessions, their cookies and one-time codes.
#[derive(Debug, Clone, Args)]
pub struct SessionConfig {
    /// Key of the session cookies: 64 bytes or more, base64. Unset: a key is
    /// generated once and kept in `DATA_DIR/session.key`.
    #[arg(id = "session-key", long = "session-key", env = "SESSION_KEY", hide_env_values = true)]
    pub key: Option<Secret>,

    /// A session ends after this many seconds without a request.
    #[arg(id = "session-idle-secs", long = "session-idle-secs", env = "SESSION_IDLE_SECS", default_value = "1800", value_parser = secs)]
    pub idle: Duration,

    /// A session ends this many seconds after sign-in, whatever happens.
    #[arg(id = "session-absolute-secs", long = "session-absolute-secs", env = "SESSION_ABSOLUTE_SECS", default_value = "43200", value_parser = secs)]
    pub absolute: Duration,

    /// Seconds before another one-time code may go to the same number for
    /// the same purpose (the operator's resend rule, applied here to every
    /// number alike; the sandbox applies it too).
    #[arg(id = "otp-resend-secs", long = "otp-resend-secs", env = "OTP_RESEND_SECS", default_value = "60", value_parser = secs)]
    pub otp_resend: Duration,
}

/// The forms' export and their delivery to the CMS.
#[derive(Debug, Clone, Args)]
pub struct FormsConfig {
    /// Bearer token of the form export (`GET /api/forms/export`); unset,
    /// the export does not exist (404).
    #[arg(id = "forms-token", long = "forms-token", env = "FORMS_TOKEN", hide_env_values = true)]
    pub token: Option<Secret>,

    /// Wait before a form delivery to the CMS is tried again, in
    /// milliseconds; doubled after each failure, at most an hour.
    #[arg(id = "forms-retry-ms", long = "forms-retry-ms", env = "FORMS_RETRY_MS", default_value = "5000", value_parser = millis)]
    pub retry: Duration,
}

/// Running many instances, metrics, shutdown and logs.
#[derive(Debug, Clone, Args)]
pub struct OperationsConfig {
    /// Redis shared by every instance behind one address (sessions and
    /// their revocation, rate-limit counters, the forms outbox lease
    /// without `DATABASE_URL`, cache invalidation), e.g.
    /// `redis://127.0.0.1:6379/0`. Unset: sessions in SQLite in
    /// `DATA_DIR`, limits in this process.
    #[arg(id = "redis-url", long = "redis-url", env = "REDIS_URL", hide_env_values = true)]
    pub redis_url: Option<Secret>,

    /// PostgreSQL keeping the form submissions and their delivery outbox,
    /// shared by every instance (its tables are made at start), e.g.
    /// `postgres://site:password@10.0.0.5:5432/site`. Unset: in SQLite in
    /// `DATA_DIR`.
    #[arg(id = "database-url", long = "database-url", env = "DATABASE_URL", hide_env_values = true)]
    pub database_url: Option<DatabaseUrl>,

    /// Address of the private listener serving `GET /metrics` (Prometheus
    /// text format); `off` serves none.
    // The whole path keeps clap from reading `Option` as "may be absent":
    // absent is the default address, and `off` is `None`.
    #[arg(id = "metrics-addr", long = "metrics-addr", env = "METRICS_ADDR", default_value = "127.0.0.1:9090", value_parser = listen_or_off)]
    pub metrics_addr: ::std::option::Option<SocketAddr>,

    /// After SIGTERM (and `DRAIN_DELAY_SECS`), requests under way get this
    /// many seconds to finish before the process exits anyway.
    #[arg(id = "shutdown-grace-secs", long = "shutdown-grace-secs", env = "SHUTDOWN_GRACE_SECS", default_value = "20", value_parser = secs)]
    pub shutdown_grace: Duration,

    /// After SIGTERM `/readyz` answers 503 at once, but new connections are
    /// still taken for this many seconds, so a load balancer that polls
    /// `/readyz` stops sending before the listener closes.
    #[arg(id = "drain-delay-secs", long = "drain-delay-secs", env = "DRAIN_DELAY_SECS", default_value = "0", value_parser = secs)]
    pub drain_delay: Duration,

    /// Log format.
    #[arg(id = "log-format", long = "log-format", env = "LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}
