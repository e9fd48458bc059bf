//! Signing in and out with a phone number and a one-time code.

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::State;
use axum_extra::extract::PrivateCookieJar;
use contract::api::{CodeForm, CodeSent, NumberForm, SignInStep, SubscriberAnswer};
use contract::protocol::{CODE_STEP, STEP_PARAM};

use super::AccountState;
use super::error::{AccountError, Refused};
use super::session::{Kind, Session};
use super::subscriber::{catalogue_within_budget, sign_out, subscriber_of};
use crate::limits::CodeFor;
use crate::msisdn::{Msisdn, OtpCode};
use crate::web::{Caller, ClientAddr, Notice, NoticeKey, NoticeKind, Reply, Submitted};

pub(super) fn parse_msisdn(input: &str) -> Result<Msisdn, AccountError> {
    Msisdn::parse(input).map_err(|_| AccountError::from(Refused::InvalidMsisdn))
}

/// The number and code of a code check, within the number's and the
/// client's check budgets.
pub(super) async fn checked_code(
    account: &AccountState,
    form: &CodeForm,
    client: IpAddr,
) -> Result<(Msisdn, OtpCode), AccountError> {
    let msisdn = parse_msisdn(&form.msisdn)?;
    let code = OtpCode::parse(&form.code).map_err(|_| AccountError::from(Refused::InvalidCode))?;
    if !account.limits.code_check(msisdn.as_str(), client).await? {
        return Err(Refused::TooMany.into());
    }
    Ok((msisdn, code))
}

/// The number a code is asked for, within its and the client's budgets.
/// The budgets are the same whether or not the number is a subscriber, and
/// come before the operator is asked, so a refusal tells nobody who is a
/// customer.
pub(super) async fn requested_number(
    account: &AccountState,
    purpose: CodeFor,
    input: &str,
    client: IpAddr,
) -> Result<Msisdn, AccountError> {
    let msisdn = parse_msisdn(input)?;
    if let Some(wait) = account.limits.code_request(purpose, msisdn.as_str(), client).await? {
        return Err(AccountError::too_soon(wait));
    }
    Ok(msisdn)
}

/// A number form's page again with the number as typed (`?msisdn=`), so a
/// browser without JavaScript shows it in its field beside the refusal.
pub(super) fn keeping_number(form: &NumberForm) -> impl FnOnce(AccountError) -> AccountError + '_ {
    |error| error.back_query(&[("msisdn", Some(form.msisdn.as_str()))])
}

/// `POST /api/auth/request-otp {msisdn}`. Without JavaScript the sign-in
/// page shows the code step next, for this number.
pub(super) async fn request_otp(
    State(account): State<Arc<AccountState>>,
    caller: Caller,
    ClientAddr(client): ClientAddr,
    Submitted(form): Submitted<NumberForm>,
) -> Result<Reply<CodeSent>, AccountError> {
    let msisdn =
        requested_number(&account, CodeFor::SignIn, &form.msisdn, client).await.map_err(keeping_number(&form))?;
    let message = account
        .operator
        .request_otp(&msisdn)
        .await
        .map_err(|error| keeping_number(&form)(AccountError::code_request_failed(&error)))?;
    account.limits.code_sent(CodeFor::SignIn, msisdn.as_str()).await;
    Ok(Reply::ok(CodeSent { msisdn: msisdn.to_string(), step: SignInStep::Code })
        .with_notice(Notice::text(NoticeKind::Info, message.get(caller.lang)))
        .back_query(&[(STEP_PARAM, Some(CODE_STEP)), ("msisdn", Some(form.msisdn.as_str()))]))
}

/// `POST /api/auth/validate-otp {msisdn, code}`: signs in.
pub(super) async fn validate_otp(
    State(account): State<Arc<AccountState>>,
    jar: PrivateCookieJar,
    caller: Caller,
    ClientAddr(client): ClientAddr,
    Submitted(form): Submitted<CodeForm>,
) -> Result<(PrivateCookieJar, Reply<SubscriberAnswer>), AccountError> {
    let (msisdn, code) = checked_code(&account, &form, client).await?;
    let token = account
        .operator
        .validate_otp(&msisdn, &code)
        .await
        .map_err(|error| AccountError::operator_message(&error, caller.lang, NoticeKey::SomethingWentWrong))?;
    let known = account
        .details
        .fetch(&token)
        .await
        .map_err(|error| AccountError::operator(&error, NoticeKey::SomethingWentWrong))?;
    let session = Session::new(token, msisdn.to_string()).named(known.details.names());
    let jar = account.sessions.start(jar, Kind::Subscriber, session.clone()).await?;
    // The first page after signing in needs no operator call.
    let known = match account.sessions.key(&jar, Kind::Subscriber) {
        Some(key) => account.details.keep(key, known),
        None => known.into(),
    };
    let catalogue = catalogue_within_budget(&account).await;
    let subscriber = subscriber_of(&session, Some(&known), catalogue.as_deref(), caller.lang);
    // The page without its sign-in step (what else its address says stays: the bundle chosen to buy).
    Ok((jar, Reply::ok(SubscriberAnswer { subscriber }).back_query(&[(STEP_PARAM, None), ("msisdn", None)])))
}

/// `POST /api/auth/logout`: ends the session and sends the browser home.
pub(super) async fn logout(
    State(account): State<Arc<AccountState>>,
    jar: PrivateCookieJar,
    caller: Caller,
) -> (PrivateCookieJar, Reply) {
    let jar = sign_out(&account, jar).await;
    (jar, Reply::done().redirect(caller.href(account.routes.home())))
}
