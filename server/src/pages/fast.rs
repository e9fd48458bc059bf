//! The fast path for anonymous pages: `GET` of a page this server has
//! answered before is answered from memory before anything else runs (no
//! content reads, middleware or rendering), with the very status, headers
//! and bytes the full path answered it with.
//!
//! - An entry is made only from a full-path answer that the page handler
//!   marked as the same for everyone ([`ForEveryone`]: an anonymous page,
//!   status 200, from the page cache) and that sets no cookie. It is keyed
//!   by the encoding answered (br, gzip or none) and the address as the page
//!   cache keys it: the path and only the query parameters its route reads
//!   (`services`, `q`), so `?utm_source=…` or any other parameter finds the
//!   same entry.
//! - Addresses no route has (what scanners and random links ask for) all get
//!   the one not-found page of their language, kept once per language and
//!   encoding.
//! - It is the router's fallback, in front of the page handler alone: a
//!   request any other route matched (the API, assets, `/_data`, the
//!   sandbox) never reaches it. It is in front of the layers every answer
//!   shares too (security headers, compression, `Vary`, the request
//!   metrics; `crate::app`), so an entry keeps the headers they gave the
//!   full path's answer and a hit runs none of them: it counts and times
//!   itself in the request metrics ([`request_metrics::count`]).
//! - A request that might be answered differently goes the full way: any
//!   method but `GET`, a conditional request (`If-None-Match`, answered 304
//!   there), a session, flash or preview cookie that decrypts with this server's key
//!   (one that does not is junk the full path ignores too), an address
//!   redirected before any page ([`super::locale::canonical`]: a trailing
//!   slash, a `lang` query parameter, `/` with the language cookie saying
//!   Swahili), or an address longer than the page cache keeps.
//! - It reads every request it sees once, into a [`PageRequest`] that the
//!   page handler takes over.
//! - Invalidated by content: an entry holds the content generation read
//!   before its page was resolved ([`crate::content::Content::generation`],
//!   plus the changes of the bundle catalogue that bundle tables show, and
//!   on the search page the builds of its index), and is served only while
//!   none has changed since; it lives at most
//!   `CONTENT_TTL_SECS`, after which the full path asks the content cache
//!   again (which refreshes what is stale).
//! - Stale while revalidating: when the full path answered a page for
//!   earlier content while its new page renders in the background
//!   ([`super::cache`]), that answer is kept too ([`Stale`]), and served
//!   whatever the generation until its new page has been rendered, and
//!   never longer than `PAGE_STALE_MAX_SECS` after the newer content was
//!   first asked for (the full path's own bound, from the same instant);
//!   then the full path answers again, and the fresh page it answers is
//!   kept. So while a newsroom keeps publishing, an address goes the full
//!   way about twice per new render of it (once to find its content changed
//!   and start the render, once to take the new page), not for every
//!   visitor until the render is in. The stale answer has the very headers
//!   the full path gave it (`Cache-Control: no-cache`), and is counted in
//!   `page_stale_age_seconds` as the full path's are.
//! - `PAGE_CACHE_MB=0` turns it off with the page cache.
//! - A full-path answer says how long the server took (`Server-Timing:
//!   app;dur=…`, not kept in an entry: a hit takes none), so that the page
//!   measures the visitor's link by its first byte without the server's
//!   time (`app/src/enhance/connection.ts`).

use std::convert::Infallible;
use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};
use std::time::Instant;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use futures::future::{BoxFuture, Either, Ready, ready};
use tower::{Service, ServiceExt};

use axum_extra::extract::cookie::Cookie;
use contract::Lang;
use contract::page::PageKind;

use super::cache::MAX_KEY;
use super::cached_page::ForEveryone;
use super::fast_pages::{Key, WholeAnswer};
use super::request::{PageRequest, address};
use crate::assets::accepts;
use crate::state::AppState;
use crate::web::request_metrics::{self, RouteKind};

/// The fast path in front of `pages` (the page handler with the common
/// layers and the request metrics): reads the request ([`PageRequest`],
/// handed on to the page handler), then answers from the kept entries, or
/// runs `pages` and keeps what it marked as the same for everyone.
#[derive(Clone)]
pub struct FastPath<S> {
    state: AppState,
    pages: S,
}

impl<S> FastPath<S> {
    pub fn new(state: AppState, pages: S) -> FastPath<S> {
        FastPath { state, pages }
    }
}

impl<S> Service<Request> for FastPath<S>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Either<Ready<Result<Response, Infallible>>, BoxFuture<'static, Result<Response, Infallible>>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        // `pages` is made ready when it is called (`oneshot`).
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut request: Request) -> Self::Future {
        let started = Instant::now();
        let state = &self.state;
        let page = PageRequest::parse(state, request.uri(), request.headers(), request.extensions());
        let kept = state.pages.fast.kept.as_ref().zip(key(state, &request, &page));
        let search_page = page.route.route.page == Some(PageKind::Search);
        request.extensions_mut().insert(page);
        let Some((kept, (key, status))) = kept else {
            let pages = self.pages.clone();
            return Either::Right(Box::pin(async move {
                let mut response = pages.oneshot(request).await?;
                server_timing(&mut response, started);
                Ok(response)
            }));
        };
        let generation = generation(state, search_page);
        if let Some(entry) = kept.get(&key) {
            let servable = match &entry.stale {
                None => entry.generation == generation,
                Some(stale) => state.pages.fast.still_servable(stale),
            };
            if servable {
                state.pages.fast.hits.fetch_add(1, Ordering::Relaxed);
                fast_hits().increment(1);
                let mut response = Response::new(Body::from(entry.body.clone()));
                *response.status_mut() = entry.status;
                *response.headers_mut() = entry.headers.clone();
                request_metrics::count(RouteKind::Page, entry.status, started.elapsed());
                return Either::Left(ready(Ok(response)));
            }
        }
        let (kept, pages) = (kept.clone(), self.pages.clone());
        Either::Right(Box::pin(async move {
            let mut response = pages.oneshot(request).await?;
            if let Some(ForEveryone { body, stale }) = response.extensions_mut().remove::<ForEveryone>()
                && response.status() == status
                && !response.headers().contains_key(header::SET_COOKIE)
            {
                let entry = WholeAnswer { generation, status, headers: response.headers().clone(), body, stale };
                kept.insert(key, Arc::new(entry));
            }
            server_timing(&mut response, started);
            Ok(response)
        }))
    }
}

/// What an entry is served for while it does not change: the content read,
/// the changes of the bundle catalogue (which bundle tables show), and on
/// the search page the builds of the search index, whose results it shows
/// (a page answered while the first index was being built says so).
/// Counters that only grow, so their sum changes when any of them does.
fn generation(state: &AppState, search_page: bool) -> u64 {
    let index = if search_page { state.content.search.builds() } else { 0 };
    state.content.store.generation() + state.account.catalogue.changes() + index
}

/// `Server-Timing: app;dur=<ms>`: the server's time on a full-path answer.
fn server_timing(response: &mut Response, started: Instant) {
    let millis = started.elapsed().as_secs_f64() * 1000.0;
    if let Ok(value) = HeaderValue::from_str(&format!("app;dur={millis:.1}")) {
        response.headers_mut().insert(HeaderName::from_static("server-timing"), value);
    }
}

/// `page_fast_hits_total`, its handle taken once.
fn fast_hits() -> &'static metrics::Counter {
    static HITS: OnceLock<metrics::Counter> = OnceLock::new();
    HITS.get_or_init(|| {
        crate::telemetry::install();
        metrics::counter!("page_fast_hits_total")
    })
}

/// Whether a cookie may change the answer: a session, flash or preview
/// notice that decrypts with this server's key (the full path answers junk,
/// forged or expired-key cookies with the page for everyone too). The language
/// cookie matters only where it redirects ([`PageRequest::redirect`]).
fn cookies_matter(state: &AppState, headers: &HeaderMap) -> bool {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        // Split and decoded as the full path's cookie jars do.
        .flat_map(Cookie::split_parse_encoded)
        .filter_map(Result::ok)
        .filter(|cookie| crate::account::reads_cookie(cookie.name()) || crate::preview::reads_cookie(cookie.name()))
        .any(|cookie| {
            let name = cookie.name().to_owned();
            let mut jar = cookie::CookieJar::new();
            jar.add_original(cookie.into_owned());
            jar.private(&state.infra.site.cookie_key).get(&name).is_some()
        })
}

/// The key of a request the fast path may answer, and the status its entry
/// is kept with: its encoding and its address as the page cache keys it
/// ([`address`]), or for an address no route has the not-found page of its
/// language (404).
fn key(state: &AppState, request: &Request, page: &PageRequest) -> Option<(Key, StatusCode)> {
    let headers = request.headers();
    if request.method() != Method::GET
        || page.redirect.is_some()
        || request.uri().path_and_query()?.as_str().len() > MAX_KEY
        || headers.contains_key(header::IF_NONE_MATCH)
        || headers.contains_key(header::IF_MODIFIED_SINCE)
        || headers.contains_key(header::RANGE)
        || cookies_matter(state, headers)
    {
        return None;
    }
    let encoding = if accepts(headers, "br") {
        1
    } else if accepts(headers, "gzip") {
        2
    } else {
        0
    };
    if page.route.route.is_unrouted() {
        return Some(((encoding, not_found_key(page.local.lang)), StatusCode::NOT_FOUND));
    }
    Some(((encoding, address(request.uri().path(), &page.query, &page.route.route.query).into()), StatusCode::OK))
}

/// The key of the not-found page in `lang` (no address starts so).
fn not_found_key(lang: Lang) -> Box<str> {
    format!("not found: {}", lang.code()).into()
}
