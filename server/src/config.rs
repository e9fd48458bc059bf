//! Configuration from flags and environment. Every field has a default that
//! lets `make run` serve the whole site on a fresh machine.

use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;

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

    /// Operator digital-service API base URL; unset uses the built-in sandbox.
    #[arg(long, env = "DIGITAL_API_URL")]
    pub digital_api_url: Option<String>,

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

    /// Log format: `text` or `json`.
    #[arg(long, env = "LOG_FORMAT", default_value = "text")]
    pub log_format: String,
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

    pub fn renderer(&self) -> ssr_runtime::RendererConfig {
        let defaults = ssr_runtime::RendererConfig::default();
        ssr_runtime::RendererConfig {
            workers: self.render_workers.unwrap_or(defaults.workers),
            budget: Duration::from_millis(self.render_budget_ms),
            queue: self.render_queue,
            ..defaults
        }
    }
}
