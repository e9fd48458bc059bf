//! The bundle catalogue and buying a bundle.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum_extra::extract::PrivateCookieJar;
use contract::api::{BundlesAnswer, PurchaseForm, PurchaseReceived, Recipient};
use contract::page::PageKind;
use contract::protocol::{CONFIRM_STEP, RELOAD_AFTER_MS, STEP_PARAM};

use super::AccountState;
use super::cache::Lookup;
use super::catalogue::offer;
use super::error::{AccountError, Refused};
use super::operator::{OperatorError, Purchase};
use super::repeats::PurchaseMark;
use super::session::Kind;
use super::sign_in::parse_msisdn;
use super::subscriber::{ended_by_operator, payment_methods, require};
use crate::msisdn::Msisdn;
use crate::web::{Caller, Notice, NoticeKey, NoticeKind, Reply, Submitted};

/// `GET /api/bundles`: the whole catalogue in the visitor's language, for
/// anyone (public price information, cached like pages); signed in, also
/// `paymentMethods`, what the subscriber can pay with.
pub(super) async fn bundles(
    State(account): State<Arc<AccountState>>,
    jar: PrivateCookieJar,
    caller: Caller,
) -> Result<Response, AccountError> {
    let Some(catalogue) = account.catalogue.get().await else {
        return Err(Refused::NoCatalogue.into());
    };
    let bundles: Vec<_> = catalogue.bundles.iter().map(|bundle| offer(bundle, caller.lang)).collect();
    let Some((key, session)) = account.sessions.load_keyed(&jar, Kind::Subscriber).await else {
        let public = format!("public, max-age={}", account.catalogue_ttl.as_secs());
        let headers = [
            (header::CACHE_CONTROL, HeaderValue::from_str(&public).expect("a header value")),
            (header::VARY, HeaderValue::from_static("cookie, x-site-lang")),
        ];
        return Ok((headers, Reply::ok(BundlesAnswer { bundles, payment_methods: None })).into_response());
    };
    // From what is kept of the subscriber (read within the budget if nothing is).
    let known = match account.details.subscriber(&key, &session.token, account.budget).await {
        Lookup::Known(known) => Some(known),
        Lookup::Unknown | Lookup::Refused(_) => None,
    };
    let methods = payment_methods(known.as_deref());
    Ok(Reply::ok(BundlesAnswer { bundles, payment_methods: Some(methods) }).into_response())
}

/// `POST /api/bundles/purchase {bundleId, purchaseChannel, subscriber?, again?}`.
/// A session that has ended answers 401 "Your session has expired" without
/// sending the browser anywhere: the page opens the login dialog in place
/// and keeps the visitor's choice. The same bundle for the same
/// number within two minutes of the last is refused (409) unless `again`
/// says the visitor confirmed it; an answer that does not come in time is
/// "not confirmed yet" (504), and counts as a purchase made.
pub(super) async fn purchase(
    State(account): State<Arc<AccountState>>,
    jar: PrivateCookieJar,
    caller: Caller,
    Submitted(form): Submitted<PurchaseForm>,
) -> Result<Reply<PurchaseReceived>, AccountError> {
    let session = require(&account, &jar).await?;
    let for_friend = form.recipient != Some(Recipient::Own);
    let friend = match form.subscriber.as_deref().map(str::trim).filter(|s| for_friend && !s.is_empty()) {
        Some(number) => Some(parse_msisdn(number)?),
        None => None,
    };
    // Buying for a modem needs the modem signed in; never fall back to the payer's own line.
    let (token, recipient) = match (form.for_modem, &session.modem) {
        (false, _) => {
            (session.token.clone(), friend.as_ref().map_or(session.msisdn.as_str(), Msisdn::as_str).to_owned())
        }
        (true, Some(modem)) => (modem.token.clone(), modem.msisdn.clone()),
        (true, None) => return Err(Refused::NoModem.into()),
    };
    let bundle_id = form.bundle_id.trim().to_owned();
    let mark = PurchaseMark::new(&token, &bundle_id, &recipient);
    if !account.recent_purchases.mark(&mark, form.again).await? {
        let refusal = AccountError::from(Refused::PurchaseRepeat);
        // Without JavaScript the confirmation step comes back, asking to confirm again.
        return Err(if caller.form { refusal.redirect(confirm_again(&account, &caller, &form)) } else { refusal });
    }
    let request = Purchase {
        bundle_id: bundle_id.clone(),
        touch_point: String::new(),
        purchase_channel: form.purchase_channel,
        subscriber: friend.as_ref().map(|f| f.to_string()).unwrap_or_default(),
    };
    let error = match account.operator.purchase(&token, &request).await {
        Ok(_) => {
            let notice = received(&account, &caller, &bundle_id, &recipient).await;
            return Ok(Reply::ok(PurchaseReceived { reload_after_ms: RELOAD_AFTER_MS }).with_notice(notice));
        }
        Err(error) => error,
    };
    // A refusal bought nothing, nor did a call never sent: trying again needs no confirmation.
    if matches!(
        error,
        OperatorError::Unauthorized | OperatorError::Refused { status: 400..=499, .. } | OperatorError::NotCalled(_)
    ) {
        account.recent_purchases.forget(&mark).await;
    }
    Err(match error {
        OperatorError::Unauthorized => ended_by_operator(&account, jar).await,
        // Whether another number is a subscriber is not the payer's to learn.
        OperatorError::Refused { status: 404, .. } if friend.is_some() => Refused::CannotSendTo.into(),
        error @ OperatorError::Refused { .. } => {
            AccountError::operator_message(&error, caller.lang, NoticeKey::ErrorOccurred)
        }
        OperatorError::TimedOut => {
            tracing::warn!(bundle = %bundle_id, "purchase answer timed out; it may have gone through");
            AccountError::purchase_unconfirmed()
        }
        error @ OperatorError::Unavailable(_) => {
            tracing::error!(%error, "purchase failed unexpectedly");
            Refused::OperatorFailed.into()
        }
        // The circuit is open or the API too busy: nothing was sent, try again shortly.
        error @ OperatorError::NotCalled(_) => AccountError::operator(&error, NoticeKey::NotRight),
    })
}

/// The success message, with what was bought for whom.
async fn received(account: &AccountState, caller: &Caller, bundle_id: &str, recipient: &str) -> Notice {
    let catalogue = account.catalogue.get().await;
    let bundle = catalogue.as_ref().and_then(|c| c.find(bundle_id)).map_or(bundle_id, |b| b.name.get(caller.lang));
    let recipient = Msisdn::parse(recipient).map_or_else(|_| recipient.to_owned(), |number| number.local());
    Notice::key(NoticeKind::Warning, NoticeKey::PurchaseReceivedFor)
        .with_params([("bundle", bundle), ("recipient", recipient.as_str())])
}

/// The account page's confirmation step for this purchase, asking to
/// confirm buying it again.
fn confirm_again(account: &AccountState, caller: &Caller, form: &PurchaseForm) -> String {
    let query = serde_urlencoded::to_string((
        (STEP_PARAM, CONFIRM_STEP),
        ("bundleId", form.bundle_id.as_str()),
        ("recipient", form.recipient.unwrap_or(Recipient::Friend)),
        ("subscriber", form.subscriber.as_deref().unwrap_or("")),
        ("purchaseChannel", form.purchase_channel),
        ("again", true),
    ))
    .unwrap_or_default();
    format!("{}?{query}", caller.href(account.routes.path_of(PageKind::Account)))
}
