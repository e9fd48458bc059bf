//! `alternative-number/…`: a modem (router, MiFi) signs in with a code sent
//! to an alternative (phone) number registered for it; the token a modem
//! code gives is a subscriber token for the modem's number. Registering that
//! number takes a code sent to the modem itself, which shows its SMS in its
//! web page: only whoever has the modem can give it an alternative number,
//! and so spend its airtime.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use rusqlite::{OptionalExtension, params};
use serde::Deserialize;
use serde_json::{Value, json};

use super::codes::{self, CodeRequest, Opens, Recipient};
use super::domain::{Msisdn, OtpCode, Purpose};
use super::reply::{self, ApiError, Text};
use super::session::SubscriberSession;
use super::{Sandbox, SandboxError};

#[derive(Deserialize)]
struct ModemBody {
    msisdn: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PairBody {
    msisdn: String,
    alternative_msisdn: String,
}

impl PairBody {
    fn parse(body: &[u8]) -> Result<(Msisdn, Msisdn), ApiError> {
        let pair: PairBody = reply::parse_body(body)?;
        Ok((Msisdn::parse(&pair.msisdn)?, Msisdn::parse(&pair.alternative_msisdn)?))
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RegistrationBody {
    msisdn: String,
    alternative_msisdn: String,
    code: Option<String>,
}

fn pair(modem: &Msisdn, alternative: &Msisdn) -> Json<Value> {
    reply::data(json!({ "msisdn": modem, "alternativeMsisdn": alternative }))
}

/// The registered alternative of a subscriber's number, `None` for a number
/// without one or no subscriber at all.
fn alternative_of(db: &rusqlite::Connection, modem: &Msisdn) -> rusqlite::Result<Option<Msisdn>> {
    db.query_row("SELECT alternative_msisdn FROM subscriber WHERE msisdn = ?1", [modem], |row| row.get(0))
        .optional()
        .map(Option::flatten)
}

/// `POST alternative-number/`: the modem's alternative number, or 404.
pub(super) async fn alternative_number(State(sandbox): State<Sandbox>, body: Bytes) -> Result<Json<Value>, ApiError> {
    let body: ModemBody = reply::parse_body(&body)?;
    let modem = Msisdn::parse(&body.msisdn)?;
    let lookup = modem.clone();
    let alternative = sandbox.db(move |db| alternative_of(db, &lookup).map_err(ApiError::from)).await?;
    match alternative {
        Some(alternative) => Ok(pair(&modem, &alternative)),
        None => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            Text::new(
                "No alternative number is registered for this modem.",
                "Hakuna namba mbadala iliyosajiliwa kwa modemu hii.",
            ),
        )),
    }
}

/// `POST alternative-number/login-request-otp`: a code for the modem, sent
/// to its alternative number, which the caller must name correctly.
pub(super) async fn request_code(State(sandbox): State<Sandbox>, body: Bytes) -> Result<Json<Value>, ApiError> {
    let (modem, alternative) = PairBody::parse(&body)?;
    let options = sandbox.options().clone();
    let sent = sandbox
        .db(move |db| -> Result<_, SandboxError> {
            if alternative_of(db, &modem)?.as_ref() != Some(&alternative) {
                return Ok(None);
            }
            let opens = Opens::number(&modem, Purpose::Modem);
            codes::send_code(db, &options, opens, Recipient::Number(&alternative)).map(Some)
        })
        .await?;
    match sent {
        Some(CodeRequest::Sent) => Ok(reply::message(Text::new(
            "We have sent the modem's code to its alternative number.",
            "Tumetuma msimbo wa modemu kwenye namba yake mbadala.",
        ))),
        Some(CodeRequest::TooSoon { wait_secs }) => Err(ApiError::too_soon(wait_secs)),
        None => Err(ApiError::bad_request(Text::new(
            "This is not the alternative number registered for this modem.",
            "Hii si namba mbadala iliyosajiliwa kwa modemu hii.",
        ))),
    }
}

/// `POST alternative-number/validate-otp`: the modem's code for a token.
pub(super) async fn validate_code(State(sandbox): State<Sandbox>, body: Bytes) -> Result<Json<Value>, ApiError> {
    codes::validate_code(&sandbox, Purpose::Modem, &body).await
}

/// Whether `modem` can be given an alternative number: a subscriber
/// without one.
fn registrable(db: &rusqlite::Connection, modem: &Msisdn) -> rusqlite::Result<bool> {
    db.query_row("SELECT 1 FROM subscriber WHERE msisdn = ?1 AND alternative_msisdn IS NULL", [modem], |_| Ok(()))
        .optional()
        .map(|found| found.is_some())
}

/// What a modem registration code opens: registering `modem`'s alternative
/// number, for the subscriber who asked alone.
fn registration<'a>(modem: &'a Msisdn, by: &'a Msisdn) -> Opens<'a> {
    Opens { number: modem, purpose: Purpose::ModemRegistration, requested_by: Some(by) }
}

/// Registering is for a subscriber signed in on their own phone, not a modem.
fn signed_in_subscriber(session: SubscriberSession) -> Result<Msisdn, ApiError> {
    match session.purpose {
        Purpose::SignIn => Ok(session.msisdn),
        _ => Err(ApiError::unauthorized()),
    }
}

fn own_number_refused() -> ApiError {
    ApiError::bad_request(Text::new(
        "A number cannot be its own alternative number.",
        "Namba haiwezi kuwa namba mbadala yake yenyewe.",
    ))
}

/// `POST alternative-number/create-request-otp`: a code to register the
/// signed-in subscriber as the alternative number of the modem `msisdn`,
/// sent to the modem. A number that is no modem to register (no subscriber,
/// or one that has an alternative number) gets the same answers and no code
/// ([`Recipient::Nobody`]): the call tells nobody which numbers are modems.
pub(super) async fn request_registration_code(
    State(sandbox): State<Sandbox>,
    session: SubscriberSession,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let caller = signed_in_subscriber(session)?;
    let body: ModemBody = reply::parse_body(&body)?;
    let modem = Msisdn::parse(&body.msisdn)?;
    if modem == caller {
        return Err(own_number_refused());
    }
    let options = sandbox.options().clone();
    let sent = sandbox
        .db(move |db| -> Result<_, SandboxError> {
            let recipient = if registrable(db, &modem)? { Recipient::Number(&modem) } else { Recipient::Nobody };
            codes::send_code(db, &options, registration(&modem, &caller), recipient)
        })
        .await?;
    match sent {
        CodeRequest::Sent => Ok(reply::message(Text::new(
            "We have sent a code to the modem by SMS. Read it in the modem's web page and enter it here.",
            "Tumetuma msimbo kwenye modemu kwa SMS. Usome kwenye ukurasa wa wavuti wa modemu, kisha uuweke hapa.",
        ))),
        CodeRequest::TooSoon { wait_secs } => Err(ApiError::too_soon(wait_secs)),
    }
}

/// `POST alternative-number/create`: the signed-in owner of a phone
/// registers it as a modem's alternative number, with the code sent to the
/// modem at their request.
pub(super) async fn create(
    State(sandbox): State<Sandbox>,
    session: SubscriberSession,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let caller = signed_in_subscriber(session)?;
    let body: RegistrationBody = reply::parse_body(&body)?;
    let modem = Msisdn::parse(&body.msisdn)?;
    let alternative = Msisdn::parse(&body.alternative_msisdn)?;
    if caller != alternative {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Text::new(
                "You can only register your own number as an alternative number.",
                "Unaweza kusajili namba yako tu kama namba mbadala.",
            ),
        ));
    }
    if modem == alternative {
        return Err(own_number_refused());
    }
    let code = match body.code.as_deref() {
        None | Some("") => {
            return Err(ApiError::bad_request(Text::new(
                "Enter the code we sent to the modem: it is in the modem's web page.",
                "Weka msimbo tuliotuma kwenye modemu: upo kwenye ukurasa wa wavuti wa modemu.",
            )));
        }
        Some(code) => OtpCode::parse(code)?,
    };
    let (registered_modem, registered_alternative) = (modem.clone(), alternative.clone());
    let registered = sandbox.db(move |db| register(db, &registered_modem, &registered_alternative, &code)).await?;
    registered.map(|()| pair(&modem, &alternative))
}

/// Uses the code and registers `alternative` for `modem`, in one
/// transaction; a refused code still counts its wrong try. The outer error
/// is the database's, the inner the caller's.
fn register(
    db: &mut rusqlite::Connection,
    modem: &Msisdn,
    alternative: &Msisdn,
    code: &OtpCode,
) -> Result<Result<(), ApiError>, ApiError> {
    let tx = db.transaction()?;
    let registered = match codes::check_code(&tx, registration(modem, alternative), code)? {
        Err(refusal) => Err(refusal.into()),
        Ok(()) => {
            let changed = tx.execute(
                "UPDATE subscriber SET alternative_msisdn = ?2 WHERE msisdn = ?1 AND alternative_msisdn IS NULL",
                params![modem, alternative],
            )?;
            // Codes are sent only to modems without an alternative number:
            // this one got one since.
            if changed == 1 {
                Ok(())
            } else {
                Err(ApiError::new(
                    StatusCode::CONFLICT,
                    Text::new("This modem already has an alternative number.", "Modemu hii tayari ina namba mbadala."),
                ))
            }
        }
    };
    tx.commit()?;
    Ok(registered)
}
