use reqwest::StatusCode;
use reqwest::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ETAG, LOCATION, SET_COOKIE};

use std::time::{Duration, Instant};

use crate::helpers::{
    bundle_wrapping_render, counting_bundle, embedded_page_data, fast_hits, render_number, shared_app, slow_bundle,
    spawn_app, spawn_bundle_with,
};

#[tokio::test]
async fn home_is_full_server_rendered_html_in_english() {
    let app = shared_app().await;
    let response = app.get("/").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[CONTENT_TYPE], "text/html; charset=utf-8");
    let csp = response.headers()[CONTENT_SECURITY_POLICY].to_str().unwrap().to_owned();
    assert!(csp.contains("script-src 'self'") && csp.contains("object-src 'none'"), "{csp}");
    let html = response.text().await.unwrap();
    assert!(html.starts_with("<!doctype html><html lang=\"en\">"), "{}", &html[..80]);
    assert!(html.contains("<h1>25 years of connecting Tanzania</h1>"));
    assert!(html.contains(r#"<link rel="canonical" href="http://127.0.0.1"#));
    for lang in ["en", "sw", "x-default"] {
        assert!(html.contains(&format!(r#"rel="alternate" hrefLang="{lang}""#)), "alternate {lang}");
    }
    // A content page: the enhancement script, no React entry, no preloaded chunk.
    assert!(html.contains(r#"<script type="module" src="/assets/enhance-"#));
    assert!(!html.contains(r#"id="island""#) && !html.contains("modulepreload"));
    // No inline executable script: only data blocks and the module by src.
    assert_eq!(crate::helpers::executable_inline_scripts(&html), 0);
    assert_eq!(html.matches(r#"<script type="module" src="#).count(), 1);
    let data = embedded_page_data(&html);
    assert_eq!(data["lang"], "en");
    assert_eq!(data["route"]["name"], "home");
    assert_eq!(data["content"]["page"]["title"], "Home");
}

#[tokio::test]
async fn interactive_pages_hydrate_only_their_island_and_preload_nothing() {
    let app = shared_app().await;
    for path in ["/account", "/sw/vodacom-business/community", "/foundation/apply", "/cpm-login"] {
        let html = app.get(path).await.text().await.unwrap();
        // The enhancement script, as on every page, imports the island's code
        // when the visitor starts its flow: nothing of it is preloaded, and the
        // stylesheet is the head's first subresource, before any script.
        assert!(html.contains(r#"<script type="module" src="/assets/enhance-"#), "{path}");
        assert_eq!(html.matches(r#"<script type="module" src="#).count(), 1, "{path}");
        assert!(!html.contains("modulepreload"), "{path}");
        let head = &html[..html.find("</head>").unwrap()];
        let stylesheet = head.find(r#"<link rel="stylesheet""#).unwrap_or_else(|| panic!("{path}: no stylesheet"));
        assert!(head.find("<script").is_none_or(|script| stylesheet < script), "{path}");
        // The island is the page's part of <main>: the header, menu and footer are outside it.
        let island = html.find(r#"<div id="island">"#).unwrap_or_else(|| panic!("{path}: no island"));
        let main = html.find(r#"<main id="main""#).unwrap();
        let main_end = html.find("</main>").unwrap();
        assert!(main < island && island < main_end, "{path}");
        assert!(html.find(r#"<header class="site-header">"#).unwrap() < main, "{path}");
        // What the island's mount imports is listed as data, for the script to
        // preload on a fast connection: every file of it is served.
        let files = island_files(&html);
        assert!(!files.is_empty(), "{path}: no island files");
        for file in files {
            let response = app.get(&file).await;
            assert_eq!(response.status(), 200, "{path}: {file}");
            assert!(response.headers()["content-type"].to_str().unwrap().contains("javascript"), "{path}: {file}");
        }
    }
    // The same island in the other language: its strings are the one file apart.
    let (en, sw) = (
        island_files(&app.get("/account").await.text().await.unwrap()),
        island_files(&app.get("/sw/account").await.text().await.unwrap()),
    );
    assert_eq!(en.len(), sw.len());
    assert_eq!(en.iter().filter(|file| !sw.contains(file)).count(), 1, "{en:?} {sw:?}");
    let content = app.get("/mpesa").await.text().await.unwrap();
    assert!(!content.contains(r#"id="island""#) && !content.contains("modulepreload"));
    assert!(!content.contains(r#"id="island-files""#));
}

/// The files a page's head lists for its island (none on a page without one).
fn island_files(html: &str) -> Vec<String> {
    let Some(start) = html.find(r#"<script type="application/json" id="island-files">"#) else {
        return Vec::new();
    };
    let json = &html[start..];
    let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
    let files: Vec<String> = serde_json::from_str(json).unwrap();
    assert!(
        files.len() > 2 && files.iter().all(|file| file.starts_with("/assets/") && file.ends_with(".js")),
        "{files:?}"
    );
    files
}

/// Content first: every page kind's heading and content come before the main
/// menu in the document (the header links to it), and the search and the
/// language switch are there once, so a text browser or a small screen reaches
/// the heading first.
#[tokio::test]
async fn every_page_puts_its_heading_before_the_main_menu() {
    let app = shared_app().await;
    for path in [
        "/",
        "/sw/mpesa",
        "/vodacom-business",
        "/news-events",
        "/faq",
        "/account",
        "/sw/vodacom-business/community",
        "/search?q=mpesa",
        "/no-such-page",
    ] {
        let html = app.get(path).await.text().await.unwrap();
        let heading = html.find("<h1").unwrap_or_else(|| panic!("{path}: no heading"));
        let main_end = html.find("</main>").unwrap();
        let menu = html.find(r#"<nav class="site-menu" id="menu""#).unwrap_or_else(|| panic!("{path}: no menu"));
        assert!(heading < main_end && main_end < menu, "{path}");
        assert!(
            html.find(r##"<a class="menu-link" href="#menu">"##).unwrap() < heading,
            "{path}: the header's link to the menu"
        );
        assert_eq!(
            html.matches(r#"<form role="search""#).count(),
            usize::from(path.starts_with("/search")) + 1,
            "{path}"
        );
        assert_eq!(html.matches(r#"<ul class="lang-switch""#).count(), 1, "{path}");
    }
}

#[tokio::test]
async fn swahili_lives_under_sw() {
    let app = shared_app().await;
    let response = app.get("/sw").await;
    assert_eq!(response.status(), StatusCode::OK);
    let html = response.text().await.unwrap();
    assert!(html.starts_with("<!doctype html><html lang=\"sw\">"));
    assert!(html.contains("<h1>Miaka 25 ya kuiunganisha Tanzania</h1>"));
    assert!(html.contains(&format!(r#"<link rel="canonical" href="{}/sw"/>"#, app.address)));
    let page = app.get("/sw/internet-overview").await.text().await.unwrap();
    assert!(page.contains("Vifurushi vya intaneti kwa kila siku"));
    assert!(page.contains("TSh 25,000"));
}

#[tokio::test]
async fn unknown_paths_are_the_not_found_page_with_404() {
    let app = shared_app().await;
    for (path, title) in [
        ("/no-such-page", "Page not found"),
        ("/sw/hakuna", "Ukurasa haujapatikana"),
        ("/voice-sms/extra", "Page not found"),
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        let html = response.text().await.unwrap();
        assert!(html.contains(&format!("<h1>{title}</h1>")), "{path}");
        assert!(html.contains(r#"<meta name="robots" content="noindex"/>"#));
        assert!(!html.contains(r#"rel="canonical""#));
    }
}

#[tokio::test]
async fn the_data_endpoint_serves_the_same_page_data_as_json() {
    let app = shared_app().await;
    let html = app.get("/sw/voice-sms").await.text().await.unwrap();
    let response = app.get("/_data/sw/voice-sms").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()[CONTENT_TYPE].to_str().unwrap().starts_with("application/json"));
    let data: serde_json::Value = response.json().await.unwrap();
    assert_eq!(data, embedded_page_data(&html));
    assert_eq!(data["path"], "/voice-sms");

    let home: serde_json::Value = app.get("/_data/").await.json().await.unwrap();
    assert_eq!(home["route"]["name"], "home");
    let missing = app.get("/_data/nowhere").await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    let missing: serde_json::Value = missing.json().await.unwrap();
    assert_eq!(missing["route"]["page"], "notFound");
}

#[tokio::test]
async fn language_choice_is_remembered_in_a_cookie() {
    let app = shared_app().await;
    let response = app.get("/sw/voice-sms?lang=sw").await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()[LOCATION], "/sw/voice-sms");
    let cookie = response.headers()[SET_COOKIE].to_str().unwrap();
    assert!(cookie.starts_with("lang=sw;") && cookie.contains("Path=/") && cookie.contains("SameSite=Lax"), "{cookie}");

    let remembered = app.client.get(app.url("/")).header("cookie", "lang=sw").send().await.unwrap();
    assert_eq!(remembered.status(), StatusCode::SEE_OTHER);
    assert_eq!(remembered.headers()[LOCATION], "/sw");
    assert_eq!(remembered.headers()[CACHE_CONTROL], "private, no-cache");
    // Anything but en or sw is English: the site has no other language.
    let other = app.client.get(app.url("/")).header("cookie", "lang=fr").send().await.unwrap();
    assert_eq!(other.status(), StatusCode::OK);
    let english = app.get("/voice-sms?lang=xx&tab=2").await;
    assert_eq!(english.headers()[LOCATION], "/voice-sms?tab=2");
    assert!(english.headers()[SET_COOKIE].to_str().unwrap().starts_with("lang=en;"));
}

#[tokio::test]
async fn trailing_slashes_redirect_permanently() {
    let app = shared_app().await;
    let response = app.get("/voice-sms/").await;
    assert_eq!(response.status(), StatusCode::PERMANENT_REDIRECT);
    assert_eq!(response.headers()[LOCATION], "/voice-sms");
}

#[tokio::test]
async fn pages_are_compressed_for_browsers_that_accept_it() {
    let app = shared_app().await;
    let response = app.client.get(app.url("/")).header("accept-encoding", "br, gzip").send().await.unwrap();
    assert_eq!(response.headers()["content-encoding"], "br");
}

#[tokio::test]
async fn only_get_and_head_reach_pages() {
    let app = shared_app().await;
    let response = app.client.post(app.url("/")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
    let head = app.client.head(app.url("/voice-sms")).send().await.unwrap();
    assert_eq!(head.status(), StatusCode::OK);
}

#[tokio::test]
async fn health_check_answers() {
    let app = shared_app().await;
    let response = app.get("/healthz").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.text().await.unwrap(), "ok");
}

/// Defence in depth: content that got past the parser and still makes a
/// component throw costs the visitor the content, not the page. The app's
/// server bundle is wrapped so that every render with content throws.
#[tokio::test]
async fn a_render_that_throws_is_the_page_frame_with_the_content_failure_message() {
    let bundle = bundle_wrapping_render(
        "(render) => (request) => request.data.content.failed ? render(request) : Promise.reject(new Error('component exploded'))",
    );
    let app = spawn_bundle_with(bundle, |_| {}).await;
    for (path, status, message) in [
        ("/voice-sms", 503, "Failed to Load Content."),
        ("/sw/voice-sms", 503, "Imeshindwa Kupakia Maudhui."),
        ("/no-such-page", 404, "Failed to Load Content."),
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status().as_u16(), status, "{path}");
        let html = response.text().await.unwrap();
        assert!(html.contains(message) && html.contains("<header") && html.contains("<footer"), "{path}: {html}");
    }
}

/// A query string the page does not read is no new page: it gets the cached
/// one (same bytes, same ETag) instead of a render. `?services=` on a
/// business category is read, and opens that service.
#[tokio::test]
async fn query_strings_a_page_does_not_read_are_served_from_the_cache() {
    let app = spawn_app().await;
    let plain = app.get("/voice-sms").await;
    let etag = plain.headers()[reqwest::header::ETAG].clone();
    for junk in ["/voice-sms?x=1", "/voice-sms?utm_source=sms&fbclid=abc", "/voice-sms?services=x"] {
        let response = app.get(junk).await;
        assert_eq!(response.headers()[reqwest::header::ETAG], etag, "{junk}");
    }
    let business = app.get("/vodacom-business/5/iot").await.text().await.unwrap();
    let opened = app.get("/vodacom-business/5/iot?services=x&utm=1").await.text().await.unwrap();
    let data = embedded_page_data(&business);
    let first = data["content"]["list"]["items"][0]["slug"].as_str().unwrap().to_owned();
    let chosen = app.get(&format!("/vodacom-business/5/iot?utm=1&services={first}")).await.text().await.unwrap();
    assert!(chosen.contains(&format!(r#"<details id="{first}" open="""#)), "the service named by ?services= is open");
    assert!(!opened.contains(r#"open="""#) && !business.contains(r#"open="""#));
    // The sign-in's code step, without JavaScript, comes from the address.
    let code_step = app.get("/account?step=code&msisdn=0754000001&utm=1").await.text().await.unwrap();
    assert!(
        code_step.contains(r#"autoComplete="one-time-code""#) || code_step.contains(r#"autocomplete="one-time-code""#),
        "{code_step}"
    );
}

/// A DATA_DIR that cannot be written stops the server at start with an error
/// naming the directory and what to do.
#[tokio::test]
async fn a_data_dir_that_cannot_be_written_is_named_at_start() {
    let file = tempfile::NamedTempFile::new().unwrap();
    let mut config = server::Config::defaults();
    config.data_dir = file.path().join("data");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let error = server::run(listener, config, site::app_build(), Some(site::sandbox()), async {})
        .await
        .unwrap_err()
        .to_string();
    assert!(
        error.contains(&file.path().join("data").display().to_string()) && error.contains("set DATA_DIR"),
        "{error}"
    );
}

/// A client that sends its headers a byte at a time is closed within the
/// header time limit, while other visitors are served.
#[tokio::test]
async fn a_slow_header_client_is_closed_within_the_time_limit() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app =
        crate::helpers::spawn_app_with(|c| c.connections.header_read_timeout = std::time::Duration::from_secs(1)).await;
    let address = app.address.trim_start_matches("http://").to_owned();
    let mut slow = tokio::net::TcpStream::connect(&address).await.unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: a").await.unwrap();
    assert_eq!(app.get("/").await.status(), StatusCode::OK, "others are served meanwhile");
    // Closed by the server (the read ends), not left open: the limit is 1 s,
    // and the wait five times that only stops a test that would hang.
    let mut answer = Vec::new();
    let read = tokio::time::timeout(std::time::Duration::from_secs(5), slow.read_to_end(&mut answer)).await;
    assert!(read.is_ok_and(|read| read.is_ok()), "closed by the server, not left open");
}

/// One address may hold only so many connections; past it a new one is
/// closed at once, and a freed slot serves again.
#[tokio::test]
async fn one_address_holds_no_more_connections_than_its_share() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = crate::helpers::spawn_app_with(|c| c.connections.max_per_address = 3).await;
    let address = app.address.trim_start_matches("http://").to_owned();
    // The test client's own kept-alive connection holds one share already.
    let mut held = Vec::new();
    let mut refused = 0;
    for _ in 0..5 {
        let mut stream = tokio::net::TcpStream::connect(&address).await.unwrap();
        let _ = stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").await;
        let mut buffer = [0u8; 512];
        match tokio::time::timeout(std::time::Duration::from_secs(2), stream.read(&mut buffer))
            .await
            .expect("answered or closed at once")
        {
            Ok(read) if read > 0 => held.push(stream),
            _ => refused += 1,
        }
    }
    assert!(held.len() <= 3 && refused >= 2, "{} held, {refused} refused", held.len());
    held.pop();
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let mut again = tokio::net::TcpStream::connect(&address).await.unwrap();
    again.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    let mut buffer = [0u8; 512];
    assert!(again.read(&mut buffer).await.unwrap() > 0, "a freed slot serves again");
}

/// One client address runs at most its share of the render engines
/// (RENDERS_PER_ADDRESS); more of its requests wait their turn and are
/// served (RENDER_QUEUE_PER_ADDRESS: a crawler with parallel fetches,
/// visitors behind one carrier address). Past that, a page no cache holds
/// is answered 429 at once, with Retry-After in the visitor's language,
/// while cached pages answer at once, however busy the engines are: from
/// the fast path, and from the page cache for a request the fast path
/// leaves to the full one (a conditional request).
#[tokio::test]
async fn one_address_renders_no_more_than_its_share_and_cached_pages_still_answer() {
    // One engine, a share of one and four waiting: the address fills its
    // share and queue with 5 requests. Each render takes 1.2 s of the
    // engine, so the requests sent in the first half second (the queue,
    // then the refused ones) all arrive while the first render is still
    // under way, however loaded the machine; the queue drains in 6 s,
    // within the client's time limit. (One engine at a time also keeps the
    // spinning renders off the other core.)
    const RENDER_MS: u64 = 1200;
    const WAITING: u32 = 4;
    let app = spawn_bundle_with(slow_bundle(RENDER_MS), |c| {
        c.pages.render_workers = Some(1);
        c.pages.renders_per_address = Some(1);
        c.pages.render_queue_per_address = WAITING as usize;
    })
    .await;
    assert_eq!(app.get("/").await.status(), StatusCode::OK, "home is cached");
    // The sign-in's code step reads ?msisdn=: each number is a page to render.
    let miss = |n: u32, prefix: &str| app.get_owned(format!("{prefix}/account?step=code&msisdn=07540{n:05}"));
    let queued = 1 + WAITING;
    let started = Instant::now();
    let mut served = Vec::new();
    for n in 0..queued {
        served.push(tokio::spawn(miss(n, "")));
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    tokio::time::sleep(Duration::from_millis(400)).await;
    for (n, prefix, text) in [
        (100, "", "Too many requests at once"),
        (101, "", "Too many requests at once"),
        (102, "/sw", "Maombi mengi mno"),
    ] {
        let refused = miss(n, prefix).await;
        assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS, "{prefix} {n}");
        assert!(refused.headers().contains_key(reqwest::header::RETRY_AFTER));
        assert_eq!(refused.headers()[CACHE_CONTROL], "no-store");
        assert!(refused.text().await.unwrap().contains(text), "{prefix}");
    }
    // Served although the address is past its share (a miss was just
    // refused), and before the queue in front of it drained: a cached page
    // waits for no engine and takes no share.
    assert_eq!(app.get("/").await.status(), StatusCode::OK);
    let conditional = app.client.get(app.url("/")).header("if-none-match", "\"an-older-copy\"").send().await.unwrap();
    assert_eq!(conditional.status(), StatusCode::OK, "the full path serves the kept page too");
    assert!(
        served.iter().any(|rendered| !rendered.is_finished()),
        "a cached page waited for the renders queued before it"
    );
    for rendered in served {
        assert_eq!(rendered.await.unwrap().status(), StatusCode::OK, "a request that waited its turn is served");
    }
    // One at a time: the address never ran more than its share.
    let rounds = u128::from(queued);
    assert!(
        started.elapsed().as_millis() >= rounds * u128::from(RENDER_MS),
        "{queued} renders of {RENDER_MS} ms one at a time took {:?}",
        started.elapsed()
    );
    assert_eq!(miss(200, "").await.status(), StatusCode::OK, "finished renders free the share");
}

/// A crawler (or the visitors behind a carrier's address) asking for ten
/// pages no cache holds at once, from one address that runs one render at
/// a time: every one is rendered in its turn and answered 200, none
/// refused, and none given up on as 503 although the last waits far longer
/// than RENDER_QUEUE_TIMEOUT_MS (each waits as long as the renders ahead
/// of it may take).
#[tokio::test]
async fn one_address_asking_for_ten_cold_pages_at_once_gets_every_one() {
    let app = spawn_bundle_with(slow_bundle(400), |c| {
        c.pages.render_workers = Some(1);
        c.pages.renders_per_address = Some(1);
        c.pages.render_queue_timeout = Duration::from_millis(1000);
    })
    .await;
    // The last waits for the nine renders ahead of it, longer than the
    // test client's 10 s on a loaded machine: a client that waits, so that
    // only the server could give up.
    let patient = reqwest::Client::builder().timeout(Duration::from_secs(300)).build().unwrap();
    let pages = (0..10).map(|n| patient.get(app.url(&format!("/account?step=code&msisdn=07541{n:05}"))).send());
    let statuses: Vec<StatusCode> =
        futures::future::join_all(pages).await.into_iter().map(|r| r.expect("answered").status()).collect();
    assert_eq!(statuses, vec![StatusCode::OK; 10]);
}

/// A render that finds no engine free within RENDER_QUEUE_TIMEOUT_MS is
/// answered 503 then, with Retry-After and no-store, not when an engine
/// frees up.
#[tokio::test]
async fn a_render_waits_for_an_engine_no_longer_than_the_queue_timeout() {
    let app = spawn_bundle_with(slow_bundle(1500), |c| {
        c.pages.render_queue_timeout = std::time::Duration::from_millis(300);
        c.pages.renders_per_address = Some(8);
    })
    .await;
    let busy = tokio::spawn(app.get_owned("/voice-sms".into()));
    // Long enough for the busy render to have its engine, however loaded
    // the machine; it still has a second to go when the others give up.
    tokio::time::sleep(Duration::from_millis(400)).await;
    let waiting = [app.get_owned("/internet-overview".into()), app.get_owned("/sw/internet-overview".into())];
    let [english, swahili] = futures::future::join_all(waiting).await.try_into().unwrap();
    assert!(!busy.is_finished(), "answered only when the engine was free again");
    for (response, text) in [(english, "Temporarily unavailable"), (swahili, "Huduma haipatikani kwa sasa")] {
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(response.headers().contains_key(reqwest::header::RETRY_AFTER));
        assert_eq!(response.headers()[CACHE_CONTROL], "no-store");
        assert!(response.text().await.unwrap().contains(text));
    }
    assert_eq!(busy.await.unwrap().status(), StatusCode::OK);
    assert_eq!(app.get("/internet-overview").await.status(), StatusCode::OK, "a later request is rendered");
}

/// Every unknown address is the same not-found page: rendered once per
/// language (and content version), not once per address.
#[tokio::test]
async fn random_unknown_addresses_share_one_not_found_render_per_language() {
    let app = spawn_bundle_with(counting_bundle(), |_| {}).await;
    let mut renders = std::collections::BTreeSet::new();
    for n in 0..10 {
        for path in [
            format!("/no-such-page-{n}"),
            format!("/sw/hakuna-{n}"),
            format!("/news-event/99999{n}/x"),
            format!("/a/{n}/b?q={n}"),
        ] {
            let response = app.get(&path).await;
            assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
            let html = response.text().await.unwrap();
            let title = if path.starts_with("/sw/") { "Ukurasa haujapatikana" } else { "Page not found" };
            assert!(html.contains(&format!("<h1>{title}</h1>")), "{path}");
            renders.insert(render_number(&html));
        }
    }
    assert_eq!(renders.len(), 2, "one render per language, not per address: {renders:?}");
}

/// An address longer than the cache keeps (a query parameter the page reads,
/// made 3 KB long) is rendered for its request alone: it takes no room in
/// PAGE_CACHE_MB. A usual one is kept.
#[tokio::test]
async fn addresses_too_long_to_cache_are_rendered_and_not_kept() {
    let app = spawn_bundle_with(counting_bundle(), |_| {}).await;
    for (msisdn, kept) in [("0754000001".to_owned(), true), ("0".repeat(3000), false)] {
        let path = format!("/account?step=code&msisdn={msisdn}");
        let first = render_number(&app.get(&path).await.text().await.unwrap());
        let second = render_number(&app.get(&path).await.text().await.unwrap());
        assert_eq!(first == second, kept, "{} bytes: renders {first} and {second}", path.len());
    }
}

/// An anonymous page asked for again is answered whole from memory (the fast
/// path), with the same status, headers and bytes in each encoding as the
/// full path answered (but its server's time, `Server-Timing`, which the
/// full path alone says), and from one render; so is it with a junk session,
/// flash or language cookie, or query parameters its route does not read.
#[tokio::test]
async fn a_page_asked_for_again_is_answered_as_the_full_path_answered_it() {
    let app = spawn_bundle_with(counting_bundle(), |_| {}).await;
    let get = |encoding: Option<&'static str>, cookie: Option<&'static str>| {
        let mut request = app.client.get(app.url("/mpesa"));
        if let Some(encoding) = encoding {
            request = request.header("accept-encoding", encoding);
        }
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        async move {
            let response = request.send().await.unwrap();
            let mut headers = response.headers().clone();
            headers.remove("date");
            let timed = headers.remove("server-timing").map(|value| value.to_str().unwrap().to_owned());
            (response.status(), headers, response.bytes().await.unwrap(), timed)
        }
    };
    let mut renders = std::collections::BTreeSet::new();
    for encoding in [None, Some("gzip"), Some("br, gzip")] {
        let before = fast_hits(&app).await;
        let (full, timed) = without_timing(get(encoding, None).await);
        let (again, again_timed) = without_timing(get(encoding, None).await);
        let (third, _) = without_timing(get(encoding, None).await);
        assert_eq!(fast_hits(&app).await - before, 2, "{encoding:?}: answered from memory");
        assert_eq!(full, again, "{encoding:?}");
        assert_eq!(full, third, "{encoding:?}");
        // The full path says its time, so the page can tell the link's from the server's; memory takes none.
        assert!(timed.is_some_and(|value| value.starts_with("app;dur=")), "{encoding:?}");
        assert_eq!(again_timed, None, "{encoding:?}");
        assert_eq!(full.0, StatusCode::OK);
        if encoding.is_none() {
            renders.insert(render_number(std::str::from_utf8(&full.2).unwrap()));
        }
        // Cookies the site reads but that change nothing here: the same answer, from memory.
        let before = fast_hits(&app).await;
        for junk in ["lang=en", "lang=sw", "lang=junk", "session=junk", "flash=junk; session=", "__Host-session=AAAA"] {
            assert_eq!(without_timing(get(encoding, Some(junk)).await).0, full, "{encoding:?} {junk}");
        }
        assert_eq!(fast_hits(&app).await - before, 6, "{encoding:?}: junk cookies are answered from memory");
    }
    // Query parameters the page does not read: the same page, from memory.
    let before = fast_hits(&app).await;
    let plain = app.get("/mpesa").await.text().await.unwrap();
    for query in ["?utm_source=x", "?a=1&b=2", "?%ZZ", "?services=1"] {
        let response = app.get(&format!("/mpesa{query}")).await;
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.text().await.unwrap(), plain, "{query}");
    }
    assert_eq!(fast_hits(&app).await - before, 5, "the plain address and every query that changes nothing");
    assert_eq!(renders.len(), 1);
}

/// A request the full path might answer differently (a parameter the route
/// reads, `?lang=`, a conditional request, HEAD) takes the full path, and
/// redirects and data are never kept.
#[tokio::test]
async fn a_request_the_full_path_may_answer_differently_takes_the_full_path() {
    let app = spawn_app().await;
    // The page kept: the first answer is kept under the content generation
    // read before the page's content was first loaded, which that load moved
    // on; the second keeps it for good.
    app.get("/mpesa").await;
    app.get("/mpesa").await;
    // A parameter the route reads is its own page; `?lang=` redirects.
    let data = app.get("/search?q=data&utm_source=x").await.text().await.unwrap();
    let before = fast_hits(&app).await;
    assert_eq!(app.get("/search?utm_source=y&q=data").await.text().await.unwrap(), data);
    assert_ne!(app.get("/search?q=voice&utm_source=y").await.text().await.unwrap(), data);
    assert_eq!(fast_hits(&app).await - before, 1, "only the same q came from memory");
    let switched = app.client.get(app.url("/mpesa?lang=sw&utm_source=x")).send().await.unwrap();
    assert_eq!(switched.status(), StatusCode::SEE_OTHER);
    assert_eq!(switched.headers()[LOCATION], "/mpesa?utm_source=x");
    assert!(switched.headers()[SET_COOKIE].to_str().unwrap().starts_with("lang=sw;"), "the choice remembered");
    let before = fast_hits(&app).await;
    let etag = app.get("/mpesa").await.headers()[ETAG].clone();
    let revalidated = app.client.get(app.url("/mpesa")).header("if-none-match", etag).send().await.unwrap();
    assert_eq!(
        revalidated.status(),
        StatusCode::NOT_MODIFIED,
        "conditional requests are answered 304 by the full path"
    );
    assert_eq!(app.client.head(app.url("/mpesa")).send().await.unwrap().status(), StatusCode::OK);
    assert_eq!(fast_hits(&app).await - before, 1, "only the plain GET came from memory");
    // Redirects and data are never kept.
    for path in ["/mpesa/", "/mpesa/", "/_data/mpesa", "/_data/mpesa"] {
        app.get(path).await;
    }
    assert_eq!(fast_hits(&app).await - before, 1);
}

/// Swahili remembered: `/` sends the visitor to `/sw`, though `/` is kept.
#[tokio::test]
async fn a_remembered_language_redirects_home_though_home_is_kept() {
    let app = spawn_app().await;
    // (The first answer is kept under the content generation read before the
    // page's content was first loaded, which that load moved on: the second
    // keeps it for good.)
    app.get("/").await;
    app.get("/").await;
    let before = fast_hits(&app).await;
    app.get("/").await;
    let remembered = app.client.get(app.url("/")).header("cookie", "lang=sw").send().await.unwrap();
    assert_eq!(remembered.status(), StatusCode::SEE_OTHER);
    assert_eq!(remembered.headers()[LOCATION], "/sw");
    assert_eq!(
        fast_hits(&app).await - before,
        1,
        "the plain GET of `/` came from memory, the one with the cookie did not"
    );
}

/// Addresses no page has (scanners, random links) share the one not-found
/// page of their language, answered from memory after the first: no render,
/// no content read. Every other route of the server (the API, assets, the
/// sitemap, health, the sandbox) keeps its own answer all the same.
#[tokio::test]
async fn addresses_no_page_has_share_one_not_found_page_and_other_routes_keep_theirs() {
    let app = spawn_bundle_with(counting_bundle(), |_| {}).await;
    let mut first = std::collections::BTreeMap::new();
    for (n, lang_prefix) in ["", "/sw"].into_iter().cycle().take(6).enumerate() {
        let path = format!("{lang_prefix}/no-such-page/{n}-{}", "x".repeat(n));
        let response = app.client.get(app.url(&path)).header("accept-encoding", "gzip").send().await.unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        let body = response.bytes().await.unwrap();
        let seen = first.entry(lang_prefix).or_insert_with(|| body.clone());
        assert_eq!(*seen, body, "{path}: the one not-found page of its language");
    }
    assert_ne!(first[""], first["/sw"]);
    let before = fast_hits(&app).await;
    for path in ["/wp-login.php", "/sw/.env", "/a/b/c/d", "/no-such-page?utm_source=x"] {
        let response = app.client.get(app.url(path)).header("accept-encoding", "gzip").send().await.unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
    }
    assert_eq!(fast_hits(&app).await - before, 4, "answered from memory");
    let mut renders = std::collections::BTreeSet::new();
    for path in ["/no-such-page/9", "/nothing", "/sw/nothing", "/sw/no/such/page"] {
        renders.insert(render_number(&app.get(path).await.text().await.unwrap()));
    }
    assert_eq!(renders.len(), 2, "one render per language: {renders:?}");
    for (path, status) in [
        ("/robots.txt", StatusCode::OK),
        ("/sitemap.xml", StatusCode::OK),
        ("/healthz", StatusCode::OK),
        ("/readyz", StatusCode::OK),
        ("/sw.js", StatusCode::OK),
        ("/sandbox/inbox", StatusCode::OK),
        ("/api/account", StatusCode::UNAUTHORIZED),
        ("/api/auth/logout", StatusCode::METHOD_NOT_ALLOWED),
        ("/_data/mpesa", StatusCode::OK),
        ("/_data/no-such-page", StatusCode::NOT_FOUND),
        ("/assets/no-such-file.js", StatusCode::NOT_FOUND),
    ] {
        let response = app.get(path).await;
        let answered = response.status();
        let body = response.text().await.unwrap();
        assert_eq!(answered, status, "{path}: {body}");
        assert!(!body.contains(r#"<html lang="#) || path == "/sandbox/inbox", "{path}: not the not-found page");
    }
}

/// `PAGE_CACHE_MB=0`: every page is rendered for its request (what the
/// bench's uncached scenario measures), and nothing is kept in memory.
#[tokio::test]
async fn page_cache_mb_zero_renders_every_request() {
    let app = spawn_bundle_with(counting_bundle(), |c| c.pages.cache_bytes = 0).await;
    let mut renders = std::collections::BTreeSet::new();
    for _ in 0..3 {
        let response = app.get("/mpesa").await;
        assert_eq!(response.status(), StatusCode::OK);
        renders.insert(render_number(&response.text().await.unwrap()));
    }
    assert_eq!(renders.len(), 3, "{renders:?}");
    assert_eq!(fast_hits(&app).await, 0);
}

/// What a visitor looks for: the privacy notice, the terms and the
/// operator's social channels in every footer; a phone to buy in a shop;
/// the M-Pesa app in the app stores.
#[tokio::test]
async fn the_footer_device_and_app_pages_link_where_a_visitor_looks() {
    let app = shared_app().await;
    for (path, privacy, terms) in
        [("/", "/privacy", "/terms-conditions"), ("/sw/voice-sms", "/sw/privacy", "/sw/terms-conditions")]
    {
        let html = app.get(path).await.text().await.unwrap();
        let footer = &html[html.find("<footer").unwrap()..];
        for link in [
            privacy,
            terms,
            "https://www.facebook.com/VodacomTanzania",
            "https://www.instagram.com/vodacomtanzania",
            "https://x.com/VodacomTanzania",
        ] {
            assert!(footer.contains(&format!("href=\"{link}\"")), "{path}: {link} in the footer");
        }
    }
    let device = app.get("/devices/1/vodacom-smart-kitochi-4g").await.text().await.unwrap();
    assert!(device.contains("<a href=\"/vodashop\" class=\"button\">Buy this phone in a Vodacom shop</a>"), "{device}");
    assert!(device.contains("<a href=\"/device-ordering\">Order for your business</a>"), "{device}");
    for path in ["/mpesa-app", "/sw/mpesa-app"] {
        let html = app.get(path).await.text().await.unwrap();
        assert!(
            html.contains("href=\"https://play.google.com/store/") && html.contains("href=\"https://apps.apple.com/"),
            "{path}"
        );
    }
}

/// An answer as `(status, headers, body)`, and its `Server-Timing` apart.
fn without_timing<S, H, B>((status, headers, body, timed): (S, H, B, Option<String>)) -> ((S, H, B), Option<String>) {
    ((status, headers, body), timed)
}
