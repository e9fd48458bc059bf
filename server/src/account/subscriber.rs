//! The signed-in subscriber: who they are and what they have (the
//! authentication user), for `GET /api/account` and for pages. Who they are
//! comes from the session (number, names); customer details and balances
//! from the operator through the [`AccountCache`](super::cache::AccountCache),
//! only where a page shows them, and never waited for past the budget.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use axum_extra::extract::PrivateCookieJar;
use contract::Lang;
use contract::account::{Balance, BundleBalance, PaymentMethod, Subscriber};
use contract::api::SubscriberAnswer;

use super::AccountState;
use super::cache::{Known, Lookup};
use super::catalogue::Snapshot;
use super::error::{AccountError, Refused};
use super::session::{Kind, Session, SessionKey, cookie_name};
use crate::web::{Caller, Notice, NoticeKey, NoticeKind, Reply};

/// The subscriber of `session` with what the operator said, if anything
/// (the details absent, and the balance null, while it has not said);
/// bundle balances under the catalogue's name of their bundle in `lang`
/// (the operator's own name when the catalogue does not know it).
pub(super) fn subscriber_of(
    session: &Session,
    known: Option<&Known>,
    catalogue: Option<&Snapshot>,
    lang: Lang,
) -> Subscriber {
    let details = known.map(|k| &k.details);
    let named = |balance: &super::operator::BundleBalance| {
        let bundle = balance.bundle_id.as_deref().and_then(|id| catalogue?.find(id));
        BundleBalance {
            bundle_id: balance.bundle_id.clone(),
            name: bundle.map_or_else(|| balance.name.clone(), |b| b.name.get(lang).to_owned()),
            remaining: balance.remaining,
            unit: balance.unit.clone(),
            expires_at: balance.expires_at.clone(),
        }
    };
    Subscriber {
        msisdn: details.and_then(|d| d.msisdn.clone()).unwrap_or_else(|| session.msisdn.clone()),
        names: details.map_or_else(|| session.names.clone(), |d| d.names()),
        payment_type: details.map(|d| d.payment_method.clone()),
        minor: details.map(|d| d.minor),
        registration_status: details.map(|d| d.registration_status.clone()),
        scopes: details.map(|d| d.scopes.clone()),
        balance: known.and_then(|k| k.balances.as_ref()).map(|b| Balance {
            main_balance: b.airtime.main_balance,
            mpesa_balance: b.mpesa.as_ref().map(|wallet| wallet.balance),
            bundle: b.bundles.iter().map(named).collect(),
        }),
        payment_methods: payment_methods(known),
    }
}

/// What the subscriber can pay with: airtime, and M-Pesa unless the operator
/// said the number has no M-Pesa account (when it could not tell, M-Pesa is
/// offered and the operator decides).
pub(super) fn payment_methods(known: Option<&Known>) -> Vec<PaymentMethod> {
    if known.is_some_and(|k| k.no_mpesa) { vec![PaymentMethod::Airtime] } else { PaymentMethod::ALL.to_vec() }
}

/// The catalogue to name bundle balances by, waited for at most the budget.
pub(super) async fn catalogue_within_budget(account: &AccountState) -> Option<std::sync::Arc<Snapshot>> {
    tokio::time::timeout(account.budget, account.catalogue.get()).await.ok().flatten()
}

/// The signed-in subscriber of `session` for a page, or `None` when the
/// operator refuses the session (401, or customer details failing with 400
/// or more), which then ends. A page that shows no balances
/// (`with_balances` false) is built from the session alone, with no
/// operator call.
pub async fn page_subscriber(
    account: &AccountState,
    key: &SessionKey,
    session: &Session,
    jar: PrivateCookieJar,
    with_balances: bool,
    lang: Lang,
) -> (Option<Subscriber>, PrivateCookieJar) {
    if !with_balances {
        return (Some(subscriber_of(session, None, None, lang)), jar);
    }
    let (lookup, catalogue) =
        tokio::join!(account.details.subscriber(key, &session.token, account.budget), catalogue_within_budget(account));
    match lookup {
        Lookup::Known(known) => (Some(subscriber_of(session, Some(&known), catalogue.as_deref(), lang)), jar),
        Lookup::Unknown => (Some(subscriber_of(session, None, None, lang)), jar),
        Lookup::Refused(error) => {
            tracing::info!(%error, "session ended by the operator");
            (None, sign_out(account, jar).await)
        }
    }
}

/// The signed-in session, or 401: "Your session has expired"
/// when the visitor had one that ended (logout elsewhere, lifetimes, the
/// operator), "Please log in first" when they never had one.
pub(super) async fn require(account: &AccountState, jar: &PrivateCookieJar) -> Result<Session, AccountError> {
    if let Some(session) = account.sessions.find(jar, Kind::Subscriber).await? {
        return Ok(session);
    }
    let had_one = jar.get(cookie_name(Kind::Subscriber, account.https)).is_some();
    Err(if had_one { Refused::SessionExpired } else { Refused::SignInFirst }.into())
}

/// Ends the subscriber session and drops what is kept for it.
pub(super) async fn sign_out(account: &AccountState, jar: PrivateCookieJar) -> PrivateCookieJar {
    if let Some(key) = account.sessions.key(&jar, Kind::Subscriber) {
        account.details.forget(&key);
    }
    account.sessions.end(jar, Kind::Subscriber).await
}

/// The operator no longer accepts the session's token: the session ends,
/// the visitor is told to sign in again.
pub(super) async fn ended_by_operator(account: &AccountState, jar: PrivateCookieJar) -> AccountError {
    AccountError::session_ended(sign_out(account, jar).await, NoticeKey::SessionExpired)
}

/// Around a purchase: whatever it answered (it may have gone through even
/// when no answer came), the session's balances are read afresh next.
pub(super) async fn forget_after(
    State(account): State<Arc<AccountState>>,
    jar: PrivateCookieJar,
    request: Request,
    next: Next,
) -> Response {
    let response = next.run(request).await;
    if let Some(key) = account.sessions.key(&jar, Kind::Subscriber) {
        account.details.forget(&key);
    }
    response
}

/// `GET /api/account`: details and balances of the signed-in subscriber,
/// read afresh within the budget. What the operator has not given by then is left out,
/// with "Sorry an Error occured" when the balances are missing;
/// the page asks again.
pub(super) async fn account(
    State(account): State<Arc<AccountState>>,
    jar: PrivateCookieJar,
    caller: Caller,
) -> Result<Reply<SubscriberAnswer>, AccountError> {
    let session = require(&account, &jar).await?;
    let Some(key) = account.sessions.key(&jar, Kind::Subscriber) else {
        return Err(Refused::SignInFirst.into());
    };
    let (lookup, catalogue) = tokio::join!(
        account.details.subscriber_afresh(&key, &session.token, account.budget),
        catalogue_within_budget(&account)
    );
    let known = match lookup {
        Lookup::Known(known) => Some(known),
        Lookup::Unknown => None,
        // A 401, or customer details failing with 400 or more, signs out.
        Lookup::Refused(_) => {
            return Err(ended_by_operator(&account, jar).await.redirect(caller.href(account.routes.home())));
        }
    };
    let subscriber = subscriber_of(&session, known.as_deref(), catalogue.as_deref(), caller.lang);
    let balance_failed = subscriber.balance.is_none();
    let reply = Reply::ok(SubscriberAnswer { subscriber });
    Ok(if balance_failed { reply.with_notice(Notice::key(NoticeKind::Error, NoticeKey::BalanceError)) } else { reply })
}
