//! `alternative-number/…`: a modem SIM (router, MiFi) cannot read an SMS, so
//! its codes go to an alternative (phone) number registered for it. The
//! token a modem code gives is a subscriber token for the modem's number.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use rusqlite::{OptionalExtension, params};
use serde::Deserialize;
use serde_json::{Value, json};

use super::codes::{self, CodeRequest, Recipient};
use super::domain::{Msisdn, Purpose};
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
            codes::send_code(db, &options, &modem, Purpose::Modem, Recipient::Number(&alternative)).map(Some)
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

/// What registering an alternative number came to.
enum Registration {
    Done,
    UnknownModem,
    AlreadyRegistered,
}

/// `POST alternative-number/create`: the signed-in owner of a phone
/// registers it as a modem's alternative number.
pub(super) async fn create(
    State(sandbox): State<Sandbox>,
    session: SubscriberSession,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    if session.purpose != Purpose::SignIn {
        return Err(ApiError::unauthorized());
    }
    let (modem, alternative) = PairBody::parse(&body)?;
    if session.msisdn != alternative {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Text::new(
                "You can only register your own number as an alternative number.",
                "Unaweza kusajili namba yako tu kama namba mbadala.",
            ),
        ));
    }
    if modem == alternative {
        return Err(ApiError::bad_request(Text::new(
            "A number cannot be its own alternative number.",
            "Namba haiwezi kuwa namba mbadala yake yenyewe.",
        )));
    }
    let (registered_modem, registered_alternative) = (modem.clone(), alternative.clone());
    let registration = sandbox
        .db(move |db| -> Result<_, SandboxError> {
            let changed = db.execute(
                "UPDATE subscriber SET alternative_msisdn = ?2 WHERE msisdn = ?1 AND alternative_msisdn IS NULL",
                params![registered_modem, registered_alternative],
            )?;
            Ok(match (changed, alternative_of(db, &registered_modem)?) {
                (1, _) => Registration::Done,
                (_, Some(_)) => Registration::AlreadyRegistered,
                (_, None) => Registration::UnknownModem,
            })
        })
        .await?;
    match registration {
        Registration::Done => Ok(pair(&modem, &alternative)),
        Registration::AlreadyRegistered => Err(ApiError::new(
            StatusCode::CONFLICT,
            Text::new("This modem already has an alternative number.", "Modemu hii tayari ina namba mbadala."),
        )),
        Registration::UnknownModem => Err(ApiError::unknown_number(&modem)),
    }
}
