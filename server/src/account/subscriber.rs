//! The signed-in subscriber: who they are and what they have (spec §3
//! authentication user), for `GET /api/account` and for pages.

use axum::extract::State;
use axum::http::StatusCode;
use axum_extra::extract::PrivateCookieJar;
use contract::Lang;
use serde_json::{Value, json};

use super::http::{AccountError, Notice, NoticeKind, Reply, Visitor};
use super::operator::{BundleBalance, MpesaBalance, OperatorError};
use super::session::{Kind, Session, cookie_name};
use crate::AppState;

/// The authentication user of spec §3: details joined with balances (the
/// M-Pesa wallet beside airtime when the number has one), bundles named as
/// the catalogue names them in `lang`, and what the subscriber can pay with.
pub async fn load_subscriber(state: &AppState, token: &str, lang: Lang) -> Result<Value, OperatorError> {
    let (details, airtime, bundles, mpesa) = tokio::join!(
        state.operator.customer_details(token),
        state.operator.airtime_balance(token),
        state.operator.bundle_balance(token),
        state.operator.mpesa_balance(token),
    );
    let details = details?;
    match &mpesa {
        Err(OperatorError::Unauthorized) => return Err(OperatorError::Unauthorized),
        Err(OperatorError::Refused { status: 404, .. }) | Ok(_) => {}
        Err(error) => tracing::warn!(%error, "M-Pesa balance unavailable"),
    }
    let balance = match (airtime, bundles) {
        (Ok(airtime), Ok(bundles)) => json!({
            "mainBalance": airtime.main_balance,
            "mpesaBalance": mpesa.as_ref().ok().map(|wallet| wallet.balance),
            "bundle": named(state, bundles, lang).await,
        }),
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
        "paymentMethods": payment_methods(&mpesa),
    }))
}

/// Bundle balances under the catalogue's name of their bundle in `lang`
/// (the operator's own name when the catalogue does not know it).
async fn named(state: &AppState, mut bundles: Vec<BundleBalance>, lang: Lang) -> Vec<BundleBalance> {
    if let Some(catalogue) = state.catalogue.get().await {
        for balance in &mut bundles {
            if let Some(bundle) = balance.bundle_id.as_deref().and_then(|id| catalogue.find(id)) {
                balance.name = bundle.name.get(lang).to_owned();
            }
        }
    }
    bundles
}

/// What a subscriber can pay with: airtime, and M-Pesa unless the operator
/// said the number has no M-Pesa account (when it could not tell, M-Pesa is
/// offered and the operator decides).
pub fn payment_methods(mpesa: &Result<MpesaBalance, OperatorError>) -> Vec<&'static str> {
    match mpesa {
        Err(OperatorError::Refused { status: 404, .. }) => vec!["AIRTIME"],
        _ => vec!["AIRTIME", "MPESA"],
    }
}

/// The signed-in subscriber of `session` for a page, or `None`; a session the operator
/// no longer accepts (401, or customer details failing with 400 or more,
/// spec §4) is ended.
pub async fn page_subscriber(state: &AppState, session: &Session, jar: PrivateCookieJar, lang: Lang) -> (Option<Value>, PrivateCookieJar) {
    match load_subscriber(state, &session.token, lang).await {
        Ok(subscriber) => (Some(subscriber), jar),
        Err(error @ (OperatorError::Unavailable(_) | OperatorError::TimedOut)) => {
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
    match load_subscriber(&state, &session.token, visitor.lang).await {
        Ok(subscriber) => {
            let balance_failed = subscriber["balance"].is_null();
            let reply = Reply::ok(json!({ "subscriber": subscriber }));
            Ok(if balance_failed { reply.with_notice(Notice::key(NoticeKind::Error, "balanceError")) } else { reply })
        }
        Err(OperatorError::Unavailable(_) | OperatorError::TimedOut) => Err(AccountError::new(StatusCode::BAD_GATEWAY, "balanceError")),
        // Spec §4: a 401, or customer details failing with 400 or more, logs out.
        Err(_) => Err(ended_by_operator(&state, jar).await.redirect(visitor.href("/"))),
    }
}
