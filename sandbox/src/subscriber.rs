//! `api/v1/gsm-config/…`, `api/v1/mpesa/balance` and
//! `api/v1/gsm-static-bundles…`: who the signed-in subscriber is, their
//! balances, the catalogue and bundle purchase.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use rusqlite::{Connection, params};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::domain::Msisdn;
use super::reply::{self, ApiError, Text};
use super::seed::{self, BUNDLES, Bundle, PaymentMethod};
use super::session::SubscriberSession;
use super::{Sandbox, now_ms, rfc3339, store};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CustomerDetails {
    msisdn: Msisdn,
    first_name: String,
    family_name: String,
    payment_method: String,
    minor: bool,
    registration_status: String,
    scopes: Vec<String>,
}

pub(super) async fn customer_details(
    State(sandbox): State<Sandbox>,
    session: SubscriberSession,
) -> Result<Json<Value>, ApiError> {
    let details = sandbox
        .db(move |db| {
            db.query_row(
                "SELECT first_name, family_name, payment_method, minor, registration_status, scopes
                 FROM subscriber WHERE msisdn = ?1",
                [&session.msisdn],
                |row| {
                    let scopes: String = row.get(5)?;
                    Ok(CustomerDetails {
                        msisdn: session.msisdn.clone(),
                        first_name: row.get(0)?,
                        family_name: row.get(1)?,
                        payment_method: row.get(2)?,
                        minor: row.get(3)?,
                        registration_status: row.get(4)?,
                        scopes: serde_json::from_str(&scopes).unwrap_or_default(),
                    })
                },
            )
            .map_err(ApiError::from)
        })
        .await?;
    Ok(reply::data(details))
}

pub(super) async fn airtime_balance(
    State(sandbox): State<Sandbox>,
    session: SubscriberSession,
) -> Result<Json<Value>, ApiError> {
    let main_balance: i64 = sandbox
        .db(move |db| {
            db.query_row("SELECT airtime FROM subscriber WHERE msisdn = ?1", [&session.msisdn], |row| row.get(0))
                .map_err(ApiError::from)
        })
        .await?;
    Ok(reply::data(json!({ "mainBalance": main_balance })))
}

/// `GET api/v1/mpesa/balance`: the M-Pesa wallet, or 404 for a number
/// without an M-Pesa account.
pub(super) async fn mpesa_balance(
    State(sandbox): State<Sandbox>,
    session: SubscriberSession,
) -> Result<Json<Value>, ApiError> {
    let (has_account, wallet): (bool, i64) = sandbox
        .db(move |db| {
            db.query_row("SELECT mpesa_account, wallet FROM subscriber WHERE msisdn = ?1", [&session.msisdn], |row| {
                Ok((row.get(0)?, row.get(1)?))
            })
            .map_err(ApiError::from)
        })
        .await?;
    if !has_account {
        return Err(ApiError::new(StatusCode::NOT_FOUND, NO_MPESA));
    }
    Ok(reply::data(json!({ "balance": wallet })))
}

const NO_MPESA: Text = Text::new("This number has no M-Pesa account.", "Namba hii haina akaunti ya M-Pesa.");

/// The catalogue's bundle `id`; a balance of before the catalogue had ids
/// is kept under the bundle's English name.
fn held_bundle(id: &str) -> Option<&'static Bundle> {
    seed::bundle(id).or_else(|| BUNDLES.iter().find(|b| b.name.en == id))
}

/// The bundles held and not yet expired, soonest to expire first: one
/// entry per allowance (a bundle of data and minutes is two).
pub(super) async fn bundle_balance(
    State(sandbox): State<Sandbox>,
    session: SubscriberSession,
) -> Result<Json<Value>, ApiError> {
    let balances = sandbox
        .db(move |db| -> Result<Vec<Value>, ApiError> {
            let mut query = db.prepare(
                "SELECT bundle_id, remaining, unit, expires_at FROM bundle_balance
                 WHERE msisdn = ?1 AND expires_at > ?2 AND remaining > 0 ORDER BY expires_at, bundle_id, unit",
            )?;
            let rows = query.query_map(params![session.msisdn, now_ms()], |row| {
                let id: String = row.get(0)?;
                let bundle = held_bundle(&id);
                Ok(json!({
                    "bundleId": bundle.map(|b| b.id),
                    "name": bundle.map_or(id.as_str(), |b| b.name.en.as_ref()),
                    "remaining": row.get::<_, i64>(1)?,
                    "unit": row.get::<_, String>(2)?,
                    "expiresAt": rfc3339(row.get(3)?),
                }))
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await?;
    Ok(reply::data(balances))
}

fn catalogue_entry(bundle: &Bundle) -> Value {
    json!({
        "id": bundle.id,
        "category": bundle.category,
        "name": bundle.name,
        "price": bundle.price,
        "validity": bundle.validity.text,
        "type": bundle.kind.as_str(),
        "ussd": bundle.ussd,
        "purchasable": bundle.online,
        "allowances": bundle.allowances.iter().map(|(unit, amount)| json!({ "amount": amount, "unit": unit.as_str() })).collect::<Vec<_>>(),
    })
}

pub(super) async fn catalogue() -> Json<Value> {
    reply::data(BUNDLES.iter().map(catalogue_entry).collect::<Vec<_>>())
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PurchaseBody {
    bundle_id: String,
    purchase_channel: String,
    /// A friend's number; empty or absent buys for the payer.
    #[serde(default)]
    subscriber: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PurchaseChannel {
    Airtime,
    Mpesa,
}

impl PurchaseChannel {
    fn parse(input: &str) -> Result<PurchaseChannel, ApiError> {
        match input {
            "AIRTIME" => Ok(PurchaseChannel::Airtime),
            "MPESA" => Ok(PurchaseChannel::Mpesa),
            _ => Err(ApiError::bad_request(Text::new(
                "Choose AIRTIME or MPESA as the payment method.",
                "Chagua AIRTIME au MPESA kama njia ya malipo.",
            ))),
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            PurchaseChannel::Airtime => "AIRTIME",
            PurchaseChannel::Mpesa => "MPESA",
        }
    }
}

/// The success message, word for word as the operator's site words it.
const PURCHASE_RECEIVED: Text = Text::new("Your Request has being received", "Ombi Lako Limepokelewa");

/// The token's subscriber pays (airtime or M-Pesa), the recipient's bundle
/// balance is credited, the purchase recorded: all in one transaction, after
/// the recipient is known to be one that can receive the bundle. A number
/// that cannot (no subscriber) gets the answer any such number would, which
/// tells nobody who is a customer.
pub(super) async fn purchase(
    State(sandbox): State<Sandbox>,
    session: SubscriberSession,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let body: PurchaseBody = reply::parse_body(&body)?;
    let channel = PurchaseChannel::parse(&body.purchase_channel)?;
    let bundle = seed::bundle(&body.bundle_id).ok_or_else(|| {
        ApiError::new(StatusCode::NOT_FOUND, Text::new("This bundle does not exist.", "Kifurushi hiki hakipo."))
    })?;
    if !bundle.online {
        return Err(ApiError::bad_request(Text::owned(
            format!("This bundle is bought by dialling {}.", bundle.ussd),
            format!("Kifurushi hiki kinanunuliwa kwa kupiga {}.", bundle.ussd),
        )));
    }
    let recipient = match body.subscriber.as_deref().map(str::trim) {
        None | Some("") => session.msisdn.clone(),
        Some(friend) => Msisdn::parse(friend)?,
    };
    let payer = session.msisdn;
    sandbox
        .db(move |db| {
            let tx = db.transaction()?;
            if !store::is_subscriber(&tx, &recipient)? {
                return Err(ApiError::bad_request(Text::new(
                    "This bundle cannot be sent to that number. Check the number and try again.",
                    "Kifurushi hiki hakiwezi kutumwa kwa namba hiyo. Angalia namba kisha ujaribu tena.",
                )));
            }
            let billed = charge(&tx, &payer, channel, bundle.price)?;
            credit(&tx, &recipient, bundle, now_ms())?;
            tx.execute(
                "INSERT INTO purchase (payer, recipient, bundle_id, channel, price, billed, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![payer, recipient, bundle.id, channel.as_str(), bundle.price, billed, now_ms()],
            )?;
            tx.commit()?;
            Ok(())
        })
        .await?;
    Ok(reply::message(PURCHASE_RECEIVED))
}

/// Takes `price` from the payer's airtime or wallet; `true` when it goes on
/// a postpaid bill instead. 402 when the balance is short.
fn charge(db: &Connection, payer: &Msisdn, channel: PurchaseChannel, price: i64) -> Result<bool, ApiError> {
    // Tokens are only issued to subscribers.
    let (payment_method, airtime, wallet, has_mpesa): (String, i64, i64, bool) = db.query_row(
        "SELECT payment_method, airtime, wallet, mpesa_account FROM subscriber WHERE msisdn = ?1",
        [payer],
        |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
    )?;
    if channel == PurchaseChannel::Mpesa && !has_mpesa {
        return Err(ApiError::bad_request(NO_MPESA));
    }
    let (balance, debit, too_low) = match channel {
        PurchaseChannel::Airtime if payment_method == PaymentMethod::Postpaid.as_str() => return Ok(true),
        PurchaseChannel::Airtime => (
            airtime,
            "UPDATE subscriber SET airtime = airtime - ?1 WHERE msisdn = ?2",
            Text::new(
                "Your airtime balance is too low for this bundle.",
                "Salio lako la muda wa maongezi halitoshi kununua kifurushi hiki.",
            ),
        ),
        PurchaseChannel::Mpesa => (
            wallet,
            "UPDATE subscriber SET wallet = wallet - ?1 WHERE msisdn = ?2",
            Text::new(
                "Your M-Pesa balance is too low for this bundle.",
                "Salio lako la M-Pesa halitoshi kununua kifurushi hiki.",
            ),
        ),
    };
    if balance < price {
        return Err(ApiError::new(StatusCode::PAYMENT_REQUIRED, too_low));
    }
    db.execute(debit, params![price, payer])?;
    Ok(false)
}

/// Adds each allowance of the bundle to the recipient's balances: one still
/// held is topped up and lasts until the later expiry; an expired one starts
/// afresh.
fn credit(db: &Connection, recipient: &Msisdn, bundle: &Bundle, now: i64) -> rusqlite::Result<()> {
    for (unit, amount) in bundle.allowances {
        db.execute(
            "INSERT INTO bundle_balance (msisdn, bundle_id, unit, remaining, expires_at) VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (msisdn, bundle_id, unit) DO UPDATE SET
                 remaining = CASE WHEN expires_at > ?6 THEN remaining + excluded.remaining ELSE excluded.remaining END,
                 expires_at = MAX(expires_at, excluded.expires_at)",
            params![recipient, bundle.id, unit.as_str(), amount, now + bundle.validity.hours * 3_600_000, now],
        )?;
    }
    Ok(())
}
