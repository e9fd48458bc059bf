//! The Strapi fixture's generated newsroom (`tools/strapi_fixture.py
//! --stories`), which `bench/newsroom.sh` crawls: answered as Strapi 5
//! answers a large collection (its pages, filters and fields), its requests
//! counted by kind, a type left out answered 404, and the whole of it listed
//! and served by the site.

use std::process::{Child, Command, Stdio};

use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::{eventually, free_port, locs, spawn_app_with};

/// The stories stored in `content/` per language, beside the generated ones.
const EMBEDDED: usize = 12;

/// The fixture started with `args` on a free port, killed when dropped.
struct Fixture {
    child: Child,
    url: String,
}

impl Fixture {
    async fn start(args: &[&str]) -> Fixture {
        let port = free_port();
        let child = Command::new("python3")
            .arg(format!("{}/tools/strapi_fixture.py", env!("CARGO_MANIFEST_DIR")))
            .args(["--port", &port.to_string()])
            .args(args)
            .stdout(Stdio::null())
            .spawn()
            .expect("python3 runs the Strapi fixture");
        let fixture = Fixture { child, url: format!("http://127.0.0.1:{port}") };
        let refused = async || reqwest::get(format!("{}/__requests", fixture.url)).await.err().map(|e| e.to_string());
        eventually("the fixture answers", refused, Option::is_none).await;
        fixture
    }

    async fn get(&self, path: &str) -> (StatusCode, Value) {
        let response = reqwest::get(format!("{}{path}", self.url)).await.unwrap();
        (response.status(), response.json().await.unwrap())
    }

    async fn list(&self, path: &str) -> (Vec<Value>, Value) {
        let (status, body) = self.get(path).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
        (body["data"].as_array().unwrap().clone(), body["meta"]["pagination"].clone())
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Newest first, then by id, as the site asks its lists to be sorted.
fn newest_first(items: &[Value]) -> bool {
    let key = |item: &Value| (item["publishDate"].as_str().unwrap().to_owned(), item["id"].as_u64().unwrap());
    items.windows(2).all(|pair| key(&pair[0]) > key(&pair[1]))
}

#[tokio::test]
async fn the_generated_newsroom_is_answered_as_strapi_5_pages_filters_and_fields_it() {
    let cms = Fixture::start(&["--shape", "v5", "--stories", "40", "--without", "locations"]).await;
    let total = 40 + EMBEDDED;

    // Every page of a list, newest first, with Strapi's pagination.
    let mut every = Vec::new();
    for page in 1..=3 {
        let (items, pagination) = cms
            .list(&format!(
                "/api/news-updates?locale=en&sort[0]=publishDate:desc&sort[1]=id:desc&pagination[page]={page}&pagination[pageSize]=20"
            ))
            .await;
        assert_eq!(pagination["total"], total);
        assert_eq!(pagination["pageCount"], 3);
        every.extend(items);
    }
    assert_eq!(every.len(), total);
    assert!(newest_first(&every), "sorted by publishDate, then id, descending");

    // Each language's version of a story has its own id and shares one documentId.
    let story = every.iter().find(|item| item["id"].as_u64().unwrap() > EMBEDDED as u64).unwrap();
    let document = story["documentId"].as_str().unwrap();
    let (swahili, _) = cms.list(&format!("/api/news-updates?locale=sw&filters[documentId][$eq]={document}")).await;
    let [swahili] = swahili.as_slice() else { panic!("one Swahili version of {document}: {swahili:?}") };
    assert_ne!(swahili["id"], story["id"]);
    assert_ne!(swahili["title"], story["title"]);
    assert_eq!(swahili["publishDate"], story["publishDate"]);
    for version in [story, swahili] {
        assert!(version["body"].as_str().unwrap().matches("\n\n").count() >= 2, "paragraphs: {version}");
        assert!(version["image"]["url"].is_string(), "a photo: {version}");
    }
    let by_id = format!("/api/news-updates?locale=sw&filters[id][$eq]={}", swahili["id"]);
    assert_eq!(cms.list(&by_id).await.0.len(), 1);
    let other_language = format!("/api/news-updates?locale=en&filters[id][$eq]={}", swahili["id"]);
    assert!(cms.list(&other_language).await.0.is_empty(), "an id is one language's");

    // An index read: only the fields asked for, and of the photo only its address.
    let (index, _) = cms
        .list("/api/news-updates?locale=sw&fields[0]=slug&fields[1]=title&populate[image][fields][0]=url&sort=id:asc&pagination[page]=1&pagination[pageSize]=100")
        .await;
    assert_eq!(index.len(), total);
    assert!(index.windows(2).all(|pair| pair[0]["id"].as_u64() < pair[1]["id"].as_u64()), "by id");
    for item in &index {
        let keys: Vec<&str> = item.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys.len(), 5, "id, documentId, slug, title, image: {item}");
        assert!(["id", "documentId", "slug", "title", "image"].iter().all(|key| keys.contains(key)), "{item}");
        let photo: Vec<&String> = item["image"].as_object().unwrap().keys().collect();
        assert!(photo.iter().all(|key| ["id", "documentId", "url"].contains(&key.as_str())), "{item}");
    }

    // A type left out is one Strapi does not have.
    let (status, _) = cms.get("/api/locations?sort=id:asc&pagination[page]=1").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(cms.get("/api/home?locale=en").await.0, StatusCode::OK);

    // Every request counted by kind.
    let (_, counts) = cms.get("/__requests").await;
    assert_eq!(counts, serde_json::json!({ "list": 4, "item": 3, "index": 1, "single": 1, "total": 9 }));
}

/// The `<loc>`s of a sitemap.
#[tokio::test]
async fn the_site_lists_and_serves_every_story_of_the_generated_newsroom() {
    let cms = Fixture::start(&["--shape", "v5", "--stories", "30"]).await;
    let url = cms.url.clone();
    let app = spawn_app_with(move |config| config.cms.url = Some(url.parse().unwrap())).await;

    let mut pages = Vec::new();
    for loc in locs(&app.get("/sitemap.xml").await.text().await.unwrap()) {
        let path = loc.split_once("://").and_then(|(_, rest)| rest.find('/').map(|at| rest[at..].to_owned())).unwrap();
        if path.starts_with("/sitemaps/") {
            pages.extend(locs(&app.get(&path).await.text().await.unwrap()));
        } else {
            pages.push(loc);
        }
    }
    let stories: Vec<&String> = pages.iter().filter(|loc| loc.contains("/news-event/")).collect();
    assert_eq!(stories.len(), 2 * (30 + EMBEDDED), "both languages' stories: {stories:?}");

    let (newest, _) = cms
        .list("/api/news-updates?locale=sw&sort[0]=publishDate:desc&sort[1]=id:desc&pagination[page]=1&pagination[pageSize]=1")
        .await;
    let path = format!("/sw/news-event/{}/{}", newest[0]["id"], newest[0]["slug"].as_str().unwrap());
    assert!(stories.iter().any(|loc| loc.ends_with(&path)), "{path} in the sitemap");
    let page = app.get(&path).await;
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.text().await.unwrap().contains(newest[0]["title"].as_str().unwrap()));
}
