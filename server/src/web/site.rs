//! [`Site`]: what the toolkit knows of the site it serves: its origin,
//! which the same-origin guard holds posts against, whether it is served
//! over https (cookies are then `Secure`), and the key that encrypts its
//! private cookies (sessions, flash notices, the form token).

use std::sync::Arc;

use axum_extra::extract::cookie::Key;

#[derive(Clone)]
pub struct Site {
    /// `scheme://host[:port]` of `SITE_URL`.
    pub origin: Arc<str>,
    pub https: bool,
    pub cookie_key: Key,
}
