//! Every item reachable: list pages past the first (`?page=N`), the sitemap
//! of every item (split into an index past 50,000 addresses), unknown item
//! ids answered without the CMS, against a Strapi-shaped CMS holding what a
//! newsroom holds after a few years, generated here.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use reqwest::header::LOCATION;
use serde_json::{Value, json};

use crate::fake_cms::{FakeCms, Paging, Shape};
use crate::helpers::{TestApp, eventually, locs, search, searchable, site_with};

const NEWS: &str = "news-updates";
/// Swahili ids: Strapi 5 numbers each language's version of an entry apart.
const SW_IDS: usize = 100_000;

/// A publish date that grows with `n` (a minute apart).
fn date(n: usize) -> String {
    let (minute, hour, day) = (n % 60, (n / 60) % 24, n / 1440);
    format!("{}-{:02}-{:02}T{hour:02}:{minute:02}:00.000Z", 2001 + day / 336, 1 + (day / 28) % 12, 1 + day % 28)
}

/// Item `n` of the newsroom in `locale`: in Swahili numbered apart as
/// Strapi 5 does (`SW_IDS` on), or with the same id.
fn story_numbered(n: usize, locale: &str, sw_ids: usize) -> Value {
    let (id, word) = if locale == "en" { (n, "story") } else { (n + sw_ids, "habari") };
    json!({
        "id": id, "documentId": format!("d{n}"), "locale": locale,
        "title": format!("{word} number {n}"), "slug": format!("{word}-{n}"),
        "summary": format!("Summary of {word} {n}"),
        "publishDate": date(n), "updatedAt": format!("{}", date(n + 7)),
    })
}

fn story(n: usize, locale: &str) -> Value {
    story_numbered(n, locale, SW_IDS)
}

/// `count` stories per language, oldest first (`n` = 1 is the oldest).
fn newsroom(cms: &FakeCms, collection: &str, count: usize) {
    newsroom_numbered(cms, collection, count, SW_IDS);
}

fn newsroom_numbered(cms: &FakeCms, collection: &str, count: usize, sw_ids: usize) {
    for locale in ["en", "sw"] {
        cms.put_collection(collection, locale, (1..=count).map(|n| story_numbered(n, locale, sw_ids)).collect());
    }
    cms.put_page("news-events", "en", "News and events", "What happens at Vodacom.");
    cms.put_page("news-events", "sw", "Habari na matukio", "Yanayotokea Vodacom.");
}

/// The `<loc>`s of a sitemap file.
/// Every `href` of links to items of `prefix` (`/news-event/`, `/sw/news-event/`) in a page.
fn item_links(html: &str, prefix: &str) -> BTreeSet<String> {
    let needle = format!(r#"href="{prefix}"#);
    html.split(&needle).skip(1).map(|rest| format!("{prefix}{}", &rest[..rest.find('"').unwrap()])).collect()
}

/// The `rel="next"` link of the pager in a page, if any.
fn next_link(html: &str) -> Option<String> {
    let nav = &html[html.find(r#"<nav class="pager""#)?..];
    let nav = &nav[..nav.find("</nav>").unwrap()];
    let anchor = nav.split("<a ").find(|a| a.contains(r#"rel="next""#))?;
    let href = &anchor[anchor.find(r#"href=""#)? + 6..];
    Some(href[..href.find('"').unwrap()].replace("&amp;", "&"))
}

/// Follows a list's "next" links from its first page like a visitor (or a
/// crawler) without JavaScript: the items it reaches, and the pages.
async fn crawl_list(app: &TestApp, first: &str, items: &str) -> (BTreeSet<String>, usize) {
    let (mut found, mut pages, mut page) = (BTreeSet::new(), 0, Some(first.to_owned()));
    while let Some(path) = page {
        let response = app.get(&path).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let html = response.text().await.unwrap();
        found.extend(item_links(&html, items));
        pages += 1;
        assert!(pages < 1000, "the pages never end");
        page = next_link(&html);
    }
    (found, pages)
}

/// The sitemap's addresses, through its index if it has one.
async fn sitemap(app: &TestApp) -> Vec<String> {
    let root = app.get("/sitemap.xml").await;
    assert_eq!(root.status(), StatusCode::OK);
    let xml = root.text().await.unwrap();
    if !xml.contains("<sitemapindex") {
        return locs(&xml);
    }
    let mut all = Vec::new();
    for child in locs(&xml) {
        let response = app.get(child.strip_prefix(&app.address).expect("on the site")).await;
        assert_eq!(response.status(), StatusCode::OK, "{child}");
        let xml = response.text().await.unwrap();
        assert!(
            xml.len() <= server::seo::MAX_BYTES && locs(&xml).len() <= server::seo::MAX_URLS,
            "{child} within the limits of one file"
        );
        all.extend(locs(&xml));
    }
    all
}

fn items_in(locs: &[String], app: &TestApp, prefix: &str) -> BTreeSet<String> {
    locs.iter()
        .filter_map(|loc| loc.strip_prefix(&app.address))
        .filter(|path| path.starts_with(prefix))
        .map(str::to_owned)
        .collect()
}

#[tokio::test]
async fn every_story_is_reachable_by_links_page_after_page_in_both_languages() {
    let cms = FakeCms::start(Shape::V5).await;
    newsroom(&cms, NEWS, 250);
    let app = site_with(&cms, |_| {}).await;
    // The site reads its indexes (as the pre-render pass does at start).
    sitemap(&app).await;

    for (lang, list, items) in [("en", "/news-events", "/news-event/"), ("sw", "/sw/news-events", "/sw/news-event/")] {
        let first = app.get(list).await.text().await.unwrap();
        assert_eq!(item_links(&first, items).len(), 9, "page 1 keeps the page size of 9 ({lang})");
        assert!(first.contains(r#"<nav class="pager""#), "{lang}");
        assert!(first.contains(&format!(r#"<link rel="canonical" href="{}{list}"/>"#, app.address)), "{lang}");
        assert!(first.contains(&format!(r#"<link rel="next" href="{}{list}?page=2"/>"#, app.address)), "{lang}");

        let middle = app.get(&format!("{list}?page=14")).await;
        assert_eq!(middle.status(), StatusCode::OK);
        let middle = middle.text().await.unwrap();
        assert!(
            middle.contains(&format!(r#"<link rel="canonical" href="{}{list}?page=14"/>"#, app.address)),
            "{lang}: a page's own address"
        );
        assert!(middle.contains(&format!(r#"href="{list}?page=13" rel="prev""#)), "{lang}");
        assert!(middle.contains(r#"<span aria-current="page">14</span>"#), "{lang}");
        // 250 stories, newest first: page 14 holds stories 133 to 125.
        let numbers: BTreeSet<String> = item_links(&middle, items);
        assert_eq!(numbers.len(), 9);
        assert!(
            numbers.iter().any(|href| href.contains("-133")) && numbers.iter().any(|href| href.contains("-125")),
            "{numbers:?}"
        );

        let last = app.get(&format!("{list}?page=28")).await;
        assert_eq!(last.status(), StatusCode::OK, "{lang}: 28 pages of 9 hold 250");
        let last = last.text().await.unwrap();
        assert_eq!(item_links(&last, items).len(), 250 - 27 * 9, "{lang}");
        assert_eq!(next_link(&last), None, "{lang}");

        for past in ["29", "1000", "0", "-1", "two", "1e3", "99999999999"] {
            let response = app.get(&format!("{list}?page={past}")).await;
            assert_eq!(response.status(), StatusCode::NOT_FOUND, "{lang} ?page={past}");
            let html = response.text().await.unwrap();
            assert!(
                html.contains(r#"<header class="site-header""#) && html.contains("<footer"),
                "{lang}: a 404 in the page frame"
            );
        }

        let (reached, pages) = crawl_list(&app, list, items).await;
        assert_eq!(pages, 28, "{lang}");
        assert_eq!(reached.len(), 250, "{lang}: every story by following links");
    }
}

#[tokio::test]
async fn the_sitemap_lists_every_item_with_its_last_change_in_either_pagination_shape() {
    for (shape, paging) in [(Shape::V4, Paging::Pages), (Shape::V5, Paging::Offset), (Shape::V5, Paging::Pages)] {
        let cms = FakeCms::start(shape).await;
        cms.paging(paging);
        // Strapi 4 has no documentId: the languages' versions share their id here.
        let sw_ids = if shape == Shape::V4 { 0 } else { SW_IDS };
        newsroom_numbered(&cms, NEWS, 250, sw_ids);
        // Every third English story has a photo: the sitemap lists it beside the story.
        let photographed = (1..=250)
            .map(|n| {
                let mut item = story_numbered(n, "en", sw_ids);
                if n % 3 == 0 {
                    item["image"] = cms.photo(n as u64, &format!("photo_{n}.jpg"), "image/jpeg", 1200, 800, &[]);
                }
                item
            })
            .collect();
        cms.put_collection(NEWS, "en", photographed);
        let app = site_with(&cms, |_| {}).await;
        let locs = sitemap(&app).await;
        let english = items_in(&locs, &app, "/news-event/");
        let swahili = items_in(&locs, &app, "/sw/news-event/");
        assert_eq!((english.len(), swahili.len()), (250, 250), "{shape:?} {paging:?}");
        assert!(
            english.contains("/news-event/1/story-1")
                && swahili.contains(&format!("/sw/news-event/{}/habari-1", 1 + sw_ids)),
            "{shape:?}"
        );
        let xml = app.get("/sitemap.xml").await.text().await.unwrap();
        assert!(
            xml.contains(&format!("<loc>{}/news-event/1/story-1</loc><lastmod>{}</lastmod>", app.address, date(8))),
            "{shape:?} {paging:?}"
        );
        // Read page by page with only the fields it needs.
        let reads: Vec<String> =
            cms.reads("/api/news-updates?").into_iter().filter(|r| r.contains("fields[")).collect();
        assert_eq!(reads.len(), 6, "3 pages of 100 per language, no request per item: {reads:?}");
        // The photo's address and description alone, populated beside the fields.
        assert!(reads.iter().all(|r| r.contains("populate[image][fields][0]=url&populate[image][fields][1]=mime&populate[image][fields][2]=alternativeText")), "{reads:?}");
        assert!(reads.iter().all(|r| r.matches("populate").count() == 3), "{reads:?}");
        let photo = format!("<loc>{}/news-event/3/story-3</loc><lastmod>{}</lastmod>", app.address, date(10));
        let entry = &xml[xml.find(&photo).expect("story 3 listed")..];
        let entry = &entry[..entry.find("</url>").unwrap()];
        assert!(entry.contains(&format!("<image:image><image:loc>{}/uploads/photo_3.jpg</image:loc><image:title>A photo</image:title></image:image>", cms.url)), "{shape:?}: {entry}");
        assert_eq!(xml.matches("<image:image>").count(), 83, "{shape:?}: one per photographed story");
        assert!(
            reads
                .iter()
                .all(|r| r.contains("fields[0]=slug&fields[1]=title&fields[2]=updatedAt&fields[3]=publishDate")),
            "{reads:?}"
        );
    }
}

#[tokio::test]
async fn past_fifty_thousand_addresses_the_sitemap_is_an_index_that_robots_names() {
    let cms = FakeCms::start(Shape::V5).await;
    // 60,000 stories in English; the Swahili addresses fall back to them.
    cms.put_collection(NEWS, "en", (1..=60_000).map(|n| story(n, "en")).collect());
    let app = site_with(&cms, |_| {}).await;
    // The first read of 600 pages, in a debug build: waited for longer than a request.
    let patient = reqwest::Client::builder().timeout(Duration::from_secs(300)).build().unwrap();
    let xml = patient.get(app.url("/sitemap.xml")).send().await.unwrap().text().await.unwrap();
    assert!(xml.contains("<sitemapindex"), "{}", &xml[..xml.len().min(500)]);
    assert_eq!(locs(&xml).len(), 3, "120,000 item addresses and the pages: three files");
    let robots = app.get("/robots.txt").await.text().await.unwrap();
    assert!(robots.contains(&format!("Sitemap: {}/sitemap.xml", app.address)), "{robots}");
    let locs = sitemap(&app).await;
    assert_eq!(items_in(&locs, &app, "/news-event/").len(), 60_000);
    assert_eq!(items_in(&locs, &app, "/sw/news-event/").len(), 60_000);
    assert_eq!(app.get("/sitemaps/4.xml").await.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_cms_failing_on_page_three_of_five_keeps_the_last_complete_sitemap() {
    let cms = FakeCms::start(Shape::V5).await;
    newsroom(&cms, NEWS, 450);
    let app = site_with(&cms, |c| c.content.ttl = std::time::Duration::from_secs(1)).await;
    assert_eq!(items_in(&sitemap(&app).await, &app, "/news-event/").len(), 450);
    cms.add_item(NEWS, "en", story(451, "en"));
    cms.fail_page(Some((NEWS, 3)));
    // Past the time-to-live each read of the index fails on page 3.
    let failed_reads =
        || cms.requests().iter().filter(|r| r.contains("fields[") && r.contains("pagination[page]=3")).count();
    let before = failed_reads();
    let read_again = async || {
        assert_eq!(items_in(&sitemap(&app).await, &app, "/news-event/").len(), 450, "the last complete copy, not 200");
        failed_reads()
    };
    eventually("the index read again, twice", read_again, |reads| *reads >= before + 2).await;
    assert_eq!(items_in(&sitemap(&app).await, &app, "/news-event/").len(), 450);
    cms.fail_page(None);
    let listed = async || items_in(&sitemap(&app).await, &app, "/news-event/").len();
    eventually("the new story listed", listed, |stories| *stories == 451).await;
}

#[tokio::test]
async fn unknown_item_ids_are_answered_from_memory_and_a_published_story_is_found_after_its_webhook() {
    let cms = FakeCms::start(Shape::V5).await;
    newsroom(&cms, NEWS, 250);
    let app = site_with(&cms, |_| {}).await;
    sitemap(&app).await;
    let asked = || cms.requests_for("/api/news-updates");
    // Ids the index does not hold, below the newest: none reaches the CMS.
    let before = asked();
    for id in (300..SW_IDS).step_by(397).take(200) {
        assert_eq!(app.get(&format!("/news-event/{id}/x")).await.status(), StatusCode::NOT_FOUND, "{id}");
    }
    assert_eq!(asked(), before, "random ids below the newest cost the CMS nothing");
    // A story the index holds is read as ever.
    assert_eq!(app.get("/news-event/7/story-7").await.status(), StatusCode::OK);
    assert_eq!(app.get(&format!("/sw/news-event/{}/habari-7", 7 + SW_IDS)).await.status(), StatusCode::OK);
    // An old address whose id is gone but whose slug is known: sent to the story, from memory.
    let before = asked();
    let moved = app.get("/news-event/99999/story-12").await;
    assert_eq!(moved.status(), StatusCode::PERMANENT_REDIRECT);
    assert_eq!(moved.headers()["location"], "/news-event/12/story-12");
    assert_eq!(asked(), before);

    // Ids above the newest may be new: none is asked of the CMS; they make
    // the index be read again, at most once every few seconds, however many
    // are asked, at once or one after another.
    let item_asks =
        || cms.requests().iter().filter(|r| r.starts_with("/api/news-updates?") && r.contains("filters[id]")).count();
    let before = (asked(), item_asks());
    let started = Instant::now();
    let newer: Vec<usize> = (0..200).map(|n| 2 * SW_IDS + n * 13).collect();
    let at_once =
        futures::future::join_all(newer.iter().take(50).map(|id| app.get_owned(format!("/news-event/{id}/x")))).await;
    assert!(at_once.iter().all(|response| response.status() == StatusCode::NOT_FOUND));
    for id in &newer[50..] {
        assert_eq!(app.get(&format!("/news-event/{id}/x")).await.status(), StatusCode::NOT_FOUND);
    }
    let rereads = 1 + started.elapsed().as_secs() as usize / server::content::REREAD_EVERY.as_secs() as usize;
    let made = asked() - before.0;
    assert_eq!(item_asks(), before.1, "no item asked of the CMS");
    assert!(
        made <= 20,
        "{made} CMS requests for 200 ids above the newest in {:?} ({rereads} index reads at most)",
        started.elapsed()
    );

    // Published without a webhook: found within seconds, by its id (Strapi 5
    // numbers each language's version next in one sequence, above every id).
    let newest = 3 * SW_IDS;
    cms.add_item(NEWS, "en", json!({ "id": newest + 1, "documentId": "d260", "locale": "en", "title": "Story 260", "slug": "story-260", "publishDate": date(260) }));
    cms.add_item(NEWS, "sw", json!({ "id": newest + 2, "documentId": "d260", "locale": "sw", "title": "Habari 260", "slug": "habari-260", "publishDate": date(260) }));
    tokio::time::sleep(server::content::REREAD_EVERY).await;
    let found = app.get(&format!("/news-event/{}/story-260", newest + 1)).await;
    assert_eq!(found.status(), StatusCode::OK, "a story published a moment ago");

    // Published in the CMS, then its webhook: in the sitemap, on the first list page, at its address.
    cms.add_item(NEWS, "en", story(251, "en"));
    cms.add_item(NEWS, "sw", story(251, "sw"));
    let event = json!({ "event": "entry.publish", "model": "news-update", "entry": { "id": 251, "locale": "en" } });
    let hook =
        app.client.post(app.url("/api/cms/webhook")).bearer_auth("hook-secret").json(&event).send().await.unwrap();
    assert_eq!(hook.status(), StatusCode::OK);
    let locs = sitemap(&app).await;
    assert!(items_in(&locs, &app, "/news-event/").contains("/news-event/251/story-251"));
    let first = app.get("/news-events").await.text().await.unwrap();
    assert!(first.contains(r#"href="/news-event/251/story-251""#));
    assert_eq!(app.get("/news-event/251/story-251").await.status(), StatusCode::OK);
}

#[tokio::test]
async fn business_services_devices_and_tricks_past_a_hundred_are_reachable() {
    let cms = FakeCms::start(Shape::V4).await;
    cms.put_page("business-small", "en", "Business", "For business.");
    cms.put_page("device-catalogue", "en", "Devices", "Phones.");
    cms.put_page("fraudster", "en", "Fraud", "Stay safe.");
    let service = |n: usize| json!({ "id": n, "title": format!("Service {n}"), "slug": format!("service-{n}"), "categoryId": 5, "publishDate": date(n) });
    cms.put_collection("vbu-services", "en", (1..=130).map(service).collect());
    let device = |n: usize| json!({ "id": n, "name": format!("Phone {n}"), "slug": format!("phone-{n}"), "publishDate": date(n) });
    cms.put_collection("device-updates", "en", (1..=130).map(device).collect());
    let trick = |n: usize| json!({ "id": n, "title": format!("Trick {n}"), "slug": format!("trick-{n}"), "publishDate": date(n) });
    cms.put_collection("trick-mobiles", "en", (1..=130).map(trick).collect());
    let app = site_with(&cms, |_| {}).await;
    let locs = sitemap(&app).await;
    assert_eq!(items_in(&locs, &app, "/devices/").len(), 130);
    assert_eq!(items_in(&locs, &app, "/vodacom-business/").iter().filter(|p| p.contains("service-")).count(), 130);

    let (services, pages) = crawl_list(&app, "/vodacom-business/5/iot", "/vodacom-business/").await;
    assert_eq!((services.iter().filter(|p| p.contains("service-")).count(), pages), (130, 2));
    let (devices, pages) = crawl_list(&app, "/sw/devices", "/sw/devices/").await;
    assert_eq!((devices.len(), pages), (130, 5));
    let tricks = app.get("/fraudster").await.text().await.unwrap();
    assert_eq!(
        (1..=130).filter(|n| tricks.contains(&format!(r#"id="trick-{n}""#))).count(),
        130,
        "every trick on its page"
    );
}

#[tokio::test]
async fn search_finds_stories_past_those_pre_rendered() {
    let cms = FakeCms::start(Shape::V5).await;
    newsroom(&cms, NEWS, 250);
    let app = site_with(&cms, searchable).await;
    let found = |html: &str, href: &str| html.contains(&format!(r#"<li><a href="{href}""#));
    // The oldest stories are not pre-rendered: found by their titles in the index.
    let english = search(&app, "/search?q=story%20number%203").await;
    assert!(found(&english, "/news-event/3/story-3"), "{english}");
    let swahili = app.get("/sw/search?q=habari%20number%204").await.text().await.unwrap();
    assert!(found(&swahili, &format!("/sw/news-event/{}/habari-4", 4 + SW_IDS)), "{swahili}");
}

#[tokio::test]
async fn a_story_whose_title_gives_no_slug_is_at_its_number_alone() {
    let cms = FakeCms::start(Shape::V5).await;
    newsroom(&cms, NEWS, 3);
    // No slug in the CMS and no letter or digit of a-z, 0-9 in the title.
    let bare = json!({ "id": 4, "documentId": "d4", "locale": "en", "title": "🎉 !!!", "slug": "", "publishDate": date(4), "updatedAt": date(4) });
    cms.add_item(NEWS, "en", bare);
    let app = site_with(&cms, |_| {}).await;
    let page = app.get("/news-event/4").await;
    assert_eq!(page.status(), StatusCode::OK, "answered at its number, not sent to /news-event/4/ and back");
    for other in ["/news-event/4/x", "/news-event/4/"] {
        let moved = app.get(other).await;
        assert_eq!(moved.status(), StatusCode::PERMANENT_REDIRECT, "{other}");
        assert_eq!(moved.headers()[LOCATION], "/news-event/4", "{other}");
    }
    let locs = sitemap(&app).await;
    assert!(items_in(&locs, &app, "/news-event/").contains("/news-event/4"), "listed at its number");
}

/// A story never asked for before costs the CMS one request for the page
/// asked, in either language, and its page names its address in both: the
/// other language's version comes with it (`localizations`), whether the
/// deep-populate plugin gives them or a stock Strapi is asked for them.
/// Strapi 4 numbers the languages apart too, and its versions share no
/// `documentId`. An address carrying the other language's id still finds the
/// story, at its own address.
#[tokio::test]
async fn a_story_never_asked_for_costs_one_cms_request_and_names_both_addresses() {
    use server::content::PopulateStrategy;
    for (shape, populate) in [
        (Shape::V5, PopulateStrategy::Deep),
        (Shape::V5, PopulateStrategy::Explicit),
        (Shape::V4, PopulateStrategy::Level),
    ] {
        let cms = FakeCms::start(shape).await;
        // Strapi 4's answers carry no `documentId` (the fake CMS leaves it out).
        newsroom(&cms, NEWS, 12);
        let app = site_with(&cms, |c| c.cms.populate = populate).await;
        // What the item pages cost, the indexes (read in the background, `fields[…]`) apart.
        let item_reads = || {
            cms.requests().into_iter().filter(|r| r.starts_with("/api/news-updates?") && !r.contains("fields[")).count()
        };
        let case = format!("{shape:?} {populate:?}");
        for (path, en, sw) in [
            ("/news-event/7/story-7", "/news-event/7/story-7", format!("/sw/news-event/{}/habari-7", 7 + SW_IDS)),
            (
                &*format!("/sw/news-event/{}/habari-8", 8 + SW_IDS),
                "/news-event/8/story-8",
                format!("/sw/news-event/{}/habari-8", 8 + SW_IDS),
            ),
        ] {
            let before = item_reads();
            let page = app.get(path).await;
            assert_eq!(page.status(), StatusCode::OK, "{case} {path}");
            let html = page.text().await.unwrap();
            assert_eq!(item_reads() - before, 1, "{case} {path}: {:?}", cms.requests());
            for (lang, address) in [("en", en.to_owned()), ("sw", sw)] {
                let link = format!(r#"rel="alternate" hrefLang="{lang}" href="{}{address}""#, app.address);
                assert!(html.contains(&link), "{case} {path}: {link}");
            }
        }
        // The English id under /sw: the story is found, and sent to its Swahili address.
        let moved = app.get("/sw/news-event/9/habari-9").await;
        assert_eq!(moved.status(), StatusCode::PERMANENT_REDIRECT, "{case}");
        assert_eq!(moved.headers()[LOCATION], format!("/sw/news-event/{}/habari-9", 9 + SW_IDS), "{case}");
    }
}

/// A CMS without the collections the lists read (it answers 404 for the
/// types): each list page, the archive's, the fraudster page and the device
/// catalogue answer 200 with their own content and an empty list, in both
/// languages; nothing is asked for an item.
#[tokio::test]
async fn pages_reading_a_missing_collection_show_their_content_and_an_empty_list() {
    let cms = FakeCms::start(Shape::V5).await;
    for (key, words) in [
        ("news-events", "What happens at Vodacom."),
        ("sport", "The league, week by week."),
        ("device-catalogue", "Phones for every pocket."),
        ("fraudster", "Never share your PIN."),
    ] {
        cms.put_page(key, "en", key, words);
        cms.put_page(key, "sw", key, words);
    }
    let app = site_with(&cms, |_| {}).await;
    for (path, words, empty) in [
        ("/news-events", "What happens at Vodacom.", Some("There is no news yet.")),
        ("/sw/news-events", "What happens at Vodacom.", Some("Bado hakuna habari.")),
        ("/soka", "The league, week by week.", Some("There is no news yet.")),
        ("/devices", "Phones for every pocket.", Some("No devices are listed at the moment.")),
        ("/sw/devices", "Phones for every pocket.", Some("Hakuna vifaa vilivyoorodheshwa kwa sasa.")),
        ("/fraudster", "Never share your PIN.", None),
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let html = response.text().await.unwrap();
        assert!(html.contains(words), "{path}: its own content");
        if let Some(empty) = empty {
            assert!(html.contains(empty), "{path}: says the list is empty");
        }
    }
}
