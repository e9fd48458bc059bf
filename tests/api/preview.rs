//! The CMS's preview (`/api/preview`): the secret, the URL it sends to, the
//! cookie and its flags, drafts shown to the cookie's holder alone and kept
//! by no cache, the answers' headers and the way out; against the fake CMS
//! holding a newsroom in both languages and a draft of the home page that
//! only a request with `status=draft` and the site's token gets.

use reqwest::StatusCode;
use reqwest::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, LOCATION, SET_COOKIE, X_FRAME_OPTIONS};
use serde_json::json;

use crate::fake_cms::{FakeCms, Shape};
use crate::helpers::{AMINA, TestApp, Visitor, site_with, spawn_app_with};

const SECRET: &str = "preview-s3cret";
const TOKEN: &str = "site-token";

/// A CMS whose home has a published version and a different draft in
/// both languages, and a newsroom of 300 stories per language.
async fn cms() -> FakeCms {
    let cms = FakeCms::start(Shape::V5).await;
    cms.require_draft_token(TOKEN);
    cms.put_page("home", "en", "Published home", "What every visitor sees.");
    cms.put_page("home", "sw", "Mwanzo uliochapishwa", "Anachoona kila mgeni.");
    let draft = |title: &str| json!({ "title": title, "sections": [ { "__component": "sections.hero", "id": 1, "title": title } ] });
    cms.put_draft("home", "en", draft("Draft home"));
    cms.put_draft("home", "sw", draft("Rasimu ya mwanzo"));
    for locale in ["en", "sw"] {
        let stories = (1..=300)
            .map(|n| json!({ "id": if locale == "en" { n } else { n + 1000 }, "documentId": format!("d{n}"), "locale": locale,
                "title": format!("{locale} story {n}"), "slug": format!("story-{n}"), "summary": "A story",
                "publishDate": format!("2026-01-01T00:{:02}:{:02}.000Z", n / 60, n % 60), "updatedAt": "2026-01-02T00:00:00.000Z" }))
            .collect();
        cms.put_collection("news-updates", locale, stories);
    }
    cms.put_page("news-events", "en", "News and events", "What happens at Vodacom.");
    cms.put_page("news-events", "sw", "Habari na matukio", "Yanayotokea Vodacom.");
    cms
}

async fn site(cms: &FakeCms, https: bool) -> TestApp {
    site_with(cms, |config| {
        config.cms.preview_secret = Some(SECRET.parse().unwrap());
        config.cms.token = Some(TOKEN.parse().unwrap());
        if https {
            config.site_url = "https://www.example.co.tz".parse().unwrap();
        }
    })
    .await
}

fn preview_link(url: &str) -> String {
    format!(
        "/api/preview?{}",
        serde_urlencoded::to_string([("url", url), ("secret", SECRET), ("status", "draft")]).unwrap()
    )
}

/// Opens a preview as the CMS's link does: the cookie to send back.
async fn open_preview(app: &TestApp, url: &str) -> String {
    let response = app.get(&preview_link(url)).await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()[LOCATION], url);
    response.headers()[SET_COOKIE].to_str().unwrap().split(';').next().unwrap().to_owned()
}

async fn get_with(app: &TestApp, path: &str, cookie: &str) -> reqwest::Response {
    app.client.get(app.url(path)).header("cookie", cookie).send().await.unwrap()
}

fn header(response: &reqwest::Response, name: impl reqwest::header::AsHeaderName) -> &str {
    response.headers().get(name).map_or("", |value| value.to_str().unwrap())
}

#[tokio::test]
async fn a_wrong_or_missing_secret_opens_no_preview() {
    let cms = cms().await;
    let app = site(&cms, false).await;
    for query in [
        "url=/&secret=wrong&status=draft",
        "url=/&status=draft",
        "url=/&secret=&status=draft",
        &format!("url=/&secret={SECRET}x&status=draft"),
        "url=/",
    ] {
        let response = app.get(&format!("/api/preview?{query}")).await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{query}");
        assert!(response.headers().get(SET_COOKIE).is_none(), "{query}");
        assert!(response.headers().get(LOCATION).is_none(), "{query}");
    }
    // No secret configured, or no CMS to have drafts: there is no preview.
    let without_secret = site_with(&cms, |_| {}).await;
    assert_eq!(without_secret.get(&preview_link("/")).await.status(), StatusCode::NOT_FOUND);
    let embedded = spawn_app_with(|config| config.cms.preview_secret = Some(SECRET.parse().unwrap())).await;
    assert_eq!(embedded.get(&preview_link("/")).await.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn only_a_path_of_this_site_is_redirected_to() {
    let cms = cms().await;
    let app = site(&cms, false).await;
    let off_site = [
        "//evil.example",
        "/\\evil.example",
        "https://evil.example",
        "/%2F%2Fevil.example",
        "/%2f/evil.example",
        "/./\\evil.example",
        "/a/../..//evil.example",
        "/x\r\nLocation: //evil",
        "/%0d%0aSet-Cookie:%20a=b",
        "evil.example",
        "javascript:alert(1)",
    ];
    for url in off_site {
        for status in ["draft", "published"] {
            let query = serde_urlencoded::to_string([("url", url), ("secret", SECRET), ("status", status)]).unwrap();
            let response = app.get(&format!("/api/preview?{query}")).await;
            assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{url:?} {status}");
            assert!(response.headers().get(SET_COOKIE).is_none(), "{url:?} {status}");
            assert!(response.headers().get(LOCATION).is_none(), "{url:?} {status}");
        }
    }
    let response = app.get(&preview_link("/sw/news-events?page=2")).await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()[LOCATION], "/sw/news-events?page=2");
}

#[tokio::test]
async fn the_draft_is_shown_to_the_cookie_alone_and_kept_by_no_cache() {
    let cms = cms().await;
    let app = site(&cms, false).await;
    let visitor = |path: &'static str| {
        let app = &app;
        async move {
            let response = app.get(path).await;
            assert_eq!(response.status(), StatusCode::OK);
            response.text().await.unwrap()
        }
    };
    // Before: the published page, then kept by the page cache and the fast path.
    assert!(visitor("/").await.contains("Published home"));
    assert!(visitor("/").await.contains("Published home"));

    let cookie = open_preview(&app, "/").await;
    for (path, draft, bar, published) in [
        ("/", "Draft home", "Preview: draft", "Published home"),
        ("/sw", "Rasimu ya mwanzo", "Onyesho la awali: rasimu", "Mwanzo uliochapishwa"),
    ] {
        let response = get_with(&app, path, &cookie).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(header(&response, CACHE_CONTROL), "private, no-store", "{path}");
        assert_eq!(header(&response, "x-robots-tag"), "noindex", "{path}");
        assert!(response.headers().get("etag").is_none(), "{path}");
        let html = response.text().await.unwrap();
        assert!(html.contains(draft) && !html.contains(published), "{path}: the draft, not the published page");
        assert!(html.contains(r#"<meta name="robots" content="noindex"/>"#), "{path}");
        assert!(html.contains(bar), "{path}: the preview bar");
        let exit =
            format!(r#"href="/api/preview?status=published&amp;url={}""#, if path == "/" { "%2F" } else { "%2Fsw" });
        assert!(html.contains(&exit), "{path}: the bar's exit link {exit}");
    }
    // Drafts were asked for with the token, and only by the preview.
    let drafts: Vec<String> = cms.requests().into_iter().filter(|r| r.contains("status=draft")).collect();
    assert!(drafts.iter().any(|r| r.starts_with("/api/home?locale=sw")), "{drafts:?}");
    // A list in preview: the collection read as drafts, its 300 stories counted.
    let list = get_with(&app, "/news-events?page=34", &cookie).await;
    assert_eq!(list.status(), StatusCode::OK);
    assert!(list.text().await.unwrap().contains("en story 3<"), "the oldest stories on the last page");
    assert!(cms.requests().iter().any(|r| r.starts_with("/api/news-updates?locale=en&status=draft")));
    // An item's address mended: for the preview alone, not for browsers to remember.
    let mended = get_with(&app, "/news-event/5/old-slug", &cookie).await;
    assert_eq!((mended.status(), header(&mended, LOCATION)), (StatusCode::SEE_OTHER, "/news-event/5/story-5"));
    assert_eq!(app.get("/news-event/5/old-slug").await.status(), StatusCode::PERMANENT_REDIRECT);

    // After: everyone else still gets the published page, from every cache.
    for _ in 0..2 {
        assert!(visitor("/").await.contains("Published home"));
        let sw = visitor("/sw").await;
        assert!(sw.contains("Mwanzo uliochapishwa") && !sw.contains("Rasimu"));
    }
    // The same in a fresh server whose first view of `/` is the preview's.
    let fresh = site(&cms, false).await;
    let cookie = open_preview(&fresh, "/").await;
    assert!(get_with(&fresh, "/", &cookie).await.text().await.unwrap().contains("Draft home"));
    for _ in 0..2 {
        let html = fresh.get("/").await.text().await.unwrap();
        assert!(html.contains("Published home") && !html.contains("Draft home") && !html.contains("Preview: draft"));
    }
}

#[tokio::test]
async fn the_admin_alone_may_frame_a_preview() {
    let cms = cms().await;
    let app = site(&cms, false).await;
    let cookie = open_preview(&app, "/").await;
    let preview = get_with(&app, "/", &cookie).await;
    let policy = header(&preview, CONTENT_SECURITY_POLICY);
    assert!(policy.contains(&format!("frame-ancestors {};", cms.url)), "{policy}");
    assert!(policy.contains("script-src 'self';"), "{policy}");
    assert!(preview.headers().get(X_FRAME_OPTIONS).is_none());
    // Every other answer: framed by nobody.
    for path in ["/", "/sw", "/news-events", "/api/bundles", &preview_link("/"), "/api/preview?status=published&url=/"]
    {
        let response = app.get(path).await;
        assert!(header(&response, CONTENT_SECURITY_POLICY).contains("frame-ancestors 'none'"), "{path}");
        assert_eq!(header(&response, X_FRAME_OPTIONS), "DENY", "{path}");
    }
    // The admin elsewhere (`CMS_ADMIN_URL`): its origin, not the CMS's.
    let elsewhere = site_with(&cms, |config| {
        config.cms.preview_secret = Some(SECRET.parse().unwrap());
        config.cms.token = Some(TOKEN.parse().unwrap());
        config.cms.admin_url = Some("https://admin.example.co.tz/admin".parse().unwrap());
    })
    .await;
    let cookie = open_preview(&elsewhere, "/").await;
    let preview = get_with(&elsewhere, "/", &cookie).await;
    assert!(header(&preview, CONTENT_SECURITY_POLICY).contains("frame-ancestors https://admin.example.co.tz;"));
    let html = preview.text().await.unwrap();
    assert!(html.contains(r#""adminOrigin":"https://admin.example.co.tz""#), "the reload script's origin");
}

#[tokio::test]
async fn the_exit_ends_the_preview_without_the_secret() {
    let cms = cms().await;
    let app = site(&cms, false).await;
    let response = app.get("/api/preview?status=published&url=%2Fsw").await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()[LOCATION], "/sw");
    let removal = header(&response, SET_COOKIE);
    assert!(removal.starts_with("preview=;") && removal.contains("Max-Age=0"), "{removal}");
}

#[tokio::test]
async fn over_https_the_cookie_is_for_the_admin_frame() {
    let cms = cms().await;
    let app = site(&cms, true).await;
    let response = app.get(&preview_link("/")).await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let cookie = header(&response, SET_COOKIE).to_owned();
    assert!(cookie.starts_with("__Host-preview="), "{cookie}");
    for flag in ["HttpOnly", "SameSite=None", "Secure", "Partitioned", "Path=/", "Max-Age=3600"] {
        assert!(cookie.split("; ").any(|part| part == flag), "{flag} in {cookie}");
    }
    assert!(!cookie.contains("Domain="), "{cookie}");
    let value = cookie.split(';').next().unwrap();
    assert!(!value.contains(char::is_numeric) || value.len() > 40, "encrypted, not the expiry in clear: {value}");
    assert!(get_with(&app, "/", value).await.text().await.unwrap().contains("Draft home"));
    let removal = header(&app.get("/api/preview?status=published&url=/").await, SET_COOKIE).to_owned();
    for flag in ["__Host-preview=", "Secure", "SameSite=None", "Partitioned", "Max-Age=0"] {
        assert!(removal.contains(flag), "{flag} in {removal}");
    }
    // Over http the same cookie is Lax and not Secure (no browser would keep `None` without it).
    let http = site(&cms, false).await;
    let cookie = header(&http.get(&preview_link("/")).await, SET_COOKIE).to_owned();
    assert!(
        cookie.starts_with("preview=") && cookie.contains("SameSite=Lax") && !cookie.contains("Secure"),
        "{cookie}"
    );
}

#[tokio::test]
async fn a_forged_or_foreign_cookie_previews_nothing() {
    let cms = cms().await;
    let app = site(&cms, false).await;
    let other = site(&cms, false).await;
    let foreign = open_preview(&other, "/").await;
    for cookie in ["preview=1", "preview=99999999999", &foreign] {
        let response = get_with(&app, "/", cookie).await;
        assert_ne!(header(&response, CACHE_CONTROL), "private, no-store", "{cookie}");
        assert!(response.text().await.unwrap().contains("Published home"), "{cookie}");
    }
}

#[tokio::test]
async fn a_signed_in_subscriber_previews_content_and_keeps_their_own_parts() {
    let cms = cms().await;
    let app = site(&cms, false).await;
    let amina = Visitor::new(&app);
    let (_, session) = amina.sign_in_keeping_cookie(AMINA).await;
    let preview = open_preview(&app, "/").await;
    let both = format!("{session}; {preview}");
    let html = get_with(&app, "/", &both).await.text().await.unwrap();
    assert!(
        html.contains("Draft home") && html.contains(">Amina Mwakyusa</a>"),
        "the draft, with her name and Log out"
    );
    // Her pages without the preview cookie, and everyone else's: the published page.
    let html = get_with(&app, "/", &session).await.text().await.unwrap();
    assert!(html.contains("Published home") && !html.contains("Draft home") && html.contains(">Amina Mwakyusa</a>"));
    assert!(!app.get("/").await.text().await.unwrap().contains("Draft home"));
}
