//! Subscriber self-service over real HTTP against the built-in sandbox: every
//! endpoint, every failure a visitor can meet (through the sandbox's fail-next switch),
//! throttles, cross-site refusal and cookie flags.

use reqwest::StatusCode;
use reqwest::header::{CACHE_CONTROL, ETAG, LOCATION, SET_COOKIE};
use serde_json::{Value, json};

use server::contract::api::PurchaseForm;

use crate::helpers::bodies::{self, purchase, purchase_for};
use crate::helpers::{
    AMINA, JUMA, Replay, Visitor, embedded_page_data, fail_next, latest_code, spawn_app, spawn_app_with,
};

/// The sandbox's switches change what every visitor gets: a page of another
/// site, or a request with no origin at all, may not use them.
#[tokio::test]
async fn the_sandbox_switches_refuse_cross_site_requests() {
    let app = spawn_app().await;
    let arm = json!({ "status": 500, "path": "api/v1/gsm-static-bundles/purchase" });
    for (header, value) in [("sec-fetch-site", "cross-site"), ("origin", "https://evil.example"), ("x-nothing", "")] {
        let response =
            app.client.post(app.url("/sandbox/fail-next")).header(header, value).json(&arm).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{header}: {value}");
    }
    let from_the_site = app
        .client
        .post(app.url("/sandbox/fail-next"))
        .header("origin", app.address.as_str())
        .json(&arm)
        .send()
        .await
        .unwrap();
    assert!(from_the_site.status().is_success());
}

#[tokio::test]
async fn sign_in_with_a_code_sets_an_encrypted_http_only_cookie() {
    let app = spawn_app().await;
    let visitor = Visitor::new(&app);
    let (status, body, _) = visitor.post("/api/auth/request-otp", bodies::number("+255 754 000 001")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["msisdn"], "255754000001");
    assert_eq!(body["notice"]["type"], "info");
    let code = latest_code(&app, AMINA).await;
    let (status, body, headers) = visitor.post("/api/auth/validate-otp", bodies::code(AMINA, &code)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["subscriber"]["names"], "Amina Mwakyusa");
    assert_eq!(body["subscriber"]["paymentType"], "PREPAID");
    assert_eq!(body["subscriber"]["balance"]["mainBalance"], 12500.0);
    let cookie = headers[SET_COOKIE].to_str().unwrap();
    assert!(
        cookie.starts_with("session=")
            && cookie.contains("HttpOnly")
            && cookie.contains("SameSite=Lax")
            && cookie.contains("Path=/"),
        "{cookie}"
    );
    assert!(!cookie.contains(&code) && !cookie.contains("255754000001"), "the cookie is encrypted");
    // The code is single use.
    let (status, _, _) = visitor.post("/api/auth/validate-otp", bodies::code(AMINA, &code)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // A signed-in page names the subscriber in its first HTML (from the session: no operator call).
    let html = visitor.client.get(app.url("/")).send().await.unwrap().text().await.unwrap();
    let data = embedded_page_data(&html);
    assert_eq!(data["subscriber"]["names"], "Amina Mwakyusa");
}

#[tokio::test]
async fn over_https_the_cookie_is_secure_and_host_prefixed() {
    let app = spawn_app_with(|c| c.site_url = "https://www.example.co.tz".parse().unwrap()).await;
    let visitor = Visitor::new(&app);
    visitor.post("/api/auth/request-otp", bodies::number(AMINA)).await;
    let code = latest_code(&app, AMINA).await;
    let (_, _, headers) = visitor.post("/api/auth/validate-otp", bodies::code(AMINA, &code)).await;
    let cookie = headers[SET_COOKIE].to_str().unwrap();
    assert!(cookie.starts_with("__Host-session=") && cookie.contains("Secure"), "{cookie}");
    let hsts = app.get("/").await.headers()["strict-transport-security"].to_str().unwrap().to_owned();
    assert!(hsts.contains("max-age=31536000"));
}

/// (Signed out, `/api/account` is 401: `account_answers_are_never_stored_by_caches`.)
#[tokio::test]
async fn a_purchase_for_a_friend_moves_both_balances_and_names_the_friend() {
    let app = spawn_app().await;
    let catalogue: Value =
        app.client.get(app.url("/api/bundles")).header("x-site-lang", "sw").send().await.unwrap().json().await.unwrap();
    let bundle = &catalogue["bundles"][1];
    let (price, bundle_id) = (bundle["price"].as_f64().unwrap(), bundle["id"].as_str().unwrap().to_owned());

    let juma = Visitor::new(&app);
    let juma_before = juma.sign_in(JUMA).await;
    let amina = Visitor::new(&app);
    let amina_before = amina.sign_in(AMINA).await;
    let (status, body, _) = amina.post("/api/bundles/purchase", purchase_for(&bundle_id, "AIRTIME", JUMA)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // The success toast's text, and what was bought for whom (in the visitor's language).
    let name = catalogue["bundles"][1]["name"].as_str().unwrap();
    let english: Value = app.client.get(app.url("/api/bundles")).send().await.unwrap().json().await.unwrap();
    assert_ne!(name, english["bundles"][1]["name"], "the catalogue in Swahili");
    assert_eq!(
        body["notice"],
        json!({ "type": "warning", "key": "purchaseReceivedFor", "params": { "bundle": english["bundles"][1]["name"], "recipient": "0754 000 002" } })
    );
    assert_eq!(body["reloadAfterMs"], 5000);
    let (_, amina_after) = amina.get("/api/account").await;
    assert_eq!(
        amina_after["subscriber"]["balance"]["mainBalance"].as_f64().unwrap(),
        amina_before["balance"]["mainBalance"].as_f64().unwrap() - price
    );
    let (_, juma_after) = juma.get("/api/account").await;
    assert_ne!(
        juma_after["subscriber"]["balance"]["bundle"], juma_before["balance"]["bundle"],
        "the friend got the bundle"
    );
    assert_eq!(
        juma_after["subscriber"]["balance"]["mainBalance"], juma_before["balance"]["mainBalance"],
        "the friend paid nothing"
    );
}

/// A friend's number left in the form is ignored when buying for oneself.
#[tokio::test]
async fn a_friends_number_left_in_the_form_is_ignored_when_buying_for_oneself() {
    let app = spawn_app().await;
    let amina = Visitor::new(&app);
    let before = amina.sign_in(AMINA).await;
    let leftover = PurchaseForm {
        subscriber: Some("0799".to_owned()),
        ..bodies::purchase_with_recipient("data-daily-1gb", "AIRTIME", "self")
    };
    let (status, _, _) = amina.post("/api/bundles/purchase", leftover).await;
    assert_eq!(status, StatusCode::OK, "the leftover number is not even parsed");
    let (_, after) = amina.get("/api/account").await;
    assert_eq!(
        after["subscriber"]["balance"]["mainBalance"].as_f64().unwrap(),
        before["balance"]["mainBalance"].as_f64().unwrap() - 1_000.0,
        "the day's gigabyte, bought for oneself"
    );
}

#[tokio::test]
async fn every_purchase_outcome_is_told_to_the_visitor() {
    let app = spawn_app().await;
    let amina = Visitor::new(&app);
    amina.sign_in(AMINA).await;
    let buy = purchase("data-daily-1gb", "MPESA");
    // Other error: the server's message in the visitor's language.
    fail_next(
        &app,
        "api/v1/gsm-static-bundles/purchase",
        402,
        Some(json!({ "message": { "en": "Low balance", "sw": "Salio halitoshi" } })),
    )
    .await;
    let (status, body, _) = amina.post_in("/api/bundles/purchase", buy.clone(), "sw").await;
    assert_eq!((status, body["notice"]["text"].as_str()), (StatusCode::PAYMENT_REQUIRED, Some("Salio halitoshi")));
    // Other error without a message: "An Error Has occurred".
    // The operator failing is a bad gateway to the browser, not this server's 500.
    fail_next(&app, "api/v1/gsm-static-bundles/purchase", 500, Some(json!({}))).await;
    let (status, body, _) = amina.post("/api/bundles/purchase", buy.clone()).await;
    assert_eq!(body["notice"], json!({ "type": "error", "key": "errorOccurred" }));
    assert_eq!(status, StatusCode::BAD_GATEWAY);
    // The operator's own failure may have bought it: the same again needs confirming.
    let (status, body, _) = amina.post("/api/bundles/purchase", buy.clone()).await;
    assert_eq!((status, &body["notice"]["key"]), (StatusCode::CONFLICT, &json!("purchaseRepeat")));
    let again = PurchaseForm { again: true, ..buy.clone() };
    // Unexpected failure: an answer that is not the contract's.
    fail_next(&app, "api/v1/gsm-static-bundles/purchase", 200, Some(json!({ "unexpected": true }))).await;
    let (status, body, _) = amina.post("/api/bundles/purchase", again.clone()).await;
    assert_eq!((status, &body["notice"]["key"]), (StatusCode::BAD_GATEWAY, &json!("notRight")));
    // Success.
    let (_, body, _) = amina.post("/api/bundles/purchase", again.clone()).await;
    assert_eq!(body["notice"]["key"], "purchaseReceivedFor");
    // 401: "Your session has expired", signed out, and left on the page:
    // the page opens the login dialog there, the choice kept.
    fail_next(&app, "api/v1/gsm-static-bundles/purchase", 401, None).await;
    let (status, body, headers) = amina.post_in("/api/bundles/purchase", again, "sw").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(body["notice"]["key"], "sessionExpired");
    assert!(body.get("redirect").is_none(), "not sent away from the page: {body}");
    assert!(headers[SET_COOKIE].to_str().unwrap().contains("Max-Age=0"), "the session cookie is removed");
    assert_eq!(amina.get("/api/account").await.0, StatusCode::UNAUTHORIZED);
}

/// A visitor whose session ended (here: logged out in another tab) and who
/// still buys is told their session expired, not to "log in first", and
/// stays on the page; one who never signed in is told to log in.
#[tokio::test]
async fn buying_after_the_session_ended_says_it_expired() {
    let app = spawn_app().await;
    let amina = Visitor::new(&app);
    let (_, cookie) = amina.sign_in_keeping_cookie(AMINA).await;
    amina.post("/api/auth/logout", json!({})).await;
    let other_tab = Visitor::new(&app);
    let buy = bodies::purchase_with_recipient("data-daily-1gb", "AIRTIME", "self");
    let response = other_tab
        .client
        .post(app.url("/api/bundles/purchase"))
        .header("cookie", cookie)
        .header("sec-fetch-site", "same-origin")
        .json(&buy)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["notice"]["key"], "sessionExpired", "{body}");
    assert!(body.get("redirect").is_none(), "{body}");
    let (status, body, _) = Visitor::new(&app).post("/api/bundles/purchase", buy).await;
    assert_eq!((status, &body["notice"]["key"]), (StatusCode::UNAUTHORIZED, &json!("signInFirst")));
}

#[tokio::test]
async fn every_code_request_and_check_failure_is_told_to_the_visitor() {
    let app = spawn_app().await;
    let visitor = Visitor::new(&app);
    fail_next(&app, "api/v1/auth/request-otp", 503, Some(json!({}))).await;
    let (_, body, _) = visitor.post("/api/auth/request-otp", bodies::number(AMINA)).await;
    assert_eq!(body["notice"], json!({ "type": "error", "key": "somethingWentWrong", "duration": 7000 }));
    fail_next(&app, "api/v1/auth/request-otp", 400, Some(json!({ "failure": { "reason": "Number barred" } }))).await;
    let (_, body, _) = visitor.post("/api/auth/request-otp", bodies::number(AMINA)).await;
    assert_eq!(body["notice"]["text"], "Number barred");
    // Validate 400: the server's message in the current language (the
    // failed requests sent nothing, so this one is not "too soon").
    let (status, _, _) = visitor.post("/api/auth/request-otp", bodies::number(AMINA)).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body, _) = visitor.post_in("/api/auth/validate-otp", bodies::code(AMINA, "000000"), "sw").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let text = body["notice"]["text"].as_str().unwrap();
    assert!(!text.is_empty() && !text.contains("code is wrong"), "Swahili: {text}");
    // Bad input is refused before any call, with a key the app translates.
    let (status, body, _) = visitor.post("/api/auth/request-otp", bodies::number("12345")).await;
    assert_eq!((status, &body["notice"]["key"]), (StatusCode::BAD_REQUEST, &json!("invalidMsisdn")));
    let (_, body, _) = visitor.post("/api/auth/validate-otp", bodies::code(AMINA, "12a456")).await;
    assert_eq!(body["notice"]["key"], "invalidCode");
}

#[tokio::test]
async fn balance_and_customer_details_failures() {
    let app = spawn_app().await;
    let amina = Visitor::new(&app);
    amina.sign_in(AMINA).await;
    fail_next(&app, "api/v1/gsm-config/airtime-balance", 500, None).await;
    let (status, body) = amina.get("/api/account").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["notice"]["key"], "balanceError");
    assert!(body["subscriber"]["balance"].is_null());
    // Customer details failing with 400 or more logs out.
    fail_next(&app, "api/v1/gsm-config/customer-details", 403, None).await;
    let (status, body) = amina.get("/api/account").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(body["redirect"], "/");
    assert_eq!(amina.get("/api/account").await.0, StatusCode::UNAUTHORIZED, "signed out");
}

#[tokio::test]
async fn the_modem_flow_signs_a_modem_in_by_its_alternative_number_and_buys_for_it() {
    let app = spawn_app().await;
    let amina = Visitor::new(&app);
    let (status, _, _) = amina.post("/api/modem/check", bodies::number("0754000010")).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "nobody looks up modems without signing in");
    amina.sign_in(AMINA).await;
    let (status, body, _) = amina.post("/api/modem/check", bodies::number("0754000010")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["alternativeMasked"], "2557•••••001", "the alternative number only masked");
    assert!(!body.to_string().contains("255754000001"), "{body}");
    fail_next(&app, "alternative-number", 500, None).await;
    let (_, body, _) = amina.post("/api/modem/check", bodies::number("0754000010")).await;
    assert_eq!(body["notice"]["key"], "somethingWentWrong");
    // The code goes to the alternative number the operator has, whatever the page says.
    let (status, body, _) = amina
        .post("/api/modem/request-otp", json!({ "msisdn": "0754000010", "alternativeMsisdn": "0754000002" }))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["notice"], json!({ "type": "warning", "key": "otpSent" }));
    assert_eq!((body["modems"].clone(), body["otps"].clone()), (json!(false), json!(true)));
    let code = latest_code(&app, AMINA).await;
    let buy_for_modem = PurchaseForm { for_modem: true, ..purchase("data-daily-1gb", "AIRTIME") };
    let (status, body, _) = amina.post("/api/bundles/purchase", buy_for_modem.clone()).await;
    assert_eq!(
        (status, &body["notice"]["key"]),
        (StatusCode::CONFLICT, &json!("signInFirst")),
        "no modem signed in: refused, not charged to Amina"
    );
    let (status, body, _) = amina.post("/api/modem/validate-otp", bodies::code("0754000010", &code)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["modemBundle"], true);
    let (status, body, _) = amina.post("/api/bundles/purchase", buy_for_modem).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

/// A modem without an alternative number: registering the signed-in
/// number needs the code sent to the modem's own line.
#[tokio::test]
async fn registering_an_alternative_number_needs_the_code_sent_to_the_modem() {
    let app = spawn_app().await;
    let amina = Visitor::new(&app);
    amina.sign_in(AMINA).await;
    let (status, _, _) = amina.post("/api/modem/check", bodies::number("0754000011")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, body, _) = amina.post("/api/alternative-number", bodies::code("0754000011", "123456")).await;
    assert!(status.is_client_error(), "no registration without the modem's code: {status} {body}");
    let (status, body, _) = amina.post("/api/alternative-number/request-otp", bodies::number("0754000011")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["notice"]["key"], "modemCodeSent");
    let code = latest_code(&app, "0754000011").await;
    let (status, body, _) = amina.post("/api/alternative-number", bodies::code("0754000011", &code)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["alternativeMasked"], "2557•••••001");
}

/// Whether a number is a subscriber cannot be read from the answers: a
/// second code request within the minute is refused alike, and buying for
/// a number that is no subscriber says nothing about it.
#[tokio::test]
async fn answers_do_not_tell_who_is_a_subscriber() {
    let app = spawn_app().await;
    let visitor = Visitor::new(&app);
    let not_a_subscriber = "0754999998";
    let mut answers = Vec::new();
    for number in [JUMA, not_a_subscriber] {
        let first = visitor.post("/api/auth/request-otp", bodies::number(number)).await;
        let second = visitor.post("/api/auth/request-otp", bodies::number(number)).await;
        answers.push(((first.0, first.1["notice"]["key"].clone()), (second.0, second.1["notice"].clone())));
    }
    assert_eq!(answers[0], answers[1], "subscriber and not: the same answers");
    assert_eq!(answers[0].1.0, StatusCode::TOO_MANY_REQUESTS);
    let amina = Visitor::new(&app);
    amina.sign_in(AMINA).await;
    let buy = PurchaseForm {
        subscriber: Some(not_a_subscriber.to_owned()),
        ..bodies::purchase_with_recipient("data-daily-1gb", "AIRTIME", "friend")
    };
    let (status, body, _) = amina.post("/api/bundles/purchase", buy).await;
    assert!(status.is_client_error(), "{status}");
    assert!(!body.to_string().to_lowercase().contains("subscriber"), "{body}");
}

/// Throttled code requests say how long to wait; without JavaScript the
/// page comes back with the number still in its field.
#[tokio::test]
async fn code_requests_are_throttled_per_number_saying_how_long_to_wait() {
    let app = spawn_app().await;
    let visitor = Visitor::new(&app);
    let (status, _, _) = visitor.post("/api/auth/request-otp", bodies::number(JUMA)).await;
    assert_eq!(status, StatusCode::OK);
    // Within the resend time: the rest of the minute (a minute at most).
    let (status, body, _) = visitor.post_in("/api/auth/request-otp", bodies::number(JUMA), "sw").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    let seconds: u64 = match body["notice"]["key"].as_str() {
        Some("codeWaitSeconds") => body["notice"]["params"]["seconds"].as_str().unwrap().parse().unwrap(),
        Some("codeWaitMinutes") => 60 * body["notice"]["params"]["minutes"].as_str().unwrap().parse::<u64>().unwrap(),
        _ => panic!("{body}"),
    };
    assert!((1..=60).contains(&seconds), "{body}");

    // Past the number's budget (3 in 10 minutes; no resend time here): a wait of minutes.
    let app = spawn_app_with(|config| config.sessions.otp_resend = std::time::Duration::from_secs(0)).await;
    let visitor = Visitor::new(&app);
    for _ in 0..3 {
        assert_eq!(visitor.post("/api/auth/request-otp", bodies::number(JUMA)).await.0, StatusCode::OK);
    }
    let (status, body, _) = visitor.post("/api/auth/request-otp", bodies::number(JUMA)).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        body["notice"],
        json!({ "type": "error", "key": "codeWaitMinutes", "params": { "minutes": "4" }, "duration": 7000 })
    );
    let form = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let response = form
        .post(app.url("/api/auth/request-otp"))
        .header("origin", app.address.as_str())
        .header("content-type", "application/x-www-form-urlencoded")
        .body("msisdn=0754+000+002&returnTo=%2Fsw%2Faccount%3FbundleId%3Ddata-daily-1gb&lang=sw")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        response.headers()[LOCATION],
        "/sw/account?bundleId=data-daily-1gb&msisdn=0754+000+002",
        "the number and the bundle chosen kept"
    );
}

#[tokio::test]
async fn state_changes_from_other_sites_are_refused() {
    let app = spawn_app().await;
    let body = bodies::number(AMINA);
    let url = app.url("/api/auth/request-otp");
    // With nothing said of where it comes from and no form token, the visitor is asked to send it again.
    type Header<'a> = (&'a str, &'a str);
    let cases: [(&str, Option<Header>, &str); 5] = [
        ("no headers at all", None, "sendAgain"),
        ("another origin", Some(("origin", "https://evil.example")), "crossSite"),
        ("another site's page", Some(("referer", "https://evil.example/win")), "crossSite"),
        ("cross-site fetch", Some(("sec-fetch-site", "cross-site")), "crossSite"),
        ("same-site subdomain", Some(("sec-fetch-site", "same-site")), "crossSite"),
    ];
    for (what, header, key) in cases {
        let mut request = app.client.post(&url).json(&body);
        if let Some((name, value)) = header {
            request = request.header(name, value);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{what}");
        let answer: Value = response.json().await.unwrap();
        assert_eq!(answer["notice"]["key"], key, "{what}");
    }
    let same_origin = app.client.post(&url).header("origin", app.address.as_str()).json(&body).send().await.unwrap();
    assert_eq!(same_origin.status(), StatusCode::OK);
}

#[tokio::test]
async fn without_javascript_forms_post_and_redirect_with_a_flash_message() {
    let app = spawn_app().await;
    let client =
        reqwest::Client::builder().cookie_store(true).redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let form = |pairs: &[(&str, &str)]| serde_urlencoded::to_string(pairs).unwrap();
    let post = |path: &str, body: String| {
        client
            .post(app.url(path))
            .header("origin", app.address.as_str())
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
    };
    let response =
        post("/api/auth/request-otp", form(&[("msisdn", "0754 000 001"), ("returnTo", "/sw/account"), ("lang", "sw")]))
            .await
            .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()[LOCATION], "/sw/account?step=code&msisdn=0754+000+001");
    let code = latest_code(&app, AMINA).await;
    let response = post(
        "/api/auth/validate-otp",
        form(&[
            ("msisdn", "0754000001"),
            ("code", &code),
            ("returnTo", "/sw/account?bundleId=x&step=code&msisdn=0754000001"),
        ]),
    )
    .await
    .unwrap();
    assert_eq!(
        response.headers()[LOCATION],
        "/sw/account?bundleId=x",
        "the sign-in step is over; the bundle chosen stays"
    );
    let response = post(
        "/api/bundles/purchase",
        form(&[
            ("bundleId", "data-daily-1gb"),
            ("purchaseChannel", "AIRTIME"),
            ("returnTo", "/sw/account"),
            ("lang", "sw"),
        ]),
    )
    .await
    .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    // The next page shows the outcome once.
    let html = client.get(app.url("/sw/voice-sms")).send().await.unwrap().text().await.unwrap();
    let notice = &embedded_page_data(&html)["notice"];
    assert_eq!(
        (notice["key"].as_str(), notice["params"]["bundle"].as_str()),
        (Some("purchaseReceivedFor"), Some("Intaneti ya Siku 1GB"))
    );
    let again = client.get(app.url("/sw/voice-sms")).send().await.unwrap().text().await.unwrap();
    assert!(embedded_page_data(&again)["notice"].is_null());
    let response = post("/api/auth/logout", form(&[("lang", "sw")])).await.unwrap();
    assert_eq!(response.headers()[LOCATION], "/sw");
}

#[tokio::test]
async fn customer_permission_management_has_its_own_sign_in() {
    let app = spawn_app().await;
    let visitor = Visitor::new(&app);
    let guarded = visitor.client.get(app.url("/customer-permission-management")).send().await.unwrap();
    assert_eq!(guarded.headers()[LOCATION], "/cpm-login");
    let (status, body, _) = visitor.post("/api/cpm/request-otp", bodies::number(AMINA)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["redirect"], "/cpm-otp?msisdn=255754000001");
    let code = latest_code(&app, AMINA).await;
    let (status, body, _) = visitor.post("/api/cpm/validate-otp", bodies::code(AMINA, &code)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let page = visitor.client.get(app.url("/customer-permission-management")).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let data = embedded_page_data(&page.text().await.unwrap());
    let permissions = data["cpm"]["permissions"].as_array().unwrap();
    assert!(permissions.len() >= 4);
    let first = permissions[0]["id"].as_str().map_or_else(|| permissions[0]["id"].to_string(), str::to_owned);
    let granted = permissions[0]["granted"].as_bool().unwrap();
    let response = visitor
        .client
        .put(app.url(&format!("/api/cpm/permissions/{first}")))
        .header("sec-fetch-site", "same-origin")
        .json(&bodies::permission(!granted))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let (_, after) = visitor.get("/api/cpm/permissions").await;
    assert_eq!(after["permissions"][0]["granted"], !granted);
}

/// The subscriber session is a different credential: it does not open CPM.
#[tokio::test]
async fn a_subscriber_session_does_not_open_customer_permission_management() {
    let app = spawn_app().await;
    let subscriber = Visitor::new(&app);
    subscriber.sign_in(JUMA).await;
    assert_eq!(subscriber.get("/api/cpm/permissions").await.0, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_cookie_saved_before_logout_is_refused_after_it() {
    let app = spawn_app().await;
    // Juma's browser signs in and out; a copy of its cookie tries to buy Amina a bundle.
    let juma = Visitor::new(&app);
    let (_, saved) = juma.sign_in_keeping_cookie(JUMA).await;
    let replay = Replay::new(&app, &saved);
    assert_eq!(replay.account().await, StatusCode::OK, "the copy works while the session lives");
    let (status, _, _) = juma.post("/api/auth/logout", json!({})).await;
    assert_eq!(status, StatusCode::OK);
    let amina = Visitor::new(&app);
    let before = amina.sign_in(AMINA).await;
    assert_eq!(replay.account().await, StatusCode::UNAUTHORIZED);
    assert_eq!(replay.buy(&purchase_for("data-daily-1gb", "AIRTIME", AMINA)).await, StatusCode::UNAUTHORIZED);
    assert_eq!(replay.buy(&bodies::daily_bundle_for_self()).await, StatusCode::UNAUTHORIZED);
    let (_, after) = amina.get("/api/account").await;
    assert_eq!(after["subscriber"]["balance"], before["balance"], "no bundle reached the friend");
}

#[tokio::test]
async fn signing_in_again_issues_a_new_id_and_the_old_one_stops_working() {
    let app = spawn_app().await;
    let visitor = Visitor::new(&app);
    let (_, first) = visitor.sign_in_keeping_cookie(AMINA).await;
    let (_, second) = visitor.sign_in_keeping_cookie(JUMA).await;
    assert_ne!(first, second);
    assert_eq!(Replay::new(&app, &first).account().await, StatusCode::UNAUTHORIZED);
    assert_eq!(Replay::new(&app, &second).account().await, StatusCode::OK);
    let (status, body) = visitor.get("/api/account").await;
    assert_eq!((status, &body["subscriber"]["names"]), (StatusCode::OK, &json!("Juma Kassim")));
}

#[tokio::test]
async fn an_idle_session_is_signed_out() {
    let app = spawn_app_with(|c| c.sessions.idle = std::time::Duration::from_secs(1)).await;
    let (_, saved) = Visitor::new(&app).sign_in_keeping_cookie(AMINA).await;
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    let replay = Replay::new(&app, &saved);
    assert_eq!(replay.buy(&bodies::daily_bundle_for_self()).await, StatusCode::UNAUTHORIZED);
    assert_eq!(replay.account().await, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_junk_session_cookie_is_signed_out_not_an_error() {
    let app = spawn_app().await;
    let (_, valid) = Visitor::new(&app).sign_in_keeping_cookie(AMINA).await;
    let tampered = format!("{}A", &valid[..valid.len() - 1]);
    let junk = ["session=junk", "session=", "cpm_session=%00%ff", "session=x; cpm_session=y", tampered.as_str()];
    for cookie in junk {
        let replay = Replay::new(&app, cookie);
        assert_eq!(replay.account().await, StatusCode::UNAUTHORIZED, "{cookie}");
        assert_eq!(replay.buy(&bodies::daily_bundle_for_self()).await, StatusCode::UNAUTHORIZED, "{cookie}");
        for page in ["/", "/account", "/customer-permission-management", "/_data/account"] {
            let status = replay.client.get(app.url(page)).header("cookie", cookie).send().await.unwrap().status();
            assert!(status.is_success() || status.is_redirection(), "{cookie} {page}: {status}");
        }
    }
}

#[tokio::test]
async fn letters_in_a_recipient_number_are_refused_and_nothing_is_bought() {
    let app = spawn_app().await;
    let amina = Visitor::new(&app);
    let before = amina.sign_in(AMINA).await;
    // The keypad reading of these would be 255754000062 and 255754234567.
    for friend in ["07540000O2", "0754-ADG-JMP"] {
        let (status, body, _) =
            amina.post("/api/bundles/purchase", purchase_for("data-daily-1gb", "AIRTIME", friend)).await;
        assert_eq!((status, &body["notice"]["key"]), (StatusCode::BAD_REQUEST, &json!("invalidMsisdn")), "{friend}");
    }
    let (_, after) = amina.get("/api/account").await;
    assert_eq!(after["subscriber"]["balance"], before["balance"]);
}

#[tokio::test]
async fn a_return_path_with_control_characters_falls_back_home_never_500() {
    let app = spawn_app().await;
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    // Raw bodies, as a hostile page would post them: `%0A` and `%09` arrive as a newline and a tab.
    let cases = [
        ("/api/auth/request-otp", "msisdn=0754000002&returnTo=/a%0Ab", "/"),
        ("/api/auth/request-otp", "msisdn=0754000003&lang=sw&returnTo=/%09/evil.example", "/sw"),
        ("/api/bundles/purchase", "bundleId=x&purchaseChannel=AIRTIME&returnTo=/a%0Ab", "/"),
        ("/api/bundles/purchase", "bundleId=x&purchaseChannel=AIRTIME&lang=sw&returnTo=/%09/evil.example", "/sw"),
        ("/api/modem/check", "msisdn=0754000010&returnTo=/%5C%5Cevil.example", "/"),
        ("/api/modem/check", "msisdn=0754000010&returnTo=https://evil.example/", "/"),
    ];
    for (path, body, home) in cases {
        let response = client
            .post(app.url(path))
            .header("origin", app.address.as_str())
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::SEE_OTHER, "{path} {body}");
        assert_eq!(response.headers()[LOCATION], home, "{path} {body}");
    }
}

#[tokio::test]
async fn over_https_the_flash_cookie_is_secure_too() {
    let site = "https://www.example.co.tz";
    let app = spawn_app_with(|c| c.site_url = site.parse().unwrap()).await;
    let response = app
        .client
        .post(app.url("/api/modem/check"))
        .header("origin", site)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("msisdn=12345&returnTo=/account")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()[LOCATION], "/account");
    let cookie = response.headers()[SET_COOKIE].to_str().unwrap();
    assert!(cookie.starts_with("flash=") && cookie.contains("Secure") && cookie.contains("HttpOnly"), "{cookie}");
}

#[tokio::test]
async fn account_answers_are_never_stored_by_caches() {
    let app = spawn_app().await;
    let no_store =
        |response: &reqwest::Response| response.headers().get("cache-control").map(|v| v.to_str().unwrap().to_owned());
    // The catalogue is public price information, the same for every visitor.
    let bundles = app.get("/api/bundles").await;
    assert_eq!(bundles.status(), StatusCode::OK);
    assert_eq!(no_store(&bundles).as_deref(), Some("public, max-age=60"), "the catalogue");
    // One line, compression's name joined to the handler's (shared caches read one).
    assert_eq!(bundles.headers()["vary"], "cookie, x-site-lang, accept-encoding");
    let signed_out = app.get("/api/account").await;
    assert_eq!((signed_out.status(), no_store(&signed_out).as_deref()), (StatusCode::UNAUTHORIZED, Some("no-store")));
    let cross_site =
        app.client.post(app.url("/api/auth/request-otp")).json(&bodies::number(AMINA)).send().await.unwrap();
    assert_eq!((cross_site.status(), no_store(&cross_site).as_deref()), (StatusCode::FORBIDDEN, Some("no-store")));
    let malformed = app
        .client
        .post(app.url("/api/auth/request-otp"))
        .header("sec-fetch-site", "same-origin")
        .header("content-type", "application/json")
        .body("{")
        .send()
        .await
        .unwrap();
    assert_eq!((malformed.status(), no_store(&malformed).as_deref()), (StatusCode::BAD_REQUEST, Some("no-store")));
}

#[tokio::test]
async fn an_oversized_body_is_413_not_400() {
    let app = spawn_app().await;
    let padding = "0".repeat(64 * 1024);
    for (content_type, body) in [
        ("application/json", format!(r#"{{"msisdn":"{AMINA}","pad":"{padding}"}}"#)),
        ("application/x-www-form-urlencoded", format!("msisdn={AMINA}&pad={padding}")),
    ] {
        let response = app
            .client
            .post(app.url("/api/auth/request-otp"))
            .header("sec-fetch-site", "same-origin")
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE, "{content_type}");
    }
}

/// Only a live session builds a page for one visitor: junk, forged or
/// expired session and flash cookies get the shared cached page (the same
/// bytes as an anonymous visitor), so no cookie buys a render.
#[tokio::test]
async fn only_a_live_session_bypasses_the_page_cache() {
    let app = spawn_app().await;
    let anonymous = app.get("/voice-sms").await;
    let etag = anonymous.headers()[ETAG].clone();
    assert!(anonymous.headers()[CACHE_CONTROL].to_str().unwrap().starts_with("public"));
    for junk in [
        "session=abc",
        "__Host-session=abc",
        "cpm_session=x",
        "flash=%7B%22type%22%3A%22info%22%7D",
        "session=; flash=junk",
    ] {
        let response = app.client.get(app.url("/voice-sms")).header("cookie", junk).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{junk}");
        assert!(response.headers()[CACHE_CONTROL].to_str().unwrap().starts_with("public"), "{junk}");
        assert_eq!(response.headers()[ETAG], etag, "{junk}: the anonymous page");
        let data = app.client.get(app.url("/_data/voice-sms")).header("cookie", junk).send().await.unwrap();
        assert!(data.headers()[CACHE_CONTROL].to_str().unwrap().starts_with("public"), "{junk}");
    }
    let visitor = Visitor::new(&app);
    let (_, cookie) = visitor.sign_in_keeping_cookie("0754000001").await;
    let response = app.client.get(app.url("/voice-sms")).header("cookie", &cookie).send().await.unwrap();
    assert_eq!(response.headers()[CACHE_CONTROL], "private, no-store");
    assert!(response.text().await.unwrap().contains("Amina"), "the signed-in page names the subscriber");
    // Nor is a page built for one visitor ever kept for the others.
    for _ in 0..2 {
        app.client.get(app.url("/voice-sms")).header("cookie", &cookie).send().await.unwrap();
    }
    let anonymous = app.get("/voice-sms").await;
    assert_eq!(anonymous.headers()[ETAG], etag);
    assert!(!anonymous.text().await.unwrap().contains("Amina"));
}
