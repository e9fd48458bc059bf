//! What the site's API endpoints answer on success, each beside the
//! [`Feedback`](crate::feedback::Feedback) of its answer (a notice, where
//! to go next). A failure is the feedback alone. An endpoint that answers
//! nothing else answers its feedback alone too.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::account::{PaymentMethod, Subscriber};
use crate::page::BundleOffer;

/// `POST /api/auth/request-otp`: a code went to `msisdn`; the sign-in
/// shows its code step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct CodeSent {
    pub msisdn: String,
    pub step: SignInStep,
}

/// The sign-in's step after a code was sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum SignInStep {
    Code,
}

/// `POST /api/auth/validate-otp` (signed in) and `GET /api/account`
/// (details and balances read afresh).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct SubscriberAnswer {
    pub subscriber: Subscriber,
}

/// `GET /api/bundles`: the catalogue in the visitor's language; signed in,
/// what the subscriber can pay with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BundlesAnswer {
    pub bundles: Vec<BundleOffer>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub payment_methods: Option<Vec<PaymentMethod>>,
}

/// `POST /api/bundles/purchase`: received; the page reloads after this
/// long, to show the balances it bought.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PurchaseReceived {
    pub reload_after_ms: u32,
}

/// `POST /api/modem/check` and `/api/modem/request-otp`: the modem and its
/// alternative number, shown masked (`2557•••••001`), and the modem flow's
/// next step: the alternative number found (`modems`), or a code sent to
/// it (`otps`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ModemAlternative {
    pub msisdn: String,
    pub alternative_masked: String,
    pub modems: bool,
    pub otps: bool,
}

/// `POST /api/modem/validate-otp`: the modem is signed in; the page marks
/// it in session storage (`modemBundle`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ModemSignedIn {
    pub modem: String,
    pub modem_bundle: bool,
}

/// `POST /api/alternative-number/request-otp`: a code went to the modem
/// `msisdn` itself; the flow is `registering`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct RegistrationCodeSent {
    pub msisdn: String,
    pub registering: bool,
}

/// `POST /api/alternative-number`: the signed-in number is the modem's
/// alternative now, shown masked; the registration is over.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ModemRegistered {
    pub msisdn: String,
    pub alternative_masked: String,
    pub registering_new_number: bool,
}

/// `POST /api/cpm/request-otp`: a code went to `msisdn`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct CpmCodeSent {
    pub msisdn: String,
}

/// `PUT /api/cpm/permissions/{id}`: the permission as it is now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct PermissionSet {
    pub id: String,
    pub granted: bool,
}

/// `POST /api/forms/<form>`: the submission is kept, under this reference
/// (`BC-7K3M9Q2X`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct FormReceived {
    pub reference: String,
}
