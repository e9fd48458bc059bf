//! Configuration from flags and environment. Every field has a default that
//! lets `make run` serve the whole site on a fresh machine.

use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;

use crate::content::PopulateStrategy;

#[derive(Debug, Clone, Parser)]
#[command(name = "site", about = "The operator's public website and self-service area")]
pub struct Config {
    /// Port to listen on.
    #[arg(long, env = "PORT", default_value_t = 8080)]
    pub port: u16,

    /// Address to listen on.
    #[arg(long, env = "HOST", default_value = "127.0.0.1")]
    pub host: String,

    /// Public address of the site, for canonical and alternate links (no trailing slash).
    #[arg(long, env = "SITE_URL", default_value = "http://localhost:8080", value_parser = parse_site_url)]
    pub site_url: String,

    /// Strapi base URL; unset serves the embedded content.
    #[arg(long, env = "CMS_URL")]
    pub cms_url: Option<String>,

    /// Bearer token for the Strapi API.
    #[arg(long, env = "CMS_TOKEN", hide_env_values = true)]
    pub cms_token: Option<Secret>,

    /// How relations are populated: `deep` (populate=deep,N; the v4 plugin),
    /// `plevel` (pLevel=N; Strapi 5 plugins) or `explicit` (stock Strapi).
    #[arg(long, env = "CMS_POPULATE", default_value = "deep")]
    pub cms_populate: PopulateStrategy,

    /// Time limit of one CMS request made for a server render, in milliseconds.
    #[arg(long, env = "CMS_TIMEOUT_MS", default_value_t = 3000)]
    pub cms_timeout_ms: u64,

    /// CMS requests in flight at once, whatever the visitors ask for; more
    /// wait (within `CMS_TIMEOUT_MS`), so no client can fan out to the CMS.
    #[arg(long, env = "CMS_MAX_REQUESTS", default_value_t = 16)]
    pub cms_max_requests: usize,

    /// Public base of media the CMS gives relative (`/uploads/…`); default `CMS_URL`.
    #[arg(long, env = "CMS_MEDIA_URL")]
    pub cms_media_url: Option<String>,

    /// Origins of the CMS's internal file hosts, comma-separated; links to them
    /// in content are rewritten to `SITE_URL`.
    #[arg(long, env = "CMS_FILE_HOSTS", value_delimiter = ',')]
    pub cms_file_hosts: Vec<String>,

    /// Shared secret of `POST /api/cms/webhook`; unset turns the webhook off.
    #[arg(long, env = "CMS_WEBHOOK_SECRET", hide_env_values = true)]
    pub cms_webhook_secret: Option<Secret>,

    /// Secret of the CMS's preview link (`GET /api/preview?secret=…`); unset
    /// (or without `CMS_URL`), the preview endpoint answers 404.
    #[arg(long, env = "PREVIEW_SECRET", hide_env_values = true)]
    pub preview_secret: Option<Secret>,

    /// Origin of the CMS's admin panel, the one page that may frame a
    /// preview; default the origin of `CMS_URL`.
    #[arg(long, env = "CMS_ADMIN_URL")]
    pub cms_admin_url: Option<String>,

    /// Seconds content is served from cache before it is refreshed.
    #[arg(long, env = "CONTENT_TTL_SECS", default_value_t = 60)]
    pub content_ttl_secs: u64,

    /// Seconds past freshness content is still served while the CMS fails.
    #[arg(long, env = "CONTENT_STALE_IF_ERROR_SECS", default_value_t = 86_400)]
    pub content_stale_if_error_secs: u64,

    /// Disk for the last good CMS answers (`DATA_DIR/content-cache`), in
    /// MiB, served while the CMS cannot be reached for content memory does
    /// not hold (after a restart); `0` keeps none. Only with `CMS_URL`.
    #[arg(long, env = "CONTENT_DISK_CACHE_MB", default_value_t = 64)]
    pub content_disk_cache_mb: u64,

    /// Disk for resized photos (`DATA_DIR/image-cache`), in MiB; past it
    /// the files read longest ago are deleted.
    #[arg(long, env = "IMAGE_CACHE_MB", default_value_t = 512)]
    pub image_cache_mb: u64,

    /// Photos decoded and encoded at once by the image endpoint; more wait.
    /// Default: half the cores, at least one.
    #[arg(long, env = "IMAGE_ENCODES")]
    pub image_encodes: Option<usize>,

    /// Largest photo the image endpoint decodes, in pixels (width × height,
    /// read from its header first); a larger one is refused undecoded.
    #[arg(long, env = "IMAGE_MAX_PIXELS", default_value_t = 25_000_000)]
    pub image_max_pixels: u64,

    /// Time limit of fetching, decoding and encoding one photo; past it the
    /// visitor is sent the CMS's own file.
    #[arg(long, env = "IMAGE_TIMEOUT_MS", default_value_t = 10_000)]
    pub image_timeout_ms: u64,

    /// Render every page of the sitemap into the page cache in the
    /// background, at start and after each webhook invalidation.
    #[arg(long, env = "PRERENDER", default_value_t = true, action = clap::ArgAction::Set)]
    pub prerender: bool,

    /// Memory for rendered pages, in MiB.
    #[arg(long, env = "PAGE_CACHE_MB", default_value_t = 64)]
    pub page_cache_mb: u64,

    /// Seconds a client may take to send a request's headers.
    #[arg(long, env = "HEADER_READ_TIMEOUT_SECS", default_value_t = 10)]
    pub header_read_timeout_secs: u64,

    /// Seconds a client may take to send a request's whole body.
    #[arg(long, env = "BODY_READ_TIMEOUT_SECS", default_value_t = 20)]
    pub body_read_timeout_secs: u64,

    /// Seconds an answer may wait for the client to take any of it (as
    /// nginx's `send_timeout`); past it the connection is closed.
    #[arg(long, env = "SEND_TIMEOUT_SECS", default_value_t = 30)]
    pub send_timeout_secs: u64,

    /// Open connections in all; past it new ones are closed at once.
    #[arg(long, env = "MAX_CONNECTIONS", default_value_t = 20_000)]
    pub max_connections: usize,

    /// Open connections from one client address. Behind a load balancer
    /// every connection comes from it: raise this (or let the balancer cap).
    #[arg(long, env = "MAX_CONNECTIONS_PER_ADDRESS", default_value_t = 256)]
    pub max_connections_per_address: usize,

    /// Operator digital-service API base URL; unset uses the built-in sandbox.
    #[arg(long, env = "DIGITAL_API_URL")]
    pub digital_api_url: Option<String>,

    /// Time limit of one operator API call, in milliseconds.
    #[arg(long, env = "DIGITAL_API_TIMEOUT_MS", default_value_t = 10_000)]
    pub digital_api_timeout_ms: u64,

    /// Longest a signed-in page (and `/api/account`) waits for the operator
    /// API, in milliseconds; past it the page shows what the session knows
    /// and the balances as unavailable, and the call goes on for the next.
    #[arg(long, env = "DIGITAL_API_BUDGET_MS", default_value_t = 1000)]
    pub digital_api_budget_ms: u64,

    /// Operator API calls under way at once (the bulkhead); one more fails
    /// at once, as the API being unavailable.
    #[arg(long, env = "DIGITAL_API_MAX_REQUESTS", default_value_t = 32)]
    pub digital_api_max_requests: usize,

    /// Consecutive operator API failures (no answer in time, no connection,
    /// a 5xx) that open the circuit breaker: calls then fail at once.
    #[arg(long, env = "DIGITAL_API_BREAKER_FAILURES", default_value_t = 5)]
    pub digital_api_breaker_failures: u32,

    /// How long the circuit stays open before one call probes the API, in milliseconds.
    #[arg(long, env = "DIGITAL_API_BREAKER_COOLDOWN_MS", default_value_t = 15_000)]
    pub digital_api_breaker_cooldown_ms: u64,

    /// Seconds a session's customer details and balances are kept before
    /// the operator is asked again (a purchase or a logout drops them at
    /// once); `0` keeps none. The bundle catalogue is kept like content.
    #[arg(long, env = "ACCOUNT_CACHE_SECS", default_value_t = 30)]
    pub account_cache_secs: u64,

    /// Renders the whole account page (and CPM page) for each view of a
    /// subscriber (CPM session), as before they were cached for everyone
    /// but their part: `make bench`'s baseline, not a setting for a site.
    #[arg(long, env = "ACCOUNT_FULL_RENDER", hide = true)]
    pub account_full_render: bool,

    /// Production mode: codes are never logged, and the sandbox is refused
    /// unless `ENABLE_SANDBOX` is set too.
    #[arg(long, env = "PRODUCTION")]
    pub production: bool,

    /// Serve the sandbox operator API even in production mode.
    #[arg(long, env = "ENABLE_SANDBOX")]
    pub enable_sandbox: bool,

    /// Key of the session cookies: 64 bytes or more, base64. Unset: a key is
    /// generated once and kept in `DATA_DIR/session.key`.
    #[arg(long, env = "SESSION_KEY", hide_env_values = true)]
    pub session_key: Option<Secret>,

    /// A session ends after this many seconds without a request.
    #[arg(long, env = "SESSION_IDLE_SECS", default_value_t = 30 * 60)]
    pub session_idle_secs: u64,

    /// A session ends this many seconds after sign-in, whatever happens.
    #[arg(long, env = "SESSION_ABSOLUTE_SECS", default_value_t = 12 * 60 * 60)]
    pub session_absolute_secs: u64,

    /// Seconds before another one-time code may go to the same number for
    /// the same purpose (the operator's resend rule, applied here to every
    /// number alike; the sandbox applies it too).
    #[arg(long, env = "OTP_RESEND_SECS", default_value_t = 60)]
    pub otp_resend_secs: u64,

    /// Bearer token of the form export (`GET /api/forms/export`); unset,
    /// the export does not exist (404).
    #[arg(long, env = "FORMS_TOKEN", hide_env_values = true)]
    pub forms_token: Option<Secret>,

    /// Wait before a form delivery to the CMS is tried again, in
    /// milliseconds; doubled after each failure, at most an hour.
    #[arg(long, env = "FORMS_RETRY_MS", default_value_t = 5000)]
    pub forms_retry_ms: u64,

    /// Where state that must survive restarts is kept.
    #[arg(long, env = "DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,

    /// JS engines rendering pages (default: one per core).
    #[arg(long, env = "RENDER_WORKERS")]
    pub render_workers: Option<usize>,

    /// Time budget of one server render, in milliseconds.
    #[arg(long, env = "RENDER_BUDGET_MS", default_value_t = 2000)]
    pub render_budget_ms: u64,

    /// Renders allowed to wait for an engine before new ones get 503.
    #[arg(long, env = "RENDER_QUEUE", default_value_t = 256)]
    pub render_queue: usize,

    /// Longest a render waits for an engine, in milliseconds; past it the
    /// visitor gets 503 rather than a page that comes too late.
    #[arg(long, env = "RENDER_QUEUE_TIMEOUT_MS", default_value_t = 2000)]
    pub render_queue_timeout_ms: u64,

    /// Renders under way or waiting for one client address (default: half
    /// the render workers, at least one), so no client holds every engine;
    /// more get 429. Behind a load balancer every visitor has its address:
    /// raise this there.
    #[arg(long, env = "RENDERS_PER_ADDRESS")]
    pub renders_per_address: Option<usize>,

    /// Redis shared by every instance behind one address (sessions and
    /// their revocation, rate-limit counters, the forms outbox lease, cache
    /// invalidation), e.g. `redis://127.0.0.1:6379/0`. Unset: sessions in
    /// SQLite in `DATA_DIR`, limits in this process.
    #[arg(long, env = "REDIS_URL", hide_env_values = true)]
    pub redis_url: Option<Secret>,

    /// Address of the private listener serving `GET /metrics` (Prometheus
    /// text format); `off` serves none.
    // The whole path keeps clap from reading `Option` as "may be absent":
    // absent is the default address, and `off` is `None`.
    #[arg(long, env = "METRICS_ADDR", default_value = "127.0.0.1:9090", value_parser = parse_metrics_addr)]
    pub metrics_addr: ::std::option::Option<std::net::SocketAddr>,

    /// Proxies whose `X-Forwarded-For` is believed (addresses or CIDRs,
    /// comma-separated): a request from one of them counts as coming from
    /// the rightmost address in the header that is not a trusted proxy.
    /// Default none: every client is its peer address.
    #[arg(long, env = "TRUSTED_PROXIES", value_delimiter = ',', value_parser = crate::connections::Cidr::parse)]
    pub trusted_proxies: Vec<crate::connections::Cidr>,

    /// After SIGTERM (and `DRAIN_DELAY_SECS`), requests under way get this
    /// many seconds to finish before the process exits anyway.
    #[arg(long, env = "SHUTDOWN_GRACE_SECS", default_value_t = 20)]
    pub shutdown_grace_secs: u64,

    /// After SIGTERM `/readyz` answers 503 at once, but new connections are
    /// still taken for this many seconds, so a load balancer that polls
    /// `/readyz` stops sending before the listener closes.
    #[arg(long, env = "DRAIN_DELAY_SECS", default_value_t = 0)]
    pub drain_delay_secs: u64,

    /// Log format.
    #[arg(long, env = "LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// For people: one readable line per event.
    Text,
    /// For log collectors: one JSON object per line.
    Json,
}

/// `off` (or nothing): no metrics listener; else the address to listen on.
fn parse_metrics_addr(value: &str) -> Result<Option<std::net::SocketAddr>, String> {
    match value.trim() {
        "" | "off" => Ok(None),
        address => std::net::ToSocketAddrs::to_socket_addrs(address)
            .map_err(|error| error.to_string())
            .and_then(|mut found| found.next().ok_or_else(|| "no address".to_owned()))
            .map(Some)
            .map_err(|error| format!("METRICS_ADDR must be host:port or `off`, got {value:?}: {error}")),
    }
}

fn parse_site_url(value: &str) -> Result<String, String> {
    let trimmed = value.trim_end_matches('/');
    if trimmed.starts_with("http://") || trimmed.starts_with("https://") {
        Ok(trimmed.to_owned())
    } else {
        Err(format!("SITE_URL must start with http:// or https://, got {value:?}"))
    }
}

impl Config {
    /// The defaults, as `make run` uses them (tests adjust fields from here).
    pub fn defaults() -> Config {
        Config::parse_from(["site"])
    }

    /// Whether the site is served over https (cookies get `Secure`, HSTS is sent).
    pub fn is_https(&self) -> bool {
        self.site_url.starts_with("https://")
    }

    pub fn content_cache(&self) -> crate::content::CacheSettings {
        crate::content::CacheSettings {
            fresh: Duration::from_secs(self.content_ttl_secs),
            stale_if_error: Duration::from_secs(self.content_stale_if_error_secs),
            timeout: Duration::from_millis(self.cms_timeout_ms),
            capacity: 20_000,
            disk: None,
        }
    }

    pub fn operator(&self) -> crate::account::operator::OperatorSettings {
        crate::account::operator::OperatorSettings {
            timeout: Duration::from_millis(self.digital_api_timeout_ms),
            max_requests: self.digital_api_max_requests,
            breaker: crate::account::breaker::BreakerSettings {
                failures: self.digital_api_breaker_failures.max(1),
                cooldown: Duration::from_millis(self.digital_api_breaker_cooldown_ms),
            },
        }
    }

    pub fn digital_api_budget(&self) -> Duration {
        Duration::from_millis(self.digital_api_budget_ms)
    }

    pub fn session_lifetimes(&self) -> crate::account::session_store::Lifetimes {
        crate::account::session_store::Lifetimes {
            idle: Duration::from_secs(self.session_idle_secs),
            absolute: Duration::from_secs(self.session_absolute_secs),
        }
    }

    pub fn connection_limits(&self) -> crate::connections::ConnectionLimits {
        crate::connections::ConnectionLimits {
            header_read: Duration::from_secs(self.header_read_timeout_secs),
            send: Duration::from_secs(self.send_timeout_secs),
            max: self.max_connections,
            per_address: self.max_connections_per_address,
            trusted_proxies: self.trusted_proxies.clone().into(),
        }
    }

    pub fn renderer(&self) -> ssr_runtime::RendererConfig {
        let defaults = ssr_runtime::RendererConfig::default();
        ssr_runtime::RendererConfig {
            workers: self.render_workers.unwrap_or(defaults.workers),
            budget: Duration::from_millis(self.render_budget_ms),
            queue: self.render_queue,
            queue_wait: Duration::from_millis(self.render_queue_timeout_ms),
            ..defaults
        }
    }

    /// Where media the CMS gives relative (`/uploads/…`) lives: `CMS_MEDIA_URL`, else `CMS_URL`, without a trailing `/`.
    pub fn media_base(&self) -> Option<String> {
        self.cms_media_url.clone().or_else(|| self.cms_url.clone()).map(|u| u.trim_end_matches('/').to_owned())
    }

    pub fn renders_per_address(&self) -> usize {
        self.renders_per_address.unwrap_or_else(|| self.renderer().workers.div_ceil(2)).max(1)
    }
}

/// A configuration value that must not appear in logs.
#[derive(Clone)]
pub struct Secret(String);

impl Secret {
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(***)")
    }
}

impl std::str::FromStr for Secret {
    type Err = std::convert::Infallible;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        Ok(Secret(value.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::{Config, LogFormat};

    #[test]
    fn metrics_are_off_only_when_said_so() {
        assert_eq!(Config::defaults().metrics_addr, Some("127.0.0.1:9090".parse().unwrap()));
        assert_eq!(Config::parse_from(["site", "--metrics-addr", "off"]).metrics_addr, None);
        assert!(Config::try_parse_from(["site", "--metrics-addr", "of"]).is_err(), "a typo is refused, not taken for off");
    }

    #[test]
    fn a_log_format_typo_is_refused_rather_than_logging_text() {
        assert_eq!(Config::parse_from(["site", "--log-format", "json"]).log_format, LogFormat::Json);
        assert!(Config::try_parse_from(["site", "--log-format", "jsn"]).is_err());
    }
}
