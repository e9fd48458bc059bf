//! `POST /api/cms/webhook`: Strapi's webhook after an entry or a file
//! changes. With the shared secret (`Authorization: Bearer <CMS_WEBHOOK_SECRET>`,
//! set as a header of the webhook in Strapi), the affected content entries
//! and the pages built from them are dropped at once; the next visitor gets
//! fresh ones.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::post;
use axum::Router;
use serde::Deserialize;
use contract::Lang;
use subtle::ConstantTimeEq;

use crate::AppState;

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

pub fn router() -> Router<AppState> {
    Router::new().route("/api/cms/webhook", post(webhook))
}

async fn webhook(State(state): State<AppState>, headers: HeaderMap, body: axum::body::Bytes) -> Response {
    let Some(secret) = state.config.cms_webhook_secret.as_ref() else {
        return (StatusCode::NOT_FOUND, "webhook not configured").into_response();
    };
    let presented = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    if !bool::from(presented.as_bytes().ct_eq(secret.expose().as_bytes())) {
        return (StatusCode::UNAUTHORIZED, "wrong webhook secret").into_response();
    }
    let event: WebhookEvent = match serde_json::from_slice(&body) {
        Ok(event) => event,
        Err(error) => return (StatusCode::BAD_REQUEST, format!("not a Strapi webhook body: {error}")).into_response(),
    };
    let model = event.model.as_deref().filter(|_| !event.event.starts_with("media."));
    let locale = event.entry.as_ref().and_then(|e| e.locale.as_deref()).map(Lang::parse);
    let versions = state.content.cache().invalidate(|(query, lang)| {
        locale.is_none_or(|l| l == *lang) && model.is_none_or(|m| same_model(query.model(), m))
    });
    let dropped = versions.len();
    state.pages.drop_versions(versions);
    if dropped > 0 {
        state.prerender.again();
    }
    tracing::info!(event = %event.event, model = model.unwrap_or("*"), dropped, "content invalidated by webhook");
    Json(serde_json::json!({ "dropped": dropped })).into_response()
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
