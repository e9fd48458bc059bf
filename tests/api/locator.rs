//! The M-Pesa agent and Vodashop locator: its pages per region and
//! district in both languages without JavaScript (plain HTML, GET forms,
//! links), the form's choices at their own addresses, places typed and
//! unknown answered from memory, "near me" by position, the sitemap, and
//! what reading them from a CMS costs.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::fake_cms::{Behaviour, FakeCms, Shape};
use crate::helpers::{TestApp, eventually, site_with, spawn_app};

/// The names of the places listed on a page.
fn places(html: &str) -> Vec<String> {
    html.split(r#"<h3 itemProp="name">"#).skip(1).map(|rest| rest[..rest.find('<').unwrap()].to_owned()).collect()
}

#[tokio::test]
async fn region_and_district_pages_list_agents_and_shops_in_both_languages_without_javascript() {
    let app = spawn_app().await;

    let home = app.page("/mpesa-agents").await;
    assert!(home.contains(r#"<form class="locator-form" action="/mpesa-agents" method="get">"#), "a plain GET form");
    assert!(home.contains(r#"<option value="dar-es-salaam">Dar es Salaam</option>"#));
    assert!(home.contains(r#"href="/mpesa-agents/arusha""#), "regions are links crawlers follow");
    assert!(home.contains(r#"<div id="near-me" data-kind="agent" hidden="">"#), "near me waits for the script");

    // The form's choice goes to the region's own address, and its district's.
    let chosen = app.get("/mpesa-agents?region=dar-es-salaam&district=ilala").await;
    assert!(chosen.status().is_redirection());
    assert_eq!(chosen.headers()["location"], "/mpesa-agents/dar-es-salaam/ilala");
    // A district of another region (the region changed, the district not yet) is left out.
    let changed = app.get("/sw/mpesa-agents?region=arusha&district=ilala").await;
    assert_eq!(changed.headers()["location"], "/sw/mpesa-agents/arusha");

    let region = app.page("/mpesa-agents/dar-es-salaam").await;
    assert!(
        region.contains("<h1 class=\"page-title\">M-Pesa agents in Dar es Salaam</h1>"),
        "{}",
        &region[..2000.min(region.len())]
    );
    assert!(region.contains(r#"href="/mpesa-agents/dar-es-salaam/kinondoni""#));
    assert_eq!(places(&region).len(), 20, "a page of 20");
    assert!(region.contains("?page=2"), "and a pager");

    let district = app.page("/mpesa-agents/dar-es-salaam/ilala").await;
    assert!(district.contains("M-Pesa agents in Ilala, Dar es Salaam"));
    let listed = places(&district);
    assert!(!listed.is_empty() && listed.iter().all(|name| !name.starts_with("Vodashop")), "{listed:?}");
    assert!(district.contains(r#"href="tel:+255"#), "a call link");
    assert!(district.contains(r#"href="geo:-6."#), "directions for the phone's maps");
    assert!(district.contains("openstreetmap.org/?mlat=-6."), "and a map site's page");
    assert!(district.contains("Open now") || district.contains("Closed now"));

    let sw = app.page("/sw/mpesa-agents/dar-es-salaam/ilala").await;
    assert!(sw.contains("Mawakala wa M-Pesa Ilala, Dar es Salaam"));
    assert!(sw.contains("Wazi sasa") || sw.contains("Imefungwa sasa"));
    assert!(sw.contains("Maelekezo"));
    assert!(sw.contains(r#"<form class="locator-form" action="/sw/mpesa-agents" method="get">"#));

    let shops = app.page("/vodashop/dar-es-salaam").await;
    assert!(shops.contains("Vodashops in Dar es Salaam"));
    assert!(places(&shops).iter().all(|name| name.starts_with("Vodashop")), "{:?}", places(&shops));
    assert!(shops.contains(r#"itemType="https://schema.org/LocalBusiness""#), "structured data for shops");
    let shops_sw = app.page("/sw/vodashop").await;
    assert!(shops_sw.contains("Tafuta duka la Vodashop"));
    // One place for both languages, its landmark in each.
    assert!(shops.contains("In the town centre"));
    let shops_sw = app.page("/sw/vodashop/dar-es-salaam").await;
    assert!(shops_sw.contains("Katikati ya mji") && !shops_sw.contains("In the town centre"));
    assert_eq!(places(&shops_sw), places(&shops));

    // Geolocation is allowed to these pages alone.
    let policy = |response: &reqwest::Response| response.headers()["permissions-policy"].to_str().unwrap().to_owned();
    assert!(policy(&app.get("/sw/vodashop").await).contains("geolocation=(self)"));
    assert!(policy(&app.get("/mpesa").await).contains("geolocation=()"));
}

#[tokio::test]
async fn places_typed_are_found_nearest_first_and_unknown_ones_answered_from_memory() {
    let app = spawn_app().await;
    let found = app.page("/mpesa-agents?q=kariakoo").await;
    assert!(found.contains("near Kariakoo, Ilala, nearest first"), "{}", &found[..found.len().min(3000)]);
    assert!(found.contains(" m away") || found.contains(" km away"));

    let unknown = app.page("/sw/mpesa-agents?q=Atlantis").await;
    assert!(unknown.contains("Hatukupata mahali panapoitwa “Atlantis”"));
    for missing in ["/mpesa-agents/atlantis", "/mpesa-agents/dar-es-salaam/atlantis", "/mpesa-agents/arusha?page=99"] {
        assert_eq!(app.get(missing).await.status(), StatusCode::NOT_FOUND, "{missing}");
    }
    // Junk in the query degrades, never fails.
    for junk in ["/mpesa-agents?page=-1", "/mpesa-agents?q=%00%ff", "/vodashop?region=%3Cscript%3E"] {
        assert!(app.get(junk).await.status().as_u16() < 500, "{junk}");
    }
}

#[tokio::test]
async fn near_me_answers_the_nearest_open_places_for_a_position_sent_in_a_body() {
    let app = spawn_app().await;
    let near = |body: serde_json::Value| app.client.post(app.url("/api/locations/near")).json(&body).send();
    let answer = near(serde_json::json!({ "kind": "shop", "lang": "sw", "latitude": -6.8235, "longitude": 39.2695 }))
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    assert_eq!(answer.headers()["cache-control"], "no-store");
    let found: serde_json::Value = answer.json().await.unwrap();
    let results = found["results"].as_array().unwrap();
    assert!(!results.is_empty());
    let distances: Vec<u64> = results.iter().map(|hit| hit["distance"].as_u64().unwrap()).collect();
    assert!(distances.windows(2).all(|pair| pair[0] <= pair[1]), "nearest first: {distances:?}");
    assert!(results.iter().all(|hit| hit["kind"] == "shop"));
    for junk in [
        serde_json::json!({ "kind": "agent", "latitude": 91, "longitude": 0 }),
        serde_json::json!({ "kind": "bank", "latitude": -6, "longitude": 39 }),
        serde_json::json!("x"),
    ] {
        assert_eq!(near(junk).await.unwrap().status(), StatusCode::UNPROCESSABLE_ENTITY);
    }
}

#[tokio::test]
async fn the_sitemap_lists_a_page_per_region_and_district() {
    let app = spawn_app().await;
    let sitemap = app.page("/sitemap.xml").await;
    assert!(sitemap.contains("/mpesa-agents/dar-es-salaam/ilala</loc>"));
    assert!(sitemap.contains("/sw/vodashop/arusha</loc>"));
}

/// An agent of Meru district, Arusha, as the CMS holds it.
fn agent(id: u32, name: &str) -> Value {
    json!({ "id": id, "documentId": format!("location{id}"), "name": name, "kind": "agent", "region": "Arusha", "district": "Meru",
            "street": "Tengeru", "latitude": -3.39 + f64::from(id) * 1e-4, "longitude": 36.83, "services": ["cash-in", "cash-out"],
            "hoursWeekdays": "24h", "landmark": "By the market", "landmarkSw": "Karibu na soko" })
}

/// The locations from a CMS: read once for both languages (without a
/// `locale`), not again within `LOCATIONS_TTL_SECS` however often the rest
/// of the content is refreshed, and again at once on a location's webhook,
/// the copy in memory served while the new one is read.
#[tokio::test]
async fn the_locations_are_read_once_for_both_languages_and_again_at_once_on_their_webhook() {
    let cms = FakeCms::start(Shape::V5).await;
    cms.put_page("mpesa-agents", "en", "M-Pesa agents", "Find one near you.");
    cms.put_page("mpesa-agents", "sw", "Mawakala wa M-Pesa", "Tafuta aliye karibu nawe.");
    // 150 places: two pages of the CMS's 100.
    cms.put_collection("locations", "en", (1..=150).map(|id| agent(id, &format!("Agent {id:03}"))).collect());
    let app = site_with(&cms, |c| {
        c.content.ttl = Duration::from_millis(300);
        c.content.locations_ttl = Duration::from_secs(3600);
        c.pages.prerender = false;
    })
    .await;
    let reads = || cms.reads("/api/locations?");

    let en = app.page("/mpesa-agents/arusha/meru").await;
    assert_eq!(places(&en).first().map(String::as_str), Some("Agent 001"), "{:?}", places(&en));
    assert!(en.contains("By the market"));
    let sw = app.page("/sw/mpesa-agents/arusha/meru").await;
    assert_eq!(places(&sw), places(&en));
    assert!(sw.contains("Karibu na soko"));
    let first = reads();
    assert_eq!(first.len(), 2, "every page once, for both languages: {first:?}");
    assert!(first.iter().all(|r| !r.contains("locale=")), "asked for without a language: {first:?}");

    // Past the content's lifetime, within the locations': other content is
    // read again, the locations are not.
    let pages_read = cms.requests_for("/api/mpesa-agents");
    for _ in 0..4 {
        tokio::time::sleep(Duration::from_millis(400)).await;
        for path in ["/mpesa-agents/arusha/meru", "/sw/mpesa-agents/arusha", "/mpesa-agents?q=tengeru"] {
            assert_eq!(app.get(path).await.status(), StatusCode::OK, "{path}");
        }
    }
    assert!(cms.requests_for("/api/mpesa-agents") > pages_read, "the page's own content was refreshed");
    assert_eq!(reads().len(), 2, "and the locations not read again");

    // A location's webhook (a type that is not localized names no locale):
    // the next visitors get the copy in memory at once while the new one is read.
    let mut renamed: Vec<Value> = (1..=150).map(|id| agent(id, &format!("Agent {id:03}"))).collect();
    renamed[0] = agent(1, "Agent 000 Mama Neema");
    cms.put_collection("locations", "en", renamed);
    let read_takes = Duration::from_secs(2);
    cms.behave(Behaviour::Delay(read_takes));
    let event = json!({ "event": "entry.update", "model": "location", "entry": { "id": 1, "locale": null } });
    let hook =
        app.client.post(app.url("/api/cms/webhook")).bearer_auth("hook-secret").json(&event).send().await.unwrap();
    assert_eq!(hook.status(), StatusCode::OK);
    assert_eq!(hook.json::<Value>().await.unwrap()["dropped"], 1, "the locations, read again");
    // Answered before the CMS could have answered the read: the page did not wait for it.
    let asked = Instant::now();
    let meanwhile = app.page("/mpesa-agents/arusha/meru").await;
    assert!(asked.elapsed() < read_takes, "waited for the read: {:?}", asked.elapsed());
    assert_eq!(places(&meanwhile).first().map(String::as_str), Some("Agent 001"), "the copy in memory");
    cms.behave(Behaviour::Normal);
    // Each of the read's pages waits `read_takes`.
    let first = async || places(&app.page("/sw/mpesa-agents/arusha/meru").await).first().cloned();
    let renamed = |first: &Option<String>| first.as_deref() == Some("Agent 000 Mama Neema");
    eventually("the change reached both languages", first, renamed).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(reads().len(), 4, "read again once: {:?}", reads());
}

/// A large collection read page by page is kept on disk in its compact
/// form (a JSON array of arrays), well within `CONTENT_DISK_CACHE_MB` where
/// the CMS's JSON would not fit, and a server restarted while the CMS is
/// down has every place.
#[tokio::test]
async fn the_places_of_a_large_collection_are_kept_on_disk_and_served_after_a_restart_with_the_cms_down() {
    let data_dir = tempfile::tempdir().unwrap();
    let cms = FakeCms::start(Shape::V5).await;
    cms.put_page("mpesa-agents", "en", "M-Pesa agents", "Find one near you.");
    let agents: Vec<Value> = (1..=6_000).map(|id| agent(id, &format!("Agent {id:04}"))).collect();
    let as_json = serde_json::to_vec(&agents).unwrap().len();
    cms.put_collection("locations", "en", agents);
    let bound = 1 << 20;
    assert!(as_json > bound as usize, "the CMS's JSON would not fit: {as_json} bytes");
    let shared = data_dir.path().to_owned();
    let configure = |c: &mut server::Config| {
        c.data_dir = shared.clone();
        c.content.disk_cache_bytes = bound;
        c.pages.prerender = false;
    };
    let first = site_with(&cms, configure).await;
    assert_eq!(last_page_of_meru(&first).await.first().map(String::as_str), Some("Agent 5981"), "the last page of 20");
    assert_eq!(cms.reads("/api/locations?").len(), 60, "page by page");
    let kept = || {
        let files = std::fs::read_dir(data_dir.path().join("content-cache")).into_iter().flatten().flatten();
        files
            .map(|file| std::fs::read(file.path()).unwrap_or_default())
            .find(|bytes| bytes.windows(11).any(|w| w == br#""Locations""#))
    };
    // Its size, once it is written.
    eventually("the places kept on disk", async || kept().map(|bytes| bytes.len()), Option::is_some).await;
    let file = kept().expect("the places kept on disk");
    assert!(file.len() < as_json / 2, "{} bytes on disk against {as_json} as the CMS's JSON", file.len());

    drop(first);
    cms.stop().await;
    let restarted = site_with(&cms, configure).await;
    assert_eq!(
        last_page_of_meru(&restarted).await.first().map(String::as_str),
        Some("Agent 5981"),
        "every place, from disk"
    );
    assert!(restarted.page("/mpesa-agents/arusha/meru").await.contains("By the market"));
}

/// The places on the last page of Meru's 6,000 agents, once they are read.
async fn last_page_of_meru(app: &TestApp) -> Vec<String> {
    let shown = async || places(&app.get("/mpesa-agents/arusha/meru?page=300").await.text().await.unwrap());
    eventually("the places of Meru's last page", shown, |shown| !shown.is_empty()).await
}

/// A site upgraded before its editors add the `locations` collection (the
/// CMS answers 404 for it): the locator pages answer 200 in both languages
/// with their own content, saying no places are listed yet, and no form
/// that could find none; a region's address is not found, "near me" finds
/// none, and `site check-cms` names the type to add.
#[tokio::test]
async fn without_a_locations_collection_the_locator_pages_say_so_and_keep_their_content() {
    let cms = FakeCms::start(Shape::V5).await;
    cms.put_page("mpesa-agents", "en", "M-Pesa agents", "Any shop with the red M-Pesa sign is an agent.");
    cms.put_page("mpesa-agents", "sw", "Mawakala wa M-Pesa", "Duka lolote lenye alama nyekundu ya M-Pesa ni wakala.");
    cms.put_page("vodashop", "en", "Vodashops", "Our flagship shops are in every major city.");
    cms.put_page("vodashop", "sw", "Maduka ya Vodashop", "Maduka yetu makuu yako katika kila jiji kubwa.");
    let app = site_with(&cms, |_| {}).await;
    for (path, message, own) in [
        ("/mpesa-agents", "No M-Pesa agents are listed here yet.", "Any shop with the red M-Pesa sign is an agent."),
        (
            "/sw/mpesa-agents",
            "Bado hakuna mawakala wa M-Pesa walioorodheshwa hapa.",
            "Duka lolote lenye alama nyekundu ya M-Pesa ni wakala.",
        ),
        ("/vodashop", "No Vodashops are listed here yet.", "Our flagship shops are in every major city."),
        (
            "/sw/vodashop",
            "Bado hakuna maduka ya Vodashop yaliyoorodheshwa hapa.",
            "Maduka yetu makuu yako katika kila jiji kubwa.",
        ),
    ] {
        let html = app.page(path).await;
        assert!(html.contains(&format!(r#"<p role="status">{message}"#)), "{path}: the message");
        assert!(html.contains(own), "{path}: the page's own words, its other ways");
        assert!(!html.contains(r#"id="locator-region""#) && !html.contains(r#"id="near-me""#), "{path}: no empty form");
    }
    assert_eq!(app.get("/mpesa-agents/arusha").await.status(), StatusCode::NOT_FOUND);
    let near = app
        .client
        .post(app.url("/api/locations/near"))
        .json(&json!({ "kind": "agent", "latitude": -3.39, "longitude": 36.83 }))
        .send()
        .await
        .unwrap();
    assert_eq!(near.status(), StatusCode::OK);
    assert_eq!(near.json::<Value>().await.unwrap()["results"], json!([]));

    // Run off the test's thread, which serves the fake CMS meanwhile.
    let url = cms.url.clone();
    let check = tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_site")).arg("check-cms").env("CMS_URL", url).output()
    })
    .await
    .unwrap()
    .expect("site check-cms runs");
    let report = String::from_utf8_lossy(&check.stdout);
    assert!(
        report.contains("MISSING   locations?index [every language]: the CMS has no collection `locations`"),
        "{report}"
    );
    assert!(!check.status.success(), "it fails while the CMS lacks what the site reads");
}
