//! The same-origin guard: state-changing requests are taken only from the
//! site's own pages (CSRF, after OWASP's cheat sheet). The account API, the
//! forms and the sandbox's switches all sit behind it.
//!
//! What a browser says of where a post comes from decides, in this order:
//! `Sec-Fetch-Site` (current browsers), else `Origin` (older ones), else
//! `Referer` (the small engines of cheap phones and proxy browsers, and
//! KaiOS 2.5's Gecko 48, send only that). Same origin: taken; another
//! origin: refused. Where a browser says nothing (Lynx drops the `Referer`
//! of an address with a query; some are told to send none), the browser
//! session's synchronizer token (`csrf`) must come with the post: in the
//! form's hidden field or the scripts' header. Without it the post is
//! refused too, and a form is sent back to its page, which then carries
//! the token, with a notice asking to send it again.

use super::csrf::{self, CsrfToken};
use super::form_post::see_other;
use super::posted::{Posted, is_multipart};
use super::{Notice, NoticeKey, NoticeKind, Reply, Site, body_limit, submitted, visitor_lang};
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::PrivateCookieJar;

/// What the guard reads of a body to find a form's token: more than any
/// form of the site posts (a proposal upload included).
const MAX_BODY: usize = 8 * 1024 * 1024;

/// What a request's headers say of where it comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provenance {
    SameOrigin,
    /// Another site (or a subdomain): refused whatever else it carries.
    CrossSite,
    /// Nothing, or nothing that can be read: the token decides.
    Unknown,
}

impl Provenance {
    /// From `Sec-Fetch-Site`, else `Origin`, else `Referer`, against the
    /// site's own origin `site` (`scheme://host[:port]`).
    pub fn of(headers: &HeaderMap, site: &str) -> Provenance {
        let text = |name| headers.get(name).and_then(|value: &axum::http::HeaderValue| value.to_str().ok());
        if let Some(fetch_site) = text(header::HeaderName::from_static("sec-fetch-site")) {
            return if fetch_site == "same-origin" { Provenance::SameOrigin } else { Provenance::CrossSite };
        }
        // `null`: a privacy-minded context that tells nothing.
        if let Some(origin) = text(header::ORIGIN).filter(|origin| *origin != "null") {
            return if origin == site { Provenance::SameOrigin } else { Provenance::CrossSite };
        }
        match text(header::REFERER).map(url::Url::parse) {
            Some(Ok(referer)) if referer.origin().ascii_serialization() == site => Provenance::SameOrigin,
            Some(Ok(_)) => Provenance::CrossSite,
            Some(Err(_)) | None => Provenance::Unknown,
        }
    }
}

/// The guard: takes a state-changing request whose provenance is the site
/// itself or that carries the browser session's token; refuses the rest.
pub async fn same_origin_only(State(site): State<Site>, request: Request, next: Next) -> Response {
    if matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return next.run(request).await;
    }
    let provenance = Provenance::of(request.headers(), &site.origin);
    if provenance == Provenance::SameOrigin {
        return next.run(request).await;
    }
    let (mut parts, body) = request.into_parts();
    let html_form = submitted::is_form(&parts.headers) || is_multipart(&parts.headers);
    // A form's token is in its body, read whole here and handed on; a script's is in its header.
    let (body, posted) = if html_form {
        match body_limit::read(body, MAX_BODY).await {
            Ok(bytes) => (Body::from(bytes.clone()), Posted::of(&mut parts, &bytes).await),
            Err(status) => return Reply::refused_key(status, NoticeKey::BadRequest).into_response(),
        }
    } else {
        (body, Posted::default())
    };
    let https = site.https;
    let jar = PrivateCookieJar::from_headers(&parts.headers, site.cookie_key.clone());
    if provenance == Provenance::Unknown {
        let presented = csrf::from_header(&parts.headers).or(posted.csrf.as_deref());
        let token = CsrfToken::of(&jar, https);
        if token.zip(presented).is_some_and(|(token, presented)| token.accepts(presented)) {
            return next.run(Request::from_parts(parts, body)).await;
        }
    }
    tracing::warn!(path = %parts.uri.path(), ?provenance, "state-changing request of unknown or other origin refused");
    let key = if provenance == Provenance::CrossSite { NoticeKey::CrossSite } else { NoticeKey::SendAgain };
    let notice = Notice::key(NoticeKind::Error, key);
    if !html_form {
        return Reply::refused(StatusCode::FORBIDDEN, notice).into_response();
    }
    // A form goes back to its page, rendered for this browser with its token.
    let lang = visitor_lang(&parts.headers, posted.lang.as_deref());
    let back = posted.return_to.unwrap_or_else(|| lang.href("/"));
    let (_, jar) = CsrfToken::ensure(jar, https);
    (jar, see_other(&site, &back, Some(&notice), HeaderMap::new())).into_response()
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    const SITE: &str = "https://www.vodacom.co.tz";

    type Header<'a> = (&'static str, &'a str);

    fn headers(pairs: &[Header]) -> HeaderMap {
        pairs
            .iter()
            .map(|(name, value)| (header::HeaderName::from_static(name), HeaderValue::from_str(value).unwrap()))
            .collect()
    }

    /// The header sets real browsers send with a form post from the site's
    /// sign-in page, and an attacker's.
    #[test]
    fn what_each_browser_says_decides() {
        let cases: [(&str, &[Header], Provenance); 12] = [
            (
                "Chromium",
                &[
                    ("sec-fetch-site", "same-origin"),
                    ("origin", SITE),
                    ("referer", "https://www.vodacom.co.tz/sw/account"),
                ],
                Provenance::SameOrigin,
            ),
            (
                "Firefox 70-89: Origin, no Sec-Fetch-Site",
                &[("origin", SITE), ("referer", "https://www.vodacom.co.tz/account")],
                Provenance::SameOrigin,
            ),
            (
                "KaiOS 2.5 (Gecko 48): Referer only",
                &[("referer", "https://www.vodacom.co.tz/sw/account")],
                Provenance::SameOrigin,
            ),
            (
                "NetSurf 3.10: Referer only",
                &[("referer", "https://www.vodacom.co.tz/account?bundleId=data-daily-1gb")],
                Provenance::SameOrigin,
            ),
            ("Lynx from an address with a query: nothing", &[], Provenance::Unknown),
            (
                "Lynx from an address without one: Referer",
                &[("referer", "https://www.vodacom.co.tz/account")],
                Provenance::SameOrigin,
            ),
            ("a privacy setting: Origin null", &[("origin", "null")], Provenance::Unknown),
            (
                "attacker, current browser",
                &[("sec-fetch-site", "cross-site"), ("origin", "https://evil.example")],
                Provenance::CrossSite,
            ),
            (
                "attacker, old browser",
                &[("origin", "https://evil.example"), ("referer", "https://evil.example/win")],
                Provenance::CrossSite,
            ),
            ("attacker, Referer only", &[("referer", "https://evil.example/win")], Provenance::CrossSite),
            ("a subdomain", &[("referer", "https://shop.vodacom.co.tz/")], Provenance::CrossSite),
            ("http, not https", &[("referer", "http://www.vodacom.co.tz/account")], Provenance::CrossSite),
        ];
        for (browser, pairs, expected) in cases {
            assert_eq!(Provenance::of(&headers(pairs), SITE), expected, "{browser}");
        }
    }

    #[test]
    fn a_lookalike_referer_is_another_site() {
        for referer in [
            "https://www.vodacom.co.tz.evil.example/",
            "https://www.vodacom.co.tz@evil.example/",
            "https://evil.example/https://www.vodacom.co.tz/",
        ] {
            assert_eq!(Provenance::of(&headers(&[("referer", referer)]), SITE), Provenance::CrossSite, "{referer}");
        }
        assert_eq!(Provenance::of(&headers(&[("referer", "not a url")]), SITE), Provenance::Unknown);
        assert_eq!(
            Provenance::of(&headers(&[("sec-fetch-site", "same-site"), ("origin", SITE)]), SITE),
            Provenance::CrossSite,
            "Sec-Fetch-Site is believed first"
        );
    }
}
