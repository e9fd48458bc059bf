//! Customer permission management: its own sign-in, session
//! and token, and the permissions a subscriber grants or withdraws.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum_extra::extract::PrivateCookieJar;
use contract::Lang;
use contract::account::{CpmPermissions, Permission};
use contract::api::{CodeForm, CpmCodeSent, NumberForm, PermissionForm, PermissionSet};
use contract::page::PageKind;

use super::AccountState;
use super::error::{AccountError, Refused};
use super::operator::OperatorError;
use super::session::{Kind, Session};
use super::sign_in::{checked_code, keeping_number, requested_number};
use crate::limits::CodeFor;
use crate::web::{Caller, ClientAddr, Notice, NoticeKey, NoticeKind, Reply, Submitted};

/// `POST /api/cpm/request-otp {msisdn}`: then the code page, for this number.
pub(super) async fn request_otp(
    State(account): State<Arc<AccountState>>,
    caller: Caller,
    ClientAddr(client): ClientAddr,
    Submitted(form): Submitted<NumberForm>,
) -> Result<Reply<CpmCodeSent>, AccountError> {
    let msisdn = requested_number(&account, CodeFor::Cpm, &form.msisdn, client).await.map_err(keeping_number(&form))?;
    let message = account
        .operator
        .cpm_request_otp(&msisdn)
        .await
        .map_err(|error| keeping_number(&form)(AccountError::code_request_failed(&error)))?;
    account.limits.code_sent(CodeFor::Cpm, msisdn.as_str()).await;
    let query = serde_urlencoded::to_string([("msisdn", msisdn.as_str())]).unwrap_or_default();
    let code_page = caller.href(account.routes.path_of(PageKind::CpmOtp));
    Ok(Reply::ok(CpmCodeSent { msisdn: msisdn.to_string() })
        .with_notice(Notice::text(NoticeKind::Info, message.get(caller.lang)))
        .redirect(format!("{code_page}?{query}")))
}

/// `POST /api/cpm/validate-otp {msisdn, code}`: the CPM session.
pub(super) async fn validate_otp(
    State(account): State<Arc<AccountState>>,
    jar: PrivateCookieJar,
    caller: Caller,
    ClientAddr(client): ClientAddr,
    Submitted(form): Submitted<CodeForm>,
) -> Result<(PrivateCookieJar, Reply), AccountError> {
    let (msisdn, code) = checked_code(&account, &form, client).await?;
    let token = account
        .operator
        .cpm_validate_otp(&msisdn, &code)
        .await
        .map_err(|error| AccountError::operator_message(&error, caller.lang, NoticeKey::SomethingWentWrong))?;
    let jar = account.sessions.start(jar, Kind::Cpm, Session::new(token, msisdn.to_string())).await?;
    Ok((jar, Reply::done().redirect(caller.href(account.routes.path_of(PageKind::Cpm)))))
}

/// The CPM session's permissions, for its page. Only a session whose token
/// the operator rejects is ended: one the operator cannot answer for just
/// now (failing, busy, its circuit open) is kept, and its page comes
/// without the permissions until the operator answers again.
pub async fn page_permissions(
    account: &AccountState,
    session: &Session,
    jar: PrivateCookieJar,
    lang: Lang,
) -> (Result<CpmPermissions, OperatorError>, PrivateCookieJar) {
    match account.operator.cpm_permissions(&session.token).await {
        Ok(permissions) => {
            let permissions = permissions
                .into_iter()
                .map(|p| Permission {
                    name: p.name.get(lang).to_owned(),
                    description: p.description.get(lang).to_owned(),
                    id: p.id,
                    granted: p.granted,
                })
                .collect();
            (Ok(CpmPermissions { msisdn: session.msisdn.clone(), permissions }), jar)
        }
        Err(OperatorError::Unauthorized) => {
            tracing::info!("CPM session ended: the operator rejected its token");
            (Err(OperatorError::Unauthorized), account.sessions.end(jar, Kind::Cpm).await)
        }
        Err(error) => {
            tracing::warn!(%error, "CPM permissions unavailable; the session is kept");
            (Err(error), jar)
        }
    }
}

/// `GET /api/cpm/permissions`.
pub(super) async fn permissions(
    State(account): State<Arc<AccountState>>,
    jar: PrivateCookieJar,
    caller: Caller,
) -> Result<(PrivateCookieJar, Reply<CpmPermissions>), AccountError> {
    let Some(session) = account.sessions.find(&jar, Kind::Cpm).await? else {
        return Err(AccountError::session_ended(jar, NoticeKey::SessionExpired));
    };
    match page_permissions(&account, &session, jar, caller.lang).await {
        (Ok(permissions), jar) => Ok((jar, Reply::ok(permissions))),
        (Err(OperatorError::Unauthorized), jar) => Err(AccountError::session_ended(jar, NoticeKey::SessionExpired)),
        (Err(error), _) => Err(AccountError::operator_message(&error, caller.lang, NoticeKey::SomethingWentWrong)),
    }
}

/// `PUT /api/cpm/permissions/{id} {granted}` (POST from a form).
pub(super) async fn set_permission(
    State(account): State<Arc<AccountState>>,
    jar: PrivateCookieJar,
    caller: Caller,
    Path(id): Path<String>,
    Submitted(form): Submitted<PermissionForm>,
) -> Result<Reply<PermissionSet>, AccountError> {
    let Some(session) = account.sessions.find(&jar, Kind::Cpm).await? else {
        return Err(Refused::SessionExpired.into());
    };
    match account.operator.cpm_set_permission(&session.token, &id, form.granted).await {
        Ok(()) => Ok(Reply::ok(PermissionSet { id, granted: form.granted })
            .with_notice(Notice::key(NoticeKind::Warning, NoticeKey::PermissionSaved))),
        Err(OperatorError::Unauthorized) => {
            Err(AccountError::session_ended(account.sessions.end(jar, Kind::Cpm).await, NoticeKey::SessionExpired))
        }
        Err(error) => Err(AccountError::operator_message(&error, caller.lang, NoticeKey::SomethingWentWrong)),
    }
}

/// `POST /api/cpm/logout`: then the CPM sign-in page.
pub(super) async fn logout(
    State(account): State<Arc<AccountState>>,
    jar: PrivateCookieJar,
    caller: Caller,
) -> (PrivateCookieJar, Reply) {
    let jar = account.sessions.end(jar, Kind::Cpm).await;
    (jar, Reply::done().redirect(caller.href(account.routes.path_of(PageKind::CpmLogin))))
}
