//! The account page of a signed-in subscriber is the page for their kind,
//! kept for everyone, with their own part rendered alone and put in
//! (`server/src/pages/account.rs`): byte for byte the page a whole render
//! for them gives, in every state it shows, never another's part, gone at
//! logout, and never an error page when their part cannot be rendered.

use futures::StreamExt;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{
    AMINA, BARAKA, JUMA, NEEMA, TestApp, Visitor, bundle_wrapping_render, counting_bundle, embedded_page_data,
    fail_next, first_difference, hold_next, masked_page, render_number, spawn_app_with, spawn_bundle_with,
    spliced_and_rendered,
};

/// The addresses of the account page a subscriber can be shown, with and
/// without JavaScript: the page, a bundle chosen by a "Buy" link, and the
/// purchase's confirmation step (for themselves, for a friend, paid by
/// M-Pesa, bought again, and a friend's number that is none).
const ADDRESSES: &[&str] = &[
    "/account",
    "/account?bundleId=data-daily-1gb",
    "/account?step=confirm&bundleId=data-daily-1gb&recipient=self&subscriber=&purchaseChannel=AIRTIME",
    "/account?step=confirm&bundleId=data-weekly-2gb&recipient=friend&subscriber=0754000002&purchaseChannel=MPESA",
    "/account?step=confirm&bundleId=data-daily-1gb&recipient=self&subscriber=&purchaseChannel=AIRTIME&again=true",
    "/account?step=confirm&bundleId=data-daily-1gb&recipient=friend&subscriber=07ab&purchaseChannel=AIRTIME",
];

/// Signs `number` in at `app`, whose operator is `operator`'s sandbox: its session cookie.
async fn sign_in(app: &TestApp, operator: &TestApp, number: &str) -> String {
    Visitor::new(app).sign_in_with_code_from(&operator.url("/sandbox"), number).await.1
}

/// The same address for both servers, spliced and rendered, compared.
async fn same_page(
    spliced: &TestApp,
    spliced_cookie: &str,
    rendered: &TestApp,
    rendered_cookie: &str,
    path: &str,
    arm: impl AsyncFn(),
) -> String {
    let mut first = None;
    for encoding in ["gzip", "identity"] {
        arm().await;
        let (status, cache_control, html) = masked_page(spliced, path, spliced_cookie, encoding).await;
        arm().await;
        let (rendered_status, _, rendered_html) = masked_page(rendered, path, rendered_cookie, encoding).await;
        assert_eq!((status, rendered_status), (StatusCode::OK, StatusCode::OK), "{path}");
        assert_eq!(cache_control, "private, no-store", "{path}");
        assert!(html == rendered_html, "{path} ({encoding}) {}", first_difference(&html, &rendered_html));
        first.get_or_insert(html);
    }
    first.unwrap()
}

#[tokio::test]
async fn the_account_page_is_byte_for_byte_the_page_rendered_for_the_subscriber_in_every_state() {
    let (spliced, rendered) = spliced_and_rendered().await;
    let nothing = async || {};
    // Balances loaded (with M-Pesa), postpaid, a minor with no M-Pesa.
    for (number, name) in [(AMINA, "Amina Mwakyusa"), (NEEMA, "Neema Mushi"), (BARAKA, "Baraka Said")] {
        let (spliced_cookie, rendered_cookie) =
            (sign_in(&spliced, &spliced, number).await, sign_in(&rendered, &spliced, number).await);
        for lang in ["", "/sw"] {
            for address in ADDRESSES {
                let path = format!("{lang}{address}");
                let html = same_page(&spliced, &spliced_cookie, &rendered, &rendered_cookie, &path, nothing).await;
                assert!(html.contains(&format!("<dd>{name}</dd>")), "{path}: {name}'s details");
                assert!(html.contains("airtime-balance"), "{path}: balances");
                assert_eq!(embedded_page_data(&html)["subscriber"]["names"], name, "{path}");
            }
        }
    }
    // Balances that failed, and balances late past the budget.
    let (spliced_cookie, rendered_cookie) =
        (sign_in(&spliced, &spliced, JUMA).await, sign_in(&rendered, &spliced, JUMA).await);
    let failed = async || fail_next(&spliced, "api/v1/gsm-config/airtime-balance", 500, None).await;
    let late = async || {
        // The call held back for the view before has answered (and left nothing kept).
        tokio::time::sleep(std::time::Duration::from_millis(700)).await;
        hold_next(&spliced, "api/v1/gsm-config/bundle-balance", std::time::Duration::from_millis(1500)).await;
    };
    for lang in ["", "/sw"] {
        for address in [ADDRESSES[0], ADDRESSES[2]] {
            let path = format!("{lang}{address}");
            let pages = [
                same_page(&spliced, &spliced_cookie, &rendered, &rendered_cookie, &path, failed).await,
                same_page(&spliced, &spliced_cookie, &rendered, &rendered_cookie, &path, late).await,
            ];
            tokio::time::sleep(std::time::Duration::from_millis(700)).await;
            for html in pages {
                assert!(html.contains("balances-unavailable"), "{path}: the balances unavailable");
                assert!(embedded_page_data(&html)["subscriber"]["balance"].is_null(), "{path}");
                assert!(html.contains("<dd>Juma Kassim</dd>"), "{path}: still the details");
            }
        }
    }
}

#[tokio::test]
async fn account_views_render_only_the_subscribers_part() {
    let app =
        spawn_bundle_with(counting_bundle(), |c| c.operator.account_cache = std::time::Duration::from_secs(0)).await;
    let (_, amina) = Visitor::new(&app).sign_in_keeping_cookie(AMINA).await;
    let (_, juma) = Visitor::new(&app).sign_in_keeping_cookie(JUMA).await;
    let (_, _, first) = masked_page(&app, "/account", &amina, "gzip").await;
    let rendered = render_number(&first);
    for _ in 0..3 {
        for cookie in [&amina, &juma] {
            let (_, _, html) = masked_page(&app, "/account", cookie, "gzip").await;
            assert_eq!(render_number(&html), rendered, "the page for their kind, rendered once for both");
        }
    }
}

#[tokio::test]
async fn two_subscribers_interleaved_never_see_each_others_account() {
    let app = spawn_app_with(|c| {
        c.operator.account_cache = std::time::Duration::from_secs(0);
        c.pages.renders_per_address = Some(8);
    })
    .await;
    let (_, amina) = Visitor::new(&app).sign_in_keeping_cookie(AMINA).await;
    let (_, juma) = Visitor::new(&app).sign_in_keeping_cookie(JUMA).await;
    let views = futures::stream::iter(0..80).map(|n| {
        let (cookie, own, other) = if n % 2 == 0 {
            (&amina, ("Amina Mwakyusa", "0754 000 001"), ("Juma Kassim", "0754 000 002"))
        } else {
            (&juma, ("Juma Kassim", "0754 000 002"), ("Amina Mwakyusa", "0754 000 001"))
        };
        let path = ["/account", "/sw/account", "/account?bundleId=data-daily-1gb"][n / 2 % 3];
        let encoding = ["gzip", "identity"][n / 3 % 2];
        let app = &app;
        async move {
            let (status, _, html) = masked_page(app, path, cookie, encoding).await;
            assert_eq!(status, StatusCode::OK, "{path}");
            assert!(
                html.contains(&format!("<dd>{}</dd>", own.0)) && html.contains(&format!("<dd>{}</dd>", own.1)),
                "{path}: {}'s details",
                own.0
            );
            assert!(!html.contains(other.0) && !html.contains(other.1), "{path}: {}'s page shows {}", own.0, other.0);
            assert_eq!(embedded_page_data(&html)["subscriber"]["names"], own.0, "{path}");
        }
    });
    views.buffer_unordered(6).collect::<Vec<()>>().await;
}

#[tokio::test]
async fn logging_out_takes_the_account_off_at_once() {
    let app = spawn_app_with(|_| {}).await;
    let visitor = Visitor::new(&app);
    let (_, cookie) = visitor.sign_in_keeping_cookie(AMINA).await;
    let (_, _, signed_in) = masked_page(&app, "/account", &cookie, "gzip").await;
    assert!(signed_in.contains("<dd>Amina Mwakyusa</dd>"));
    let (status, _, _) = visitor.post("/api/auth/logout", json!({})).await;
    assert_eq!(status, StatusCode::OK);
    let (_, _, anonymous) = masked_page(&app, "/account", "", "gzip").await;
    for encoding in ["gzip", "identity"] {
        let (status, cache_control, html) = masked_page(&app, "/account", &cookie, encoding).await;
        assert_eq!(status, StatusCode::OK);
        assert!(!html.contains("Amina") && !html.contains("0754 000 001"), "the cookie kept from before the logout");
        assert!(cache_control.starts_with("public"), "{cache_control}");
        assert_eq!(html, anonymous, "the sign-in page for everyone");
    }
}

/// A personal part that throws: the page still comes, with the balances
/// unavailable (and the page asking for them again), never an error page.
#[tokio::test]
async fn a_personal_part_that_fails_to_render_leaves_the_balances_unavailable() {
    let app = spawn_bundle_with(
        bundle_wrapping_render(
            "(render) => (request) => { if (request.part) throw new Error('broken part'); return render(request); }",
        ),
        |_| {},
    )
    .await;
    let (_, cookie) = Visitor::new(&app).sign_in_keeping_cookie(AMINA).await;
    for path in ["/account", "/sw/account"] {
        for encoding in ["gzip", "identity"] {
            let (status, _, html) = masked_page(&app, path, &cookie, encoding).await;
            assert_eq!(status, StatusCode::OK, "{path}");
            assert!(html.contains("balances-unavailable"), "{path}: the balances unavailable");
            assert!(
                html.contains("<dd>Amina Mwakyusa</dd>") && html.contains("<dd>0754 000 001</dd>"),
                "{path}: the details still"
            );
            assert!(!html.contains('\u{E000}'), "{path}: no slot left");
            let subscriber = &embedded_page_data(&html)["subscriber"];
            assert!(subscriber["balance"].is_null(), "{path}: the page asks for the balances again");
            assert_eq!(subscriber["names"], "Amina Mwakyusa");
        }
    }
}
