//! The self-service endpoints' bodies: what the app sends (as JSON, or an
//! HTML form posts as its fields), and what each endpoint answers on
//! success, beside the [`Feedback`](crate::feedback::Feedback) of its
//! answer (a notice, where to go next). A failure is the feedback alone; an
//! endpoint that answers nothing else answers its feedback alone too.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::account::{PaymentMethod, Subscriber};
use crate::page::BundleOffer;

/// What a call that names a number sends: `POST /api/auth/request-otp`,
/// `/api/cpm/request-otp`, `/api/modem/check`, `/api/modem/request-otp`,
/// `/api/alternative-number/request-otp`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct NumberForm {
    /// As typed: the server parses it.
    pub msisdn: String,
}

/// What a code check sends, the number and the code it got:
/// `POST /api/auth/validate-otp`, `/api/cpm/validate-otp`,
/// `/api/modem/validate-otp`, `/api/alternative-number`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct CodeForm {
    pub msisdn: String,
    pub code: String,
}

/// `POST /api/bundles/purchase`: the bundle, how it is paid for and for whom.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PurchaseForm {
    pub bundle_id: String,
    /// `AIRTIME` or `MPESA`, in any case; anything else is refused.
    pub purchase_channel: PaymentMethod,
    /// With [`Recipient::Own`] a friend's number left in the form is
    /// ignored; without a recipient the number decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub recipient: Option<Recipient>,
    /// The friend's number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub subscriber: Option<String>,
    /// Buy for the modem signed in through the modem flow.
    #[serde(default, with = "flag", skip_serializing_if = "std::ops::Not::not")]
    #[ts(type = "Flag")]
    pub for_modem: bool,
    /// The visitor confirmed buying the bundle for the number again,
    /// although they did so a moment ago.
    #[serde(default, with = "flag", skip_serializing_if = "std::ops::Not::not")]
    #[ts(type = "Flag")]
    pub again: bool,
}

/// For whom a bundle is bought: the payer (`self`, the radio button's value
/// since the first site) or a friend, whose number the form gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Recipient {
    #[serde(rename = "self")]
    Own,
    Friend,
}

/// `PUT /api/cpm/permissions/{id}` (a form's POST): the choice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct PermissionForm {
    #[serde(with = "flag")]
    #[ts(type = "Flag")]
    pub granted: bool,
}

/// A yes/no field as a form sends it, in JSON too: `"true"` or `"false"`
/// (the TypeScript `Flag`); read from a JSON boolean as well, and from the
/// other texts a form may send for yes (`on`, `1`, `yes`).
mod flag {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &bool, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(if *value { "true" } else { "false" })
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Flag {
            Bool(bool),
            Text(String),
        }
        Ok(match Flag::deserialize(deserializer)? {
            Flag::Bool(value) => value,
            Flag::Text(text) => matches!(text.as_str(), "true" | "on" | "1" | "yes"),
        })
    }
}

/// A yes/no field of a form: how the app sends it (the TypeScript type of
/// the `flag` fields).
#[derive(TS)]
#[ts(type = "\"true\" | \"false\"")]
pub struct Flag;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_purchase_is_read_into_its_types_from_json_and_from_a_form() {
        let json: PurchaseForm = serde_json::from_str(
            r#"{"bundleId":"data-daily-1gb","purchaseChannel":"mpesa","recipient":"friend","subscriber":"0754000002"}"#,
        )
        .unwrap();
        let form: PurchaseForm = serde_urlencoded::from_str(
            "bundleId=data-daily-1gb&purchaseChannel=MPESA&recipient=friend&subscriber=0754000002",
        )
        .unwrap();
        assert_eq!(json, form);
        assert_eq!((json.purchase_channel, json.recipient), (PaymentMethod::Mpesa, Some(Recipient::Friend)));
        let own: PurchaseForm =
            serde_urlencoded::from_str("bundleId=x&purchaseChannel=AIRTIME&recipient=self&again=true").unwrap();
        assert_eq!((own.recipient, own.again), (Some(Recipient::Own), true));
        assert_eq!(serde_json::to_value(Recipient::Own).unwrap(), "self", "the value the app and tests send");
    }

    #[test]
    fn a_purchase_naming_an_unknown_channel_or_recipient_is_refused() {
        for body in [
            "bundleId=x&purchaseChannel=CASH&recipient=self",
            "bundleId=x&purchaseChannel=&recipient=self",
            "bundleId=x&recipient=self",
            "bundleId=x&purchaseChannel=AIRTIME&recipient=everyone",
        ] {
            assert!(serde_urlencoded::from_str::<PurchaseForm>(body).is_err(), "{body}");
        }
    }
}
