//! Forms visitors send the operator: the business community form and the
//! foundation partnership application. A submission
//! is checked on the server and committed to disk before the visitor hears
//! it was received.
//!
//! - `http`: a post as it arrives (JSON, an HTML form, multipart with a
//!   proposal PDF).
//! - `error`: [`FormError`], why a submission is refused, answered as the
//!   one API body (`{"errors": …}`).
//! - `answer`: the answers of a form posted without JavaScript: a
//!   redirect to its page, or the page again.
//! - `nest`: flat input names (`applicants[1].email`) as nested JSON.
//! - `fields`: reading fields into typed values, and what is wrong with
//!   them (`contract::feedback::Problem`, which the app words).
//! - `business`, `foundation`: the two forms' types and their parsers.
//! - `store`: [`FormStore`], where submissions and their outbox are kept,
//!   and idempotency keys; `store_sqlite`, in `DATA_DIR` (the default),
//!   and `store_postgres`, with `DATABASE_URL`.
//! - `outbox`: delivery to the CMS (`CMS_URL`), retried until it takes.
//! - `export`: staff read submissions as CSV or JSON with `FORMS_TOKEN`.
//!
//! `POST /api/forms/<form>` answers a script 201 `{"reference"}`
//! (`contract::api::FormReceived`) or 422 `{"errors": {"<field path>":
//! <problem>}}`; a form posted without JavaScript is sent 303 to its page
//! showing the reference, or gets its page back, filled in, with the
//! problems worded beside the fields.

mod answer;
mod business;
mod error;
mod export;
mod fields;
mod foundation;
mod http;
pub(crate) mod nest;
mod outbox;
mod store;
mod store_postgres;
mod store_sqlite;

use std::net::IpAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::{DefaultBodyLimit, FromRef, State};
use axum::routing::{get, post};
use contract::Lang;
use contract::protocol::endpoints;
use serde_json::{Value, json};

use crate::config::{Config, Secret};
use crate::limits::Limits;
use crate::manifest::RouteTable;
use crate::web::{ClientAddr, Site, same_origin_only};
use answer::{Received, answered};
pub use contract::route::FormKind;
pub use error::FormError;
use error::RefusedSubmission;
use http::Sent;
pub use store::{Backlog, FormStore, StoreError};
use store::{Fields, NewSubmission, Receipt, Store};

/// Why the forms cannot open at start.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("DATABASE_URL: {0}")]
    Database(#[source] StoreError),
    #[error("the form outbox's HTTP client: {0}")]
    Outbox(#[source] reqwest::Error),
}

/// What the form endpoints share.
#[derive(Clone)]
pub struct Forms {
    store: Store,
    /// The business categories a lead may ask about: the slugs of the
    /// route table's category pages.
    services: Arc<Vec<String>>,
    /// Delivery to the CMS, when there is one.
    outbox: Option<outbox::Outbox>,
    /// The forms' pages, by form.
    routes: Arc<RouteTable>,
    /// The budgets of submissions per client address, with the account's.
    limits: Arc<Limits>,
    /// `FORMS_TOKEN`, the staff's export: none without it.
    token: Option<Secret>,
}

impl Forms {
    /// Keeps submissions in PostgreSQL with `DATABASE_URL`, else in
    /// `DATA_DIR`. `redis`: where the outbox takes its lease on each entry,
    /// so that of the instances sharing one `DATA_DIR` one delivers each
    /// submission (PostgreSQL keeps its own leases).
    pub fn open(
        config: &Config,
        routes: Arc<RouteTable>,
        limits: Arc<Limits>,
        redis: Option<crate::infra::redis::Redis>,
    ) -> Result<Forms, OpenError> {
        let store: Store = match &config.operations.database_url {
            Some(url) => Arc::new(store_postgres::PostgresFormStore::open(url.config().clone())),
            None => Arc::new(store_sqlite::SqliteFormStore::open(&config.data_dir)?),
        };
        let redis = redis.filter(|_| !store.claims());
        let outbox = match &config.cms.url {
            Some(base) => {
                let token = config.cms.token.as_ref().map(|t| t.expose().to_owned());
                let first_wait = config.forms.retry.max(std::time::Duration::from_millis(1));
                let outbox = outbox::Outbox::new(store.clone(), base.as_str(), token, first_wait, redis)
                    .map_err(OpenError::Outbox)?;
                Some(outbox)
            }
            None => None,
        };
        let services = routes
            .all()
            .iter()
            .filter(|route| route.page == Some(contract::page::PageKind::BusinessCategory))
            .filter_map(|route| route.path.rsplit('/').next().map(str::to_owned))
            .collect();
        Ok(Forms { store, services: Arc::new(services), outbox, routes, limits, token: config.forms.token.clone() })
    }

    /// Makes the store ready, before the server takes its first request:
    /// PostgreSQL's tables made or brought up to date. PostgreSQL
    /// unreachable at start stops the start, saying so.
    pub async fn migrate(&self) -> Result<(), OpenError> {
        self.store.migrate().await.map_err(OpenError::Database)
    }

    /// Delivers to the CMS for as long as the server runs (nothing without one).
    pub async fn deliver_forever(self) {
        if let Some(outbox) = self.outbox {
            outbox.run_forever().await;
        }
    }

    /// The outbox for `/healthz?detail` and `/metrics`, from memory (see
    /// [`outbox::Outbox::backlog`]): `None` without a CMS.
    pub fn backlog(&self) -> Option<Seen> {
        let outbox = self.outbox.as_ref()?;
        Some(match outbox.backlog() {
            Some(Ok(backlog)) => Seen::Backlog(backlog),
            Some(Err(error)) => Seen::Unreadable(error),
            None => Seen::NotYetRead,
        })
    }
}

/// The outbox's backlog as last read.
pub enum Seen {
    Backlog(Backlog),
    /// The store failed the last read (the error, which the worker logged).
    Unreadable(String),
    /// The server has just started: the worker has not read it yet.
    NotYetRead,
}

pub fn router<S>(state: S) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Forms: FromRef<S>,
    Site: FromRef<S>,
{
    let routes = Forms::from_ref(&state).routes;
    let business = answered(post(business_community), routes.clone(), FormKind::BusinessCommunity);
    let foundation = answered(post(foundation_application), routes, FormKind::FoundationApplication);
    let posts = Router::new()
        .route(endpoints::BUSINESS_COMMUNITY, business.layer(DefaultBodyLimit::max(http::TEXT_LIMIT)))
        .route(endpoints::FOUNDATION_APPLICATION, foundation.layer(DefaultBodyLimit::max(http::UPLOAD_LIMIT)))
        .layer(axum::middleware::from_fn_with_state(state, same_origin_only));
    Router::new()
        .merge(posts)
        .route(endpoints::FORMS_EXPORT, get(export::export))
        .route(endpoints::FORMS_PROPOSAL, get(export::proposal))
}

/// `POST /api/forms/business-community`.
async fn business_community(
    State(forms): State<Forms>,
    ClientAddr(client): ClientAddr,
    sent: Sent,
) -> Result<Received, RefusedSubmission> {
    let parsed =
        business::BusinessLead::parse(&sent.value, &forms.services).map(|lead| (Fields::BusinessCommunity(lead), None));
    submit(&forms, FormKind::BusinessCommunity, sent, client, parsed).await
}

/// `POST /api/forms/foundation-application`.
async fn foundation_application(
    State(forms): State<Forms>,
    ClientAddr(client): ClientAddr,
    mut sent: Sent,
) -> Result<Received, RefusedSubmission> {
    let parsed = foundation::FoundationApplication::parse(&sent.value, sent.upload.take())
        .map(|(application, proposal)| (Fields::FoundationApplication(application), proposal.map(|p| p.bytes)));
    submit(&forms, FormKind::FoundationApplication, sent, client, parsed).await
}

/// A form's fields as parsed: the submission and its proposal file, or what is wrong.
type Parsed = Result<(Fields, Option<Vec<u8>>), fields::Problems>;

/// Keeps a checked submission and answers; or answers why not.
async fn submit(
    forms: &Forms,
    kind: FormKind,
    sent: Sent,
    client: IpAddr,
    parsed: Parsed,
) -> Result<Received, RefusedSubmission> {
    let Sent { lang, script, idempotency_key, typed, bot, .. } = sent;
    if bot {
        // Answered as a success, so the bot learns nothing; nothing is kept.
        tracing::info!(form = kind.name(), "honeypot filled in: submission dropped");
        let reference = store::new_reference(kind).unwrap_or_else(|_| format!("{}-{}", kind.prefix(), "0".repeat(8)));
        return Ok(Received { lang, script, reference, replayed: false });
    }
    let kept = keep(forms, kind, lang, idempotency_key, client, parsed).await.map_err(|error| RefusedSubmission {
        lang,
        script,
        values: typed,
        error,
    })?;
    let (reference, replayed) = match kept {
        Receipt::New(reference) => (reference, false),
        Receipt::Replayed(reference) => (reference, true),
    };
    Ok(Received { lang, script, reference, replayed })
}

/// Keeps a submission that parsed, within the client's budget.
async fn keep(
    forms: &Forms,
    kind: FormKind,
    lang: Lang,
    idempotency_key: Option<String>,
    client: IpAddr,
    parsed: Parsed,
) -> Result<Receipt, FormError> {
    let (fields, proposal) = parsed.map_err(FormError::Invalid)?;
    if !forms.limits.form_submission(kind.name(), client).await? {
        return Err(FormError::TooMany);
    }
    let outbox = forms.outbox.as_ref();
    let new = NewSubmission { idempotency_key, lang: lang.code(), fields, proposal, deliver: outbox.is_some() };
    let kept = forms.store.keep(new).await?;
    if let Receipt::New(reference) = &kept {
        tracing::info!(form = kind.name(), %reference, "form received");
        metrics::counter!("forms_accepted_total", "form" => kind.name()).increment(1);
        if let Some(outbox) = outbox {
            outbox.wake();
        }
    }
    Ok(kept)
}

/// The CMS collection types the outbox delivers to, as `site content-model`
/// lists them (`formTypes`) for `cms/scripts/generate-schema.mjs`: not
/// localized, no drafts, `reference` unique (a second delivery of one
/// submission is refused, which the outbox takes as delivered).
pub fn cms_types() -> Value {
    let text = || json!({ "type": "string" });
    let reference = json!({ "type": "string", "required": true, "unique": true });
    let choices = |codes: Vec<&str>| json!({ "type": "enumeration", "enum": codes, "required": true });
    let rows = || json!({ "type": "json" });
    json!([
        {
            "apiId": FormKind::BusinessCommunity.collection(),
            "singular": "business-community-lead",
            "displayName": "Business community lead",
            "attributes": {
                "reference": reference, "receivedAt": { "type": "datetime", "required": true }, "lang": text(),
                "name": text(), "email": { "type": "email" }, "phone": text(), "alternateNumber": text(),
                "businessName": text(), "businessSize": choices(business::SIZES.iter().map(|(code, _)| *code).collect()),
                "industry": text(), "whereHeard": choices(business::WHERE_HEARD.iter().map(|(code, _)| *code).collect()),
                "services": rows(), "influencerName": text(), "employeeName": text(), "merchantName": text()
            }
        },
        {
            "apiId": FormKind::FoundationApplication.collection(),
            "singular": "foundation-application",
            "displayName": "Foundation application",
            "attributes": {
                "reference": reference, "receivedAt": { "type": "datetime", "required": true }, "lang": text(),
                "applicants": rows(), "organisation": rows(), "project": rows(), "location": rows(), "team": rows(), "budget": rows(),
                "budgetTotalTzs": { "type": "biginteger" },
                "proposal": { "type": "media", "multiple": false, "allowedTypes": ["files"] }
            }
        }
    ])
}
