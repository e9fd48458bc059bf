//! The subscriber self-service backend for the browser: signing in with a
//! one-time code, the account and its balances, buying bundles, modems and
//! customer permission management (CPM).
//! The page's JavaScript never sees an operator token: it calls these
//! endpoints, which keep the token in a server-side session and call the
//! operator API (`operator`).
//!
//! - `error`: [`AccountError`], every way a request fails, answered as the
//!   one API body; successes are [`crate::web::Reply`]s. Handlers take the
//!   [`crate::web::Caller`] and bodies as JSON or HTML forms alike
//!   ([`crate::web::form_post`] turns a form's answer into a redirect).
//! - `outcomes`: code requests, code checks and purchases counted by answer.
//! - `sign_in`, `subscriber`, `bundles`, `modem`, `cpm`: the endpoints, one
//!   module per part of the self-service area.
//! - `session`: the sessions (subscriber, CPM) and their cookies;
//!   `session_record`: what a session is and holds;
//!   `session_store`: where they live (SQLite in `DATA_DIR`), or
//!   `session_redis` (Redis, shared by every instance, with `REDIS_URL`).
//! - `repeats`: purchases just made, so none is sent twice unconfirmed.
//!   Phone numbers and codes are parsed by [`crate::msisdn`], and code
//!   requests and checks throttled by [`crate::limits`], which the forms
//!   share.
//! - `operator`: the digital-service API client, behind a circuit breaker
//!   (`breaker`) and a bulkhead, and (`operator::answers`) what its calls
//!   send and answer, typed; `catalogue`: its bundle catalogue kept in
//!   memory, which bundle tables and purchases share.
//! - `cache`: what the operator said about each session's subscriber
//!   (details, balances), kept a short while and waited for at most a
//!   page's budget.
//!
//! Pages ask this module one thing, [`Visit`]: who the visitor is and what
//! their page shows only to them.

/// A cookie the account area reads (the sessions, in either form, and the
/// flash notice): a request with one may get a page of its own.
pub fn reads_cookie(name: &str) -> bool {
    use session::{Kind, cookie_name};
    name == flash::COOKIE
        || [Kind::Subscriber, Kind::Cpm]
            .into_iter()
            .any(|kind| name == cookie_name(kind, true) || name == cookie_name(kind, false))
}

pub mod breaker;
mod bundles;
pub mod cache;
pub mod catalogue;
mod cpm;
mod error;
mod modem;
pub mod operator;
mod outcomes;
pub mod repeats;
pub mod session;
pub mod session_record;
pub mod session_redis;
pub mod session_store;
mod sign_in;
mod subscriber;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, FromRef};
use axum::routing::{get, post, put};
use axum_extra::extract::PrivateCookieJar;
use axum_extra::extract::cookie::Key;
use contract::Lang;
use contract::account::{CpmPermissions, Subscriber};
use contract::feedback::Notice;
use contract::page::{PageData, PageKind};
use contract::protocol::endpoints;

use crate::limits::CodeFor;
use crate::manifest::RouteTable;
use crate::web::csrf::CsrfToken;
use crate::web::form_post::{self, FormPosts};
use crate::web::{Site, flash, same_origin_only};
pub use error::AccountError;
use outcomes::{Counted, counted};
use session::Kind;

/// Every account body is a few short fields; more is refused with 413.
const BODY_LIMIT: usize = 16 * 1024;

/// What the account area reads: the operator API and what is kept of what
/// it said, the sessions and the limits on codes, and the little of the
/// site it answers with. Pages read it too, for a visit ([`Visit`]).
pub struct AccountState {
    pub operator: operator::OperatorClient,
    /// The operator's bundle catalogue, kept like content.
    pub catalogue: catalogue::Catalogue,
    /// Purchases just made, so none is sent twice unconfirmed.
    pub recent_purchases: repeats::RecentPurchases,
    /// Subscribers' details and balances per session.
    pub details: cache::AccountCache,
    pub sessions: session::Sessions,
    pub limits: Arc<crate::limits::Limits>,
    /// The route table: the account pages' addresses, by kind.
    pub routes: Arc<RouteTable>,
    /// `DIGITAL_API_BUDGET_MS`: how long a page waits for the operator.
    pub budget: Duration,
    /// `CONTENT_TTL_SECS`: how long the bundle catalogue may be kept.
    pub catalogue_ttl: Duration,
    /// The site is served over https (cookies' names and `Secure`).
    pub https: bool,
}

pub fn router<S>(state: S) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<AccountState>: FromRef<S>,
    Key: FromRef<S>,
    Site: FromRef<S>,
{
    Router::new()
        .route(
            endpoints::SIGN_IN_REQUEST_OTP,
            counted(post(sign_in::request_otp), Counted::CodeRequest(CodeFor::SignIn)),
        )
        .route(
            endpoints::SIGN_IN_VALIDATE_OTP,
            counted(post(sign_in::validate_otp), Counted::CodeCheck(CodeFor::SignIn)),
        )
        .route(endpoints::LOGOUT, post(sign_in::logout))
        .route(endpoints::ACCOUNT, get(subscriber::account))
        .route(endpoints::BUNDLES, get(bundles::bundles))
        .route(
            endpoints::PURCHASE,
            counted(post(bundles::purchase), Counted::Purchase)
                .layer(axum::middleware::from_fn_with_state(state.clone(), subscriber::forget_after)),
        )
        .route(endpoints::MODEM_CHECK, post(modem::check))
        .route(
            endpoints::MODEM_REQUEST_OTP,
            counted(post(modem::request_otp), Counted::CodeRequest(CodeFor::ModemSignIn)),
        )
        .route(
            endpoints::MODEM_VALIDATE_OTP,
            counted(post(modem::validate_otp), Counted::CodeCheck(CodeFor::ModemSignIn)),
        )
        .route(
            endpoints::ALTERNATIVE_NUMBER_REQUEST_OTP,
            counted(post(modem::registration_request_otp), Counted::CodeRequest(CodeFor::ModemRegistration)),
        )
        .route(
            endpoints::ALTERNATIVE_NUMBER,
            counted(post(modem::register), Counted::CodeCheck(CodeFor::ModemRegistration)),
        )
        .route(endpoints::CPM_REQUEST_OTP, counted(post(cpm::request_otp), Counted::CodeRequest(CodeFor::Cpm)))
        .route(endpoints::CPM_VALIDATE_OTP, counted(post(cpm::validate_otp), Counted::CodeCheck(CodeFor::Cpm)))
        .route(endpoints::CPM_PERMISSIONS, get(cpm::permissions))
        .route(&format!("{}/{{id}}", endpoints::CPM_PERMISSIONS), put(cpm::set_permission).post(cpm::set_permission))
        .route(endpoints::CPM_LOGOUT, post(cpm::logout))
        .layer(axum::middleware::from_fn_with_state(state.clone(), same_origin_only))
        .layer(axum::middleware::from_fn_with_state(
            FormPosts { site: Site::from_ref(&state), body_limit: BODY_LIMIT },
            form_post::layer,
        ))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
}

/// What a signed-in subscriber has of their own on a page for everyone,
/// as data: the page escapes it into its own parts (`pages::splice`).
pub struct SubscriberView {
    /// The name the header's account control shows.
    pub name: String,
    /// The page data's subscriber.
    pub subscriber: Subscriber,
}

/// A page request's visitor: their cookies and what they say.
pub struct Visit {
    jar: PrivateCookieJar,
    https: bool,
    cpm: Option<(session::SessionKey, session::Session)>,
    subscriber: Option<(session::SessionKey, session::Session)>,
    flash: bool,
}

/// What a page shows only to its visitor, taken into its data.
#[derive(Default)]
pub struct PageExtras {
    pub subscriber: Option<Subscriber>,
    pub notice: Option<Notice>,
    pub cpm: Option<CpmPermissions>,
    /// The browser session's form token.
    pub csrf: Option<CsrfToken>,
}

impl PageExtras {
    /// These parts in the page's `data`.
    pub fn put_into(self, data: &mut PageData) {
        data.subscriber = self.subscriber;
        data.notice = self.notice;
        data.cpm = self.cpm;
        data.csrf = self.csrf.map(CsrfToken::into_string);
    }
}

impl Visit {
    /// Reads which live sessions the cookies point at. Any other cookie
    /// (junk, expired, forged) counts for nothing.
    pub async fn read(account: &AccountState, jar: PrivateCookieJar) -> Visit {
        let cpm = account.sessions.load_keyed(&jar, Kind::Cpm).await;
        let subscriber = account.sessions.load_keyed(&jar, Kind::Subscriber).await;
        let flash = flash::is_left(&jar);
        Visit { jar, https: account.https, cpm, subscriber, flash }
    }

    /// The browser session's form token, made (with its cookie) if the
    /// browser has none yet: for a page served to this visitor alone.
    pub fn csrf(&mut self) -> Option<CsrfToken> {
        let (token, jar) = CsrfToken::ensure(self.jar.clone(), self.https);
        self.jar = jar;
        token
    }

    /// The visitor's cookies, with any this request set: to answer with.
    pub fn cookies(&self) -> PrivateCookieJar {
        self.jar.clone()
    }

    /// A live CPM session: only with one may the permission page be seen.
    pub fn cpm_signed_in(&self) -> bool {
        self.cpm.is_some()
    }

    /// What the subscriber's session is known by, signed in.
    pub fn session_key(&self) -> Option<session::SessionKey> {
        self.subscriber.as_ref().map(|(key, _)| key.clone())
    }

    /// What the CPM session is known by, for a visitor with nothing else of
    /// their own (no subscriber session, no flash notice): the CPM page is
    /// then the page for every CPM session with their permissions put in.
    pub fn cpm_only(&self) -> Option<session::SessionKey> {
        if self.subscriber.is_some() || self.flash {
            return None;
        }
        self.cpm.as_ref().map(|(key, _)| key.clone())
    }

    /// Signed in (subscriber or CPM): pages are built for this visitor alone.
    pub fn signed_in(&self) -> bool {
        self.cpm.is_some() || self.subscriber.is_some()
    }

    /// A notice a form post left (the flash cookie, which only this server
    /// can have written): the next page is for this visitor alone too.
    pub fn has_flash(&self) -> bool {
        self.flash
    }

    /// A signed-in subscriber with nothing else of their own on a page: no
    /// CPM session, no flash notice.
    pub fn subscriber_only(&self) -> bool {
        self.subscriber.is_some() && self.cpm.is_none() && !self.flash
    }

    /// A signed-in subscriber's own parts of a page that is the same for
    /// everyone but for them (the header's name, the page data's
    /// subscriber), from the session alone. `None` for anyone with more of
    /// their own on a page (a CPM session, a flash notice) or signed out.
    pub fn subscriber_view(&self, lang: Lang) -> Option<SubscriberView> {
        let (_, session) = self.subscriber.as_ref().filter(|_| self.subscriber_only())?;
        // As the header shows it: the names, or the number when the operator gave none.
        let name = match session.names.as_str() {
            "" => crate::msisdn::Msisdn::parse(&session.msisdn)
                .map_or_else(|_| session.msisdn.clone(), |number| number.local()),
            names => names.to_owned(),
        };
        Some(SubscriberView { name, subscriber: subscriber::subscriber_of(session, None, None, lang) })
    }

    /// The visitor's own parts of a page of kind `page` in `lang`: the form token, the subscriber
    /// (with details and balances on the account page, the only one that
    /// shows them, from the session alone on every other), the flash notice
    /// (taken out of the cookies when `take_flash`) and the CPM permissions
    /// where the page shows them. The operator is waited for at most
    /// `DIGITAL_API_BUDGET_MS`. A session the operator refuses is ended.
    pub async fn extras(
        mut self,
        account: &AccountState,
        page: PageKind,
        lang: Lang,
        take_flash: bool,
    ) -> (PageExtras, PrivateCookieJar) {
        let mut extras = PageExtras { csrf: self.csrf(), ..PageExtras::default() };
        let mut jar = self.jar;
        if let Some((key, session)) = &self.subscriber {
            let account_page = page == PageKind::Account;
            (extras.subscriber, jar) =
                subscriber::page_subscriber(account, key, session, jar, account_page, lang).await;
        }
        if take_flash && self.flash {
            (extras.notice, jar) = flash::take(jar);
        }
        if let Some((_, session)) = self.cpm.as_ref().filter(|_| page == PageKind::Cpm) {
            let permissions;
            (permissions, jar) = cpm::page_permissions(account, session, jar, lang).await;
            extras.cpm = permissions.ok();
        }
        (extras, jar)
    }
}
