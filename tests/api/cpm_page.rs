//! The CPM page of a CPM session is the page for every CPM session, kept
//! for everyone, with the session's permissions rendered alone and put in
//! (`server/src/pages/account.rs`): byte for byte the page a whole render
//! gives, with the permissions loaded and with the operator failing, never
//! another session's permissions, and never an error page when the
//! permissions cannot be rendered.

use futures::StreamExt;
use reqwest::StatusCode;
use reqwest::header::SET_COOKIE;

use crate::helpers::{
    AMINA, BARAKA, JUMA, NEEMA, TestApp, Visitor, bodies, bundle_wrapping_render, code_in_inbox, counting_bundle,
    embedded_page_data, fail_next, first_difference, masked_page, render_number, spawn_app_with, spawn_bundle_with,
    spliced_and_rendered, without_csrf,
};

const CPM_PAGE: &str = "/customer-permission-management";

/// Signs `number` in to CPM at `app`, whose operator is `operator`'s sandbox: its session cookie.
async fn cpm_sign_in(app: &TestApp, operator: &TestApp, number: &str) -> String {
    let visitor = Visitor::new(app);
    let (status, body, _) = visitor.post("/api/cpm/request-otp", bodies::number(number)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let code = code_in_inbox(&operator.url("/sandbox"), number).await;
    let (status, body, headers) = visitor.post("/api/cpm/validate-otp", bodies::code(number, &code)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    headers[SET_COOKIE].to_str().unwrap().split(';').next().unwrap().to_owned()
}

/// The CPM page as `cookie` gets it from both servers, compared: the spliced one's HTML.
async fn same_page(
    spliced: &TestApp,
    spliced_cookie: &str,
    rendered: &TestApp,
    rendered_cookie: &str,
    path: &str,
    encoding: &str,
) -> String {
    let (status, cache_control, html) = masked_page(spliced, path, spliced_cookie, encoding).await;
    let (rendered_status, _, rendered_html) = masked_page(rendered, path, rendered_cookie, encoding).await;
    assert_eq!((status, rendered_status), (StatusCode::OK, StatusCode::OK), "{path}");
    assert_eq!(cache_control, "private, no-store", "{path}");
    assert!(html == rendered_html, "{path} ({encoding}) {}", first_difference(&html, &rendered_html));
    html
}

#[tokio::test]
async fn the_cpm_page_is_byte_for_byte_the_page_rendered_for_the_session() {
    let (spliced, rendered) = spliced_and_rendered().await;
    // Permissions loaded: two numbers, one of them after a permission changed.
    for number in [AMINA, JUMA] {
        let (spliced_cookie, rendered_cookie) =
            (cpm_sign_in(&spliced, &spliced, number).await, cpm_sign_in(&rendered, &spliced, number).await);
        if number == JUMA {
            withdraw_marketing_sms(&spliced, &spliced_cookie).await;
        }
        for lang in ["", "/sw"] {
            for encoding in ["gzip", "identity"] {
                let path = format!("{lang}{CPM_PAGE}");
                let html = same_page(&spliced, &spliced_cookie, &rendered, &rendered_cookie, &path, encoding).await;
                let cpm = &embedded_page_data(&html)["cpm"];
                assert_eq!(cpm["msisdn"], format!("255{}", &number[1..]), "{path}");
                assert!(cpm["permissions"].as_array().unwrap().len() >= 4, "{path}");
                let local = format!("{} {} {}", &number[..4], &number[4..7], &number[7..]);
                assert!(html.contains(&local), "{path}: the number signed in");
                assert!(html.contains("aria-pressed="), "{path}: the switches");
                let swahili = lang == "/sw";
                assert_eq!(html.contains("SMS za matangazo"), swahili, "{path}: named in the page's language");
            }
        }
    }
    // The operator failing: the page without permissions (a session each;
    // numbers shared out under the codes' limits).
    for lang in ["", "/sw"] {
        for (encoding, number) in [("gzip", NEEMA), ("identity", BARAKA)] {
            let (spliced_cookie, rendered_cookie) =
                (cpm_sign_in(&spliced, &spliced, number).await, cpm_sign_in(&rendered, &spliced, number).await);
            let path = format!("{lang}{CPM_PAGE}");
            fail_next(&spliced, "cpm/permissions", 500, None).await;
            let (status, _, html) = masked_page(&spliced, &path, &spliced_cookie, encoding).await;
            fail_next(&spliced, "cpm/permissions", 500, None).await;
            let (rendered_status, _, rendered_html) = masked_page(&rendered, &path, &rendered_cookie, encoding).await;
            assert_eq!((status, rendered_status), (StatusCode::OK, StatusCode::OK), "{path}");
            // The page for everyone carries no form token; the render for this session does.
            let (html, rendered_html) = (without_csrf(&html), without_csrf(&rendered_html));
            assert!(html == rendered_html, "{path} ({encoding}) {}", first_difference(&html, &rendered_html));
            assert!(embedded_page_data(&html)["cpm"].is_null(), "{path}: no permissions");
            assert!(!html.contains("aria-pressed="), "{path}");
        }
    }
}

#[tokio::test]
async fn cpm_views_render_only_the_sessions_permissions() {
    let app = spawn_bundle_with(counting_bundle(), |c| c.sessions.otp_resend = std::time::Duration::from_secs(0)).await;
    let amina = cpm_sign_in(&app, &app, AMINA).await;
    let juma = cpm_sign_in(&app, &app, JUMA).await;
    let (_, _, first) = masked_page(&app, CPM_PAGE, &amina, "gzip").await;
    let rendered = render_number(&first);
    for _ in 0..3 {
        for cookie in [&amina, &juma] {
            let (_, _, html) = masked_page(&app, CPM_PAGE, cookie, "gzip").await;
            assert_eq!(render_number(&html), rendered, "the page for every CPM session, rendered once for both");
        }
    }
}

#[tokio::test]
async fn two_cpm_sessions_interleaved_never_see_each_others_permissions() {
    let app = spawn_app_with(|c| {
        c.sessions.otp_resend = std::time::Duration::from_secs(0);
        c.pages.renders_per_address = Some(8);
    })
    .await;
    let amina = cpm_sign_in(&app, &app, AMINA).await;
    let juma = cpm_sign_in(&app, &app, JUMA).await;
    // Juma's choices differ from Amina's.
    withdraw_marketing_sms(&app, &juma).await;
    let views = futures::stream::iter(0..60).map(|n| {
        let (cookie, own, other, granted) = if n % 2 == 0 {
            (&amina, "0754 000 001", "0754 000 002", true)
        } else {
            (&juma, "0754 000 002", "0754 000 001", false)
        };
        let path = [CPM_PAGE, "/sw/customer-permission-management"][n / 2 % 2];
        let encoding = ["gzip", "identity"][n / 4 % 2];
        let app = &app;
        async move {
            let (status, _, html) = masked_page(app, path, cookie, encoding).await;
            assert_eq!(status, StatusCode::OK, "{path}");
            assert!(html.contains(own) && !html.contains(other), "{path}: {own}'s page");
            let cpm = &embedded_page_data(&html)["cpm"];
            assert_eq!(cpm["permissions"][0]["granted"], granted, "{path}: {own}'s permissions");
        }
    });
    views.buffer_unordered(6).collect::<Vec<()>>().await;
}

/// Permissions that throw when rendered alone: the page still comes, without them, never an error page.
#[tokio::test]
async fn permissions_that_fail_to_render_leave_the_page_without_them() {
    let app = spawn_bundle_with(
        bundle_wrapping_render(
            "(render) => (request) => { if (request.part) throw new Error('broken part'); return render(request); }",
        ),
        |_| {},
    )
    .await;
    let cookie = cpm_sign_in(&app, &app, AMINA).await;
    for path in [CPM_PAGE, "/sw/customer-permission-management"] {
        for encoding in ["gzip", "identity"] {
            let (status, _, html) = masked_page(&app, path, &cookie, encoding).await;
            assert_eq!(status, StatusCode::OK, "{path}");
            assert!(!html.contains("aria-pressed="), "{path}: no permissions");
            assert!(embedded_page_data(&html)["cpm"].is_null(), "{path}");
        }
    }
    // The session is kept: its permissions are still there to read.
    let kept = app.client.get(app.url("/api/cpm/permissions")).header("cookie", &cookie).send().await.unwrap();
    assert_eq!(kept.status(), StatusCode::OK);
}

/// An operator that fails for a moment (an error, busy, its circuit open)
/// signs nobody out of CPM: the API says it failed, the page comes without
/// the permissions, and the next view has them again. Only a token the
/// operator rejects ends the session.
#[tokio::test]
async fn an_operator_failure_keeps_the_cpm_session() {
    let app = spawn_app_with(|c| c.sessions.otp_resend = std::time::Duration::from_secs(0)).await;
    let cookie = cpm_sign_in(&app, &app, AMINA).await;
    fail_next(&app, "cpm/permissions", 500, None).await;
    let failed = app.client.get(app.url("/api/cpm/permissions")).header("cookie", &cookie).send().await.unwrap();
    assert_eq!(failed.status(), StatusCode::BAD_GATEWAY, "the operator's failure, not a signed-out session");
    assert!(failed.headers().get(SET_COOKIE).is_none(), "the session cookie is not cleared");
    fail_next(&app, "cpm/permissions", 500, None).await;
    let (status, _, html) = masked_page(&app, CPM_PAGE, &cookie, "gzip").await;
    assert_eq!(status, StatusCode::OK);
    assert!(!html.contains("aria-pressed="), "no permissions while the operator fails");
    let (_, _, html) = masked_page(&app, CPM_PAGE, &cookie, "gzip").await;
    assert!(html.contains("aria-pressed="), "the same session sees its permissions again");
    let again = app.client.get(app.url("/api/cpm/permissions")).header("cookie", &cookie).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::OK);
}

/// `cookie`'s CPM session withdraws its consent to marketing SMS.
async fn withdraw_marketing_sms(app: &TestApp, cookie: &str) {
    let response = app
        .client
        .put(app.url("/api/cpm/permissions/marketing-sms"))
        .header("cookie", cookie)
        .header("sec-fetch-site", "same-origin")
        .json(&bodies::permission(false))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}
