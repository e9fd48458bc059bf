//! Signed-in subscribers get the page cached for everyone with their own
//! parts put in (`server/src/pages/splice.rs`): byte for byte the page a
//! render for them would give, at no render, never another's parts, and
//! the anonymous page untouched by them.

use futures::StreamExt;

use reqwest::StatusCode;
use reqwest::header::{ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, ETAG, VARY};

use crate::helpers::{
    AMINA, JUMA, SITE_URL, TestApp, Visitor, bundle_wrapping_render, counting_bundle, decoded_page, embedded_page_data,
    eventually, render_number, spawn_app, spawn_app_with, spawn_bundle_with, without_csrf,
};

/// Pages of every kind a subscriber gets from the cache, in both languages.
const PAGES: &[&str] = &[
    "/",
    "/voice-sms",
    "/internet-overview",
    "/news-events",
    "/search?q=bundle",
    "/no-such-page",
    "/vodacom-business/community",
    "/foundation/apply",
    "/cpm-login",
    "/sw",
    "/sw/voice-sms",
    "/sw/internet-overview",
    "/sw/foundation/apply",
];

/// The header's account control of a page.
fn account_control(html: &str) -> &str {
    let start = html
        .find(r#"<div class="account-control">"#)
        .or_else(|| html.find(r#"<a href="/account" id="account-control""#))
        .or_else(|| html.find(r#"<a href="/sw/account" id="account-control""#))
        .expect("an account control");
    &html[start..start + html[start..].find("<ul class=\"lang-switch\"").unwrap()]
}

/// The site whose renders give no account controls: no page can take a
/// subscriber's parts, so each is rendered for its signed-in visitor, as
/// before splicing.
fn rendering_for_each_visitor() -> server::AppBuild {
    bundle_wrapping_render(
        "(render) => async (request) => { const output = await render(request); delete output.account; return output; }",
    )
}

#[tokio::test]
async fn a_signed_in_page_is_byte_for_byte_the_page_rendered_for_the_subscriber() {
    let spliced = spawn_app_with(|c| c.site_url = SITE_URL.parse().unwrap()).await;
    let rendered = spawn_bundle_with(rendering_for_each_visitor(), |c| c.site_url = SITE_URL.parse().unwrap()).await;
    let (_, spliced_cookie) = Visitor::new(&spliced).sign_in_keeping_cookie(AMINA).await;
    let (_, rendered_cookie) = Visitor::new(&rendered).sign_in_keeping_cookie(AMINA).await;
    for path in PAGES {
        for encoding in ["br, gzip", "identity"] {
            let (status, headers, html) = decoded_page(&spliced, path, &spliced_cookie, encoding).await;
            let (rendered_status, _, rendered_html) = decoded_page(&rendered, path, &rendered_cookie, encoding).await;
            assert_eq!(status, rendered_status, "{path}");
            // But for the form token, which a page for everyone carries only in the header's control.
            let (html, rendered_html) = (without_csrf(&html), without_csrf(&rendered_html));
            assert!(
                html == rendered_html,
                "{path} ({encoding}):\nspliced  {}\nrendered {}",
                account_control(&html),
                account_control(&rendered_html)
            );
            assert!(html.contains(">Amina Mwakyusa</a>"), "{path}: the name in the first HTML");
            assert_eq!(embedded_page_data(&html)["subscriber"]["names"], "Amina Mwakyusa", "{path}");
            assert_eq!(headers[CACHE_CONTROL], "private, no-store", "{path}");
            assert_eq!(headers[VARY], "accept-encoding, cookie", "{path}");
            assert!(!headers.contains_key(ETAG), "{path}: nothing to revalidate a personal page by");
            // Brotli too: the pieces around the visitor's parts compressed once (`pages::splice`).
            let expected_encoding = if encoding == "identity" { None } else { Some("br") };
            assert_eq!(headers.get(CONTENT_ENCODING).map(|e| e.to_str().unwrap()), expected_encoding, "{path}");
        }
    }
    // Swahili: the control in its language, and the way back after logging out is the page's own address.
    let (_, _, html) = decoded_page(&spliced, "/sw/voice-sms", &spliced_cookie, "gzip").await;
    assert!(account_control(&html).contains(r#"<input type="hidden" name="returnTo" value="/sw/voice-sms"/><button type="submit" class="button">Toka</button>"#), "{}", account_control(&html));
}

#[tokio::test]
async fn signed_in_page_views_cost_no_render() {
    let app = spawn_bundle_with(counting_bundle(), |_| {}).await;
    let (_, cookie) = Visitor::new(&app).sign_in_keeping_cookie(AMINA).await;
    // The first signed-in view of a page renders it for everyone.
    let (_, _, first) = decoded_page(&app, "/voice-sms", &cookie, "gzip").await;
    let rendered = render_number(&first);
    for encoding in ["gzip", "identity", "br, gzip"] {
        for _ in 0..5 {
            let (_, _, html) = decoded_page(&app, "/voice-sms", &cookie, encoding).await;
            assert_eq!(render_number(&html), rendered, "no render for a signed-in view");
            assert!(html.contains(">Amina Mwakyusa</a>"));
        }
    }
    let (_, headers, html) = decoded_page(&app, "/voice-sms", "", "gzip").await;
    assert_eq!(render_number(&html), rendered, "the anonymous page is that very render");
    assert!(headers[CACHE_CONTROL].to_str().unwrap().starts_with("public"));
    assert!(!html.contains("Amina"));
    // The account page is the subscriber's own: rendered for them.
    let (_, _, account) = decoded_page(&app, "/account", &cookie, "gzip").await;
    assert!(render_number(&account) > rendered);
}

#[tokio::test]
async fn two_subscribers_interleaved_never_see_each_others_parts() {
    let app = spawn_app().await;
    let (_, amina) = Visitor::new(&app).sign_in_keeping_cookie(AMINA).await;
    let (_, juma) = Visitor::new(&app).sign_in_keeping_cookie(JUMA).await;
    let (_, _, juma_page) = decoded_page(&app, "/voice-sms", &juma, "gzip").await;
    let juma_name = embedded_page_data(&juma_page)["subscriber"]["names"].as_str().unwrap().to_owned();
    assert!(!juma_name.is_empty() && juma_name != "Amina Mwakyusa");
    let views = futures::stream::iter(0..120).map(|n| {
        let (cookie, name, other) = if n % 2 == 0 {
            (&amina, "Amina Mwakyusa", juma_name.as_str())
        } else {
            (&juma, juma_name.as_str(), "Amina Mwakyusa")
        };
        let path = PAGES[n / 2 % PAGES.len()];
        let encoding = ["gzip", "identity"][n / 3 % 2];
        let app = &app;
        async move {
            let (status, _, html) = decoded_page(app, path, cookie, encoding).await;
            assert!(status.is_success() || status == StatusCode::NOT_FOUND, "{path}: {status}");
            assert!(html.contains(&format!(">{name}</a>")), "{path}: {name}'s page without their name");
            assert!(!html.contains(other), "{path}: {name}'s page names {other}");
            assert_eq!(embedded_page_data(&html)["subscriber"]["names"], name, "{path}");
        }
    });
    // A few at a time, as browsers would: more would be refused as one address's too many renders.
    views.buffer_unordered(6).collect::<Vec<()>>().await;
    let (_, _, anonymous) = decoded_page(&app, "/voice-sms", "", "gzip").await;
    assert!(
        !anonymous.contains("Amina") && !anonymous.contains(&juma_name),
        "nothing personal in the page for everyone"
    );
}

#[tokio::test]
async fn logging_out_takes_the_subscribers_parts_off_at_once() {
    let app = spawn_app().await;
    let visitor = Visitor::new(&app);
    let (_, cookie) = visitor.sign_in_keeping_cookie(AMINA).await;
    let (_, _, signed_in) = decoded_page(&app, "/voice-sms", &cookie, "gzip").await;
    assert!(signed_in.contains(">Amina Mwakyusa</a>"));
    let (status, _, _) = visitor.post("/api/auth/logout", serde_json::json!({})).await;
    assert_eq!(status, StatusCode::OK);
    let (_, _, anonymous) = decoded_page(&app, "/voice-sms", "", "gzip").await;
    for encoding in ["gzip", "identity"] {
        let (_, headers, html) = decoded_page(&app, "/voice-sms", &cookie, encoding).await;
        assert!(!html.contains("Amina"), "the cookie kept from before the logout");
        assert!(headers[CACHE_CONTROL].to_str().unwrap().starts_with("public"));
        assert_eq!(html, anonymous, "the page for everyone");
    }
}

/// A page kept whole for everyone (the fast path answers it before any
/// cookie is read) is still the subscriber's own with their cookie; the same
/// cookie tampered with gets the page for everyone, from memory.
#[tokio::test]
async fn a_page_kept_for_everyone_is_still_the_subscribers_own_with_their_cookie() {
    let app = spawn_app().await;
    let anonymous = decoded_page(&app, "/voice-sms", "", "gzip").await.2;
    decoded_page(&app, "/voice-sms", "", "gzip").await;
    let (_, cookie) = Visitor::new(&app).sign_in_keeping_cookie(AMINA).await;
    let (_, headers, html) = decoded_page(&app, "/voice-sms", &cookie, "gzip").await;
    assert!(html.contains(">Amina Mwakyusa</a>"), "the subscriber's own page");
    assert_eq!(headers[CACHE_CONTROL], "private, no-store");
    let (_, headers, html) =
        decoded_page(&app, "/voice-sms?utm_source=sms", &format!("lang=en; {cookie}"), "gzip").await;
    assert!(html.contains(">Amina Mwakyusa</a>"), "with another cookie and a query the page does not read");
    assert_eq!(headers[CACHE_CONTROL], "private, no-store");
    let mut forged = cookie.clone().into_bytes();
    let last = forged.len() - 2;
    forged[last] = if forged[last] == b'A' { b'B' } else { b'A' };
    let (_, headers, html) = decoded_page(&app, "/voice-sms", &String::from_utf8(forged).unwrap(), "gzip").await;
    assert_eq!(html, anonymous, "a forged cookie gets the page for everyone");
    assert!(headers[CACHE_CONTROL].to_str().unwrap().starts_with("public"));
}

#[tokio::test]
async fn the_page_for_everyone_is_the_same_bytes_whether_or_not_subscribers_came_first() {
    let visited = spawn_app_with(|c| c.site_url = SITE_URL.parse().unwrap()).await;
    let (_, cookie) = Visitor::new(&visited).sign_in_keeping_cookie(AMINA).await;
    for path in PAGES {
        decoded_page(&visited, path, &cookie, "br, gzip").await;
    }
    let untouched = spawn_app_with(|c| c.site_url = SITE_URL.parse().unwrap()).await;
    for path in PAGES {
        for encoding in ["br", "gzip", "identity"] {
            let first = visited.client.get(visited.url(path)).header(ACCEPT_ENCODING, encoding).send().await.unwrap();
            let second =
                untouched.client.get(untouched.url(path)).header(ACCEPT_ENCODING, encoding).send().await.unwrap();
            assert_eq!(first.headers().get(ETAG), second.headers().get(ETAG), "{path} {encoding}");
            assert_eq!(first.headers()[CACHE_CONTROL], second.headers()[CACHE_CONTROL], "{path} {encoding}");
            let (first, second) = (first.bytes().await.unwrap(), second.bytes().await.unwrap());
            assert!(first == second, "{path} {encoding}: the page for everyone differs after a subscriber's views");
        }
    }
}

/// The site whose renders for a signed-in visitor each hold an engine 1.5 s.
fn slow_for_subscribers() -> server::AppBuild {
    bundle_wrapping_render(
        "(render) => (request) => { if (request.data.subscriber) { const until = Date.now() + 1500; while (Date.now() < until) {} } return render(request); }",
    )
}

async fn personal_renders(app: &TestApp) -> u64 {
    let health: serde_json::Value = app.get("/healthz?detail").await.json().await.unwrap();
    health["pages"]["personalRenders"].as_u64().unwrap()
}

/// Account pages rendered for their subscribers hold at most half the
/// engines: a page for everyone that needs a render gets the other half
/// while they wait their turn.
#[tokio::test]
async fn renders_for_one_visitor_never_hold_every_engine() {
    let app = spawn_bundle_with(slow_for_subscribers(), |c| {
        c.pages.render_workers = Some(2);
        c.pages.render_queue_timeout = std::time::Duration::from_millis(30_000);
        // Account pages rendered whole, as a page with a flash notice is.
        c.pages.account_full_render = true;
    })
    .await;
    let mut cookies = Vec::new();
    for number in [AMINA, JUMA, "0754000003"] {
        cookies.push(Visitor::new(&app).sign_in_keeping_cookie(number).await.1);
    }
    let done = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let accounts: Vec<_> = cookies
        .iter()
        .map(|cookie| {
            let (request, done) = (app.client.get(app.url("/account")).header("cookie", cookie), done.clone());
            tokio::spawn(async move {
                let status = request.send().await.unwrap().status();
                done.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                status
            })
        })
        .collect();
    eventually("a personal render under way", async || personal_renders(&app).await, |renders| *renders > 0).await;
    assert_eq!(personal_renders(&app).await, 1, "half of two engines");
    let (status, _, html) = decoded_page(&app, "/voice-sms", "", "gzip").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("account-control"));
    assert_eq!(
        done.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "the page for everyone was rendered while every account page still waited or ran"
    );
    for account in accounts {
        assert_eq!(account.await.unwrap(), StatusCode::OK, "each in its turn");
    }
}

/// Past its wait, a render for one visitor is shed: 503 in their language,
/// never a page for everyone delayed.
#[tokio::test]
async fn a_render_for_one_visitor_past_its_wait_is_shed_in_their_language() {
    let app = spawn_bundle_with(slow_for_subscribers(), |c| {
        c.pages.render_workers = Some(2);
        c.pages.render_queue_timeout = std::time::Duration::from_millis(300);
        c.pages.account_full_render = true;
    })
    .await;
    let (_, amina) = Visitor::new(&app).sign_in_keeping_cookie(AMINA).await;
    let (_, juma) = Visitor::new(&app).sign_in_keeping_cookie(JUMA).await;
    let running = tokio::spawn(app.client.get(app.url("/account")).header("cookie", &amina).send());
    eventually("a personal render under way", async || personal_renders(&app).await, |renders| *renders > 0).await;
    let (status, _, html) = decoded_page(&app, "/sw/account", &juma, "identity").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(html.contains("Huduma haipatikani kwa sasa"), "{html}");
    assert_eq!(running.await.unwrap().unwrap().status(), StatusCode::OK);
}
