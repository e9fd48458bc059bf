//! Tokens: what a validated code is exchanged for. Each is bound to a number
//! and a purpose and stored only as a hash. The extractors check the
//! `Authorization` header, so a handler that takes one is authenticated.

use axum::extract::FromRequestParts;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use rusqlite::{Connection, OptionalExtension, params};

use super::domain::{Msisdn, Purpose};
use super::reply::ApiError;
use super::{Sandbox, SandboxError, SandboxOptions, millis, now_ms, secrets};

/// Stores a new token for `msisdn` and returns it; expired tokens go.
pub(super) fn issue(
    db: &Connection,
    options: &SandboxOptions,
    msisdn: &Msisdn,
    purpose: Purpose,
) -> Result<String, SandboxError> {
    let now = now_ms();
    let (token, hash) = secrets::new_token()?;
    db.execute("DELETE FROM token WHERE expires_at <= ?1", [now])?;
    db.execute(
        "INSERT INTO token (hash, msisdn, purpose, expires_at) VALUES (?1, ?2, ?3, ?4)",
        params![hash, msisdn, purpose, now.saturating_add(millis(options.token_ttl))],
    )?;
    Ok(token)
}

/// Who a bearer of `Authorization: Bearer <token>` is: a subscriber signed
/// in with a code, or a modem signed in through its alternative number. Both
/// may read balances and buy bundles.
pub(super) struct SubscriberSession {
    pub msisdn: Msisdn,
    pub purpose: Purpose,
}

impl FromRequestParts<Sandbox> for SubscriberSession {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, sandbox: &Sandbox) -> Result<SubscriberSession, ApiError> {
        let (msisdn, purpose) = authenticate(parts, sandbox, "Bearer", &[Purpose::SignIn, Purpose::Modem]).await?;
        Ok(SubscriberSession { msisdn, purpose })
    }
}

/// The bearer of `Authorization: cpm-bearer <token>`: a subscriber in the
/// customer permission management area.
pub(super) struct CpmSession {
    pub msisdn: Msisdn,
}

impl FromRequestParts<Sandbox> for CpmSession {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, sandbox: &Sandbox) -> Result<CpmSession, ApiError> {
        let (msisdn, _) = authenticate(parts, sandbox, "cpm-bearer", &[Purpose::Cpm]).await?;
        Ok(CpmSession { msisdn })
    }
}

/// The number and purpose of a live token presented with `scheme` (compared
/// without case, as HTTP schemes are); a missing, unknown or expired token,
/// or one of another purpose, is a 401.
async fn authenticate(
    parts: &Parts,
    sandbox: &Sandbox,
    scheme: &str,
    accepted: &'static [Purpose],
) -> Result<(Msisdn, Purpose), ApiError> {
    let token = parts
        .headers
        .get(AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split_once(' '))
        .filter(|(presented, _)| presented.eq_ignore_ascii_case(scheme))
        .map(|(_, token)| token.trim().to_owned())
        .filter(|token| !token.is_empty())
        .ok_or_else(ApiError::unauthorized)?;
    let hash = secrets::token_hash(&token);
    let found = sandbox
        .db(move |db| {
            db.query_row(
                "SELECT msisdn, purpose FROM token WHERE hash = ?1 AND expires_at > ?2",
                params![hash, now_ms()],
                |row| Ok((row.get::<_, Msisdn>(0)?, row.get::<_, Purpose>(1)?)),
            )
            .optional()
            .map_err(ApiError::from)
        })
        .await?;
    found.filter(|(_, purpose)| accepted.contains(purpose)).ok_or_else(ApiError::unauthorized)
}
