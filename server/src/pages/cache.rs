//! Rendered pages for anonymous visitors, kept once per (address, content
//! versions) and precompressed, with a strong `ETag` per encoding. Content
//! that changes gets a new version, so a stale page is never served for it;
//! the webhook also drops pages built from content it invalidates.

use std::hash::{Hash, Hasher};
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use contract::Lang;

use crate::assets::accepts;

pub struct CachedPage {
    pub status: StatusCode,
    pub lang: Lang,
    identity: Bytes,
    br: Bytes,
    gzip: Bytes,
    etag: String,
    /// Content versions the page was built from.
    versions: Vec<u64>,
}

impl CachedPage {
    pub fn new(status: StatusCode, lang: Lang, html: String, versions: Vec<u64>) -> CachedPage {
        let identity = Bytes::from(html);
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        identity.hash(&mut hasher);
        CachedPage {
            status,
            lang,
            br: Bytes::from(brotli(&identity)),
            gzip: Bytes::from(gzip(&identity)),
            identity,
            etag: format!("{:016x}", hasher.finish()),
            versions,
        }
    }

    fn weight(&self) -> u32 {
        (self.identity.len() + self.br.len() + self.gzip.len()).try_into().unwrap_or(u32::MAX)
    }

    /// The page in the best encoding the request accepts, or 304 when its
    /// `If-None-Match` names this page.
    pub fn respond(&self, request: &HeaderMap, cache_control: &str) -> Response {
        let (body, encoding) = if accepts(request, "br") {
            (self.br.clone(), Some("br"))
        } else if accepts(request, "gzip") {
            (self.gzip.clone(), Some("gzip"))
        } else {
            (self.identity.clone(), None)
        };
        let etag = match encoding {
            Some(encoding) => format!("\"{}-{encoding}\"", self.etag),
            None => format!("\"{}\"", self.etag),
        };
        let mut headers = HeaderMap::new();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
        headers.insert(header::CONTENT_LANGUAGE, HeaderValue::from_static(self.lang.code()));
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_str(cache_control).expect("cache-control"));
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        headers.insert(header::ETAG, HeaderValue::from_str(&etag).expect("etag"));
        if self.matches(request) {
            return (StatusCode::NOT_MODIFIED, headers).into_response();
        }
        if let Some(encoding) = encoding {
            headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
        }
        if self.status.is_server_error() {
            // The page frame without its content (spec §8): not for indexes, try again soon.
            headers.insert(header::RETRY_AFTER, HeaderValue::from_static("30"));
            headers.insert("x-robots-tag", HeaderValue::from_static("noindex"));
        }
        (self.status, headers, body).into_response()
    }

    /// `If-None-Match` naming this page in any encoding.
    fn matches(&self, request: &HeaderMap) -> bool {
        request
            .get_all(header::IF_NONE_MATCH)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(|tag| tag.trim().trim_start_matches("W/").trim_matches('"'))
            .any(|tag| tag == "*" || tag.split('-').next() == Some(self.etag.as_str()))
    }
}

fn brotli(input: &[u8]) -> Vec<u8> {
    let mut output = Vec::with_capacity(input.len() / 4);
    {
        let mut writer = ::brotli::CompressorWriter::new(&mut output, 4096, 9, 22);
        writer.write_all(input).expect("compress to memory");
    }
    output
}

fn gzip(input: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::with_capacity(input.len() / 3), flate2::Compression::best());
    encoder.write_all(input).expect("compress to memory");
    encoder.finish().expect("compress to memory")
}

#[derive(Clone)]
pub struct PageCache {
    pages: moka::future::Cache<String, Arc<CachedPage>>,
}

impl PageCache {
    pub fn new(capacity_bytes: u64, lifetime: Duration) -> PageCache {
        let pages = moka::future::Cache::builder()
            .max_capacity(capacity_bytes)
            .weigher(|_: &String, page: &Arc<CachedPage>| page.weight())
            .time_to_live(lifetime)
            .support_invalidation_closures()
            .build();
        PageCache { pages }
    }

    pub fn key(url: &str, versions: &[u64]) -> String {
        let versions: Vec<String> = versions.iter().map(u64::to_string).collect();
        format!("{url}#{}", versions.join("."))
    }

    /// The cached page, or the one `render` builds; concurrent requests for a
    /// missing page share one render (and its error).
    pub async fn get_or_render<E: Clone + Send + Sync + 'static>(
        &self,
        key: String,
        render: impl Future<Output = Result<CachedPage, E>>,
    ) -> Result<Arc<CachedPage>, E> {
        self.pages
            .try_get_with(key, async { render.await.map(Arc::new) })
            .await
            .map_err(|error| (*error).clone())
    }

    /// Drops every page built from one of `versions`.
    pub fn drop_versions(&self, versions: Vec<u64>) {
        if versions.is_empty() {
            return;
        }
        let _ = self.pages.invalidate_entries_if(move |_, page| page.versions.iter().any(|v| versions.contains(v)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_in_the_accepted_encoding_and_revalidates() {
        let page = CachedPage::new(StatusCode::OK, Lang::Sw, "<p>habari</p>".repeat(100), vec![1]);
        let mut request = HeaderMap::new();
        request.insert(header::ACCEPT_ENCODING, HeaderValue::from_static("gzip"));
        let response = page.respond(&request, "public, max-age=0");
        assert_eq!(response.headers()[header::CONTENT_ENCODING], "gzip");
        assert_eq!(response.headers()[header::CONTENT_LANGUAGE], "sw");
        let etag = response.headers()[header::ETAG].clone();
        request.insert(header::IF_NONE_MATCH, etag);
        assert_eq!(page.respond(&request, "public").status(), StatusCode::NOT_MODIFIED);
        request.insert(header::IF_NONE_MATCH, HeaderValue::from_static("\"0000\""));
        assert_eq!(page.respond(&request, "public").status(), StatusCode::OK);
        assert!(page.br.len() < page.identity.len() / 5);
    }
}
