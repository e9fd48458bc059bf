//! The bundle catalogue and buying a bundle (spec §4 purchase).

use axum::extract::State;
use axum::http::StatusCode;
use axum_extra::extract::PrivateCookieJar;
use contract::Lang;
use serde::Deserialize;
use serde_json::{Value, json};

use super::http::{AccountError, Notice, NoticeKind, Reply, Submitted, Visitor, flag};
use super::operator::{self, OperatorError, Purchase};
use super::sign_in::parse_msisdn;
use super::subscriber::{ended_by_operator, require};
use crate::AppState;

/// `GET /api/bundles`: what can be bought, in the visitor's language.
pub(super) async fn bundles(State(state): State<AppState>, visitor: Visitor) -> Result<Reply, AccountError> {
    match state.operator.bundles().await {
        Ok(bundles) => Ok(Reply::ok(json!({ "bundles": localize_bundles(&bundles, visitor.lang) }))),
        Err(error) => {
            tracing::warn!(%error, "bundle catalogue unavailable");
            Err(AccountError::new(StatusCode::BAD_GATEWAY, "somethingWentWrong"))
        }
    }
}

pub fn localize_bundles(bundles: &[operator::CatalogueBundle], lang: Lang) -> Vec<Value> {
    bundles
        .iter()
        .map(|b| json!({ "id": b.id, "name": b.name.get(lang), "price": b.price, "validity": b.validity.get(lang), "type": b.kind }))
        .collect()
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct PurchaseForm {
    bundle_id: String,
    purchase_channel: String,
    /// `self` or `friend`; with `self` a friend's number left in the form is ignored.
    #[serde(default)]
    recipient: Option<String>,
    #[serde(default)]
    subscriber: Option<String>,
    /// Buy for the modem signed in through the modem flow.
    #[serde(default, deserialize_with = "flag")]
    for_modem: bool,
}

/// `POST /api/bundles/purchase {bundleId, purchaseChannel, subscriber?}`.
/// A session that has ended answers 401 "Your session has expired" without
/// sending the browser anywhere: the page opens the login dialog in place
/// and keeps the visitor's choice (spec §8).
pub(super) async fn purchase(
    State(state): State<AppState>,
    jar: PrivateCookieJar,
    visitor: Visitor,
    Submitted(form): Submitted<PurchaseForm>,
) -> Result<Reply, AccountError> {
    let session = require(&state, &jar).await?;
    let for_friend = form.recipient.as_deref() != Some("self");
    let friend = match form.subscriber.as_deref().map(str::trim).filter(|s| for_friend && !s.is_empty()) {
        Some(number) => parse_msisdn(number)?.to_string(),
        None => String::new(),
    };
    let channel = match form.purchase_channel.to_ascii_uppercase().as_str() {
        channel @ ("AIRTIME" | "MPESA") => channel.to_owned(),
        _ => return Err(AccountError::new(StatusCode::BAD_REQUEST, "badRequest")),
    };
    // Buying for a modem needs the modem signed in; never fall back to the payer's own line.
    let token = match (form.for_modem, &session.modem) {
        (false, _) => session.token.clone(),
        (true, Some(modem)) => modem.token.clone(),
        (true, None) => return Err(AccountError::new(StatusCode::CONFLICT, "signInFirst")),
    };
    let for_another = !friend.is_empty();
    let request = Purchase { bundle_id: Value::String(form.bundle_id.trim().to_owned()), touch_point: String::new(), purchase_channel: channel, subscriber: friend };
    match state.operator.purchase(&token, &request).await {
        Ok(_) => Ok(Reply::ok(json!({ "reloadAfterMs": 5000 })).with_notice(Notice::key(NoticeKind::Warning, "purchaseReceived"))),
        Err(OperatorError::Unauthorized) => Err(ended_by_operator(&state, jar).await),
        // Whether another number is a subscriber is not the payer's to learn.
        Err(OperatorError::Refused { status: 404, .. }) if for_another => {
            Err(AccountError::new(StatusCode::BAD_REQUEST, "cannotSendTo"))
        }
        Err(error @ OperatorError::Refused { .. }) => Err(AccountError::operator_message(&error, visitor.lang, "errorOccurred")),
        Err(error) => {
            tracing::error!(%error, "purchase failed unexpectedly");
            Err(AccountError::new(StatusCode::BAD_GATEWAY, "notRight"))
        }
    }
}
