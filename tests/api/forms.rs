//! The business community form and the foundation application over real
//! HTTP: every field's error in both languages, the two-applicant rule,
//! idempotency, the cross-site refusal, the honeypot and the per-address
//! limit, the proposal PDF checked by content, and the staff export. What
//! the store keeps is tested on each store (`on_each_store!`): SQLite in
//! `DATA_DIR`, and PostgreSQL (`DATABASE_URL`) started for the test.

use reqwest::StatusCode;
use reqwest::header::HeaderMap;
use serde_json::{Value, json};

use crate::helpers::{BUSINESS, FOUNDATION, TOKEN, TestApp, application, lead, spawn_app, spawn_app_with};
use crate::postgres::Postgres;

pub async fn spawn_forms_app() -> TestApp {
    spawn_app_with(|config| config.forms.token = Some(TOKEN.parse().unwrap())).await
}

/// The same, its submissions in `postgres`.
pub async fn spawn_forms_app_on(postgres: &Postgres) -> TestApp {
    spawn_app_with(|config| {
        config.forms.token = Some(TOKEN.parse().unwrap());
        config.operations.database_url = Some(postgres.url().parse().unwrap());
    })
    .await
}

/// The test `$body` (an `async fn(&TestApp)`) twice, as `$body::sqlite`
/// and `$body::postgres`: on the forms' app with each store (PostgreSQL's
/// skipped where it is not installed, as `Postgres::start` says).
macro_rules! on_each_store {
    ($body:ident) => {
        mod $body {
            #[tokio::test]
            async fn sqlite() {
                super::$body(&super::spawn_forms_app().await).await;
            }

            #[tokio::test]
            async fn postgres() {
                let Some(postgres) = crate::postgres::Postgres::start() else { return };
                super::$body(&super::spawn_forms_app_on(&postgres).await).await;
            }
        }
    };
}

/// Posts JSON as the page's script does (same origin, its language, a key).
pub async fn post_json(
    app: &TestApp,
    path: &str,
    body: &Value,
    lang: &str,
    key: Option<&str>,
) -> (StatusCode, Value, HeaderMap) {
    let mut request =
        app.client.post(app.url(path)).header("sec-fetch-site", "same-origin").header("x-site-lang", lang).json(body);
    if let Some(key) = key {
        request = request.header("idempotency-key", key);
    }
    let response = request.send().await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    (status, response.json().await.unwrap_or(Value::Null), headers)
}

pub async fn export(app: &TestApp, form: &str, format: &str) -> reqwest::Response {
    app.client
        .get(app.url(&format!("/api/forms/export?form={form}&format={format}")))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap()
}

pub async fn exported(app: &TestApp, form: &str) -> Vec<Value> {
    let response = export(app, form, "json").await;
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.unwrap()
}

fn errors(body: &Value) -> Vec<String> {
    body["errors"].as_object().unwrap_or_else(|| panic!("errors in {body}")).keys().cloned().collect()
}

/// The problems of an `errors` object (`{ "email": { "key": "email" } }`)
/// as the app words them in `lang`: the text of `forms.problems.<key>` in
/// the app's strings, its `{{name}}`s filled from the problem's `params`.
/// What the visitor reads beside each field.
pub fn worded(errors: &Value, lang: &str) -> Value {
    let strings: Value = serde_json::from_str(site::app_build().strings_json).unwrap();
    let word = |problem: &Value| {
        let key = problem["key"].as_str().unwrap_or_else(|| panic!("a problem's key in {problem}"));
        let mut text = strings[lang]["forms"]["problems"][key]
            .as_str()
            .unwrap_or_else(|| panic!("no {lang} text for {key}"))
            .to_owned();
        for (name, value) in problem["params"].as_object().into_iter().flatten() {
            text = text
                .replace(&format!("{{{{{name}}}}}"), &value.as_str().map_or_else(|| value.to_string(), str::to_owned));
        }
        Value::String(text)
    };
    let errors = errors.as_object().unwrap_or_else(|| panic!("errors in {errors}"));
    Value::Object(errors.iter().map(|(field, problem)| (field.clone(), word(problem))).collect())
}

on_each_store!(a_business_lead_is_received_and_exported_typed);
async fn a_business_lead_is_received_and_exported_typed(app: &TestApp) {
    let (status, body, headers) = post_json(app, BUSINESS, &lead(), "en", None).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(headers["cache-control"], "no-store");
    let reference = body["reference"].as_str().unwrap();
    assert!(reference.len() == 11 && reference.starts_with("BC-"), "{reference}");
    let rows = exported(app, "business-community").await;
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(row["reference"], reference);
    assert_eq!(row["phone"], "255754000001", "the number in its one form");
    assert_eq!(row["alternateNumber"], Value::Null);
    assert_eq!(row["services"], json!(["iot", "hosting"]));
    assert_eq!(row["merchantName"], "Duka la Mama");
    assert_eq!(row["lang"], "en");
    assert!(row["receivedAt"].as_str().unwrap().ends_with('Z'));
}

#[tokio::test]
async fn every_business_field_is_checked_in_the_visitors_language() {
    let app = spawn_forms_app().await;
    let (status, body, _) = post_json(&app, BUSINESS, &json!({}), "en", None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        errors(&body),
        ["businessName", "businessSize", "email", "industry", "name", "phone", "services", "whereHeard"]
    );
    assert_eq!(worded(&body["errors"], "en")["name"], "Please fill in this field");
    assert_eq!(worded(&body["errors"], "en")["services"], "Choose at least one service");

    let mut bad = lead();
    bad["name"] = json!("x".repeat(101));
    bad["email"] = json!("amina@localhost");
    bad["phone"] = json!("+254 712 345 678");
    bad["alternateNumber"] = json!("12345");
    bad["businessSize"] = json!("huge");
    bad["whereHeard"] = json!("rumour");
    bad["services"] = json!(["iot", "gold"]);
    bad["industry"] = json!("   ");
    let (status, body, _) = post_json(&app, BUSINESS, &bad, "sw", None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let expected = [
        ("alternateNumber", "Weka namba sahihi ya simu ya mkononi ya Tanzania, kwa mfano 0754 123 456"),
        ("businessSize", "Chagua mojawapo ya machaguo"),
        ("email", "Weka anwani sahihi ya barua pepe, kwa mfano jina@mfano.co.tz"),
        ("industry", "Tafadhali jaza sehemu hii"),
        ("name", "Tumia herufi zisizozidi 100"),
        ("phone", "Weka namba sahihi ya simu ya mkononi ya Tanzania, kwa mfano 0754 123 456"),
        ("services", "Chagua mojawapo ya machaguo"),
        ("whereHeard", "Chagua mojawapo ya machaguo"),
    ];
    let expected: serde_json::Map<String, Value> =
        expected.into_iter().map(|(field, message)| (field.to_owned(), json!(message))).collect();
    assert_eq!(worded(&body["errors"], "sw"), Value::Object(expected));
    assert!(exported(&app, "business-community").await.is_empty(), "nothing kept");
}

#[tokio::test]
async fn a_foundation_application_needs_two_applicants() {
    let app = spawn_forms_app().await;
    let mut one = application();
    one["applicants"].as_array_mut().unwrap().truncate(1);
    let (status, body, _) = post_json(&app, FOUNDATION, &one, "en", None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(errors(&body), ["applicants"]);
    assert_eq!(worded(&body["errors"], "en")["applicants"], "Give the details of at least two applicants");

    // A blank second row is no applicant either.
    let mut blank = application();
    blank["applicants"][1] = json!({ "name": " ", "email": "", "phone": "", "role": "" });
    let (_, body, _) = post_json(&app, FOUNDATION, &blank, "sw", None).await;
    assert_eq!(worded(&body["errors"], "sw")["applicants"], "Weka taarifa za waombaji wasiopungua wawili");
    assert!(exported(&app, "foundation-application").await.is_empty());
}

#[tokio::test]
async fn a_foundation_application_names_each_bad_field() {
    let app = spawn_forms_app().await;
    let mut bad = application();
    bad["applicants"][1]["email"] = json!("baraka");
    bad["applicants"][0]["phone"] = json!("0222 123 456");
    bad["organisation"]["type"] = json!("club");
    bad["organisation"]["registrationNumber"] = json!("");
    bad["project"]["startDate"] = json!("2026-02-30");
    bad["project"]["summary"] = json!("y".repeat(3001));
    bad["location"]["region"] = json!("Nairobi");
    bad["team"]["size"] = json!("0");
    bad["budget"][1]["amountTzs"] = json!("1.5");
    bad["budget"][0]["item"] = json!("");
    let (status, body, _) = post_json(&app, FOUNDATION, &bad, "en", None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        errors(&body),
        [
            "applicants[0].phone",
            "applicants[1].email",
            "budget[0].item",
            "budget[1].amountTzs",
            "location.region",
            "organisation.registrationNumber",
            "organisation.type",
            "project.startDate",
            "project.summary",
            "team.size"
        ]
    );
    assert_eq!(worded(&body["errors"], "en")["budget[1].amountTzs"], "Enter an amount in whole shillings, more than 0");

    let mut dates = application();
    dates["project"]["endDate"] = json!("2026-06-30");
    dates["budget"] = json!([]);
    let (_, body, _) = post_json(&app, FOUNDATION, &dates, "en", None).await;
    assert_eq!(errors(&body), ["budget", "project.endDate"]);
    assert!(exported(&app, "foundation-application").await.is_empty());
}

#[tokio::test]
async fn the_budget_total_is_the_servers() {
    let app = spawn_forms_app().await;
    let mut sent = application();
    sent["budgetTotalTzs"] = json!(1);
    let (status, body, _) = post_json(&app, FOUNDATION, &sent, "en", None).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert!(body["reference"].as_str().unwrap().starts_with("FA-"));
    let rows = exported(&app, "foundation-application").await;
    assert_eq!(rows[0]["budgetTotalTzs"], 15_000_000);
    assert_eq!(rows[0]["budget"][1]["amountTzs"], 3_000_000);
    assert_eq!(rows[0]["applicants"][1]["phone"], "255754000004");
}

on_each_store!(an_idempotency_key_returns_the_first_reference_and_keeps_one);
async fn an_idempotency_key_returns_the_first_reference_and_keeps_one(app: &TestApp) {
    let (status, first, _) = post_json(app, BUSINESS, &lead(), "en", Some("fill-1")).await;
    assert_eq!(status, StatusCode::CREATED);
    let mut edited = lead();
    edited["name"] = json!("Amina M.");
    let (status, again, headers) = post_json(app, BUSINESS, &edited, "en", Some("fill-1")).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(again["reference"], first["reference"]);
    assert_eq!(headers["idempotent-replayed"], "true");
    let (_, other, _) = post_json(app, BUSINESS, &lead(), "en", Some("fill-2")).await;
    assert_ne!(other["reference"], first["reference"]);
    // The same key on the other form is another submission.
    let (status, _, _) = post_json(app, FOUNDATION, &application(), "en", Some("fill-1")).await;
    assert_eq!(status, StatusCode::CREATED);
    let rows = exported(app, "business-community").await;
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["name"], "Amina Mwakyusa", "the first submission is the one kept");
}

#[tokio::test]
async fn cross_site_posts_are_refused_and_nothing_is_kept() {
    let app = spawn_forms_app().await;
    for (header, value) in [
        ("sec-fetch-site", "cross-site"),
        ("sec-fetch-site", "same-site"),
        ("origin", "https://evil.example"),
        ("x-none", ""),
    ] {
        let response = app.client.post(app.url(BUSINESS)).header(header, value).json(&lead()).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{header}: {value}");
    }
    let form = app
        .client
        .post(app.url(FOUNDATION))
        .header("origin", "https://evil.example")
        .header("content-type", "application/x-www-form-urlencoded")
        .body("organisation.name=x&lang=sw")
        .send()
        .await
        .unwrap();
    // A form is sent back to its page (here, with no `returnTo`, home) with the refusal as its notice.
    assert_eq!(
        (form.status(), form.headers()[reqwest::header::LOCATION].to_str().unwrap()),
        (StatusCode::SEE_OTHER, "/sw")
    );
    let same_origin =
        app.client.post(app.url(BUSINESS)).header("origin", app.address.as_str()).json(&lead()).send().await.unwrap();
    assert_eq!(same_origin.status(), StatusCode::CREATED, "a browser without Sec-Fetch-Site, from the site");
    assert_eq!(exported(&app, "business-community").await.len(), 1);
}

#[tokio::test]
async fn a_filled_honeypot_looks_received_and_is_dropped() {
    let app = spawn_forms_app().await;
    let mut bot = lead();
    bot["leaveEmpty"] = json!("http://spam.example");
    let (status, body, _) = post_json(&app, BUSINESS, &bot, "en", None).await;
    assert_eq!(status, StatusCode::CREATED);
    assert!(body["reference"].as_str().unwrap().starts_with("BC-"));
    assert!(exported(&app, "business-community").await.is_empty());
}

#[tokio::test]
async fn one_address_sends_ten_forms_in_ten_minutes() {
    let app = spawn_forms_app().await;
    for n in 0..10 {
        let (status, _, _) = post_json(&app, BUSINESS, &lead(), "en", None).await;
        assert_eq!(status, StatusCode::CREATED, "form {n}");
    }
    let (status, body, _) = post_json(&app, BUSINESS, &lead(), "sw", None).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(worded(&body["errors"], "sw")["form"].as_str().unwrap().starts_with("Fomu nyingi mno"));
    let (status, _, _) = post_json(&app, FOUNDATION, &application(), "en", None).await;
    assert_eq!(status, StatusCode::CREATED, "the other form has its own budget");
}

fn multipart(application: &Value, proposal: Option<(&'static [u8], &str)>) -> reqwest::multipart::Form {
    let form = reqwest::multipart::Form::new().text("application", application.to_string());
    match proposal {
        Some((bytes, name)) => form.part(
            "proposal",
            reqwest::multipart::Part::bytes(bytes)
                .file_name(name.to_owned())
                .mime_str("application/octet-stream")
                .unwrap(),
        ),
        None => form,
    }
}

/// PostgreSQL down: a post is answered 503 with `Retry-After`, saying so
/// in the visitor's language (the page sent back filled in, without
/// JavaScript); back up, the same fill is kept, and what was kept before
/// is all there.
#[tokio::test]
async fn while_postgresql_is_down_a_post_is_503_in_the_visitors_language_and_nothing_kept_is_lost() {
    let Some(postgres) = Postgres::start() else { return };
    let app = spawn_forms_app_on(&postgres).await;
    let (status, before, _) = post_json(&app, BUSINESS, &lead(), "sw", Some("fill-1")).await;
    assert_eq!(status, StatusCode::CREATED);

    postgres.stop();
    let (status, body, headers) = post_json(&app, BUSINESS, &lead(), "sw", Some("fill-2")).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(headers["retry-after"], "5");
    let not_saved = "Fomu yako haikuweza kuhifadhiwa kwa sasa. Tafadhali jaribu tena baada ya muda mfupi";
    assert_eq!(worded(&body["errors"], "sw"), json!({ "form": not_saved }));
    let pairs = [
        ("lang", "sw"),
        ("name", "Amina Mwakyusa"),
        ("email", "amina@example.co.tz"),
        ("phone", "0754000001"),
        ("businessName", "Mwakyusa Traders"),
        ("businessSize", "medium"),
        ("industry", "Retail"),
        ("whereHeard", "employee"),
        ("employeeName", "Juma"),
        ("services", "iot"),
    ];
    let page = post_form(&app, BUSINESS, &pairs).await;
    assert_eq!(page.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(page.headers().contains_key("retry-after"));
    let html = page.text().await.unwrap();
    assert!(html.contains(not_saved), "the message on the page");
    assert!(html.contains(r#"value="amina@example.co.tz""#), "what was typed is kept");

    postgres.resume();
    let (status, after, headers) = post_json(&app, BUSINESS, &lead(), "sw", Some("fill-2")).await;
    assert_eq!(status, StatusCode::CREATED, "{after}");
    assert!(!headers.contains_key("idempotent-replayed"), "nothing was kept of the refused post");
    let rows = exported(&app, "business-community").await;
    let references: Vec<&Value> = rows.iter().map(|row| &row["reference"]).collect();
    assert_eq!(references, [&before["reference"], &after["reference"]]);
}

/// PostgreSQL unreachable at start stops the start, naming `DATABASE_URL`.
#[tokio::test]
async fn a_database_that_does_not_answer_at_start_stops_the_start() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let mut config = server::Config::defaults();
    config.data_dir = data_dir.path().to_owned();
    config.pages.render_workers = Some(1);
    config.pages.prerender = false;
    config.operations.metrics_addr = None;
    config.operations.database_url = Some(format!("postgres://site@127.0.0.1:{closed}/site").parse().unwrap());
    let started = server::run(listener, config, site::app_build(), Some(site::sandbox()), std::future::pending()).await;
    let error = started.expect_err("no start without its database").to_string();
    assert!(error.starts_with("DATABASE_URL: "), "{error}");
}

on_each_store!(a_proposal_is_a_pdf_by_its_content_and_staff_can_download_it);
async fn a_proposal_is_a_pdf_by_its_content_and_staff_can_download_it(app: &TestApp) {
    let send = |form| {
        app.client
            .post(app.url(FOUNDATION))
            .header("sec-fetch-site", "same-origin")
            .header("accept", "application/json")
            .multipart(form)
            .send()
    };
    let fake = send(multipart(&application(), Some((b"MZ\x90\x00 an exe named pdf", "proposal.pdf")))).await.unwrap();
    assert_eq!(fake.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = fake.json().await.unwrap();
    assert_eq!(worded(&body["errors"], "en")["proposal"], "The proposal must be a PDF file");

    let big: &'static [u8] = Box::leak(vec![b'%'; 5 * 1024 * 1024 + 1].into_boxed_slice());
    let too_large = send(multipart(&application(), Some((big, "big.pdf")))).await.unwrap();
    assert_eq!(too_large.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        worded(&too_large.json::<Value>().await.unwrap()["errors"], "en")["proposal"],
        "The proposal must be 5 MB or smaller"
    );

    let pdf: &'static [u8] = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n";
    let good = send(multipart(&application(), Some((pdf, "Mpango wa mradi.PDF")))).await.unwrap();
    assert_eq!(good.status(), StatusCode::CREATED);
    let reference = good.json::<Value>().await.unwrap()["reference"].as_str().unwrap().to_owned();
    let rows = exported(app, "foundation-application").await;
    assert_eq!(rows[0]["proposal"]["fileName"], "Mpango wa mradi.PDF");
    assert_eq!(rows[0]["proposal"]["size"], pdf.len());
    let download = app
        .client
        .get(app.url(&format!("/api/forms/proposal?reference={reference}")))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(download.status(), StatusCode::OK);
    assert_eq!(download.headers()["content-type"], "application/pdf");
    assert_eq!(download.bytes().await.unwrap(), pdf);
}

#[tokio::test]
async fn the_export_needs_its_token_and_defuses_formulas() {
    let closed = spawn_app().await;
    let response = closed
        .client
        .get(closed.url("/api/forms/export?form=business-community&format=csv"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND, "no FORMS_TOKEN, no export");

    let app = spawn_forms_app().await;
    for token in [None, Some("wrong"), Some("")] {
        let mut request = app.client.get(app.url("/api/forms/export?form=business-community&format=csv"));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        assert_eq!(request.send().await.unwrap().status(), StatusCode::UNAUTHORIZED, "{token:?}");
    }
    let mut sly = lead();
    sly["name"] = json!("=HYPERLINK(\"http://evil.example\",\"Click\")");
    sly["businessName"] = json!("@SUM(A1)");
    sly["industry"] = json!("+Retail");
    post_json(&app, BUSINESS, &sly, "en", None).await;
    let response = export(&app, "business-community", "csv").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "text/csv; charset=utf-8");
    let text = response.text().await.unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers: Vec<String> = reader.headers().unwrap().iter().map(str::to_owned).collect();
    let row: Vec<String> = reader.records().next().unwrap().unwrap().iter().map(str::to_owned).collect();
    let cell = |name: &str| {
        row[headers.iter().position(|h| h == name).unwrap_or_else(|| panic!("{name} in {headers:?}"))].clone()
    };
    assert_eq!(cell("name"), "'=HYPERLINK(\"http://evil.example\",\"Click\")");
    assert_eq!(cell("businessName"), "'@SUM(A1)");
    assert_eq!(cell("industry"), "'+Retail");
    assert_eq!(cell("services"), "iot; hosting");
    assert_eq!(headers[..3], ["reference", "receivedAt", "lang"]);
    let unknown = export(&app, "shareholder", "csv").await;
    assert_eq!(unknown.status(), StatusCode::BAD_REQUEST);
}

/// A browser without JavaScript: posts the form itself, follows nothing.
async fn post_form(app: &TestApp, path: &str, pairs: &[(&str, &str)]) -> reqwest::Response {
    let body = serde_urlencoded::to_string(pairs).unwrap();
    app.client
        .post(app.url(path))
        .header("sec-fetch-site", "same-origin")
        .header("accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .unwrap()
}

on_each_store!(without_javascript_the_form_comes_back_filled_in_then_lands_on_its_receipt);
async fn without_javascript_the_form_comes_back_filled_in_then_lands_on_its_receipt(app: &TestApp) {
    let mut pairs = vec![
        ("lang", "sw"),
        ("name", "Amina <Mwakyusa>"),
        ("email", "amina@localhost"),
        ("phone", "0754000001"),
        ("businessName", "Mwakyusa Traders"),
        ("businessSize", "medium"),
        ("industry", "Retail"),
        ("whereHeard", "employee"),
        ("employeeName", "Juma"),
        ("services", "iot"),
        ("services", "connectivity"),
        ("leaveEmpty", ""),
    ];
    let response = post_form(app, BUSINESS, &pairs).await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(response.headers()["cache-control"], "private, no-store");
    let html = response.text().await.unwrap();
    assert!(html.contains(r#"<html lang="sw""#));
    assert!(
        html.contains("Weka anwani sahihi ya barua pepe, kwa mfano jina@mfano.co.tz"),
        "the message beside the field"
    );
    assert!(html.contains(r#"value="amina@localhost""#), "what was typed is kept");
    assert!(html.contains(r#"value="Amina &lt;Mwakyusa&gt;""#), "and escaped");
    assert!(html.contains(r#"id="field-email" aria-invalid="true""#) || html.contains(r#"aria-invalid="true""#));
    let data = crate::helpers::embedded_page_data(&html);
    assert_eq!(data["form"]["values"]["services"], json!(["iot", "connectivity"]));
    assert_eq!(
        worded(&data["form"]["errors"], "sw"),
        json!({ "email": "Weka anwani sahihi ya barua pepe, kwa mfano jina@mfano.co.tz" })
    );

    pairs[2] = ("email", "amina@example.co.tz");
    let response = post_form(app, BUSINESS, &pairs).await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    let reference =
        location.strip_prefix("/sw/vodacom-business/community?reference=").unwrap_or_else(|| panic!("{location}"));
    assert!(reference.starts_with("BC-"));
    let receipt = app.get(&location).await;
    assert_eq!(receipt.status(), StatusCode::OK);
    assert!(receipt.text().await.unwrap().contains(reference), "the receipt shows the reference");
    let rows = exported(app, "business-community").await;
    assert_eq!(rows[0]["employeeName"], "Juma");
    assert_eq!(rows[0]["services"], json!(["iot", "connectivity"]));
}

#[tokio::test]
async fn without_javascript_the_long_foundation_form_posts_multipart() {
    let app = spawn_forms_app().await;
    let fields = [
        ("applicants[0].name", "Neema Mushi"),
        ("applicants[0].email", "neema@example.org"),
        ("applicants[0].phone", "0754000003"),
        ("applicants[0].role", "Director"),
        ("applicants[1].name", ""),
        ("organisation.name", "Mama Afya"),
        ("organisation.type", "ngo"),
        ("organisation.registrationNumber", "NGO/R/1234"),
        ("project.title", "Clinics by boat"),
        ("project.summary", "Boats take nurses\r\nto the islands."),
        ("project.startDate", "2026-07-01"),
        ("project.endDate", "2027-06-30"),
        ("location.region", "Mwanza"),
        ("location.district", "Ukerewe"),
        ("team.size", "12"),
        ("team.description", "Nurses"),
        ("budget[0].item", "Boat"),
        ("budget[0].amountTzs", "12,000,000"),
        ("budget[1].item", ""),
        ("budget[1].amountTzs", ""),
    ];
    let send = |extra: Vec<(&'static str, &'static str)>| {
        let mut form = reqwest::multipart::Form::new().text("lang", "en");
        for (name, value) in fields.iter().chain(extra.iter()) {
            form = form.text(*name, *value);
        }
        let empty_file =
            reqwest::multipart::Part::bytes(Vec::new()).file_name("").mime_str("application/octet-stream").unwrap();
        app.client
            .post(app.url(FOUNDATION))
            .header("sec-fetch-site", "same-origin")
            .header("accept", "text/html")
            .multipart(form.part("proposal", empty_file))
            .send()
    };
    let response = send(vec![]).await.unwrap();
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let html = response.text().await.unwrap();
    assert!(html.contains("Give the details of at least two applicants"));
    assert!(html.contains(r#"value="Mama Afya""#));
    let response = send(vec![
        ("applicants[2].name", "Baraka Said"),
        ("applicants[2].email", "baraka@example.org"),
        ("applicants[2].phone", "0754000004"),
        ("applicants[2].role", "Treasurer"),
    ])
    .await
    .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert!(response.headers()["location"].to_str().unwrap().starts_with("/foundation/apply?reference=FA-"));
    let rows = exported(&app, "foundation-application").await;
    assert_eq!(rows[0]["applicants"].as_array().unwrap().len(), 2);
    assert_eq!(rows[0]["project"]["summary"], "Boats take nurses\nto the islands.");
    assert_eq!(rows[0]["proposal"], Value::Null, "an empty file input is no proposal");
}
