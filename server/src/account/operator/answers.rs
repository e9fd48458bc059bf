//! The operator API's bodies as typed values, in the shapes
//! `server/OPERATOR_API.md` fixes: what its calls answer (the subscriber's
//! details, balances, the catalogue, alternative numbers, permissions, and
//! the `data` and `message` envelopes around them, and what a refusal
//! says), what they are sent, and [`OperatorError`], how a call fails. The
//! client that sends the calls is the parent module.

use contract::Lang;
use contract::account::PaymentMethod;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};

/// A message for people, in both languages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Localized {
    pub en: String,
    pub sw: String,
}

impl Localized {
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Sw => &self.sw,
        }
    }
}

/// How a call fails.
#[derive(Debug, Clone, thiserror::Error)]
pub enum OperatorError {
    /// 401: the token is missing, unknown or expired.
    #[error("the operator refused the credential")]
    Unauthorized,
    /// Any other answer of 400 or more, with what it said.
    #[error("the operator answered {status}")]
    Refused { status: u16, message: Option<Localized>, reason: Option<String> },
    /// No answer, or not one we can read.
    #[error("the operator API failed: {0}")]
    Unavailable(String),
    /// The call was sent and no answer came within `DIGITAL_API_TIMEOUT_MS`:
    /// what it asked for may have been done.
    #[error("the operator API did not answer in time")]
    TimedOut,
    /// Not sent: the circuit is open, or too many calls are under way.
    #[error("the operator API was not called: {0}")]
    NotCalled(&'static str),
}

impl OperatorError {
    /// The operator did not answer this call (or it was never sent): nothing
    /// is known of what it would have said.
    pub fn unanswered(&self) -> bool {
        matches!(self, OperatorError::Unavailable(_) | OperatorError::TimedOut | OperatorError::NotCalled(_))
    }
}

impl From<tokio::task::JoinError> for OperatorError {
    fn from(error: tokio::task::JoinError) -> OperatorError {
        OperatorError::Unavailable(format!("operator call task: {error}"))
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomerDetails {
    pub msisdn: Option<String>,
    pub first_name: String,
    pub family_name: String,
    pub payment_method: String,
    pub minor: bool,
    pub registration_status: String,
    #[serde(default)]
    pub scopes: Vec<String>,
}

impl CustomerDetails {
    /// First and family name, as the site shows them.
    pub fn names(&self) -> String {
        format!("{} {}", self.first_name, self.family_name).trim().to_owned()
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct AirtimeBalance {
    #[serde(rename = "mainBalance")]
    pub main_balance: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BundleBalance {
    /// The catalogue's bundle, when the operator names it.
    #[serde(default)]
    pub bundle_id: Option<String>,
    pub name: String,
    pub remaining: f64,
    pub unit: String,
    pub expires_at: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CatalogueBundle {
    pub id: String,
    #[serde(default)]
    pub category: String,
    pub name: Localized,
    pub price: f64,
    pub validity: Localized,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub ussd: Option<String>,
    /// Sold through the purchase call (a catalogue without the field sells everything).
    #[serde(default = "sold_online")]
    pub purchasable: bool,
}

fn sold_online() -> bool {
    true
}

#[derive(Debug, Clone, Deserialize)]
pub struct MpesaBalance {
    pub balance: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AlternativeNumber {
    pub msisdn: String,
    pub alternative_msisdn: String,
}

/// The bundle purchase payload.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Purchase {
    pub bundle_id: String,
    /// Sent empty.
    pub touch_point: String,
    /// The payment method, written `AIRTIME` or `MPESA`.
    pub purchase_channel: PaymentMethod,
    /// A friend's number, or empty for the payer.
    pub subscriber: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Permission {
    /// A string or a number; kept as its text.
    #[serde(deserialize_with = "id_text")]
    pub id: String,
    pub name: Localized,
    pub description: Localized,
    pub granted: bool,
}

/// The envelope of most answers: `{ "data": … }`.
#[derive(Deserialize)]
pub(super) struct Data<T> {
    pub(super) data: T,
}

/// An answer that only says something to the subscriber: `{ "message": { en, sw } }`.
#[derive(Deserialize)]
pub(super) struct Message {
    pub(super) message: Localized,
}

/// A refusal's body: the operator's message for people, or its reason.
/// Either that does not fit is left out, so the refusal still counts.
#[derive(Deserialize, Default)]
pub(super) struct RefusalBody {
    #[serde(default, deserialize_with = "leniently")]
    pub(super) message: Option<Localized>,
    #[serde(default, deserialize_with = "leniently")]
    pub(super) failure: Option<Failure>,
}

#[derive(Deserialize)]
pub(super) struct Failure {
    pub(super) reason: String,
}

/// A call's body that names a number: `{ msisdn }`.
#[derive(Serialize)]
pub(super) struct Number<'a> {
    pub(super) msisdn: &'a str,
}

/// `{ msisdn, code }`.
#[derive(Serialize)]
pub(super) struct NumberCode<'a> {
    pub(super) msisdn: &'a str,
    pub(super) code: &'a str,
}

/// A modem and its alternative number, with the code that proves it where one is asked.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ModemPair<'a> {
    pub(super) msisdn: &'a str,
    pub(super) alternative_msisdn: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) code: Option<&'a str>,
}

/// `{ granted }`.
#[derive(Serialize)]
pub(super) struct Grant {
    pub(super) granted: bool,
}

/// An entry of a list each entry of which is parsed on its own: one that
/// does not fit is the error, and the rest of the list stays.
pub(super) struct Entry<T>(pub(super) Result<T, serde_json::Error>);

impl<'de, T: DeserializeOwned> Deserialize<'de> for Entry<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Entry<T>, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        Ok(Entry(serde_json::from_value(value)))
    }
}

/// A field that is `None` when it does not fit its type.
fn leniently<'de, D: Deserializer<'de>, T: DeserializeOwned>(deserializer: D) -> Result<Option<T>, D::Error> {
    Ok(Entry::<T>::deserialize(deserializer)?.0.ok())
}

/// An id written as a string or a number, as its text.
fn id_text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Id {
        Text(String),
        Number(serde_json::Number),
    }
    Ok(match Id::deserialize(deserializer)? {
        Id::Text(text) => text,
        Id::Number(number) => number.to_string(),
    })
}
