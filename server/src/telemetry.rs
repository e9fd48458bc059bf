//! Logs through `tracing`; `RUST_LOG` filters (default: info).

use tracing_subscriber::EnvFilter;

use crate::config::Config;
use crate::config::LogFormat;

pub fn init(config: &Config) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,tower_http=info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    match config.operations.log_format {
        LogFormat::Json => builder.json().init(),
        LogFormat::Text => builder.init(),
    }
}
