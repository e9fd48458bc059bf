//! The same-origin guard as the browsers of cheap phones meet it, over real
//! HTTP: the header sets KaiOS 2.5 (Gecko 48), NetSurf 3.10 and Lynx 2.9
//! send with a form post, and a cross-site attacker's. Small engines send a
//! same-site `Referer` and no `Origin`; Lynx sends nothing at all from an
//! address with a query, and then the browser session's token alone
//! vouches for the post.

use reqwest::StatusCode;
use reqwest::header::{LOCATION, SET_COOKIE};

use crate::helpers::{AMINA, JUMA, TestApp, bodies, embedded_page_data, latest_code, spawn_app};

const KAIOS: &str = "Mozilla/5.0 (Mobile; Nokia 8110 4G; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/2.5";
const NETSURF: &str = "NetSurf/3.10 (Linux)";
const LYNX: &str = "Lynx/2.9.0dev.12 libwww-FM/2.14 SSL-MM/1.4.1 GNUTLS/3.7.9";

/// A browser without JavaScript: keeps cookies, posts forms, sends the
/// headers it is given and nothing else.
struct SmallBrowser {
    client: reqwest::Client,
    base: String,
    /// Every `Set-Cookie` the site sent it.
    set_cookies: std::sync::Mutex<Vec<String>>,
}

impl SmallBrowser {
    fn new(app: &TestApp, agent: &str) -> SmallBrowser {
        let client = reqwest::Client::builder()
            .cookie_store(true)
            .user_agent(agent)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        SmallBrowser { client, base: app.address.clone(), set_cookies: Default::default() }
    }

    fn keep_cookies(&self, response: &reqwest::Response) {
        let mut kept = self.set_cookies.lock().unwrap();
        kept.extend(response.headers().get_all(SET_COOKIE).iter().map(|value| value.to_str().unwrap().to_owned()));
    }

    async fn get(&self, path: &str) -> String {
        let response = self.client.get(format!("{}{path}", self.base)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        self.keep_cookies(&response);
        response.text().await.unwrap()
    }

    /// A form post with these headers; answers the redirect's address.
    async fn post(&self, path: &str, headers: &[(&str, String)], fields: &[(&str, &str)]) -> String {
        let mut request = self
            .client
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(serde_urlencoded::to_string(fields).unwrap());
        for (name, value) in headers {
            request = request.header(*name, value);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), StatusCode::SEE_OTHER, "a form post is answered with a redirect: {path}");
        self.keep_cookies(&response);
        response.headers()[LOCATION].to_str().unwrap().to_owned()
    }

    /// The page a redirect leads to, and the notice it shows.
    async fn notice_at(&self, location: &str) -> (String, serde_json::Value) {
        let html = self.get(location).await;
        let notice = embedded_page_data(&html)["notice"].clone();
        (html, notice)
    }

    fn referer(&self, path: &str) -> Vec<(&'static str, String)> {
        vec![("referer", format!("{}{path}", self.base))]
    }
}

/// The value of the first hidden `csrf` field of `html`.
fn token_in(html: &str) -> Option<String> {
    let at = html.find(r#"name="csrf" value=""#)? + r#"name="csrf" value=""#.len();
    Some(html[at..at + html[at..].find('"')?].to_owned())
}

#[tokio::test]
async fn kaios_and_netsurf_sign_in_with_the_referer_they_send() {
    let app = spawn_app().await;
    for (agent, number) in [(KAIOS, AMINA), (NETSURF, JUMA)] {
        let browser = SmallBrowser::new(&app, agent);
        let location = browser
            .post(
                "/api/auth/request-otp",
                &browser.referer("/sw/account"),
                &[("msisdn", number), ("lang", "sw"), ("returnTo", "/sw/account")],
            )
            .await;
        assert!(location.starts_with("/sw/account?step=code"), "{agent}: {location}");
        // The code step's address has a query: these engines still send its Referer.
        let code = latest_code(&app, number).await;
        let back = format!("/sw/account?step=code&msisdn={number}");
        let location = browser
            .post(
                "/api/auth/validate-otp",
                &browser.referer(&back),
                &[("msisdn", number), ("code", &code), ("returnTo", &back)],
            )
            .await;
        assert_eq!(location, "/sw/account", "{agent}: signed in");
        let page = browser.get("/sw/account").await;
        assert!(embedded_page_data(&page)["subscriber"]["msisdn"].is_string(), "{agent}: the account page is theirs");
    }
}

/// Lynx sends a `Referer` from the sign-in page but none from the code
/// step (`?step=code`) or the purchase (`?bundleId=`): every post from
/// there goes through on the token its page carries.
#[tokio::test]
async fn lynx_signs_in_and_buys_for_a_friend_with_the_token_alone() {
    let app = spawn_app().await;
    let lynx = SmallBrowser::new(&app, LYNX);
    let sign_in = lynx.get("/sw/account").await;
    assert_eq!(token_in(&sign_in), None, "a page for everyone carries no token");
    let location = lynx
        .post(
            "/api/auth/request-otp",
            &lynx.referer("/sw/account"),
            &[("msisdn", "0754 000 001"), ("lang", "sw"), ("returnTo", "/sw/account")],
        )
        .await;
    let (code_step, notice) = lynx.notice_at(&location).await;
    assert_eq!(notice["type"], "info", "the code was sent: {notice}");
    let token = token_in(&code_step).expect("the code step, rendered for this browser, carries its token");

    let code = latest_code(&app, AMINA).await;
    let fields = [("msisdn", "0754000001"), ("code", code.as_str()), ("lang", "sw"), ("returnTo", location.as_str())];
    // Without the token, nothing said of where the post comes from: sent back, asked to send again.
    let refused = lynx.post("/api/auth/validate-otp", &[], &fields).await;
    assert_eq!(refused, location, "back to the code step");
    let (again, notice) = lynx.notice_at(&refused).await;
    assert_eq!(notice["key"], "sendAgain", "{notice}");
    assert_eq!(token_in(&again).as_deref(), Some(token.as_str()), "the same token for the same browser session");
    let with_token: Vec<_> = fields.iter().copied().chain([("csrf", token.as_str())]).collect();
    let location = lynx.post("/api/auth/validate-otp", &[], &with_token).await;
    assert_eq!(location, "/sw/account", "signed in with the token alone");

    // The account page is the page for every subscriber of a kind with this one's parts put in: the token too.
    let chosen = "/sw/account?bundleId=data-daily-1gb";
    let account = lynx.get(chosen).await;
    assert!(embedded_page_data(&account)["subscriber"]["msisdn"].is_string());
    assert_eq!(token_in(&account).as_deref(), Some(token.as_str()), "the purchase form carries the token");
    assert!(!account.contains('\u{E000}'), "no slot left in the page");
    let purchase = [
        ("bundleId", "data-daily-1gb"),
        ("purchaseChannel", "AIRTIME"),
        ("recipient", "friend"),
        ("subscriber", "0754 000 002"),
        ("lang", "sw"),
        ("returnTo", chosen),
        ("csrf", token.as_str()),
    ];
    let location = lynx.post("/api/bundles/purchase", &[], &purchase).await;
    let (_, notice) = lynx.notice_at(&location).await;
    assert_eq!(
        (notice["key"].as_str(), notice["params"]["recipient"].as_str().is_some()),
        (Some("purchaseReceivedFor"), true),
        "{notice}"
    );

    // A page for everyone, served to the subscriber with their parts put in: the logout form's token too.
    let content = lynx.get("/sw/voice-sms?utm=x").await;
    assert_eq!(token_in(&content).as_deref(), Some(token.as_str()), "the header's logout form carries the token");
    let location = lynx.post("/api/auth/logout", &[], &[("lang", "sw"), ("csrf", token.as_str())]).await;
    assert_eq!(location, "/sw", "logged out");

    // Lynx reads `HttpOnly; SameSite=Lax; Path=/` as a second cookie named SameSite: Path comes first.
    let set_cookies = lynx.set_cookies.lock().unwrap().clone();
    assert!(
        set_cookies.iter().any(|c| c.starts_with("csrf=")) && set_cookies.iter().any(|c| c.starts_with("session=")),
        "{set_cookies:?}"
    );
    for set_cookie in &set_cookies {
        let path = set_cookie.find("; Path=").unwrap_or_else(|| panic!("a path: {set_cookie}"));
        assert!(set_cookie.find("; SameSite").is_none_or(|same_site| path < same_site), "{set_cookie}");
        assert!(set_cookie.find("; HttpOnly").is_none_or(|http_only| path < http_only), "{set_cookie}");
    }
}

/// What an attacker's page can make a signed-in subscriber's browser send:
/// their cookies, with another site's `Origin` or `Referer`, or with
/// nothing, and without the token, which it cannot read.
#[tokio::test]
async fn cross_site_posts_stay_refused_whatever_they_carry() {
    let app = spawn_app().await;
    let victim = SmallBrowser::new(&app, KAIOS);
    let location = victim
        .post("/api/auth/request-otp", &victim.referer("/account"), &[("msisdn", AMINA), ("returnTo", "/account")])
        .await;
    let code_step = victim.get(&location).await;
    let token = token_in(&code_step).expect("a token");
    let code = latest_code(&app, AMINA).await;
    victim
        .post(
            "/api/auth/validate-otp",
            &victim.referer("/account"),
            &[("msisdn", AMINA), ("code", &code), ("returnTo", "/account")],
        )
        .await;

    let purchase = [("bundleId", "data-daily-1gb"), ("purchaseChannel", "AIRTIME"), ("returnTo", "/account")];
    let other_browser = SmallBrowser::new(&app, LYNX);
    other_browser
        .post(
            "/api/auth/request-otp",
            &other_browser.referer("/account"),
            &[("msisdn", JUMA), ("returnTo", "/account")],
        )
        .await;
    let stolen_elsewhere = token_in(&other_browser.get("/account?step=code").await).expect("another browser's token");
    let evil = "https://evil.example";
    type Headers<'a> = Vec<(&'a str, String)>;
    let attacks: [(&str, Headers, Option<&str>, &str); 6] = [
        ("another site's Origin", vec![("origin", evil.into())], None, "crossSite"),
        ("another site's Referer", vec![("referer", format!("{evil}/win"))], None, "crossSite"),
        (
            "a fetch from another site",
            vec![("sec-fetch-site", "cross-site".into()), ("origin", evil.into())],
            None,
            "crossSite",
        ),
        ("nothing at all", vec![], None, "sendAgain"),
        ("another browser's token", vec![], Some(stolen_elsewhere.as_str()), "sendAgain"),
        ("the right token from another site", vec![("origin", evil.into())], Some(token.as_str()), "crossSite"),
    ];
    for (what, headers, csrf, key) in attacks {
        let fields: Vec<_> = purchase.iter().copied().chain(csrf.map(|token| ("csrf", token))).collect();
        let location = victim.post("/api/bundles/purchase", &headers, &fields).await;
        let (_, notice) = victim.notice_at(&location).await;
        assert_eq!(notice["key"], key, "{what}: {notice}");
    }
    // Scripts are told in JSON, and forms of the forms API are sent back too.
    let script = app
        .client
        .post(app.url("/api/bundles/purchase"))
        .header("origin", evil)
        .json(&serde_json::json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(script.status(), StatusCode::FORBIDDEN);
    let form = app
        .client
        .post(app.url("/api/forms/business-community"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("name=x&lang=sw&returnTo=%2Fsw%2Fvodacom-business%2Fcommunity")
        .send()
        .await
        .unwrap();
    assert_eq!(
        (form.status(), form.headers()[LOCATION].to_str().unwrap()),
        (StatusCode::SEE_OTHER, "/sw/vodacom-business/community")
    );
}

/// The multipart foundation application of a browser whose post says
/// nothing of where it comes from goes through on the token in its body.
#[tokio::test]
async fn a_multipart_form_is_vouched_for_by_its_token_field() {
    let app = spawn_app().await;
    let lynx = SmallBrowser::new(&app, LYNX);
    lynx.post("/api/auth/request-otp", &lynx.referer("/account"), &[("msisdn", AMINA), ("returnTo", "/account")]).await;
    let token = token_in(&lynx.get("/account?step=code").await).expect("a token");
    let post = |csrf: Option<&str>| {
        let mut form = reqwest::multipart::Form::new();
        if let Some(csrf) = csrf {
            form = form.text("csrf", csrf.to_owned());
        }
        form = form.text("lang", "en").text("returnTo", "/foundation/apply").text("applicants[0][name]", "");
        lynx.client.post(app.url("/api/forms/foundation-application")).multipart(form).send()
    };
    let refused = post(None).await.unwrap();
    assert_eq!(
        (refused.status(), refused.headers()[LOCATION].to_str().unwrap()),
        (StatusCode::SEE_OTHER, "/foundation/apply")
    );
    let taken = post(Some(&token)).await.unwrap();
    assert_eq!(
        taken.status(),
        StatusCode::UNPROCESSABLE_ENTITY,
        "read and answered by the form: its fields are wrong, not its origin"
    );
}

/// A script in a browser that sends no `Origin` or `Referer` posts JSON
/// with the token in its header: the guard hands the body on whole.
#[tokio::test]
async fn a_scripts_json_is_vouched_for_by_its_token_header() {
    let app = spawn_app().await;
    let browser = SmallBrowser::new(&app, KAIOS);
    browser
        .post("/api/auth/request-otp", &browser.referer("/account"), &[("msisdn", AMINA), ("returnTo", "/account")])
        .await;
    let token = token_in(&browser.get("/account?step=code").await).expect("a token");
    let post = |token: Option<&str>| {
        let mut request = browser.client.post(app.url("/api/auth/request-otp")).json(&bodies::number(JUMA));
        if let Some(token) = token {
            request = request.header("x-csrf-token", token);
        }
        request.send()
    };
    let refused = post(None).await.unwrap();
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let taken = post(Some(&token)).await.unwrap();
    assert_eq!(taken.status(), StatusCode::OK, "the number in its body was read");
    let answer: serde_json::Value = taken.json().await.unwrap();
    assert_eq!(answer["step"], "code");
}
