//! The CMS's preview (Strapi 5's "Open preview"): an editor sees drafts on
//! the site before visitors do.
//!
//! - `GET /api/preview?url=<path>&secret=<secret>&status=draft` (the link
//!   `cms/config/admin.js` builds): the secret is compared in constant time,
//!   and `url` must be a path of this site written as the site writes it
//!   (no scheme, host, `//`, `\`, encoded slashes at its start, dot segments
//!   or control characters); then a preview cookie is set (HttpOnly, an
//!   hour, encrypted with the session key; over https `Secure;
//!   SameSite=None; Partitioned`, so it works inside the CMS admin's frame)
//!   and the browser is sent to `url`. `status=published` clears it, with
//!   no secret (ending a preview gives nothing away), and sends the browser
//!   to `url` the same way.
//! - With the cookie, pages read their content from the CMS with
//!   `status=draft` for each request (past the content cache, its disk,
//!   the page cache and the fast path: nothing read is kept or shown to
//!   anyone else), are answered `private, no-store` and `noindex`, carry
//!   the preview bar with its exit link, and may be framed by the CMS
//!   admin's origin alone ([`crate::security::Framable`]).
//! - Only with `PREVIEW_SECRET` and `CMS_URL` (the embedded content has no
//!   drafts): otherwise the endpoint answers 404 and the cookie means nothing.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::extract::{FromRef, RawQuery, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum_extra::extract::PrivateCookieJar;
use axum_extra::extract::cookie::{Cookie, Key, SameSite};
use contract::Lang;
use contract::page::PagePreview;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::config::Secret;
use crate::content::{Content, ContentSource};
use crate::manifest::RouteTable;
use crate::security;
use crate::web::{RedirectTo, Reply};
use contract::content::Collection;

/// How long a preview lasts once the CMS's link opened it.
const LIFETIME: Duration = Duration::from_secs(60 * 60);

/// Where the endpoint answers.
pub const PATH: &str = "/api/preview";

/// The cookie's name: with `__Host-` over https, so no subdomain can set it.
pub fn cookie_name(https: bool) -> &'static str {
    if https { "__Host-preview" } else { "preview" }
}

/// Whether `name` is the preview cookie's (either name).
pub fn reads_cookie(name: &str) -> bool {
    name == cookie_name(true) || name == cookie_name(false)
}

/// The preview, when `PREVIEW_SECRET` and `CMS_URL` are set.
#[derive(Clone)]
pub struct Preview {
    secret: Secret,
    https: bool,
    /// The CMS admin's origin: the one page that may frame a preview.
    admin_origin: String,
    /// The site's policy with that origin in `frame-ancestors`.
    csp: HeaderValue,
    content: Content,
}

impl Preview {
    /// The preview of `content`'s CMS, its drafts read from `drafts`;
    /// `None` without a secret or a CMS, or with an admin address that is
    /// no origin (logged).
    pub fn new(
        config: &crate::config::Config,
        content: &Content,
        drafts: Option<Arc<dyn ContentSource>>,
    ) -> Option<Preview> {
        let secret = config.cms.preview_secret.clone().filter(|secret| !secret.expose().is_empty())?;
        let drafts = drafts?;
        let admin = config.cms.admin_url.as_ref().or(config.cms.url.as_ref())?;
        let admin_origin = admin.origin();
        let Some(csp) = security::policy(config, &admin_origin) else {
            tracing::error!(admin = %admin, "CMS_ADMIN_URL (or CMS_URL) is no origin a header can name: no preview");
            return None;
        };
        let timeout = config.cms.timeout;
        Some(Preview {
            secret,
            https: config.is_https(),
            admin_origin,
            csp,
            content: content.previewing(drafts, timeout),
        })
    }

    /// The drafts, as pages read them during a preview.
    pub fn content(&self) -> &Content {
        &self.content
    }

    /// Whether `jar` holds a preview cookie this server made that has not run out.
    pub fn active(&self, jar: &PrivateCookieJar) -> bool {
        jar.get(cookie_name(self.https))
            .and_then(|cookie| cookie.value().parse::<u64>().ok())
            .is_some_and(|until| now_secs() < until)
    }

    /// What the page at `path` in `lang` carries while previewed.
    pub fn page(&self, lang: Lang, path: &str) -> PagePreview {
        let url = lang.href(path);
        let exit = format!(
            "{PATH}?{}",
            serde_urlencoded::to_string([("status", "published"), ("url", url.as_str())]).unwrap_or_default()
        );
        PagePreview { exit, admin_origin: self.admin_origin.clone() }
    }

    /// A previewed page's answer: kept by no cache, indexed by no search
    /// engine, framed by the CMS admin alone.
    pub fn respond(&self, mut response: Response) -> Response {
        let headers = response.headers_mut();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-store"));
        headers.insert(header::HeaderName::from_static("x-robots-tag"), HeaderValue::from_static("noindex"));
        headers.insert(header::CONTENT_SECURITY_POLICY, self.csp.clone());
        headers.append(header::VARY, HeaderValue::from_static("cookie"));
        headers.remove(header::ETAG);
        response.extensions_mut().insert(security::Framable);
        response
    }

    fn cookie(&self, value: String) -> Cookie<'static> {
        Cookie::build((cookie_name(self.https), value))
            .path("/")
            .http_only(true)
            .secure(self.https)
            // Inside the admin's frame the site is a third party: only
            // `None` is sent there, and browsers take it over https alone.
            .same_site(if self.https { SameSite::None } else { SameSite::Lax })
            .partitioned(self.https)
            .max_age(cookie::time::Duration::seconds(LIFETIME.as_secs() as i64))
            .build()
    }

    fn secret_matches(&self, given: &str) -> bool {
        // Digests first: the comparison takes as long whatever the lengths.
        Sha256::digest(given.as_bytes()).ct_eq(&Sha256::digest(self.secret.expose().as_bytes())).into()
    }
}

fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_secs())
}

/// `url` if it is a path of this site as the site writes it: what
/// [`RedirectTo::site`] leaves as it is, with no control character, even
/// percent-encoded. Anything else (`//host`, `/\host`, `https://host`,
/// `/%2F%2Fhost`, `/a/../b`) is refused rather than mended.
fn site_path(url: &str) -> Option<&str> {
    let decoded = percent_encoding::percent_decode_str(url).decode_utf8_lossy();
    let controls = decoded.chars().any(char::is_control);
    (url.starts_with('/') && !controls && RedirectTo::site(url).as_str() == url).then_some(url)
}

/// Where each content type of the CMS is seen on the site, for its preview
/// link (`cms/config/admin.js`): by API id, the path of the first route
/// showing it (a single type's page, a collection's item page with its
/// `:id` and `:slug?`, else its list), English; the sidebar and popups
/// show on the home page.
pub fn paths(routes: &RouteTable) -> serde_json::Value {
    let mut paths = serde_json::Map::new();
    let mut claim = |api: &str, path: &str| {
        paths.entry(api.to_owned()).or_insert_with(|| path.into());
    };
    claim(contract::cms::SIDEBAR, "/");
    claim(contract::cms::POPUPS, "/");
    let shown = routes.all().iter().filter(|route| route.redirect.is_none() && !route.meta.requires_auth);
    for route in shown.clone() {
        if let Some(collection) = route.item {
            claim(collection.api_name(), &route.path);
        }
    }
    for route in shown {
        // A page's own path: its optional parts left out, none required.
        let segments: Vec<&str> =
            route.path.split('/').filter(|segment| !(segment.starts_with(':') && segment.ends_with('?'))).collect();
        if segments.iter().any(|segment| segment.starts_with(':') || segment.contains('*')) {
            continue;
        }
        let path = match segments.join("/") {
            path if path.is_empty() => "/".to_owned(),
            path => path,
        };
        for api in [
            route.content.as_deref(),
            route.all.map(Collection::api_name),
            route.list.as_ref().map(|list| list.collection.api_name()),
        ]
        .into_iter()
        .flatten()
        {
            claim(api, &path);
        }
    }
    serde_json::Value::Object(paths)
}

pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Option<Preview>: FromRef<S>,
    Key: FromRef<S>,
{
    Router::new().route(PATH, get(preview))
}

/// `GET /api/preview` (see the module docs).
async fn preview(
    State(preview): State<Option<Preview>>,
    jar: PrivateCookieJar,
    RawQuery(query): RawQuery,
) -> Result<Response, Reply> {
    let Some(preview) = &preview else {
        return Err(Reply::refused_text(
            StatusCode::NOT_FOUND,
            "no preview: PREVIEW_SECRET and CMS_URL are not both set",
        ));
    };
    let refuse = |why: &str| Reply::refused_text(StatusCode::BAD_REQUEST, why);
    let params = serde_urlencoded::from_str::<Vec<(String, String)>>(query.as_deref().unwrap_or_default())
        .map_err(|_| refuse("unreadable query"))?;
    let param = |name: &str| params.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str());
    let url = site_path(param("url").unwrap_or("/")).ok_or_else(|| refuse("url must be a path of this site"))?;
    let mut response = match param("status").unwrap_or("draft") {
        // Removed whether or not the request showed it: a partitioned
        // cookie is not always sent where the exit is followed.
        "published" => {
            let mut removal = preview.cookie(String::new());
            removal.make_removal();
            let mut response = RedirectTo::site(url).see_other();
            response
                .headers_mut()
                .insert(header::SET_COOKIE, HeaderValue::from_str(&removal.to_string()).expect("a cookie of ours"));
            response
        }
        "draft" if preview.secret_matches(param("secret").unwrap_or_default()) => {
            let until = now_secs() + LIFETIME.as_secs();
            (jar.add(preview.cookie(until.to_string())), RedirectTo::site(url).see_other()).into_response()
        }
        "draft" => return Err(Reply::refused_text(StatusCode::UNAUTHORIZED, "wrong secret")),
        _ => return Err(refuse("status must be draft or published")),
    };
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::site_path;

    #[test]
    fn only_a_path_of_this_site_is_a_preview_url() {
        for good in ["/", "/sw", "/news-events/12/a-story", "/vodacom-business/large?services=iot"] {
            assert_eq!(site_path(good), Some(good), "{good}");
        }
        for bad in [
            "//evil.example",
            "/\\evil.example",
            "https://evil.example",
            "evil.example",
            "/%2F%2Fevil.example",
            "/%2f/evil",
            "/a/../b",
            "/./x",
            "/x\r\nSet-Cookie: a=b",
            "/x%0d%0aa",
            "/x%00",
            "javascript:alert(1)",
            "",
        ] {
            assert_eq!(site_path(bad), None, "{bad:?}");
        }
    }
}
