//! The typed values configuration is parsed into at start, so that nothing
//! past the start reads a number as seconds or a string as an address: a
//! duration is a [`Duration`], an address an [`HttpUrl`], a secret a
//! [`Secret`] that never reaches a log.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// An `http://` or `https://` address with a host, checked at start, kept
/// without a trailing slash so that `{url}{path}` never doubles one.
#[derive(Clone, PartialEq, Eq)]
pub struct HttpUrl(String);

impl HttpUrl {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn is_https(&self) -> bool {
        self.0.starts_with("https://")
    }

    /// `scheme://host[:port]`, as CSP source lists and `Origin` headers name it.
    pub fn origin(&self) -> String {
        let url = url::Url::parse(&self.0).expect("checked when parsed");
        url.origin().ascii_serialization()
    }
}

impl FromStr for HttpUrl {
    type Err = String;

    fn from_str(value: &str) -> Result<HttpUrl, String> {
        let trimmed = value.trim().trim_end_matches('/');
        let url = url::Url::parse(trimmed).map_err(|error| format!("{value:?} is no address: {error}"))?;
        if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
            return Err(format!("{value:?} must be an http:// or https:// address with a host"));
        }
        Ok(HttpUrl(trimmed.to_owned()))
    }
}

impl fmt::Display for HttpUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for HttpUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

/// `DATABASE_URL`: a `postgres://` or `postgresql://` address with a host,
/// checked at start (never echoed: it holds a password).
#[derive(Clone)]
pub struct DatabaseUrl(tokio_postgres::Config);

impl DatabaseUrl {
    pub fn config(&self) -> &tokio_postgres::Config {
        &self.0
    }
}

impl FromStr for DatabaseUrl {
    type Err = String;

    fn from_str(value: &str) -> Result<DatabaseUrl, String> {
        let value = value.trim();
        if !(value.starts_with("postgres://") || value.starts_with("postgresql://")) {
            return Err("must be a postgres:// address, e.g. postgres://site:password@10.0.0.5:5432/site".to_owned());
        }
        let config: tokio_postgres::Config =
            value.parse().map_err(|error| format!("is no PostgreSQL address: {error}"))?;
        if config.get_hosts().is_empty() {
            return Err("names no host".to_owned());
        }
        // The connection is plain TCP (`forms/store_postgres.rs` says why):
        // one that must be encrypted would fail at every post instead.
        if matches!(config.get_ssl_mode(), tokio_postgres::config::SslMode::Require) {
            return Err("asks for sslmode=require, but this server connects without TLS: keep PostgreSQL on the \
                        instances' private network (sslmode=disable or prefer)"
                .to_owned());
        }
        Ok(DatabaseUrl(config))
    }
}

/// The hosts and the database, not the user or the password.
impl fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hosts: Vec<String> = self.0.get_hosts().iter().map(|host| format!("{host:?}")).collect();
        write!(f, "DatabaseUrl({} {:?})", hosts.join(","), self.0.get_dbname())
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

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

impl FromStr for Secret {
    type Err = std::convert::Infallible;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        Ok(Secret(value.to_owned()))
    }
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// For people: one readable line per event.
    Text,
    /// For log collectors: one JSON object per line.
    Json,
}

/// A variable named `…_SECS`: whole seconds.
pub fn secs(value: &str) -> Result<Duration, String> {
    value.trim().parse().map(Duration::from_secs).map_err(|_| format!("{value:?} is no whole number of seconds"))
}

/// A variable named `…_MS`: whole milliseconds.
pub fn millis(value: &str) -> Result<Duration, String> {
    value.trim().parse().map(Duration::from_millis).map_err(|_| format!("{value:?} is no whole number of milliseconds"))
}

/// A variable named `…_MB`: whole MiB, as bytes.
pub fn mebibytes(value: &str) -> Result<u64, String> {
    value
        .trim()
        .parse::<u64>()
        .ok()
        .and_then(|mb| mb.checked_mul(1 << 20))
        .ok_or_else(|| format!("{value:?} is no whole number of MiB"))
}

/// `off` (or nothing): no listener; else the address to listen on.
pub fn listen_or_off(value: &str) -> Result<Option<std::net::SocketAddr>, String> {
    match value.trim() {
        "" | "off" => Ok(None),
        address => std::net::ToSocketAddrs::to_socket_addrs(address)
            .map_err(|error| error.to_string())
            .and_then(|mut found| found.next().ok_or_else(|| "no address".to_owned()))
            .map(Some)
            .map_err(|error| format!("must be host:port or `off`, got {value:?}: {error}")),
    }
}

/// How the Strapi client asks for relations, media and components first
/// (`CMS_POPULATE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PopulateStrategy {
    /// `populate=deep,N`: the strapi-plugin-populate-deep plugin for v4;
    /// explicit parameters when the CMS refuses it.
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

#[cfg(test)]
mod tests {
    use super::{DatabaseUrl, HttpUrl};

    #[test]
    fn an_address_is_http_with_a_host_and_loses_its_trailing_slash() {
        let url: HttpUrl = "https://cms.example.co.tz/".parse().unwrap();
        assert_eq!(url.as_str(), "https://cms.example.co.tz");
        assert!(url.is_https());
        assert_eq!("http://127.0.0.1:1337/api/".parse::<HttpUrl>().unwrap().origin(), "http://127.0.0.1:1337");
        for refused in ["cms.example.co.tz", "ftp://cms.example.co.tz", "http://", "javascript:alert(1)"] {
            assert!(refused.parse::<HttpUrl>().is_err(), "{refused}");
        }
    }

    /// A bad `DATABASE_URL` stops the start, saying why, and never shows the password.
    #[test]
    fn a_database_url_is_postgres_with_a_host_and_hides_its_password() {
        let url: DatabaseUrl = "postgres://site:s3cret@10.0.0.5:5432/site".parse().unwrap();
        assert_eq!(url.config().get_dbname(), Some("site"));
        assert!(!format!("{url:?}").contains("s3cret"), "{url:?}");
        assert!("postgresql://site@db.internal/site?sslmode=disable".parse::<DatabaseUrl>().is_ok());
        for refused in ["mysql://site@db/site", "host=db user=site", "postgres://site@db/site?sslmode=require"] {
            let error = refused.parse::<DatabaseUrl>().unwrap_err();
            assert!(!error.contains("s3cret"), "{error}");
        }
        assert!(
            "postgres://site:s3cret@db/site?sslmode=bogus".parse::<DatabaseUrl>().is_err_and(|e| !e.contains("s3cret"))
        );
    }
}
