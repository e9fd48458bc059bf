//! Request bodies built from the contract's types, as the server reads
//! them: a field renamed or retyped there fails the build of these tests
//! too. Bodies that are wrong on purpose (a field missing, the wrong type)
//! stay `json!` in the tests that send them.

use serde::de::DeserializeOwned;
use server::contract::api::{CodeForm, NumberForm, PermissionForm, PurchaseForm};

/// A number, as a sign-in or a modem check sends it.
pub fn number(msisdn: &str) -> NumberForm {
    NumberForm { msisdn: msisdn.to_owned() }
}

/// A number and the code it got.
pub fn code(msisdn: &str, code: &str) -> CodeForm {
    CodeForm { msisdn: msisdn.to_owned(), code: code.to_owned() }
}

/// A purchase of `bundle_id` paid by `channel` (`AIRTIME`, `MPESA`), for
/// the subscriber signed in (no recipient named).
pub fn purchase(bundle_id: &str, channel: &str) -> PurchaseForm {
    PurchaseForm {
        bundle_id: bundle_id.to_owned(),
        purchase_channel: wire(channel),
        recipient: None,
        subscriber: None,
        for_modem: false,
        again: false,
    }
}

/// The same for the friend whose number is `friend` (as typed).
pub fn purchase_for(bundle_id: &str, channel: &str, friend: &str) -> PurchaseForm {
    PurchaseForm { subscriber: Some(friend.to_owned()), ..purchase(bundle_id, channel) }
}

/// The same, naming the recipient as the form's choice does (`self`, `friend`).
pub fn purchase_with_recipient(bundle_id: &str, channel: &str, recipient: &str) -> PurchaseForm {
    PurchaseForm { recipient: Some(wire(recipient)), ..purchase(bundle_id, channel) }
}

/// A permission's new choice.
pub fn permission(granted: bool) -> PermissionForm {
    PermissionForm { granted }
}

/// A field's value written as the app sends it (`MPESA`, `self`), read as
/// the server reads it: the test names the wire value, whatever type the
/// contract gives the field.
fn wire<T: DeserializeOwned>(value: &str) -> T {
    serde_json::from_value(value.into()).unwrap_or_else(|error| panic!("{value}: {error}"))
}

/// The purchase tests of sessions send, where what is bought does not
/// matter: a day's gigabyte, by airtime, for oneself.
pub fn daily_bundle_for_self() -> PurchaseForm {
    purchase_with_recipient("data-daily-1gb", "AIRTIME", "self")
}

/// The wire values given as text reach the body as the app sends them.
#[test]
fn a_purchase_is_sent_as_the_app_sends_it() {
    let sent = PurchaseForm { again: true, ..purchase_with_recipient("data-daily-1gb", "MPESA", "self") };
    assert_eq!(
        serde_json::to_value(sent).unwrap(),
        serde_json::json!({ "bundleId": "data-daily-1gb", "purchaseChannel": "MPESA", "recipient": "self", "again": "true" })
    );
}
