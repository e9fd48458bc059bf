//! Forms visitors send the operator: the business
//! community form and the foundation partnership application. A submission
//! is checked on the server, in the visitor's language, and committed to
//! disk before the visitor hears it was received.
//!
//! - `http`: a post as it arrives (JSON, an HTML form, multipart with a
//!   proposal PDF) and [`FormError`], the one error answered as JSON.
//! - `nest`: flat input names (`applicants[1].email`) as nested JSON.
//! - `fields`: reading fields into typed values, the problems and their
//!   messages in English and Swahili.
//! - `business`, `foundation`: the two forms' types and their parsers.
//! - `store`: SQLite in `DATA_DIR` (WAL, synchronous=FULL), idempotency keys.
//! - `outbox`: delivery to the CMS (`CMS_URL`), retried until it takes.
//! - `export`: staff read submissions as CSV or JSON with `FORMS_TOKEN`.
//!
//! `POST /api/forms/<form>` answers a script 201 `{"reference"}` or 422
//! `{"errors": {"<field path>": "<message>"}}`; a form posted without
//! JavaScript is sent 303 to its page showing the reference, or gets its
//! page back, filled in, with the messages beside the fields.

mod business;
mod export;
mod fields;
mod foundation;
mod http;
pub(crate) mod nest;
mod outbox;
mod store;

use std::sync::Arc;

use axum::Router;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use contract::Lang;
use contract::page::FormState;
use serde_json::{Value, json};

use crate::AppState;
use crate::account::{ClientAddr, same_origin_only};
use crate::manifest::RouteTable;
pub use http::FormError;
use http::Sent;
pub use store::{FormStore, StoreError};
use store::{Kept, NewSubmission};

/// The forms the site takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormKind {
    BusinessCommunity,
    FoundationApplication,
}

impl FormKind {
    pub const ALL: [FormKind; 2] = [FormKind::BusinessCommunity, FormKind::FoundationApplication];

    /// Its name in addresses (`/api/forms/<name>`, `?form=<name>`) and in the route table.
    pub fn name(self) -> &'static str {
        match self {
            FormKind::BusinessCommunity => "business-community",
            FormKind::FoundationApplication => "foundation-application",
        }
    }

    pub fn parse(name: &str) -> Option<FormKind> {
        FormKind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// The CMS collection its submissions go to.
    fn collection(self) -> &'static str {
        match self {
            FormKind::BusinessCommunity => "business-community-leads",
            FormKind::FoundationApplication => "foundation-applications",
        }
    }

    /// The start of its references: `BC-…`, `FA-…`.
    fn prefix(self) -> &'static str {
        match self {
            FormKind::BusinessCommunity => "BC",
            FormKind::FoundationApplication => "FA",
        }
    }
}

/// What the form endpoints share.
#[derive(Clone)]
pub struct Forms {
    store: FormStore,
    /// The business categories a lead may ask about: the slugs of the
    /// route table's category pages.
    services: Arc<Vec<String>>,
    /// Delivery to the CMS, when there is one.
    outbox: Option<outbox::Outbox>,
}

impl Forms {
    /// `redis`: where the outbox takes its lease on each entry, so that of
    /// the instances sharing one `DATA_DIR` one delivers each submission.
    pub fn open(config: &crate::Config, routes: &RouteTable, redis: Option<crate::shared::Redis>) -> Result<Forms, crate::AppError> {
        let failed = |error: &dyn std::fmt::Display| crate::AppError::Config(error.to_string());
        let store = FormStore::open(&config.data_dir).map_err(|e| failed(&e))?;
        let outbox = match &config.cms.url {
            Some(base) => {
                let token = config.cms.token.as_ref().map(|t| t.expose().to_owned());
                let first_wait = config.forms.retry.max(std::time::Duration::from_millis(1));
                Some(outbox::Outbox::new(store.clone(), base.as_str(), token, first_wait, redis).map_err(|e| failed(&e))?)
            }
            None => None,
        };
        let services = routes
            .all()
            .iter()
            .filter(|route| route.page == Some(contract::page::PageKind::BusinessCategory))
            .filter_map(|route| route.path.rsplit('/').next().map(str::to_owned))
            .collect();
        Ok(Forms { store, services: Arc::new(services), outbox })
    }

    /// Delivers to the CMS for as long as the server runs (nothing without one).
    pub async fn deliver_forever(self) {
        if let Some(outbox) = self.outbox {
            outbox.run_forever().await;
        }
    }

    /// The outbox for `/healthz?detail`: `None` without a CMS.
    pub async fn backlog(&self) -> Result<Option<store::Backlog>, StoreError> {
        match self.outbox {
            Some(_) => self.store.backlog().await.map(Some),
            None => Ok(None),
        }
    }
}

pub fn router(state: AppState) -> Router<AppState> {
    let posts = Router::new()
        .route("/api/forms/business-community", post(business_community).layer(DefaultBodyLimit::max(http::TEXT_LIMIT)))
        .route("/api/forms/foundation-application", post(foundation_application).layer(DefaultBodyLimit::max(http::UPLOAD_LIMIT)))
        .layer(axum::middleware::from_fn_with_state(state, same_origin_only));
    Router::new()
        .merge(posts)
        .route("/api/forms/export", get(export::export))
        .route("/api/forms/proposal", get(export::proposal))
}

type Received = Result<Sent, http::Unread>;

/// `POST /api/forms/business-community`.
async fn business_community(State(state): State<AppState>, ClientAddr(client): ClientAddr, sent: Received) -> Response {
    let kind = FormKind::BusinessCommunity;
    let sent = match sent {
        Ok(sent) => sent,
        Err(http::Unread { lang, script, error }) => return refuse(&state, kind, lang, script, FormState::default(), error).await,
    };
    let parsed = business::BusinessLead::parse(&sent.value, &state.forms.services).map(|lead| (json!(lead), None));
    submit(&state, kind, sent, &client, parsed).await
}

/// `POST /api/forms/foundation-application`.
async fn foundation_application(State(state): State<AppState>, ClientAddr(client): ClientAddr, sent: Received) -> Response {
    let kind = FormKind::FoundationApplication;
    let mut sent = match sent {
        Ok(sent) => sent,
        Err(http::Unread { lang, script, error }) => return refuse(&state, kind, lang, script, FormState::default(), error).await,
    };
    let parsed = foundation::FoundationApplication::parse(&sent.value, sent.upload.take())
        .map(|(application, proposal)| (json!(application), proposal.map(|p| p.bytes)));
    submit(&state, kind, sent, &client, parsed).await
}

/// Keeps a checked submission and answers; or answers why not.
async fn submit(
    state: &AppState,
    kind: FormKind,
    sent: Sent,
    client: &str,
    parsed: Result<(Value, Option<Vec<u8>>), fields::Problems>,
) -> Response {
    let Sent { lang, script, idempotency_key, typed, bot, .. } = sent;
    let back = |error| refuse(state, kind, lang, script, FormState { values: typed.clone(), errors: Default::default() }, error);
    if bot {
        // Answered as a success, so the bot learns nothing; nothing is kept.
        tracing::info!(form = kind.name(), "honeypot filled in: submission dropped");
        let reference = store::new_reference(kind).unwrap_or_else(|_| format!("{}-{}", kind.prefix(), "0".repeat(8)));
        return received(state, kind, lang, script, &reference, false);
    }
    let (data, proposal) = match parsed {
        Ok(parsed) => parsed,
        Err(problems) => return back(FormError::Invalid(problems)).await,
    };
    match state.limits.form_submission(kind.name(), client).await {
        Ok(true) => {}
        Ok(false) => return back(FormError::TooMany).await,
        Err(error) => return back(FormError::Unavailable(error)).await,
    }
    let outbox = state.forms.outbox.as_ref();
    let new = NewSubmission { form: kind, idempotency_key, lang: lang.code(), data, proposal, deliver: outbox.is_some() };
    match state.forms.store.keep(new).await {
        Ok(Kept::New(reference)) => {
            tracing::info!(form = kind.name(), %reference, "form received");
            metrics::counter!("forms_accepted_total", "form" => kind.name()).increment(1);
            if let Some(outbox) = outbox {
                outbox.wake();
            }
            received(state, kind, lang, script, &reference, false)
        }
        Ok(Kept::Replayed(reference)) => received(state, kind, lang, script, &reference, true),
        Err(error) => back(FormError::Store(error)).await,
    }
}

/// The form's page in `lang`, if the route table has one.
fn form_path(state: &AppState, kind: FormKind) -> Option<String> {
    state.routes.by_form(kind.name()).map(|route| route.path.clone())
}

/// 201 `{"reference"}` for a script; 303 to the form's page showing the
/// reference for a form.
fn received(state: &AppState, kind: FormKind, lang: Lang, script: bool, reference: &str, replayed: bool) -> Response {
    let page = form_path(state, kind).filter(|_| !script);
    let mut response = match page {
        None => (StatusCode::CREATED, axum::Json(json!({ "reference": reference }))).into_response(),
        Some(path) => {
            let location = format!("{}?reference={reference}", lang.href(&path));
            let mut response = StatusCode::SEE_OTHER.into_response();
            response.headers_mut().insert(header::LOCATION, crate::web::Location::site(&location).header());
            response
        }
    };
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if replayed {
        response.headers_mut().insert("idempotent-replayed", HeaderValue::from_static("true"));
    }
    response
}

/// The error as JSON for a script; for a form, its page again with what
/// was typed and the messages.
async fn refuse(state: &AppState, kind: FormKind, lang: Lang, script: bool, mut form: FormState, error: FormError) -> Response {
    match form_path(state, kind).filter(|_| !script) {
        None => error.into_json(lang),
        Some(path) => {
            let (status, errors) = error.answer(lang);
            form.errors = errors;
            crate::pages::form_page(state, lang, &path, status, form).await
        }
    }
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
