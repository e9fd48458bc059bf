//! What a session is: its kind (a subscriber's, or customer permission
//! management's) and what it holds. The cookies that carry it are
//! `session`'s, the stores that keep it `session_store`'s and
//! `session_redis`'s.

use serde::{Deserialize, Serialize};

/// Whose session: each kind has its own cookie and its own operator token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Subscriber,
    Cpm,
}

/// What a session holds.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Session {
    pub token: String,
    pub msisdn: String,
    /// The subscriber's names as the operator gave them at sign-in, so a
    /// page can name them without asking it again (empty in sessions from
    /// before they were kept, and for CPM).
    #[serde(default)]
    pub names: String,
    /// A modem signed in through its alternative number (the modem flow).
    #[serde(default)]
    pub modem: Option<ModemLogin>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ModemLogin {
    pub msisdn: String,
    pub token: String,
}

impl Session {
    pub fn new(token: String, msisdn: String) -> Session {
        Session { token, msisdn, names: String::new(), modem: None }
    }

    pub fn named(self, names: String) -> Session {
        Session { names, ..self }
    }
}

/// The kind as the stores write it.
pub(super) fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Subscriber => "subscriber",
        Kind::Cpm => "cpm",
    }
}
