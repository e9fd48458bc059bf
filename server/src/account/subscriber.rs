//! The signed-in subscriber: who they are and what they have (spec §3
//! authentication user), for `GET /api/account` and for pages.

use axum::extract::State;
use axum::http::StatusCode;
use axum_extra::extract::PrivateCookieJar;
use serde_json::{Value, json};

use super::http::{AccountError, Notice, NoticeKind, Reply, Visitor};
use super::operator::OperatorError;
use super::session::{Kind, Session, cookie_name};
use crate::AppState;

/// The authentication user of spec §3: details joined with balances.
pub async fn load_subscriber(state: &AppState, token: &str) -> Result<Value, OperatorError> {
    let (details, airtime, bundles) = tokio::join!(
        state.operator.customer_details(token),
        state.operator.airtime_balance(token),
        state.operator.bundle_balance(token),
    );
    let details = details?;
    let balance = match (airtime, bundles) {
        (Ok(airtime), Ok(bundles)) => json!({ "mainBalance": airtime.main_balance, "bundle": bundles }),
        (Err(OperatorError::Unauthorized), _) | (_, Err(OperatorError::Unauthorized)) => return Err(OperatorError::Unauthorized),
        (Err(error), _) | (_, Err(error)) => {
            tracing::warn!(%error, "balances unavailable");
            Value::Null
        }
    };
    Ok(json!({
        "msisdn": details.msisdn,
        "names": format!("{} {}", details.first_name, details.family_name).trim(),
        "paymentType": details.payment_method,
        "minor": details.minor,
        "registrationStatus": details.registration_status,
        "scopes": details.scopes,
        "balance": balance,
    }))
}

/// The signed-in subscriber of `session` for a page, or `None`; a session the operator
/// no longer accepts (401, or customer details failing with 400 or more,
/// spec §4) is ended.
pub async fn page_subscriber(state: &AppState, session: &Session, jar: PrivateCookieJar) -> (Option<Value>, PrivateCookieJar) {
    match load_subscriber(state, &session.token).await {
        Ok(subscriber) => (Some(subscriber), jar),
        Err(OperatorError::Unavailable(error)) => {
            tracing::warn!(%error, "operator unavailable; page rendered signed out");
            (None, jar)
        }
        Err(error) => {
            tracing::info!(%error, "session ended by the operator");
            (None, state.sessions.end(jar, Kind::Subscriber).await)
        }
    }
}

/// The signed-in session, or 401: "Your session has expired" (spec §8)
/// when the visitor had one that ended (logout elsewhere, lifetimes, the
/// operator), "Please log in first" when they never had one.
pub(super) async fn require(state: &AppState, jar: &PrivateCookieJar) -> Result<Session, AccountError> {
    if let Some(session) = state.sessions.find(jar, Kind::Subscriber).await? {
        return Ok(session);
    }
    let had_one = jar.get(cookie_name(Kind::Subscriber, state.config.is_https())).is_some();
    Err(AccountError::new(StatusCode::UNAUTHORIZED, if had_one { "sessionExpired" } else { "signInFirst" }))
}

/// The operator no longer accepts the session's token: the session ends,
/// the visitor is told to sign in again (spec §4, §8).
pub(super) async fn ended_by_operator(state: &AppState, jar: PrivateCookieJar) -> AccountError {
    AccountError::session_ended(state.sessions.end(jar, Kind::Subscriber).await, "sessionExpired")
}

/// `GET /api/account`: details and balances of the signed-in subscriber.
pub(super) async fn account(State(state): State<AppState>, jar: PrivateCookieJar, visitor: Visitor) -> Result<Reply, AccountError> {
    let session = require(&state, &jar).await?;
    match load_subscriber(&state, &session.token).await {
        Ok(subscriber) => {
            let balance_failed = subscriber["balance"].is_null();
            let reply = Reply::ok(json!({ "subscriber": subscriber }));
            Ok(if balance_failed { reply.with_notice(Notice::key(NoticeKind::Error, "balanceError")) } else { reply })
        }
        Err(OperatorError::Unavailable(_)) => Err(AccountError::new(StatusCode::BAD_GATEWAY, "balanceError")),
        // Spec §4: a 401, or customer details failing with 400 or more, logs out.
        Err(_) => Err(ended_by_operator(&state, jar).await.redirect(visitor.href("/"))),
    }
}
