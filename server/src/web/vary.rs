//! One `Vary` line per answer. Handlers name what their answer depends on
//! (`cookie, x-site-lang`) and compression adds `accept-encoding` as a line
//! of its own; some shared caches (nginx 1.22's) honour only one of them,
//! and would give a Swahili visitor the English copy. So the lines are
//! joined into one, each name once, on the way out.

use axum::http::{HeaderValue, header};
use axum::response::Response;

pub async fn one_line(mut response: Response) -> Response {
    let headers = response.headers_mut();
    if headers.get_all(header::VARY).iter().nth(1).is_none() {
        return response;
    }
    let mut names: Vec<String> = Vec::new();
    for value in headers.get_all(header::VARY) {
        for name in value.to_str().unwrap_or_default().split(',').map(str::trim).filter(|name| !name.is_empty()) {
            if !names.iter().any(|known| known.eq_ignore_ascii_case(name)) {
                names.push(name.to_ascii_lowercase());
            }
        }
    }
    let joined = if names.iter().any(|name| name == "*") { "*".to_owned() } else { names.join(", ") };
    match HeaderValue::from_str(&joined) {
        Ok(value) => {
            headers.insert(header::VARY, value);
        }
        Err(_) => tracing::warn!(vary = joined, "Vary names not a header value; left as they were"),
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn joined(lines: &[&'static str]) -> Vec<String> {
        let mut response = Response::new(axum::body::Body::empty());
        for line in lines {
            response.headers_mut().append(header::VARY, HeaderValue::from_static(line));
        }
        let response = one_line(response).await;
        response.headers().get_all(header::VARY).iter().map(|v| v.to_str().unwrap().to_owned()).collect()
    }

    #[tokio::test]
    async fn every_name_in_one_line_once() {
        assert_eq!(joined(&["cookie, x-site-lang", "accept-encoding"]).await, ["cookie, x-site-lang, accept-encoding"]);
        assert_eq!(joined(&["Accept-Encoding", "accept-encoding, cookie"]).await, ["accept-encoding, cookie"]);
        assert_eq!(joined(&["accept-encoding"]).await, ["accept-encoding"]);
        assert_eq!(joined(&["cookie", "*"]).await, ["*"]);
        assert!(joined(&[]).await.is_empty());
    }
}
