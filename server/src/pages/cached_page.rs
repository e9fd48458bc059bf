//! A rendered page as it is kept: its HTML precompressed (brotli, gzip),
//! with a strong `ETag` per encoding, and how it answers a request: in the
//! best encoding accepted, 304 when revalidated, marked [`ForEveryone`] for
//! the fast path when it is the same for every anonymous visitor, or with a
//! signed-in visitor's own parts put in (`splice`).

use std::hash::{Hash, Hasher};
use std::io::Write;
use std::time::{Instant, SystemTime};

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use contract::Lang;
use contract::page::AccountControls;

use super::disk;
use super::refresh::Refreshed;
use super::splice::{OwnParts, Splice};
use crate::assets::accepts;
use crate::content::Source;
use crate::web::etag;

/// The cache policy of an answer for one visitor alone.
pub const PRIVATE: &str = "private, no-store";
/// The cache policy of a page for earlier content while its new copy
/// renders: browsers and shared caches ask again next time.
pub const STALE: &str = "no-cache";

/// The cache policy of a page for everyone (and its data): browsers
/// revalidate (cheap, by `ETag`), a CDN keeps it as long as the content
/// cache does and may serve it stale the same way.
pub fn public_cache_control(config: &crate::config::Config) -> String {
    format!(
        "public, max-age=0, s-maxage={fresh}, stale-while-revalidate={fresh}, stale-if-error={stale}",
        fresh = config.content.ttl.as_secs(),
        stale = config.content.stale_if_error.as_secs()
    )
}

/// Marks a page answer as the same for every anonymous visitor: its body,
/// for the fast path to keep, and for a copy from earlier content how long
/// it may be.
#[derive(Clone)]
pub struct ForEveryone {
    pub body: Bytes,
    pub stale: Option<Stale>,
}

/// A page served for content that has changed since, while its page for
/// the new content renders in the background.
#[derive(Clone)]
pub struct Stale {
    /// When the newer content was first asked for: the copy is served
    /// `PAGE_STALE_MAX_SECS` after it at most.
    pub superseded: Instant,
    /// Whether the page for the new content has been rendered since.
    pub refreshed: Refreshed,
}

/// A page for everyone as the page cache gives it: the page, and while it
/// is the copy from earlier content (its new one rendering), that.
pub struct Kept {
    pub page: std::sync::Arc<CachedPage>,
    pub stale: Option<Stale>,
}

impl Kept {
    /// The page answered to an anonymous visitor: kept by shared caches as
    /// `public` says, unless it is a stale copy (kept by no other cache: its
    /// new copy is on its way; the fast path serves it again, headers and
    /// all, until then, within the bound) or a page whose content failed,
    /// which says so to no cache (the next visitor may get it whole).
    pub fn respond_for_everyone(self, request: &HeaderMap, public: &str) -> Response {
        let cache_control = match &self.stale {
            Some(_) => STALE,
            None if self.page.status.is_server_error() => "no-store",
            None => public,
        };
        self.page.respond_for_everyone(request, cache_control, self.stale)
    }
}

/// A page kept compressed only: its plain HTML, about three times its gzip
/// body and wanted by few clients, is inflated from gzip when asked for
/// ([`CachedPage::identity`]), so the page cache holds twice the pages in
/// the same bytes.
pub struct CachedPage {
    pub status: StatusCode,
    pub lang: Lang,
    br: Bytes,
    gzip: Bytes,
    etag: String,
    /// Content versions the page was built from.
    versions: Vec<u64>,
    /// How a signed-in subscriber's own parts go in, for a page for everyone.
    splice: Option<Splice>,
    /// What the CMS names the content it is built from; none for a page
    /// not kept on disk.
    sources: Vec<Source>,
    /// The header's account control it was rendered with, from which
    /// `splice` is found again in a page read back from disk.
    controls: Option<AccountControls>,
}

impl CachedPage {
    /// The page `html`, ready for signed-in visitors' own parts too where
    /// `splice` finds their places in it.
    pub fn new(
        status: StatusCode,
        lang: Lang,
        html: String,
        versions: Vec<u64>,
        splice: impl FnOnce(&[u8]) -> Option<Splice>,
    ) -> CachedPage {
        let identity = html.into_bytes();
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        identity.hash(&mut hasher);
        CachedPage {
            status,
            lang,
            br: Bytes::from(brotli(&identity)),
            gzip: Bytes::from(gzip(&identity)),
            splice: splice(&identity),
            etag: format!("{:016x}", hasher.finish()),
            versions,
            sources: Vec::new(),
            controls: None,
        }
    }

    /// This page, built from the content `sources` names, with the account
    /// control `controls`: what a page kept on disk needs.
    pub fn built_from(self, sources: Vec<Source>, controls: Option<AccountControls>) -> CachedPage {
        CachedPage { sources, controls, ..self }
    }

    /// The page the disk kept (see `disk`); `None` when its gzip body does
    /// not inflate. Blocking: call it on the blocking pool.
    pub fn restore(read: disk::Read) -> Option<CachedPage> {
        let disk::Read { header, br, gzip } = read;
        let identity = inflate(&gzip)?;
        let splice = header.controls.as_ref().and_then(|controls| super::splice::prepare(&identity, controls));
        Some(CachedPage {
            status: StatusCode::from_u16(header.status).ok()?,
            lang: header.lang,
            br,
            gzip,
            etag: header.etag,
            versions: header.versions,
            splice,
            sources: header.sources,
            controls: header.controls,
        })
    }

    /// What the disk keeps of this page, for `address` under `key`, built
    /// from content the CMS gave at `confirmed`; `None`
    /// for a page it does not keep: an error, or one built from no CMS
    /// content (the account page's templates).
    pub fn to_disk(&self, address: &str, key: &str, confirmed: SystemTime) -> Option<(disk::Header, Bytes, Bytes)> {
        if self.status != StatusCode::OK || self.sources.is_empty() {
            return None;
        }
        let header = disk::Header {
            address: address.to_owned(),
            key: key.to_owned(),
            status: self.status.as_u16(),
            lang: self.lang,
            etag: self.etag.clone(),
            versions: self.versions.clone(),
            controls: self.controls.clone(),
            sources: self.sources.clone(),
            confirmed: disk::epoch_secs(confirmed),
            br: self.br.len(),
            gzip: self.gzip.len(),
        };
        Some((header, self.br.clone(), self.gzip.clone()))
    }

    /// Whether a signed-in subscriber can be served this page with their own parts.
    pub fn spliceable(&self) -> bool {
        self.splice.is_some()
    }

    /// The page's HTML.
    pub fn html(&self) -> String {
        String::from_utf8(self.identity().into()).unwrap_or_default()
    }

    /// The page's plain body, inflated from its gzip body (some 0.1 ms for
    /// a page of 30 KB); empty, logged, if it does not inflate, which a
    /// body this process compressed always does.
    fn identity(&self) -> Bytes {
        inflate(&self.gzip).map(Bytes::from).unwrap_or_else(|| {
            tracing::error!(etag = %self.etag, "a cached page's gzip body does not inflate");
            Bytes::new()
        })
    }

    /// The bytes this page holds: its bodies, splice pieces, `ETag` and versions.
    pub fn bytes(&self) -> usize {
        let bodies = self.bodies() + self.splice.as_ref().map_or(0, Splice::weight);
        bodies + self.etag.len() + 8 * self.versions.len()
    }

    /// Its bodies' bytes.
    pub fn bodies(&self) -> usize {
        self.br.len() + self.gzip.len()
    }

    /// The page in the best encoding the request accepts, or 304 when its
    /// `If-None-Match` names this page in that encoding.
    pub fn respond(&self, request: &HeaderMap, cache_control: &str) -> Response {
        self.respond_as(request, cache_control).0
    }

    /// The same for every anonymous visitor: marked [`ForEveryone`] when it is
    /// answered whole, for the fast path to keep (a [`Stale`] copy while it
    /// is one).
    pub fn respond_for_everyone(&self, request: &HeaderMap, cache_control: &str, stale: Option<Stale>) -> Response {
        let (mut response, body) = self.respond_as(request, cache_control);
        if let Some(body) = body {
            response.extensions_mut().insert(ForEveryone { body, stale });
        }
        response
    }

    /// The answer, and its body when it is the page whole (not a 304).
    fn respond_as(&self, request: &HeaderMap, cache_control: &str) -> (Response, Option<Bytes>) {
        let (body, encoding) = if accepts(request, "br") {
            (self.br.clone(), Some("br"))
        } else if accepts(request, "gzip") {
            (self.gzip.clone(), Some("gzip"))
        } else {
            (self.identity(), None)
        };
        let etag = etag::tag(&self.etag, encoding);
        let mut headers = HeaderMap::new();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
        headers.insert(header::CONTENT_LANGUAGE, HeaderValue::from_static(self.lang.code()));
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_str(cache_control).expect("cache-control"));
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        let matched = etag::none_match(request, &etag);
        headers.insert(header::ETAG, etag);
        if matched {
            return ((StatusCode::NOT_MODIFIED, headers).into_response(), None);
        }
        if let Some(encoding) = encoding {
            headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
        }
        if self.status.is_server_error() {
            // The page frame without its content: not for indexes, try again soon.
            headers.insert(header::RETRY_AFTER, HeaderValue::from_static("30"));
            headers.insert("x-robots-tag", HeaderValue::from_static("noindex"));
        }
        ((self.status, headers, body.clone()).into_response(), Some(body))
    }

    /// This page for a signed-in visitor, with `own` parts: brotli or gzip
    /// when accepted, for them alone (`private, no-store`, no `ETag`).
    /// `None` when the page cannot take them.
    pub fn respond_own(&self, request: &HeaderMap, own: &OwnParts) -> Option<Response> {
        let splice = self.splice.as_ref()?;
        let mut headers = HeaderMap::new();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
        headers.insert(header::CONTENT_LANGUAGE, HeaderValue::from_static(self.lang.code()));
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(PRIVATE));
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding, cookie"));
        let body = if accepts(request, "br") {
            headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("br"));
            splice.brotli(|| self.identity(), own)
        } else if accepts(request, "gzip") {
            headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            splice.gzip(own)
        } else {
            splice.identity(&self.identity(), own)
        };
        if self.status.is_server_error() {
            headers.insert(header::RETRY_AFTER, HeaderValue::from_static("30"));
            headers.insert("x-robots-tag", HeaderValue::from_static("noindex"));
        }
        Some((self.status, headers, body).into_response())
    }
}

const BROTLI_QUALITY: u32 = 10;
/// A window of 64 KiB at least (most pages fit whole), 4 MiB at most.
const BROTLI_MIN_WINDOW_BITS: u32 = 16;
const BROTLI_MAX_WINDOW_BITS: u32 = 22;

/// Brotli at quality 10, with a window just wide enough for the page.
///
/// Quality 9 (this code's earlier choice) makes the encoder allocate and
/// zero a 32 MB hash table for every page whatever its size: about 7 ms of
/// a 25 KB page's 7.4 ms, and, on a server rendering pages again all day
/// for a newsroom, 32 MB freed and taken again by each compressing thread,
/// which the allocator keeps resident. Quality 10 (a binary-tree match
/// finder sized by the window) takes about as long, 2–4 MB, and its pages
/// are 10% smaller (measured on the home, news, M-Pesa, FAQ, business,
/// devices and search pages: 34.7 against 38.4 KB in all).
fn brotli(input: &[u8]) -> Vec<u8> {
    let mut output = Vec::with_capacity(input.len() / 4);
    {
        let window_bits =
            (usize::BITS - input.len().leading_zeros()).clamp(BROTLI_MIN_WINDOW_BITS, BROTLI_MAX_WINDOW_BITS);
        let mut writer = ::brotli::CompressorWriter::new(&mut output, 4096, BROTLI_QUALITY, window_bits);
        writer.write_all(input).expect("compress to memory");
    }
    fitted(output)
}

fn gzip(input: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::with_capacity(input.len() / 3), flate2::Compression::best());
    encoder.write_all(input).expect("compress to memory");
    fitted(encoder.finish().expect("compress to memory"))
}

/// A gzip body inflated; `None` if it is not gzip.
fn inflate(gzip: &[u8]) -> Option<Vec<u8>> {
    let mut plain = Vec::with_capacity(gzip.len() * 4);
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(gzip), &mut plain).ok()?;
    Some(plain)
}

/// `body` holding no more memory than its bytes: a cache weighs what it
/// keeps by their length, and the room the compressor set aside (a quarter
/// to half the page, for bodies a sixth of it) stayed allocated behind
/// every body it kept, a third more than the cache counted.
pub(super) fn fitted(mut body: Vec<u8>) -> Vec<u8> {
    body.shrink_to_fit();
    body
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_in_the_accepted_encoding_and_revalidates() {
        let page = CachedPage::new(StatusCode::OK, Lang::Sw, "<p>habari</p>".repeat(100), vec![1], |_| None);
        let mut request = HeaderMap::new();
        request.insert(header::ACCEPT_ENCODING, HeaderValue::from_static("gzip"));
        let response = page.respond(&request, "public, max-age=0");
        assert_eq!(response.headers()[header::CONTENT_ENCODING], "gzip");
        assert_eq!(response.headers()[header::CONTENT_LANGUAGE], "sw");
        let etag = response.headers()[header::ETAG].clone();
        request.insert(header::IF_NONE_MATCH, etag.clone());
        assert_eq!(page.respond(&request, "public").status(), StatusCode::NOT_MODIFIED);
        request.insert(header::ACCEPT_ENCODING, HeaderValue::from_static("br, gzip"));
        let br = page.respond(&request, "public");
        assert_eq!(br.status(), StatusCode::OK, "the gzip body's tag does not revalidate the brotli one");
        assert_ne!(br.headers()[header::ETAG], etag);
        request.insert(header::ACCEPT_ENCODING, HeaderValue::from_static("gzip"));
        request.insert(header::IF_NONE_MATCH, HeaderValue::from_static("\"0000\""));
        assert_eq!(page.respond(&request, "public").status(), StatusCode::OK);
        assert!(page.br.len() < page.html().len() / 5);
        request.remove(header::ACCEPT_ENCODING);
        request.remove(header::IF_NONE_MATCH);
        let plain = page.respond(&request, "public");
        assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
        assert_eq!(page.html(), "<p>habari</p>".repeat(100), "inflated from gzip when asked for");
    }
}
