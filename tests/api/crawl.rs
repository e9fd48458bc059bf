//! A crawler's view of the whole site with the embedded content: every route
//! of the manifest in both languages, every sitemap URL, the pages reached by
//! following links against the sitemap, redirects, 404s.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};

use reqwest::StatusCode;
use reqwest::header::LOCATION;
use serde_json::Value;

use crate::helpers::{TestApp, shared_app};

fn routes() -> Vec<Value> {
    serde_json::from_str(site::app_build().routes_json).unwrap()
}

fn between<'a>(html: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = html.find(start)? + start.len();
    Some(&html[from..from + html[from..].find(end)?])
}

/// The text inside `<main …>…</main>` without tags.
fn main_text(html: &str) -> String {
    let main = between(html, "<main", "</main>").unwrap_or("");
    let mut text = String::new();
    let mut in_tag = false;
    for c in main.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.trim().to_owned()
}

/// Titles seen so far, per language: a title must be unique within its language.
async fn check_page(app: &TestApp, path: &str, lang: &str, titles: &mut HashMap<(String, String), String>) {
    let response = app.get(path).await;
    assert_eq!(response.status(), StatusCode::OK, "{path}");
    let html = response.text().await.unwrap();
    assert!(html.starts_with(&format!("<!doctype html><html lang=\"{lang}\">")), "{path}: lang");
    assert!(main_text(&html).len() > 40, "{path}: <main> has content");
    let title = between(&html, "<title>", "</title>").unwrap_or_default().to_owned();
    assert!(!title.is_empty(), "{path}: title");
    if let Some(other) = titles.insert((lang.to_owned(), title.clone()), path.to_owned()) {
        panic!("{path} and {other} share the title {title:?}");
    }
}

/// A route's address with its optional parts left out (`/faq/:item?` is
/// `/faq`); none for a menu heading or a route that needs a parameter.
fn address(route: &Value) -> Option<String> {
    let path = route["path"].as_str().unwrap();
    let optional = |s: &str| s.starts_with(':') && s.ends_with('?');
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty() && !optional(s)).collect();
    if path.is_empty() || segments.iter().any(|s| s.starts_with(':') || *s == "*") {
        return None;
    }
    Some(format!("/{}", segments.join("/")))
}

/// The home page, where the server sends a visitor who signed out, is found
/// in the app's table by the name both sides give it (`HOME`), not only by
/// the root `RouteTable::home` falls back to.
#[test]
fn the_home_route_has_the_name_the_server_finds_it_by() {
    let table = server::manifest::RouteTable::from_json(site::app_build().routes_json).unwrap();
    let home = table.by_name(server::contract::route::HOME).map(|route| route.path.as_str());
    assert_eq!(home, Some("/"));
    assert_eq!(table.home(), "/");
}

#[tokio::test]
async fn every_route_answers_in_both_languages_with_a_unique_title() {
    let app = shared_app().await;
    let mut titles = HashMap::new();
    for route in routes() {
        let Some(path) = address(&route) else { continue };
        let path = path.as_str();
        for (lang, address) in
            [("en", path.to_owned()), ("sw", if path == "/" { "/sw".into() } else { format!("/sw{path}") })]
        {
            if let Some(redirect) = route.get("redirect").filter(|r| r.is_object()) {
                let response = app.get(&address).await;
                let expected =
                    if redirect["permanent"] == true { StatusCode::PERMANENT_REDIRECT } else { StatusCode::SEE_OTHER };
                assert_eq!(response.status(), expected, "{address}");
                let to = redirect["to"].as_str().unwrap();
                let location = response.headers()[LOCATION].to_str().unwrap().to_owned();
                let want = if to.starts_with('/') && lang == "sw" { format!("/sw{to}") } else { to.to_owned() };
                assert_eq!(location, want, "{address}");
                continue;
            }
            if route["meta"]["requiresAuth"] == true {
                let response = app.get(&address).await;
                assert_eq!(response.status(), StatusCode::SEE_OTHER, "{address} is guarded");
                continue;
            }
            check_page(&app, &address, lang, &mut titles).await;
        }
    }
}

/// The sitemap's addresses, without the site's origin.
async fn sitemap_paths(app: &TestApp) -> BTreeSet<String> {
    let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
    sitemap
        .split("<loc>")
        .skip(1)
        .map(|s| s[..s.find("</loc>").unwrap()].strip_prefix(&app.address).unwrap().to_owned())
        .collect()
}

/// The same-site addresses `html` links to, without fragments, leaving out
/// what is no page (the API, data, files, the sandbox).
fn page_links(html: &str) -> Vec<String> {
    const NO_PAGES: [&str; 8] =
        ["/api/", "/_data/", "/sw/_data/", "/sandbox/", "/static/", "/assets/", "/img/", "/sw.js"];
    html.split("<a ")
        .skip(1)
        .filter_map(|tag| between(&tag[..tag.find('>').unwrap_or(tag.len())], "href=\"", "\""))
        .map(|href| href.split('#').next().unwrap().replace("&amp;", "&"))
        .filter(|href| {
            href.starts_with('/') && !href.starts_with("//") && !NO_PAGES.iter().any(|prefix| href.starts_with(prefix))
        })
        .collect()
}

/// A crawler that starts at `/` and `/sw` and follows every same-site link
/// and redirect finds the pages the sitemap lists, by their canonical
/// addresses (`<link rel="canonical">` of every page answered 200 and not
/// `noindex`), and no other: a page a route shows with an optional part
/// left out (`/faq`) included. The pages of a list past the first
/// (`?page=2`) are canonical each but left to links, as the sitemap lists
/// every item they link to.
#[tokio::test]
async fn the_sitemap_lists_the_canonical_address_of_every_page_a_crawler_reaches() {
    let app = shared_app().await;
    let listed = sitemap_paths(&app).await;
    let mut queue: VecDeque<String> = ["/".to_owned(), "/sw".to_owned()].into();
    let mut seen: HashSet<String> = queue.iter().cloned().collect();
    let mut canonical = BTreeSet::new();
    let mut broken = Vec::new();
    while let Some(path) = queue.pop_front() {
        let response = app.get(&path).await;
        let status = response.status();
        let next: Vec<String> = if status.is_redirection() {
            let location = response.headers()[LOCATION].to_str().unwrap().to_owned();
            page_links(&format!("<a href=\"{location}\">"))
        } else if status == StatusCode::OK {
            let html = response.text().await.unwrap();
            if !html.contains(r#"<meta name="robots" content="noindex"#) {
                let href = between(&html, r#"<link rel="canonical" href=""#, "\"")
                    .unwrap_or_else(|| panic!("{path}: no canonical link"));
                canonical.insert(
                    href.replace("&amp;", "&")
                        .strip_prefix(&app.address)
                        .expect("canonical links use SITE_URL")
                        .to_owned(),
                );
            }
            page_links(&html)
        } else {
            broken.push(format!("{path}: {status}"));
            Vec::new()
        };
        for link in next {
            if seen.insert(link.clone()) {
                queue.push_back(link);
            }
        }
    }
    assert!(broken.is_empty(), "links to no page: {broken:?}");
    let (list_pages, pages): (BTreeSet<String>, BTreeSet<String>) =
        canonical.into_iter().partition(|path| path.contains("?page="));
    assert!(pages.contains("/faq") && pages.contains("/sw/faq"), "{pages:?}");
    assert!(
        list_pages.contains("/news-events?page=2") && list_pages.contains("/sw/news-events?page=2"),
        "{list_pages:?}"
    );
    let unlisted: Vec<&String> = pages.difference(&listed).collect();
    let unreached: Vec<&String> = listed.difference(&pages).collect();
    assert!(
        unlisted.is_empty() && unreached.is_empty(),
        "canonical pages the sitemap lacks: {unlisted:?}; sitemap addresses no link reaches: {unreached:?}"
    );
}

#[tokio::test]
async fn every_sitemap_url_answers_200() {
    let app = shared_app().await;
    let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
    let urls: Vec<&str> = sitemap.split("<loc>").skip(1).map(|s| &s[..s.find("</loc>").unwrap()]).collect();
    assert!(urls.len() > 250, "{} URLs", urls.len());
    assert!(urls.iter().any(|u| u.contains("/news-event/")) && urls.iter().any(|u| u.contains("/sw/devices/")));
    let mut titles = HashMap::new();
    for url in urls {
        let path = url.strip_prefix(&app.address).expect("sitemap URLs use SITE_URL");
        let lang = if path == "/sw" || path.starts_with("/sw/") { "sw" } else { "en" };
        check_page(&app, path, lang, &mut titles).await;
    }
}

/// The 31 business pages (the business page, its 10 categories, its 20
/// services) each describe themselves, in both languages: the categories
/// show the business page's content but not its description.
#[tokio::test]
async fn every_business_page_has_its_own_description() {
    let app = shared_app().await;
    let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
    for prefix in ["", "/sw"] {
        let business = format!("{prefix}/vodacom-business");
        let paths: Vec<String> = sitemap
            .split("<loc>")
            .skip(1)
            .map(|s| s[..s.find("</loc>").unwrap()].strip_prefix(&app.address).unwrap().to_owned())
            .filter(|path| {
                (*path == business || path.starts_with(&format!("{business}/"))) && !path.ends_with("/community")
            })
            .collect();
        assert_eq!(paths.len(), 31, "{paths:?}");
        let mut described: HashMap<String, String> = HashMap::new();
        for path in paths {
            let html = app.get(&path).await.text().await.unwrap();
            let description = between(&html, "<meta name=\"description\" content=\"", "\"").unwrap().to_owned();
            if let Some(other) = described.insert(description.clone(), path.clone()) {
                panic!("{path} and {other} share the description {description:?}");
            }
        }
    }
    let iot = app.get("/vodacom-business/5/iot").await.text().await.unwrap();
    assert!(
        between(&iot, "<meta name=\"description\" content=\"", "\"")
            .unwrap()
            .starts_with("Internet of Things from Vodacom Business: "),
        "{iot}"
    );
}

#[tokio::test]
async fn robots_points_at_the_sitemap() {
    let app = shared_app().await;
    let robots = app.get("/robots.txt").await.text().await.unwrap();
    assert!(robots.contains(&format!("Sitemap: {}/sitemap.xml", app.address)));
    assert!(robots.contains("Disallow: /_data/"));
}

#[tokio::test]
async fn items_redirect_to_their_slug_and_unknown_ones_are_404() {
    let app = shared_app().await;
    let news: Value = app.get("/_data/news-events").await.json().await.unwrap();
    let first = &news["content"]["list"]["items"][0];
    let (id, slug) = (first["id"].as_u64().unwrap(), first["slug"].as_str().unwrap());
    for wrong in [format!("/news-event/{id}"), format!("/news-event/{id}/not-the-slug")] {
        let response = app.get(&wrong).await;
        assert_eq!(response.status(), StatusCode::PERMANENT_REDIRECT, "{wrong}");
        assert_eq!(response.headers()[LOCATION], format!("/news-event/{id}/{slug}").as_str());
    }
    let sw = app.get(&format!("/sw/news-event/{id}/x")).await;
    assert!(sw.headers()[LOCATION].to_str().unwrap().starts_with(&format!("/sw/news-event/{id}/")));
    // An old number with a known slug (Strapi 5 renumbers at every publish) finds the item.
    let moved = app.get(&format!("/news-event/999999/{slug}")).await;
    assert_eq!(moved.status(), StatusCode::PERMANENT_REDIRECT);
    assert_eq!(moved.headers()[LOCATION], format!("/news-event/{id}/{slug}").as_str());
    for missing in
        ["/news-event/999999/x", "/news-event/abc", "/devices/0", "/sw/sport-news/424242", "/faq/no-such-question"]
    {
        assert_eq!(app.get(missing).await.status(), StatusCode::NOT_FOUND, "{missing}");
    }
    let page = app.get(&format!("/news-event/{id}/{slug}")).await.text().await.unwrap();
    assert!(page.contains(r#"hrefLang="sw" href=""#));
}

#[tokio::test]
async fn pass_through_and_guarded_routes() {
    let app = shared_app().await;
    let category: Value = app.get("/_data/vodacom-business/5/iot").await.json().await.unwrap();
    let business: Value = app.get("/_data/vodacom-business").await.json().await.unwrap();
    assert_eq!(category["content"]["page"], business["content"]["page"], "a category shows its parent's content");
    assert_eq!(category["content"]["list"]["collection"], "vbu-services");
    assert!(category["content"]["list"]["items"].as_array().unwrap().iter().all(|s| s["categoryId"] == 5));
    let guarded = app.get("/sw/customer-permission-management").await;
    assert_eq!(guarded.headers()[LOCATION], "/sw/cpm-login");
    let redirect: Value = app.get("/_data/5G").await.json().await.unwrap();
    assert_eq!(redirect["redirect"], "/fwa");
}
