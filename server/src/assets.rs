//! Public files embedded by `build.rs`: hashed client code under `/assets/`
//! (immutable for a year) and files served as they are under `/static/`
//! (an hour, with an `ETag`), and the service worker at `/sw.js` (always
//! revalidated, so a new build reaches browsers at once). Each is sent
//! precompressed when the browser accepts brotli or gzip, with the `ETag` of
//! that encoding (`web::etag`).

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use axum::Router;
use axum::extract::{FromRef, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::web::etag;

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const STATIC: &str = "public, max-age=3600";
const WORKER: &str = "no-cache";

pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    PublicFiles: FromRef<S>,
{
    Router::new()
        .route(
            "/assets/{*path}",
            get(|state, Path(path): Path<String>, headers| serve(state, format!("assets/{path}"), IMMUTABLE, headers)),
        )
        .route(
            "/static/{*path}",
            get(|state, Path(path): Path<String>, headers| serve(state, format!("static/{path}"), STATIC, headers)),
        )
        .route("/sw.js", get(|state, headers| serve(state, "sw.js".to_owned(), WORKER, headers)))
}

struct PublicFile {
    identity: Encoded,
    br: Option<Encoded>,
    gzip: Option<Encoded>,
    content_type: HeaderValue,
}

/// The file in one encoding, and that encoding's tag.
struct Encoded {
    body: &'static [u8],
    etag: HeaderValue,
}

/// Every public file by its path, shared by every handler.
#[derive(Clone)]
pub struct PublicFiles {
    files: Arc<HashMap<&'static str, PublicFile>>,
}

impl PublicFiles {
    pub fn new(files: &'static [(&'static str, &'static [u8])]) -> PublicFiles {
        let twins: HashMap<&str, &'static [u8]> = files.iter().copied().collect();
        let files = files
            .iter()
            .filter(|(path, _)| !path.ends_with(".br") && !path.ends_with(".gz"))
            .map(|&(path, identity)| {
                let mime = mime_guess::from_path(path).first_or_octet_stream();
                let content_type = match mime.type_() {
                    mime_guess::mime::TEXT | mime_guess::mime::APPLICATION if mime.get_param("charset").is_none() => {
                        format!("{mime}; charset=utf-8")
                    }
                    _ => mime.to_string(),
                };
                let mut hasher = std::collections::hash_map::DefaultHasher::new();
                identity.hash(&mut hasher);
                let hash = format!("{:016x}", hasher.finish());
                let twin = |suffix: &str, encoding: &str| {
                    let body = twins.get(format!("{path}.{suffix}").as_str()).copied()?;
                    Some(Encoded { body, etag: etag::tag(&hash, Some(encoding)) })
                };
                let file = PublicFile {
                    identity: Encoded { body: identity, etag: etag::tag(&hash, None) },
                    br: twin("br", "br"),
                    gzip: twin("gz", "gzip"),
                    content_type: HeaderValue::from_str(&content_type).expect("valid content type"),
                };
                (path, file)
            })
            .collect();
        PublicFiles { files: Arc::new(files) }
    }
}

/// The encodings the request accepts, by the order we prefer them.
pub fn accepts(headers: &HeaderMap, encoding: &str) -> bool {
    headers.get_all(header::ACCEPT_ENCODING).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(',')).any(
        |item| {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or("").trim();
            let refused = parts
                .any(|p| matches!(p.trim().strip_prefix("q="), Some(q) if q.parse::<f32>().is_ok_and(|q| q == 0.0)));
            name.eq_ignore_ascii_case(encoding) && !refused
        },
    )
}

async fn serve(State(files): State<PublicFiles>, key: String, cache: &'static str, headers: HeaderMap) -> Response {
    let Some(file) = files.files.get(key.as_str()) else {
        return (StatusCode::NOT_FOUND, [(header::CACHE_CONTROL, "no-store")], "not found").into_response();
    };
    let (encoded, encoding) = match (&file.br, &file.gzip) {
        (Some(br), _) if accepts(&headers, "br") => (br, Some("br")),
        (_, Some(gz)) if accepts(&headers, "gzip") => (gz, Some("gzip")),
        _ => (&file.identity, None),
    };
    // A 304 carries what the 200 would have said of caching, `Vary` too.
    let validators = [
        (header::CACHE_CONTROL, HeaderValue::from_static(cache)),
        (header::ETAG, encoded.etag.clone()),
        (header::VARY, HeaderValue::from_static("accept-encoding")),
    ];
    if etag::none_match(&headers, &encoded.etag) {
        return (StatusCode::NOT_MODIFIED, validators).into_response();
    }
    let mut response = ([(header::CONTENT_TYPE, file.content_type.clone())], validators, encoded.body).into_response();
    if let Some(encoding) = encoding {
        response.headers_mut().insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(value: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT_ENCODING, HeaderValue::from_static(value));
        headers
    }

    #[test]
    fn reads_accept_encoding() {
        assert!(accepts(&with("gzip, deflate, br"), "br"));
        assert!(accepts(&with("gzip;q=0.5"), "gzip"));
        assert!(!accepts(&with("gzip;q=0, br"), "gzip"));
        assert!(!accepts(&with("identity"), "br"));
        assert!(!accepts(&HeaderMap::new(), "gzip"));
    }
}
