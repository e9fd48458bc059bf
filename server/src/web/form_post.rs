//! Endpoints that a script calls and an HTML form posts to alike (the
//! account area works without JavaScript). Handlers answer a [`Reply`] and
//! never know which kind they served: [`layer`] reads the [`Caller`] from
//! the request before them, and turns the answer to a form post into a 303
//! back to the page, its notice kept for that page in the flash cookie.
//!
//! `Caller` is who calls an API endpoint (language, form or script, where
//! a form goes back to); `account::Visit` is something else, the sessions
//! a page request carries.

use axum::body::Body;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use contract::Lang;

use super::posted::Posted;
use super::submitted::is_form;
use super::{Notice, NoticeKey, RedirectTo, Reply, Site, body_limit, flash, visitor_lang};

/// Who is asking, read once from the request by [`layer`]: handlers take
/// it as an extractor.
#[derive(Debug, Clone)]
pub struct Caller {
    pub lang: Lang,
    /// An HTML form post (no JavaScript): answered with a redirect.
    pub form: bool,
    /// Where a form goes back to: a path of this site, or `None`.
    pub return_to: Option<String>,
}

impl Caller {
    /// The address of `path` in the caller's language.
    pub fn href(&self, path: &str) -> String {
        self.lang.href(path)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts.extensions.get::<Caller>().cloned().unwrap_or_else(|| Caller {
            lang: visitor_lang(&parts.headers, None),
            form: false,
            return_to: None,
        }))
    }
}

/// What [`layer`] needs: the site, for the flash cookie, and how long a
/// body may be.
#[derive(Clone)]
pub struct FormPosts {
    pub site: Site,
    pub body_limit: usize,
}

/// Reads the whole body (at most `limit`) and the caller from it.
async fn read_caller(request: Request, limit: usize) -> Result<(Caller, Request), StatusCode> {
    let (mut parts, body) = request.into_parts();
    let form = is_form(&parts.headers);
    let bytes = body_limit::read(body, limit).await?;
    let posted = Posted::of(&mut parts, &bytes).await;
    let caller =
        Caller { lang: visitor_lang(&parts.headers, posted.lang.as_deref()), form, return_to: posted.return_to };
    Ok((caller, Request::from_parts(parts, Body::from(bytes))))
}

/// The middleware. Before: the caller read from the request. After:
/// `no-store` unless the handler said otherwise (answers depend on the
/// session or come from the operator), and a form's answer turned into a
/// redirect with its notice as the flash cookie.
pub async fn layer(State(posts): State<FormPosts>, request: Request, next: Next) -> Response {
    let (caller, mut request) = match read_caller(request, posts.body_limit).await {
        Ok(read) => read,
        // Not a form a visitor filled in (or a body cut short): told so
        // plainly, not redirected.
        Err(status) => return Reply::refused_key(status, NoticeKey::BadRequest).into_response(),
    };
    request.extensions_mut().insert(caller.clone());
    let mut response = next.run(request).await;
    response.headers_mut().entry(header::CACHE_CONTROL).or_insert(HeaderValue::from_static("no-store"));
    answer_form(&posts.site, &caller, response)
}

/// A form posted without JavaScript that needs correcting: its page, at
/// `path` in `lang`, goes back to the visitor with `form` on it (what was
/// typed, what is wrong), rendered by the page layer around the form's
/// route (`pages::form`).
#[derive(Clone)]
pub struct PageSentBack {
    pub lang: Lang,
    pub path: String,
    pub form: contract::page::FormState,
}

/// What a [`Reply`] leaves for [`layer`] to make a form's redirect of.
#[derive(Clone)]
pub(super) struct FormAnswer {
    pub notice: Option<Notice>,
    pub redirect: Option<String>,
    pub back_query: QueryEdits,
}

/// A form post's answer: a 303 to where the answer or the form says, the
/// notice kept for that page. A script's answer is left as it is.
fn answer_form(site: &Site, caller: &Caller, mut response: Response) -> Response {
    let Some(answer) = response.extensions_mut().remove::<FormAnswer>() else { return response };
    if !caller.form {
        return response;
    }
    let back = answer.redirect.or_else(|| Some(with_query(caller.return_to.as_deref()?, &answer.back_query)));
    let back = back.unwrap_or_else(|| caller.href("/"));
    let (mut parts, _) = response.into_parts();
    parts.headers.remove(header::CONTENT_TYPE);
    parts.headers.remove(header::CONTENT_LENGTH);
    let mut response = see_other(site, &back, answer.notice.as_ref(), parts.headers);
    *response.extensions_mut() = parts.extensions;
    response
}

/// A 303 to `back` (a path of the site) with `headers` (the answer's
/// cookies), leaving `notice` for the page there in the flash cookie.
pub fn see_other(site: &Site, back: &str, notice: Option<&Notice>, mut headers: HeaderMap) -> Response {
    headers.insert(header::LOCATION, RedirectTo::site(back).header());
    if let Some(notice) = notice {
        flash::leave(site, notice, &mut headers);
    }
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::SEE_OTHER;
    *response.headers_mut() = headers;
    response
}

/// Query parameters a form's way back sets (`Some`) or removes (`None`).
pub(super) type QueryEdits = Vec<(String, Option<String>)>;

pub(super) fn query_edits(edits: &[(&str, Option<&str>)]) -> QueryEdits {
    edits.iter().map(|(name, value)| ((*name).to_owned(), value.map(str::to_owned))).collect()
}

/// `address` (a path with or without a query) with `edits` made to its
/// query: each named parameter set (`Some`) or removed (`None`), the others
/// kept as they were.
fn with_query(address: &str, edits: &QueryEdits) -> String {
    if edits.is_empty() {
        return address.to_owned();
    }
    let (path, query) = address.split_once('?').unwrap_or((address, ""));
    let mut pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).unwrap_or_default();
    pairs.retain(|(name, _)| !edits.iter().any(|(edited, _)| edited == name));
    pairs.extend(edits.iter().filter_map(|(name, value)| Some((name.clone(), value.clone()?))));
    match serde_urlencoded::to_string(&pairs) {
        Ok(query) if !query.is_empty() => format!("{path}?{query}"),
        _ => path.to_owned(),
    }
}
