//! `POST /api/cms/webhook`: Strapi's webhook after an entry or a file
//! changes. With the shared secret (`Authorization: Bearer <CMS_WEBHOOK_SECRET>`,
//! set as a header of the webhook in Strapi), the affected content entries
//! and the pages built from them are dropped at once ([`Invalidation::invalidate`]); the
//! next visitor gets fresh ones. The locations, too costly to read for a
//! visitor to wait, are read again in the background instead, the copy in
//! memory served until the new one replaces it. With `REDIS_URL` every
//! other instance is told too (`broadcast`).

use std::sync::Arc;
use std::time::SystemTime;

use axum::Router;
use axum::extract::{FromRef, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::Json;
use axum::routing::post;
use contract::Lang;
use serde::{Deserialize, Serialize};
use subtle::ConstantTimeEq;
use tokio::sync::Notify;

use super::{Broadcast, Content, ContentQuery};
use crate::config::Secret;
use crate::web::Reply;

/// The parts of Strapi's webhook body this needs.
#[derive(Debug, Deserialize)]
pub struct WebhookEvent {
    pub event: String,
    /// The content type's singular API ID (`news-update`, `home`), absent for media.
    pub model: Option<String>,
    pub entry: Option<WebhookEntry>,
}

#[derive(Debug, Deserialize)]
pub struct WebhookEntry {
    pub locale: Option<String>,
}

/// What the webhook reads.
#[derive(Clone)]
pub struct Webhook {
    /// `CMS_WEBHOOK_SECRET`: without one the webhook answers 404.
    pub secret: Option<Secret>,
    pub invalidation: Invalidation,
    pub broadcast: Option<Broadcast>,
}

pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Webhook: FromRef<S>,
{
    Router::new().route("/api/cms/webhook", post(webhook))
}

/// The webhook's answer: how many content entries the change dropped, or
/// reads again.
#[derive(serde::Serialize)]
struct Invalidated {
    dropped: usize,
}

async fn webhook(
    State(webhook): State<Webhook>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Json<Invalidated>, Reply> {
    let Some(secret) = webhook.secret.as_ref() else {
        return Err(Reply::refused_text(StatusCode::NOT_FOUND, "webhook not configured"));
    };
    let presented = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    if !bool::from(presented.as_bytes().ct_eq(secret.expose().as_bytes())) {
        return Err(Reply::refused_text(StatusCode::UNAUTHORIZED, "wrong webhook secret"));
    }
    let event: WebhookEvent = serde_json::from_slice(&body).map_err(|error| {
        Reply::refused_text(StatusCode::BAD_REQUEST, &format!("not a Strapi webhook body: {error}"))
    })?;
    let change = Change {
        model: event.model.clone().filter(|_| !event.event.starts_with("media.")),
        locale: event.entry.as_ref().and_then(|e| e.locale.as_deref()).map(|l| Lang::parse(l).code().to_owned()),
    };
    let dropped = webhook.invalidation.invalidate(&change, "webhook");
    let shared = match &webhook.broadcast {
        Some(broadcast) => broadcast.publish(&change).await,
        None => false,
    };
    tracing::info!(event = %event.event, model = change.model.as_deref().unwrap_or("*"), dropped, shared, "content invalidated by webhook");
    Ok(Json(Invalidated { dropped }))
}

/// What changed in the CMS: one model (or every one), in one language (or
/// both). What the webhook received, and what it tells the other instances.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Change {
    pub model: Option<String>,
    /// A language code (`en`, `sw`).
    pub locale: Option<String>,
}

impl Change {
    /// Everything may have changed (a message missed).
    pub fn everything() -> Change {
        Change::default()
    }
}

impl Change {
    /// Whether this change may have changed content `source` names.
    pub fn touches(&self, source: &Source) -> bool {
        let locale = self.locale.as_deref().map(Lang::parse);
        (locale.is_none_or(|l| l == source.lang) || !source.localized)
            && self.model.as_deref().is_none_or(|m| same_model(&source.model, m))
    }
}

/// What a page was built from, as a change names it: a model (a single
/// type or a collection, `news-updates`) in a language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    pub model: String,
    pub lang: Lang,
    /// Whether a change in the other language leaves it as it was: not so
    /// for a type that is not localized, nor for an item, whose answer names
    /// its version in the other language (its address).
    pub localized: bool,
}

impl Source {
    pub fn of(query: &ContentQuery, lang: Lang) -> Source {
        let localized = query.localized() && !matches!(query, ContentQuery::Item { .. });
        Source { model: query.model().to_owned(), lang, localized }
    }
}

/// The changes this process was told of, newest first, one per model and
/// language: what pages kept on disk are checked against, whose content
/// memory may not hold ([`Invalidation::changed_since`]).
#[derive(Default)]
struct Told {
    changes: Vec<(Change, SystemTime)>,
}

/// Changes remembered apart at most; past them, one change of everything.
const CHANGES_TOLD: usize = 256;

impl Told {
    fn push(&mut self, change: &Change, at: SystemTime) {
        self.changes.retain(|(told, _)| told != change);
        self.changes.insert(0, (change.clone(), at));
        if self.changes.len() > CHANGES_TOLD {
            self.changes = vec![(Change::everything(), at)];
        }
    }
}

/// What invalidating content acts on: the content cache, and whoever waits
/// to hear that entries were dropped (pre-rendering, for another pass).
#[derive(Clone)]
pub struct Invalidation {
    pub store: Content,
    pub dropped: Arc<Notify>,
    told: Arc<std::sync::Mutex<Told>>,
}

impl Invalidation {
    pub fn new(store: Content, dropped: Arc<Notify>) -> Invalidation {
        Invalidation { store, dropped, told: Arc::default() }
    }

    /// Whether a change this process was told of since `since` may have
    /// changed content any of `sources` names.
    pub fn changed_since(&self, sources: &[Source], since: SystemTime) -> bool {
        let told = crate::infra::locks::lock(&self.told);
        told.changes
            .iter()
            .take_while(|(_, at)| *at >= since)
            .any(|(change, _)| sources.iter().any(|source| change.touches(source)))
    }

    /// Drops the content entries `change` names, and remembers it for the
    /// pages on disk (the content generation
    /// moves, so the fast path follows; pages built from them are served
    /// only while their new render runs, see `pages::cache`) and asks for
    /// another pre-render pass, or reads them again in place where the
    /// query says so (`ContentQuery::read_again_in_place`: the locations;
    /// the generation moves once the new answer is in); returns how many
    /// entries were dropped or are read again. The one invalidation,
    /// whether the webhook came here or to another instance (`broadcast`);
    /// `source` is for the metrics.
    pub fn invalidate(&self, change: &Change, source: &'static str) -> usize {
        crate::infra::locks::lock(&self.told).push(change, SystemTime::now());
        // A type that is not localized changes in every language (its webhook
        // names none, or the default); an item's answer names its version in
        // the other language (its address), so a change to one drops both
        // (`Source::of`).
        let changed = |(query, lang): &crate::content::Key| change.touches(&Source::of(query, *lang));
        let cache = self.store.cache();
        let dropped = cache.invalidate(|key| !key.0.read_again_in_place() && changed(key)).len();
        let read_again = cache.read_again(|key| key.0.read_again_in_place() && changed(key));
        if dropped > 0 {
            self.dropped.notify_one();
        }
        metrics::counter!("content_invalidations_total", "source" => source).increment(1);
        dropped + read_again
    }
}

/// Strapi names models in the singular (`news-update`); collections are read
/// by their plural (`news-updates`).
fn same_model(ours: &str, theirs: &str) -> bool {
    ours == theirs || ours.strip_suffix('s') == Some(theirs)
}

#[cfg(test)]
mod tests {
    #[test]
    fn singular_models_match_plural_collections() {
        assert!(super::same_model("news-updates", "news-update"));
        assert!(super::same_model("home", "home"));
        assert!(!super::same_model("home", "homes"));
        assert!(!super::same_model("sidebar", "home"));
    }
}
