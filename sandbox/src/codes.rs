//! One-time codes, for every flow: sign-in (`api/v1/auth/…`), the CPM area
//! (`cpm/…`) and modems (`alternative-number/…`, which send the code to
//! another number: the modem's to its alternative number, the one that
//! registers an alternative number to the modem). A number has at most one
//! live code per purpose; a code is 6 digits, valid `code_ttl`, single use,
//! burnt by the 5th wrong try, and a new one can be asked for
//! `resend_after` the last.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use rusqlite::{Connection, OptionalExtension, params};
use serde::Deserialize;
use serde_json::Value;

use super::domain::{Msisdn, OtpCode, Purpose};
use super::reply::{self, ApiError, AsFailure, Text};
use super::{Sandbox, SandboxError, SandboxOptions, millis, now_ms, secrets, session, store};

/// The try that burns a code.
const MAX_WRONG_TRIES: i64 = 5;

const CODE_SENT: Text = Text::new(
    "We have sent a verification code to your phone by SMS.",
    "Tumetuma msimbo wa uthibitisho kwenye simu yako kwa SMS.",
);

/// What asking for a code came to.
pub(super) enum CodeRequest {
    Sent,
    TooSoon { wait_secs: u64 },
}

/// What a code opens: `purpose` for `number`, and only for the subscriber
/// `requested_by` when set (a modem registration code serves only whoever
/// asked for it).
#[derive(Clone, Copy)]
pub(super) struct Opens<'a> {
    pub number: &'a Msisdn,
    pub purpose: Purpose,
    pub requested_by: Option<&'a Msisdn>,
}

impl<'a> Opens<'a> {
    /// `purpose` for `number`, whoever presents the code.
    pub fn number(number: &'a Msisdn, purpose: Purpose) -> Opens<'a> {
        Opens { number, purpose, requested_by: None }
    }

    /// What the SMS with `code` says.
    fn sms(&self, code: &OtpCode) -> Text {
        let number = self.number;
        match self.purpose {
            Purpose::SignIn => Text::owned(
                format!("{code} is your code to sign in to your account."),
                format!("{code} ni msimbo wako wa kuingia kwenye akaunti yako."),
            ),
            Purpose::Cpm => Text::owned(
                format!("{code} is your code to manage your permissions."),
                format!("{code} ni msimbo wako wa kusimamia ruhusa zako."),
            ),
            Purpose::Modem => Text::owned(
                format!("{code} is the code to sign in as the modem {number}."),
                format!("{code} ni msimbo wa kuingia kama modemu {number}."),
            ),
            Purpose::ModemRegistration => {
                let by = self.requested_by.map(Msisdn::masked).unwrap_or_default();
                Text::owned(
                    format!(
                        "{code} is the code to register {by} as the alternative number of this modem. If you did not ask for it, ignore this message."
                    ),
                    format!(
                        "{code} ni msimbo wa kusajili {by} kama namba mbadala ya modemu hii. Kama hukuomba msimbo huu, puuza ujumbe huu."
                    ),
                )
            }
        }
    }
}

/// Why a presented code was refused. Each answers differently, so the
/// visitor knows whether to retype or to ask for a new code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Refusal {
    Wrong,
    Expired,
    Burnt,
}

impl Refusal {
    fn text(self) -> Text {
        match self {
            Refusal::Wrong => Text::new(
                "The code is not correct. Check the SMS and try again.",
                "Msimbo si sahihi. Angalia SMS kisha ujaribu tena.",
            ),
            Refusal::Expired => Text::new(
                "This code has expired. Please request a new code.",
                "Muda wa msimbo huu umekwisha. Tafadhali omba msimbo mpya.",
            ),
            Refusal::Burnt => Text::new(
                "Too many wrong tries: this code no longer works. Please request a new code.",
                "Umekosea mara nyingi mno: msimbo huu hautumiki tena. Tafadhali omba msimbo mpya.",
            ),
        }
    }
}

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> ApiError {
        ApiError::bad_request(refusal.text())
    }
}

/// Who gets a code.
pub(super) enum Recipient<'a> {
    /// This number: the inbox, and the log when asked.
    Number(&'a Msisdn),
    /// Nobody, as the number is not one a code may be sent to (no
    /// subscriber, no modem to register). The request is kept all the same,
    /// with a hash that no code matches, so that every later answer (the
    /// wait before another code, wrong tries, burning, expiry) is the one a
    /// real code would get and nobody learns from them who is a customer.
    Nobody,
}

/// Makes a new code that `opens`, replacing any earlier one for its number
/// and purpose (whoever asked for it), and "sends" it to `recipient`.
/// Refused while the last request is younger than `resend_after`.
pub(super) fn send_code(
    db: &Connection,
    options: &SandboxOptions,
    opens: Opens<'_>,
    recipient: Recipient<'_>,
) -> Result<CodeRequest, SandboxError> {
    let now = now_ms();
    let last_sent: Option<i64> = db
        .query_row(
            "SELECT sent_at FROM one_time_code WHERE msisdn = ?1 AND purpose = ?2",
            params![opens.number, opens.purpose],
            |row| row.get(0),
        )
        .optional()?;
    if let Some(sent_at) = last_sent {
        let wait_ms = sent_at.saturating_add(millis(options.resend_after)) - now;
        if wait_ms > 0 {
            return Ok(CodeRequest::TooSoon { wait_secs: wait_ms.unsigned_abs().div_ceil(1000) });
        }
    }
    let salt = secrets::new_salt()?;
    let sms = match recipient {
        Recipient::Number(recipient) => Some((recipient, secrets::new_code()?)),
        Recipient::Nobody => None,
    };
    let hash = sms.as_ref().map_or_else(Vec::new, |(_, code)| secrets::code_hash(&salt, code));
    db.execute(
        "INSERT OR REPLACE INTO one_time_code
             (msisdn, purpose, salt, hash, sent_at, expires_at, wrong_tries, state, requested_by)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, 'live', ?7)",
        params![
            opens.number,
            opens.purpose,
            salt,
            hash,
            now,
            now.saturating_add(millis(options.code_ttl)),
            opens.requested_by,
        ],
    )?;
    if let Some((recipient, code)) = sms {
        let text = opens.sms(&code);
        db.execute(
            "INSERT INTO inbox (recipient, about, purpose, code, sent_at, text_en, text_sw)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![recipient, opens.number, opens.purpose, code.as_str(), now, text.en, text.sw],
        )?;
        db.execute("DELETE FROM inbox WHERE id <= (SELECT MAX(id) FROM inbox) - 500", [])?;
        if options.log_codes {
            tracing::info!(to = %recipient, opens = %opens.number, purpose = opens.purpose.as_str(), %code, "sandbox code sent");
        }
    }
    Ok(CodeRequest::Sent)
}

/// Checks `code` against the live code of `opens`' number and purpose,
/// using it up or counting a wrong try. A number with no code (never sent,
/// or used) is refused as `Wrong`, like a wrong code; so is the right code
/// presented by another than the subscriber it was sent for.
pub(super) fn check_code(
    db: &Connection,
    opens: Opens<'_>,
    code: &OtpCode,
) -> Result<Result<(), Refusal>, SandboxError> {
    let stored = db
        .query_row(
            "SELECT salt, hash, expires_at, wrong_tries, state, requested_by FROM one_time_code
             WHERE msisdn = ?1 AND purpose = ?2",
            params![opens.number, opens.purpose],
            |row| {
                Ok((
                    row.get::<_, Vec<u8>>(0)?,
                    row.get::<_, Vec<u8>>(1)?,
                    row.get::<_, i64>(2)?,
                    row.get::<_, i64>(3)?,
                    row.get::<_, String>(4)?,
                    row.get::<_, Option<Msisdn>>(5)?,
                ))
            },
        )
        .optional()?;
    let Some((salt, hash, expires_at, wrong_tries, state, requested_by)) = stored else {
        return Ok(Err(Refusal::Wrong));
    };
    let presented_by_requester = requested_by.as_ref() == opens.requested_by;
    let (outcome, update) = match state.as_str() {
        "burnt" => (Err(Refusal::Burnt), None),
        "used" => (Err(Refusal::Wrong), None),
        _ if expires_at <= now_ms() => (Err(Refusal::Expired), None),
        _ if presented_by_requester && secrets::code_matches(&salt, &hash, code) => (Ok(()), Some("state = 'used'")),
        _ if wrong_tries + 1 >= MAX_WRONG_TRIES => {
            (Err(Refusal::Burnt), Some("state = 'burnt', wrong_tries = wrong_tries + 1"))
        }
        _ => (Err(Refusal::Wrong), Some("wrong_tries = wrong_tries + 1")),
    };
    if let Some(change) = update {
        db.execute(
            &format!("UPDATE one_time_code SET {change} WHERE msisdn = ?1 AND purpose = ?2"),
            params![opens.number, opens.purpose],
        )?;
    }
    Ok(outcome)
}

#[derive(Deserialize)]
pub(super) struct CodeRequestBody {
    pub msisdn: String,
}

#[derive(Deserialize)]
pub(super) struct ValidateBody {
    pub msisdn: String,
    pub code: String,
}

pub(super) async fn request_sign_in_code(
    State(sandbox): State<Sandbox>,
    body: Bytes,
) -> Result<Json<Value>, AsFailure> {
    request_code(&sandbox, Purpose::SignIn, &body).await.map_err(AsFailure)
}

pub(super) async fn request_cpm_code(State(sandbox): State<Sandbox>, body: Bytes) -> Result<Json<Value>, AsFailure> {
    request_code(&sandbox, Purpose::Cpm, &body).await.map_err(AsFailure)
}

/// A code sent to the number itself. A number that is no subscriber gets
/// the same answers, now and later, and no code ([`Recipient::Nobody`]):
/// they tell nobody who is a customer.
async fn request_code(sandbox: &Sandbox, purpose: Purpose, body: &[u8]) -> Result<Json<Value>, ApiError> {
    let body: CodeRequestBody = reply::parse_body(body)?;
    let msisdn = Msisdn::parse(&body.msisdn)?;
    let options = sandbox.options().clone();
    let sent = sandbox
        .db(move |db| -> Result<_, SandboxError> {
            let recipient =
                if store::is_subscriber(db, &msisdn)? { Recipient::Number(&msisdn) } else { Recipient::Nobody };
            send_code(db, &options, Opens::number(&msisdn, purpose), recipient)
        })
        .await?;
    match sent {
        CodeRequest::Sent => Ok(reply::message(CODE_SENT)),
        CodeRequest::TooSoon { wait_secs } => Err(ApiError::too_soon(wait_secs)),
    }
}

pub(super) async fn validate_sign_in_code(
    State(sandbox): State<Sandbox>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    validate_code(&sandbox, Purpose::SignIn, &body).await
}

pub(super) async fn validate_cpm_code(State(sandbox): State<Sandbox>, body: Bytes) -> Result<Json<Value>, ApiError> {
    validate_code(&sandbox, Purpose::Cpm, &body).await
}

/// `{ msisdn, code }` to `{ "data": "<token>" }`: the one exchange of every
/// flow (the modem's too), so all three refuse alike.
pub(super) async fn validate_code(sandbox: &Sandbox, purpose: Purpose, body: &[u8]) -> Result<Json<Value>, ApiError> {
    let body: ValidateBody = reply::parse_body(body)?;
    let msisdn = Msisdn::parse(&body.msisdn)?;
    let code = OtpCode::parse(&body.code)?;
    let options = sandbox.options().clone();
    let exchanged = sandbox
        .db(move |db| -> Result<_, SandboxError> {
            let tx = db.transaction()?;
            let exchanged = match check_code(&tx, Opens::number(&msisdn, purpose), &code)? {
                Ok(()) => Ok(session::issue(&tx, &options, &msisdn, purpose)?),
                Err(refusal) => Err(refusal),
            };
            tx.commit()?;
            Ok(exchanged)
        })
        .await?;
    match exchanged {
        Ok(token) => Ok(reply::data(token)),
        Err(refusal) => Err(refusal.into()),
    }
}
