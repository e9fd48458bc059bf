//! What tools nobody here wrote found, each closed: redirects that left the
//! site through path normalisation, `Vary` split over two lines (which
//! shared caches read as one), a request body trickled a byte at a time, a
//! client that pipelines requests and never reads, and the `lang` cookie
//! without `Secure` over https. Raw sockets where a client library would
//! tidy the request up before sending it.

use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::{LOCATION, SET_COOKIE, VARY};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::helpers::{shared_app, spawn_app, spawn_app_with};

/// A `Location` a browser reads as a path of the site that sent it, and
/// that stays one when followed again (dot segments resolved as the browser
/// resolves them: `/.//evil.example/` is the path `//evil.example/`).
fn stays_on_the_site(location: &str) -> bool {
    let site = reqwest::Url::parse("https://site.example/page").unwrap();
    let Ok(followed) = site.join(location) else { return false };
    let path = followed.path().to_ascii_lowercase();
    followed.host_str() == Some("site.example")
        && !path.starts_with("//")
        && !path.starts_with("/%2f")
        && !path.starts_with("/%5c")
}

/// The status line and `Location` of the answer to `request` sent as it is.
async fn raw(address: &str, request: &str) -> (String, Option<String>) {
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await.expect("answered").unwrap();
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer.lines().next().unwrap_or_default().to_owned();
    let location = answer.lines().find_map(|line| {
        line.strip_prefix("location: ").or_else(|| line.strip_prefix("Location: ")).map(str::to_owned)
    });
    (status, location)
}

#[tokio::test]
async fn addresses_that_look_like_another_host_redirect_within_the_site() {
    let app = shared_app().await;
    let address = app.address.trim_start_matches("http://");
    let targets = [
        "//evil.example/",
        "//evil.example?lang=sw&msisdn=0754000001",
        "/\\evil.example/",
        "/%2F/evil.example/",
        "/%5c/evil.example/",
        "/.//evil.example/",
        "/..//evil.example/",
        "/sw//evil.example/",
        "//evil.example/?lang=en",
        "///evil.example//",
    ];
    for target in targets {
        let (status, location) =
            raw(address, &format!("GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).await;
        if let Some(location) = location {
            assert!(stays_on_the_site(&location), "{target} -> {status} {location}");
        }
        assert!(!status.contains(" 5"), "{target} -> {status}");
    }
}

#[tokio::test]
async fn return_paths_with_dot_segments_stay_on_the_site() {
    let app = spawn_app().await;
    for return_to in ["/.//evil.example/", "/..//evil.example/", "/%2e//evil.example", "/a/../..//evil.example"] {
        let body = format!("msisdn=0754000010&returnTo={}", return_to.replace('%', "%25"));
        let response = app
            .client
            .post(app.url("/api/modem/check"))
            .header("origin", app.address.as_str())
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::SEE_OTHER, "{return_to}");
        let location = response.headers()[LOCATION].to_str().unwrap();
        assert!(stays_on_the_site(location), "{return_to} -> {location}");
    }
}

#[tokio::test]
async fn an_answer_names_what_it_varies_on_in_one_line() {
    let app = shared_app().await;
    for path in ["/api/bundles", "/", "/sw/mpesa", "/static/logo.svg"] {
        let response = app.client.get(app.url(path)).header("accept-encoding", "gzip").send().await.unwrap();
        let lines: Vec<_> = response.headers().get_all(VARY).iter().map(|v| v.to_str().unwrap().to_owned()).collect();
        assert!(lines.len() <= 1, "{path}: {lines:?}");
        if path == "/api/bundles" {
            let line = &lines[0];
            assert!(
                line.contains("cookie") && line.contains("x-site-lang") && line.contains("accept-encoding"),
                "{line}"
            );
        }
    }
}

/// One byte every 400 ms of a body of 1,000 bytes, with 2 s for the whole
/// body: the answer (408) comes after about five bytes, not after all of
/// them; a limit that restarted with every byte would never be reached.
#[tokio::test]
async fn a_body_trickled_a_byte_at_a_time_is_cut_at_the_deadline() {
    let app = spawn_app_with(|c| c.connections.body_read_timeout = std::time::Duration::from_secs(2)).await;
    let address = app.address.trim_start_matches("http://").to_owned();
    let stream = TcpStream::connect(&address).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    let head = format!(
        "POST /api/forms/business-community HTTP/1.1\r\nHost: x\r\nOrigin: {}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n",
        app.address
    );
    writer.write_all(head.as_bytes()).await.unwrap();
    let answer = tokio::spawn(async move {
        let mut answer = Vec::new();
        let _ = reader.read_to_end(&mut answer).await;
        answer
    });
    let mut sent = 0;
    while !answer.is_finished() && sent < 40 {
        if writer.write_all(b"a").await.is_err() {
            break;
        }
        sent += 1;
        tokio::time::sleep(Duration::from_millis(400)).await;
    }
    assert!(answer.is_finished(), "still open after {sent} bytes trickled over {} s", sent * 400 / 1000);
    let answer = String::from_utf8_lossy(&answer.await.unwrap()).into_owned();
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
}

/// A client that pipelines requests for a large answer and reads nothing
/// fills the socket's buffers; the server's write then waits for it, and
/// after SEND_TIMEOUT_SECS the connection is closed rather than kept with
/// everything queued on it.
#[tokio::test]
async fn a_client_that_never_reads_is_closed_after_the_send_timeout() {
    let app = spawn_app_with(|c| c.connections.send_timeout = std::time::Duration::from_secs(1)).await;
    let address: std::net::SocketAddr = app.address.trim_start_matches("http://").parse().unwrap();
    let one = app.get("/sitemap.xml").await.bytes().await.unwrap().len();
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stream = socket.connect(address).await.unwrap();
    let requests = 200;
    let request = "GET /sitemap.xml HTTP/1.1\r\nHost: x\r\n\r\n".repeat(requests);
    stream.write_all(request.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_secs(4)).await;
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "the connection was kept open with {} bytes read of {}", answer.len(), one * requests);
    assert!(answer.len() < one * requests, "every answer was sent: nothing waited");
}

#[tokio::test]
async fn over_https_the_language_cookie_is_secure() {
    let app = spawn_app_with(|c| c.site_url = "https://www.example.co.tz".parse().unwrap()).await;
    let response = app.get("/mpesa?lang=sw").await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let cookie = response.headers()[SET_COOKIE].to_str().unwrap();
    assert!(cookie.starts_with("lang=sw") && cookie.contains("Secure") && cookie.contains("SameSite=Lax"), "{cookie}");
    let plain = shared_app().await;
    let cookie = plain.get("/mpesa?lang=sw").await.headers()[SET_COOKIE].to_str().unwrap().to_owned();
    assert!(!cookie.contains("Secure"), "over http a Secure cookie would be dropped: {cookie}");
}
