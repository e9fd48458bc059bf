//! What crawlers read besides pages: `/robots.txt` and `/sitemap.xml`, the
//! latter listing every page with an address of its own and every item of
//! the collections that have item pages, each in both languages with its
//! alternates.

use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use contract::Lang;
use contract::content::Collection;

use crate::AppState;
use crate::content::{ContentQuery, ContentValue};
use crate::pages::LocalPath;

pub fn router() -> Router<AppState> {
    Router::new().route("/robots.txt", get(robots)).route("/sitemap.xml", get(sitemap))
}

async fn robots(State(state): State<AppState>) -> Response {
    let body = format!(
        "User-agent: *\nDisallow: /_data/\nDisallow: /api/\nDisallow: /sandbox/\nDisallow: /sw/_data/\n\nSitemap: {}/sitemap.xml\n",
        state.config.site_url
    );
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8"), (header::CACHE_CONTROL, "public, max-age=3600")], body).into_response()
}

/// One page in both languages: its path without prefix in each.
struct Entry {
    en: String,
    sw: String,
}

/// Every page the sitemap lists, in both languages: the addresses
/// pre-rendering warms.
pub async fn addresses(state: &AppState) -> Vec<String> {
    entries(state).await.into_iter().flat_map(|entry| [LocalPath::href(Lang::En, &entry.en), LocalPath::href(Lang::Sw, &entry.sw)]).collect()
}

async fn sitemap(State(state): State<AppState>) -> Response {
    let entries = entries(&state).await;
    let site = &state.config.site_url;
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" \
         xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n",
    );
    for entry in &entries {
        let en = format!("{site}{}", LocalPath::href(Lang::En, &entry.en));
        let sw = format!("{site}{}", LocalPath::href(Lang::Sw, &entry.sw));
        for loc in [&en, &sw] {
            xml.push_str(&format!(
                "<url><loc>{}</loc><xhtml:link rel=\"alternate\" hreflang=\"en\" href=\"{}\"/>\
                 <xhtml:link rel=\"alternate\" hreflang=\"sw\" href=\"{}\"/>\
                 <xhtml:link rel=\"alternate\" hreflang=\"x-default\" href=\"{}\"/></url>\n",
                escape(loc),
                escape(&en),
                escape(&sw),
                escape(&en)
            ));
        }
    }
    xml.push_str("</urlset>\n");
    ([(header::CONTENT_TYPE, "application/xml; charset=utf-8"), (header::CACHE_CONTROL, "public, max-age=3600")], xml).into_response()
}

/// The listed pages: static routes that are pages for everyone, and every
/// item of the collections with item pages.
async fn entries(state: &AppState) -> Vec<Entry> {
    let mut entries = Vec::new();
    for route in state.routes.all() {
        let listed = route.is_static()
            && route.page.is_some()
            && route.page.as_deref() != Some(crate::manifest::NOT_FOUND_PAGE)
            && !route.meta.requires_auth
            && !route.unlisted;
        if listed {
            entries.push(Entry { en: route.path.clone(), sw: route.path.clone() });
        }
        if route.page.is_some() && route.path.contains(":id") {
            if let Some(collection) = route.item {
                entries.extend(items(state, route, collection).await);
            }
        }
    }
    entries
}

/// Every item of `collection` with its slug in each language.
async fn items(state: &AppState, route: &crate::manifest::RouteDef, collection: Collection) -> Vec<Entry> {
    let query = ContentQuery::All(collection);
    let (en, sw) = tokio::join!(state.content.get(&query, Lang::En), state.content.get(&query, Lang::Sw));
    let addresses = |loaded: Result<crate::content::Loaded, _>| -> Vec<(u32, Option<String>, String)> {
        match loaded {
            Ok(loaded) => loaded
                .value
                .as_deref()
                .and_then(ContentValue::list)
                .map(|list| list.items().into_iter().map(|item| (item.id(), item.document_id().map(str::to_owned), item.slug().to_owned())).collect())
                .unwrap_or_default(),
            Err(error) => {
                tracing::warn!(%error, collection = collection.api_name(), "sitemap: collection unavailable");
                Vec::new()
            }
        }
    };
    let sw = addresses(sw);
    addresses(en)
        .into_iter()
        .map(|(id, document, slug)| {
            // The same entry in Swahili: the same document (Strapi 5), else the same id.
            let same = |(other_id, other_document, _): &&(u32, Option<String>, String)| match (&document, other_document) {
                (Some(document), Some(other)) => document == other,
                _ => *other_id == id,
            };
            let (sw_id, sw_slug) = sw.iter().find(same).map_or((id, slug.as_str()), |(sw_id, _, sw_slug)| (*sw_id, sw_slug.as_str()));
            let (id, sw_id) = (id.to_string(), sw_id.to_string());
            Entry { en: route.href(&[("id", &id), ("slug", &slug)]), sw: route.href(&[("id", &sw_id), ("slug", sw_slug)]) }
        })
        .collect()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
