//! Site search (`/search?q=`): the index of every page, built by the
//! pre-render pass, server-rendered results that need no JavaScript.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::json;

use crate::fake_cms::{FakeCms, Shape};
use crate::helpers::{eventually, results, search, searchable, shared_app, site_with, spawn_app_with};

#[tokio::test]
async fn search_finds_pages_in_the_visitors_language_typos_forgiven_without_javascript() {
    let app = shared_app().await;
    let english = search(&app, "/search?q=mpessa").await;
    let found = results(&english);
    assert!(found.iter().any(|href| href == "/mpesa"), "{found:?}");
    assert!(found.iter().all(|href| !href.starts_with("/sw")), "English pages only: {found:?}");
    assert!(english.contains(r#"<p role="status" class="search-status">Results for “mpessa”</p>"#), "not a heading");
    // Did you mean: the word the pages write.
    let typo = search(&app, "/search?q=intenet").await;
    assert!(typo.contains(r#"Did you mean"#) && typo.contains(r#"?q=internet">internet</a>"#), "{typo}");
    // A Swahili word on the English search, and a USSD code whole.
    assert!(results(&search(&app, "/search?q=vifurushi").await).contains(&"/internet-overview".to_owned()));
    assert_eq!(results(&search(&app, "/search?q=*149*55%23").await)[0], "/nipige-tafu");
    assert!(english.contains(r#"<meta name="robots" content="noindex"/>"#), "results are not for search engines");
    // The header's search box: a plain GET form to the page's language.
    assert!(english.contains(r#"<form role="search" class="search-form site-search" action="/search" method="get">"#));

    let swahili = search(&app, "/sw/search?q=VIFURUSHI").await;
    let found = results(&swahili);
    assert!(!found.is_empty() && found.iter().all(|href| href == "/sw" || href.starts_with("/sw/")), "{found:?}");
    assert!(swahili.contains("Matokeo ya “VIFURUSHI”"));
    assert!(
        swahili.contains(r#"<form role="search" class="search-form site-search" action="/sw/search" method="get">"#)
    );

    let nothing = search(&app, "/search?q=qwxzv").await;
    assert!(results(&nothing).is_empty());
    assert!(nothing.contains("Nothing found for “qwxzv”"));
    // Odd input is a page, not an error.
    for query in ["%22%3Cscript%3E", "a%20AND%20OR%20(", "%F0%9F%99%82", &"x".repeat(3000)] {
        let response = app.get(&format!("/search?q={query}")).await;
        assert_eq!(response.status(), StatusCode::OK, "{query}");
        assert!(!response.text().await.unwrap().contains("<script>"), "{query}");
    }
}

/// A word typed as one that the pages write as two is found as the two; a
/// query that finds nothing in either language gets the pages that come
/// close, said so in the visitor's language, without the words "left out";
/// one with nothing to come close to keeps its "Nothing found" (above).
#[tokio::test]
async fn joined_words_are_split_and_a_query_that_finds_nothing_gets_the_pages_that_come_close() {
    let app = shared_app().await;
    let joined = search(&app, "/search?q=simcard").await;
    assert_eq!(results(&joined)[0], "/sim-registration");
    assert!(joined.contains("Results for “simcard”"));
    assert!(joined.contains(r#"?q=sim%20card">sim card</a>"#), "did you mean the two words");

    let close = search(&app, "/search?q=herbalmedicine").await;
    assert!(close.contains("No exact matches for “herbalmedicine”. Pages that come close:"), "{close}");
    assert_eq!(results(&close), ["/afya-call"], "\"medicine\" of it");
    assert!(!close.contains("left out of the search"));
    let close = search(&app, "/sw/search?q=dawazetu").await;
    assert!(close.contains("Hakuna kinacholingana kamili na “dawazetu”."));
    assert!(results(&close).contains(&"/sw/afya-call".to_owned()), "\"dawa\" of it");
}

/// A visitor's own pages and search results are `noindex` and left out of
/// the sitemap (and so of pre-rendering and the search index).
#[tokio::test]
async fn personal_pages_and_search_results_are_not_for_search_engines() {
    let app = shared_app().await;
    let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
    for path in ["/account", "/cpm-login", "/cpm-otp", "/customer-permission-management", "/search"] {
        assert!(!sitemap.contains(&format!("{}{path}<", app.address)), "{path} in the sitemap");
        assert!(!sitemap.contains(&format!("{}/sw{path}<", app.address)), "/sw{path} in the sitemap");
    }
    for path in ["/account", "/cpm-login", "/sw/cpm-otp?msisdn=0754000002", "/search"] {
        let html = app.get(path).await.text().await.unwrap();
        assert!(html.contains(r#"<meta name="robots" content="noindex"/>"#), "{path}");
    }
    let html = app.get("/mpesa").await.text().await.unwrap();
    assert!(!html.contains("noindex"), "content pages stay indexable");
}

/// The synonyms editors keep in the CMS's `synonyms` collection: without
/// one the search reads queries with its embedded list; with one, with its
/// groups instead, from the index built after their webhook.
#[tokio::test]
async fn a_synonym_from_the_cms_finds_a_page_in_place_of_the_embedded_list() {
    let cms = FakeCms::start(Shape::V5).await;
    cms.put_page("voice", "en", "Voice plans", "Talk for hours with the Zumaridi plan and our vifurushi.");
    let app = site_with(&cms, searchable).await;
    let voice = "/voice-sms".to_owned();
    // No collection in the CMS: the embedded list ("bundles" finds "vifurushi").
    assert!(results(&search(&app, "/search?q=bundles").await).contains(&voice));
    assert!(!results(&search(&app, "/search?q=emerald").await).contains(&voice));

    cms.put_collection("synonyms", "en", vec![json!({ "id": 1, "documentId": "s1", "words": "emerald | zumaridi" })]);
    let event = json!({ "event": "entry.create", "model": "synonym", "entry": { "id": 1, "locale": null } });
    let hook =
        app.client.post(app.url("/api/cms/webhook")).bearer_auth("hook-secret").json(&event).send().await.unwrap();
    assert_eq!(hook.status(), StatusCode::OK);
    // The pass the webhook asks for, in a debug build beside the rest of the suite.
    let found = async || results(&search(&app, "/search?q=emerald").await);
    eventually("the CMS's synonym finds the page", found, |results| results.contains(&voice)).await;
    let requests = cms.requests();
    let reads: Vec<_> = requests.iter().filter(|r| r.starts_with("/api/synonyms?")).collect();
    assert!(reads.iter().all(|r| !r.contains("locale=")), "one list for both languages: {reads:?}");
}

/// A results page answered while the first index was being built ("getting
/// ready") is not what the site keeps answering once it is built: the pages
/// kept whole for anonymous visitors hold the search page for the build of
/// the index that answered it, not for the content's time-to-live. (Asked
/// again and again, as `search` does, some answer falls between the pass's
/// last read of content and the index it then builds: kept by content alone,
/// that answer would stand for the hour.)
#[tokio::test]
async fn a_search_asked_while_the_index_builds_is_answered_from_the_index_once_it_is_built() {
    let app = spawn_app_with(|config| {
        searchable(config);
        config.content.ttl = Duration::from_secs(3600);
    })
    .await;
    let path = "/search?q=mpessa";
    // The pre-render pass of every page, which builds the index, takes
    // seconds: the site has just started.
    assert!(app.page(path).await.contains("Search is getting ready"), "asked before the index was built");
    let found = results(&search(&app, path).await);
    assert!(found.iter().any(|href| href == "/mpesa"), "{found:?}");
}
