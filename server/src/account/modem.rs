//! Buying for a modem. A modem SIM cannot
//! read an SMS on a phone, so its sign-in code goes to the phone number
//! registered as its alternative. Everything here needs a signed-in
//! subscriber, is throttled, and shows other people's numbers only masked
//! (`2557•••••001`): the flow tells nobody whose number is whose.
//!
//! Registering an alternative number proves control of the modem's line:
//! the code goes to the modem's own number (readable in the modem's web
//! page), not to the caller.

use std::sync::Arc;

use axum::extract::State;
use axum_extra::extract::PrivateCookieJar;
use contract::api::{CodeForm, ModemAlternative, ModemRegistered, ModemSignedIn, NumberForm, RegistrationCodeSent};

use super::AccountState;
use super::error::{AccountError, Refused};
use super::operator::{AlternativeNumber, OperatorError};
use super::session::{Kind, ModemLogin};
use super::sign_in::{checked_code, parse_msisdn, requested_number};
use super::subscriber::{ended_by_operator, require};
use crate::limits::CodeFor;
use crate::msisdn::Msisdn;
use crate::web::{Caller, ClientAddr, Notice, NoticeKey, NoticeKind, Reply, Submitted};

/// Path the modem codes are validated at: the operator's API has the
/// caller name it.
const MODEM_VALIDATE_PATH: &str = "alternative-number/validate-otp";

/// What the page may see of an alternative number: masked.
fn masked(pair: &AlternativeNumber) -> String {
    Msisdn::parse(&pair.alternative_msisdn).map(|m| m.masked()).unwrap_or_else(|_| "•••".to_owned())
}

/// The modem's registered alternative number, as the operator has it; a
/// modem without one and a number that is no modem are both 404.
async fn alternative_of(account: &AccountState, modem: &Msisdn) -> Result<AlternativeNumber, AccountError> {
    account.operator.alternative_number(modem).await.map_err(|error| match error {
        OperatorError::Refused { status: 404, .. } => Refused::ModemNotRegistered.into(),
        error => AccountError::operator(&error, NoticeKey::SomethingWentWrong),
    })
}

/// `POST /api/modem/check {msisdn}`: whether the modem has an alternative
/// number, shown masked (modems true, otps false); 404 when it has none.
pub(super) async fn check(
    State(account): State<Arc<AccountState>>,
    jar: PrivateCookieJar,
    ClientAddr(client): ClientAddr,
    Submitted(form): Submitted<NumberForm>,
) -> Result<Reply<ModemAlternative>, AccountError> {
    let session = require(&account, &jar).await?;
    let modem = parse_msisdn(&form.msisdn)?;
    if !account.limits.modem_check(&session.msisdn, client).await? {
        return Err(Refused::TooMany.into());
    }
    let pair = alternative_of(&account, &modem).await?;
    Ok(Reply::ok(ModemAlternative {
        alternative_masked: masked(&pair),
        msisdn: pair.msisdn,
        modems: true,
        otps: false,
    }))
}

/// `POST /api/modem/request-otp {msisdn}`: a code for the modem, sent to
/// its registered alternative number (looked up here, never taken from the
/// page); on success the page shows code entry (modems false, otps true).
pub(super) async fn request_otp(
    State(account): State<Arc<AccountState>>,
    jar: PrivateCookieJar,
    ClientAddr(client): ClientAddr,
    Submitted(form): Submitted<NumberForm>,
) -> Result<Reply<ModemAlternative>, AccountError> {
    require(&account, &jar).await?;
    let modem = requested_number(&account, CodeFor::ModemSignIn, &form.msisdn, client).await?;
    let pair = alternative_of(&account, &modem).await?;
    let alternative = parse_msisdn(&pair.alternative_msisdn)?;
    account
        .operator
        .alternative_request_otp(&modem, &alternative)
        .await
        .map_err(|error| AccountError::code_request_failed(&error))?;
    account.limits.code_sent(CodeFor::ModemSignIn, modem.as_str()).await;
    let answer = ModemAlternative { alternative_masked: masked(&pair), msisdn: pair.msisdn, modems: false, otps: true };
    Ok(Reply::ok(answer).with_notice(Notice::key(NoticeKind::Warning, NoticeKey::OtpSent)))
}

/// `POST /api/modem/validate-otp {msisdn, code}`: keeps the modem's token in
/// the session; the page sets its modem-bundle marker in session storage.
pub(super) async fn validate_otp(
    State(account): State<Arc<AccountState>>,
    jar: PrivateCookieJar,
    ClientAddr(client): ClientAddr,
    Submitted(form): Submitted<CodeForm>,
) -> Result<Reply<ModemSignedIn>, AccountError> {
    let mut session = require(&account, &jar).await?;
    let (modem, code) = checked_code(&account, &form, client).await?;
    let token = account
        .operator
        .validate_modem_otp(MODEM_VALIDATE_PATH, &modem, &code)
        .await
        .map_err(|error| AccountError::operator(&error, NoticeKey::SomethingWentWrong))?;
    session.modem = Some(ModemLogin { msisdn: modem.to_string(), token });
    account.sessions.save(&jar, Kind::Subscriber, &session).await?;
    Ok(Reply::ok(ModemSignedIn { modem: modem.to_string(), modem_bundle: true }))
}

/// `POST /api/alternative-number/request-otp {msisdn}`: the first step of
/// registering the signed-in number as a modem's alternative
/// (the page's `registeringNewNumber` step): a code to the modem's own number. The
/// answer is the same whether or not the number is a modem without an
/// alternative number.
pub(super) async fn registration_request_otp(
    State(account): State<Arc<AccountState>>,
    jar: PrivateCookieJar,
    ClientAddr(client): ClientAddr,
    Submitted(form): Submitted<NumberForm>,
) -> Result<Reply<RegistrationCodeSent>, AccountError> {
    let session = require(&account, &jar).await?;
    let modem = requested_number(&account, CodeFor::ModemRegistration, &form.msisdn, client).await?;
    match account.operator.alternative_create_request_otp(&session.token, &modem).await {
        Ok(_) => {
            account.limits.code_sent(CodeFor::ModemRegistration, modem.as_str()).await;
            Ok(Reply::ok(RegistrationCodeSent { msisdn: modem.to_string(), registering: true })
                .with_notice(Notice::key(NoticeKind::Warning, NoticeKey::ModemCodeSent)))
        }
        Err(OperatorError::Unauthorized) => Err(ended_by_operator(&account, jar).await),
        Err(error) => Err(AccountError::code_request_failed(&error)),
    }
}

/// `POST /api/alternative-number {msisdn, code}`: registers the signed-in
/// number as the modem's alternative, with the code the modem received.
pub(super) async fn register(
    State(account): State<Arc<AccountState>>,
    jar: PrivateCookieJar,
    caller: Caller,
    ClientAddr(client): ClientAddr,
    Submitted(form): Submitted<CodeForm>,
) -> Result<Reply<ModemRegistered>, AccountError> {
    let session = require(&account, &jar).await?;
    let (modem, code) = checked_code(&account, &form, client).await?;
    let own = Msisdn::parse(&session.msisdn).map_err(|_| AccountError::from(Refused::SignInFirst))?;
    match account.operator.create_alternative_number(&session.token, &modem, &own, &code).await {
        Ok(pair) => {
            let answer = ModemRegistered {
                alternative_masked: masked(&pair),
                msisdn: pair.msisdn,
                registering_new_number: false,
            };
            Ok(Reply::ok(answer).with_notice(Notice::key(NoticeKind::Warning, NoticeKey::ModemRegistered)))
        }
        Err(OperatorError::Unauthorized) => Err(ended_by_operator(&account, jar).await),
        Err(error) => Err(AccountError::operator_message(&error, caller.lang, NoticeKey::SomethingWentWrong)),
    }
}
