//! Configuration from flags and environment, parsed once at start into typed
//! values ([`values`]): durations, addresses, sizes in bytes, enums. Every
//! field has a default that lets `make run` serve the whole site on a fresh
//! machine. Each feature's settings are a group of their own
//! (`config.cms`, `config.operator`, …), handed to that feature alone.
//!
//! - this module: [`Config`] and the site-wide fields;
//! - `groups`: one settings struct per feature;
//! - [`values`]: the typed values and their parsers.

mod groups;
pub mod values;

use std::path::PathBuf;

use clap::Parser;

pub use groups::{
    CmsConfig, ConnectionConfig, ContentConfig, FormsConfig, ImageConfig, OperationsConfig, OperatorConfig,
    PagesConfig, SessionConfig,
};
pub use values::{DatabaseUrl, HttpUrl, LogFormat, PopulateStrategy, Secret};

#[derive(Debug, Clone, Parser)]
#[command(name = "site", about = "The operator's public website and self-service area")]
pub struct Config {
    /// Port to listen on.
    #[arg(long, env = "PORT", default_value_t = 8080)]
    pub port: u16,

    /// Address to listen on.
    #[arg(long, env = "HOST", default_value = "127.0.0.1")]
    pub host: String,

    /// Public address of the site, for canonical and alternate links;
    /// `https://` makes cookies `Secure` and sends HSTS.
    #[arg(long, env = "SITE_URL", default_value = "http://localhost:8080")]
    pub site_url: HttpUrl,

    /// Where state that must survive restarts is kept.
    #[arg(long, env = "DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,

    /// Production mode: codes are never logged, and the sandbox is refused
    /// unless `ENABLE_SANDBOX` is set too.
    #[arg(long, env = "PRODUCTION")]
    pub production: bool,

    /// Serve the sandbox operator API even in production mode.
    #[arg(long, env = "ENABLE_SANDBOX")]
    pub enable_sandbox: bool,

    #[command(flatten)]
    pub cms: CmsConfig,

    #[command(flatten)]
    pub content: ContentConfig,

    #[command(flatten)]
    pub pages: PagesConfig,

    #[command(flatten)]
    pub images: ImageConfig,

    #[command(flatten)]
    pub connections: ConnectionConfig,

    #[command(flatten)]
    pub operator: OperatorConfig,

    #[command(flatten)]
    pub sessions: SessionConfig,

    #[command(flatten)]
    pub forms: FormsConfig,

    #[command(flatten)]
    pub operations: OperationsConfig,
}

impl Config {
    /// The defaults, as `make run` uses them (tests adjust fields from here).
    pub fn defaults() -> Config {
        Config::parse_from(["site"])
    }

    /// Whether the site is served over https (cookies get `Secure`, HSTS is sent).
    pub fn is_https(&self) -> bool {
        self.site_url.is_https()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use clap::Parser;

    use super::{Config, LogFormat};

    #[test]
    fn metrics_are_off_only_when_said_so() {
        assert_eq!(Config::defaults().operations.metrics_addr, Some("127.0.0.1:9090".parse().unwrap()));
        assert_eq!(Config::parse_from(["site", "--metrics-addr", "off"]).operations.metrics_addr, None);
        assert!(
            Config::try_parse_from(["site", "--metrics-addr", "of"]).is_err(),
            "a typo is refused, not taken for off"
        );
    }

    #[test]
    fn a_log_format_typo_is_refused_rather_than_logging_text() {
        assert_eq!(Config::parse_from(["site", "--log-format", "json"]).operations.log_format, LogFormat::Json);
        assert!(Config::try_parse_from(["site", "--log-format", "jsn"]).is_err());
    }

    #[test]
    fn durations_sizes_and_addresses_are_typed_at_start() {
        let config = Config::parse_from([
            "site",
            "--content-ttl-secs",
            "5",
            "--cms-timeout-ms",
            "250",
            "--page-cache-mb",
            "2",
            "--cms-url",
            "http://cms:1337/",
        ]);
        assert_eq!(config.content.ttl, Duration::from_secs(5));
        assert_eq!(config.cms.timeout, Duration::from_millis(250));
        assert_eq!(config.pages.cache_bytes, 2 << 20);
        assert_eq!(config.cms.url.as_ref().map(|url| url.as_str()), Some("http://cms:1337"));
        assert!(Config::try_parse_from(["site", "--site-url", "localhost:8080"]).is_err());
        assert!(Config::try_parse_from(["site", "--content-ttl-secs", "1m"]).is_err());
    }
}
