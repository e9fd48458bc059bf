//! Pages as a signed-in subscriber's browser gets them, and the two
//! servers whose pages are compared byte for byte: one putting the
//! subscriber's own part into the page kept for everyone, one rendering
//! the page whole for them.

use std::io::Read;

use reqwest::StatusCode;
use reqwest::header::{ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING};

use super::{TestApp, masking_csrf, spawn_app_with};

/// One public address for servers whose pages are compared: it is in every page.
pub const SITE_URL: &str = "http://site.test";

/// The site as it serves the account page, and the same site rendering it
/// whole for each view, both asking one operator (the first one's sandbox),
/// so both see the same balances.
pub async fn spliced_and_rendered() -> (TestApp, TestApp) {
    let spliced = spawn_app_with(|c| {
        c.site_url = SITE_URL.parse().unwrap();
        c.sessions.otp_resend = std::time::Duration::from_secs(0);
        c.operator.account_cache = std::time::Duration::from_secs(0);
    })
    .await;
    let operator = format!("{}/sandbox/digital/", spliced.address);
    let rendered = spawn_app_with(move |c| {
        c.site_url = SITE_URL.parse().unwrap();
        c.sessions.otp_resend = std::time::Duration::from_secs(0);
        c.operator.account_cache = std::time::Duration::from_secs(0);
        c.pages.account_full_render = true;
        c.operator.url = Some(operator.parse().unwrap());
    })
    .await;
    (spliced, rendered)
}

/// A page as `cookie`'s browser gets it: status, headers, and the HTML
/// (decompressed when it came gzip or brotli).
pub async fn decoded_page(
    app: &TestApp,
    path: &str,
    cookie: &str,
    encoding: &str,
) -> (StatusCode, reqwest::header::HeaderMap, String) {
    let mut request = app.client.get(app.url(path)).header(ACCEPT_ENCODING, encoding);
    if !cookie.is_empty() {
        request = request.header("cookie", cookie);
    }
    let response = request.send().await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    let body = response.bytes().await.unwrap();
    let html = match headers.get(CONTENT_ENCODING).map(|e| e.to_str().unwrap()) {
        Some("gzip") => {
            let mut html = String::new();
            flate2::read::GzDecoder::new(&body[..])
                .read_to_string(&mut html)
                .expect("a whole gzip stream, CRC and length checked");
            html
        }
        Some("br") => {
            let mut html = String::new();
            brotli::Decompressor::new(&body[..], 4096).read_to_string(&mut html).expect("a whole brotli stream");
            html
        }
        None => String::from_utf8(body.to_vec()).unwrap(),
        Some(other) => panic!("{path}: {other}"),
    };
    (status, headers, html)
}

/// A page as `cookie`'s browser gets it: status, `Cache-Control` and the
/// HTML (un-gzipped when it came gzipped), its form tokens masked (a
/// browser that keeps no cookie gets a new one with each page).
pub async fn masked_page(app: &TestApp, path: &str, cookie: &str, encoding: &str) -> (StatusCode, String, String) {
    let (status, headers, html) = decoded_page(app, path, cookie, encoding).await;
    (status, headers[CACHE_CONTROL].to_str().unwrap().to_owned(), masking_csrf(&html))
}

/// Where two pages first differ, for a failure message.
pub fn first_difference(a: &str, b: &str) -> String {
    let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    let around = |s: &str| s.get(at.saturating_sub(80)..(at + 120).min(s.len())).unwrap_or("").to_owned();
    format!("at byte {at}:\nspliced  …{}\nrendered …{}", around(a), around(b))
}
