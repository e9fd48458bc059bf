//! The key that encrypts and authenticates session cookies: from
//! `SESSION_KEY`, or generated once and kept in `DATA_DIR/session.key`, so
//! sessions survive restarts and every server sharing the data directory
//! (or the configured key) accepts them.

use std::fs;
use std::io::Write;

use axum_extra::extract::cookie::Key;
use base64::Engine;

use crate::config::Config;

const KEY_FILE: &str = "session.key";

/// A session key that is no key.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("SESSION_KEY is not base64: {0}")]
    NotBase64(#[from] base64::DecodeError),
    #[error("SESSION_KEY must be at least 64 bytes")]
    TooShort,
    #[error("{} is not a valid key", .0.display())]
    InvalidFile(std::path::PathBuf),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

pub fn session_key(config: &Config) -> Result<Key, KeyError> {
    if let Some(secret) = &config.sessions.key {
        let bytes = base64::engine::general_purpose::STANDARD.decode(secret.expose().trim())?;
        return Key::try_from(bytes.as_slice()).map_err(|_| KeyError::TooShort);
    }
    let path = config.data_dir.join(KEY_FILE);
    if let Ok(bytes) = fs::read(&path) {
        return Key::try_from(bytes.as_slice()).map_err(|_| KeyError::InvalidFile(path));
    }
    fs::create_dir_all(&config.data_dir)?;
    let key = Key::generate();
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(&path)?.write_all(key.master())?;
    tracing::info!(path = %path.display(), "generated the session key");
    Ok(key)
}
