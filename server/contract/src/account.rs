//! The self-service area's data, as the server sends it to the app: the
//! signed-in [`Subscriber`] (in the page data, and the answers of the
//! sign-in and `/api/account`), and the customer permission management
//! session's [`CpmPermissions`]. What the operator's API answers is parsed
//! into its own types at the boundary (`server/src/account/operator`); these
//! are what the site makes of it.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The authentication user: the number and names from the session; the
/// customer details absent, and the balance null, while the operator has
/// not given them (on pages that show no balances it is not asked at all).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Subscriber {
    pub msisdn: String,
    /// First and family name joined.
    pub names: String,
    /// From the operator's paymentMethod: `PREPAID` or `POSTPAID`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub payment_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub minor: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub registration_status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub scopes: Option<Vec<String>>,
    /// Null when the balances could not be read, or not within the server's
    /// budget (the page says "Sorry an Error occured"): the account page asks again.
    pub balance: Option<Balance>,
    /// What the subscriber can pay with: airtime, and M-Pesa unless the
    /// number has no M-Pesa account.
    pub payment_methods: Vec<PaymentMethod>,
}

/// What a subscriber has: airtime, the M-Pesa wallet, bundles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Balance {
    pub main_balance: f64,
    /// The M-Pesa wallet; null when the number has none (or it could not be read).
    pub mpesa_balance: Option<f64>,
    pub bundle: Vec<BundleBalance>,
}

/// A bundle the subscriber holds: one allowance of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BundleBalance {
    /// The catalogue's bundle, whose name (in the page's language) `name` is.
    pub bundle_id: Option<String>,
    pub name: String,
    pub remaining: f64,
    /// `MB`, `MIN` or `SMS`.
    pub unit: String,
    /// RFC 3339.
    pub expires_at: Option<String>,
}

/// How a bundle is paid for (the purchase's `purchaseChannel`): written
/// `AIRTIME` or `MPESA`, read in any case ([`PaymentMethod::parse`]), so a
/// body that names another is refused where it is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "UPPERCASE")]
pub enum PaymentMethod {
    Airtime,
    Mpesa,
}

impl PaymentMethod {
    pub const ALL: [PaymentMethod; 2] = [PaymentMethod::Airtime, PaymentMethod::Mpesa];

    /// `channel` in any case (`mpesa`, `MPESA`).
    pub fn parse(channel: &str) -> Option<PaymentMethod> {
        PaymentMethod::ALL.into_iter().find(|method| method.code().eq_ignore_ascii_case(channel))
    }

    /// As the operator and the app write it: `AIRTIME`, `MPESA`.
    pub fn code(self) -> &'static str {
        match self {
            PaymentMethod::Airtime => "AIRTIME",
            PaymentMethod::Mpesa => "MPESA",
        }
    }
}

impl<'de> Deserialize<'de> for PaymentMethod {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<PaymentMethod, D::Error> {
        let channel = String::deserialize(deserializer)?;
        PaymentMethod::parse(&channel).ok_or_else(|| serde::de::Error::custom(format!("no payment method {channel:?}")))
    }
}

/// The customer permission management session: its number and the
/// permissions it grants or withholds, in the page's language.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct CpmPermissions {
    pub msisdn: String,
    pub permissions: Vec<Permission>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct Permission {
    pub id: String,
    pub name: String,
    pub description: String,
    pub granted: bool,
}

#[cfg(test)]
mod tests {
    use super::PaymentMethod;

    #[test]
    fn a_payment_method_is_read_in_any_case_and_written_as_the_operator_writes_it() {
        for channel in [r#""MPESA""#, r#""mpesa""#, r#""Mpesa""#] {
            assert_eq!(serde_json::from_str::<PaymentMethod>(channel).unwrap(), PaymentMethod::Mpesa, "{channel}");
        }
        assert_eq!(serde_json::to_string(&PaymentMethod::Airtime).unwrap(), r#""AIRTIME""#);
        for channel in [r#""CASH""#, r#""""#, "1"] {
            assert!(serde_json::from_str::<PaymentMethod>(channel).is_err(), "{channel}");
        }
    }
}
