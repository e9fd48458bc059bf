//! The client's requests, paging and learning, without a CMS.

use contract::content::Collection;

use super::populate::{Refused, invalid_key};
use super::*;

fn client(populate: PopulateStrategy) -> StrapiClient {
    let settings = StrapiSettings {
        base_url: "http://cms/".into(),
        token: None,
        populate,
        timeout: Duration::from_secs(3),
        max_requests: 4,
        draft: false,
    };
    StrapiClient::new(settings, Normalizer::default()).unwrap()
}

fn query_string(client: &StrapiClient, query: &ContentQuery, lang: Lang) -> (String, String) {
    let (path, params) = client.request(query, lang, &client.accepted(query.model()));
    (path, params.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&"))
}

#[test]
fn builds_the_requests_strapi_answers() {
    let client = client(PopulateStrategy::Deep);
    assert_eq!(
        query_string(&client, &ContentQuery::single("home"), Lang::Sw),
        ("/api/home".into(), "locale=sw&populate=deep,10".into())
    );
    assert_eq!(query_string(&client, &ContentQuery::single("business-mid"), Lang::En).1, "locale=en&populate=deep,3");
    let list = ContentQuery::List { collection: Collection::NewsUpdates, page_size: 9, filter: None, page: 3 };
    assert_eq!(
        query_string(&client, &list, Lang::En),
        ("/api/news-updates".into(), "locale=en&populate=deep,10&sort[0]=publishDate:desc&sort[1]=id:desc&pagination[page]=3&pagination[pageSize]=9".into())
    );
    let index = ContentQuery::Index(Collection::DeviceUpdates);
    assert_eq!(
        query_string(&client, &index, Lang::Sw),
        ("/api/device-updates".into(), "locale=sw&fields[0]=slug&fields[1]=name&fields[2]=updatedAt&fields[3]=publishDate&populate[image][fields][0]=url&populate[image][fields][1]=mime&populate[image][fields][2]=alternativeText&sort=id:asc".into())
    );
    let services = ContentQuery::List {
        collection: Collection::VbuServices,
        page_size: 100,
        filter: Some(("categoryId".into(), "5".into())),
        page: 1,
    };
    assert!(
        query_string(&client, &services, Lang::En)
            .1
            .contains("&filters[categoryId][$eq]=5&sort[0]=publishDate:desc&sort[1]=id:desc")
    );
    let item = ContentQuery::Item { collection: Collection::TrickMobiles, id: 4 };
    assert_eq!(
        query_string(&client, &item, Lang::En),
        ("/api/trick-mobiles".into(), "locale=en&populate=deep,10&filters[id][$eq]=4".into())
    );
    let popups = ContentQuery::Popups("home".into());
    assert_eq!(
        query_string(&client, &popups, Lang::En),
        ("/api/popups".into(), "locale=en&sort=id:desc&filters[type][$eq]=home&populate=deep,10".into())
    );
    // The same in every language: asked for without one.
    let (path, query) = query_string(&client, &ContentQuery::Locations, Lang::Sw);
    assert_eq!(path, "/api/locations");
    assert!(
        query.starts_with("fields[0]=name&fields[1]=kind&")
            && query.contains("fields[6]=landmarkSw&")
            && query.ends_with("&sort=id:asc"),
        "{query}"
    );
}

#[test]
fn a_draft_client_asks_for_drafts() {
    let settings = StrapiSettings {
        base_url: "http://cms".into(),
        token: None,
        populate: PopulateStrategy::Deep,
        timeout: Duration::from_secs(3),
        max_requests: 4,
        draft: true,
    };
    let client = StrapiClient::new(settings, Normalizer::default()).unwrap();
    assert_eq!(
        query_string(&client, &ContentQuery::single("home"), Lang::Sw).1,
        "locale=sw&status=draft&populate=deep,10"
    );
}

#[test]
fn the_first_strategy_is_a_setting() {
    let (_, query) = query_string(&client(PopulateStrategy::Level), &ContentQuery::single("large"), Lang::En);
    assert_eq!(query, "locale=en&pLevel=10");
    let (_, query) = query_string(&client(PopulateStrategy::Explicit), &ContentQuery::single("home"), Lang::En);
    assert!(query.contains("populate[seo][populate][shareImage]=true"), "{query}");
    assert!(
        query.contains("populate[sections][on][sections.card-grid][populate][cards][populate][image]=true"),
        "{query}"
    );
    assert!(!query.contains("deep"), "{query}");
    assert_eq!("plevel".parse::<PopulateStrategy>(), Ok(PopulateStrategy::Level));
    assert!("deeper".parse::<PopulateStrategy>().is_err());
}

#[test]
fn reads_on_while_either_pagination_says_there_is_more() {
    let pages = |page, page_count| Some(Pagination::Pages { page, page_count });
    assert_eq!(Paging::Page(1).next(pages(1, 3), 100), Some(Paging::Page(2)));
    assert_eq!(Paging::Page(3).next(pages(3, 3), 100), None);
    let offset = |start, total| Some(Pagination::Offset { start, total });
    assert_eq!(Paging::Page(1).next(offset(0, 250), 100), Some(Paging::Start(100)));
    assert_eq!(Paging::Start(200).next(offset(200, 250), 50), None);
    // A CMS capping the page below what was asked: on from what came.
    assert_eq!(Paging::Start(0).next(offset(0, 250), 25), Some(Paging::Start(25)));
    // No pagination: on while pages come full.
    assert_eq!(Paging::Page(1).next(None, 100), Some(Paging::Page(2)));
    assert_eq!(Paging::Page(2).next(None, 40), None);
    assert_eq!(Paging::Page(2).next(pages(2, 9), 0), None);
    let v4 = serde_json::json!({ "data": [], "meta": { "pagination": { "page": 2, "pageSize": 100, "pageCount": 3, "total": 250 } } });
    assert_eq!(Pagination::of(&v4), pages(2, 3));
    let offset_answer =
        serde_json::json!({ "data": [], "meta": { "pagination": { "start": 100, "limit": 100, "total": 250 } } });
    assert_eq!(Pagination::of(&offset_answer), offset(100, 250));
}

#[test]
fn a_refusal_teaches_what_to_ask_next() {
    let deep = Accepted { strategy: PopulateStrategy::Deep, invalid_keys: vec![], no_populate: false };
    let invalid = |key: &str| {
        format!(
            r#"{{"data":null,"error":{{"status":400,"name":"ValidationError","message":"Invalid key {key}","details":{{"key":"{key}","path":null}}}}}}"#
        )
    };
    let explicit = learn(&deep, &invalid("deep")).unwrap();
    assert_eq!(explicit.strategy, PopulateStrategy::Explicit);
    let without_sections = learn(&explicit, &invalid("sections")).unwrap();
    assert_eq!(without_sections.invalid_keys, vec![Refused { key: "sections".into(), under: Some(vec![]) }]);
    let client = client(PopulateStrategy::Deep);
    let params = client.populate(DEEP_LEVEL, TypeShape::Page, &without_sections);
    assert!(!params.is_empty() && params.iter().all(|(k, _)| !k.contains("[sections]")), "{params:?}");
    // The same key again, or no key named: ask without populate, then give up.
    let bare = learn(&without_sections, &invalid("sections")).unwrap();
    assert!(bare.no_populate);
    assert_eq!(learn(&bare, "{}"), None);
    assert_eq!(
        invalid_key(r#"{"error":{"message":"Invalid key sections"}}"#),
        Some(Refused { key: "sections".into(), under: None })
    );
    let nested = r#"{"error":{"message":"Invalid key image at sections.cards","details":{"key":"image","path":"sections.cards"}}}"#;
    assert_eq!(
        invalid_key(nested),
        Some(Refused { key: "image".into(), under: Some(vec!["sections".into(), "cards".into()]) })
    );
    assert_eq!(
        invalid_key(r#"{"error":{"message":"Invalid key image at seo.shareImage"}}"#).unwrap().under,
        Some(vec!["seo".into(), "shareImage".into()])
    );
}

/// A stock Strapi 5 whose `shared.seo` lacks `shareImage`: the key goes,
/// `seo` itself is still asked for (Strapi 5 returns no component that
/// is not), and so is a card grid whose cards lose their image.
#[test]
fn a_refused_key_leaves_its_parent_populated() {
    let client = client(PopulateStrategy::Explicit);
    let accepted = |keys: &[&str]| Accepted {
        strategy: PopulateStrategy::Explicit,
        invalid_keys: keys.iter().map(|k| Refused { key: k.to_string(), under: None }).collect(),
        no_populate: false,
    };
    let params = client.populate(DEEP_LEVEL, TypeShape::Page, &accepted(&["shareImage"]));
    let keys: Vec<&str> = params.iter().map(|(k, _)| k.as_str()).collect();
    assert!(keys.contains(&"populate[seo]"), "{keys:?}");
    assert!(!keys.iter().any(|k| k.contains("shareImage")), "{keys:?}");
    assert!(keys.iter().any(|k| k.starts_with("populate[sections][on]")), "the rest stays: {keys:?}");
    let params = client.populate(DEEP_LEVEL, TypeShape::Page, &accepted(&["image", "shareImage"]));
    let grid = params.iter().find(|(k, _)| k.contains("[sections.card-grid]")).expect("the card grid still asked for");
    assert!(!grid.0.contains("[image]"), "{grid:?}");
    assert!(grid.0.contains("[cards]") || grid.1 == "*", "{grid:?}");
    assert!(params.iter().all(|(k, _)| !k.contains("[image]")), "{params:?}");
}

/// Strapi 5 says where it refused a key: only that component's populate
/// loses it. Cards without an image keep their other fields, and every
/// other image (in other dynamic zone members, other components) is
/// still asked for; a key refused at the top goes from the top only.
#[test]
fn a_key_refused_at_a_path_goes_from_there_only() {
    let client = client(PopulateStrategy::Explicit);
    let everything = client.populate(
        DEEP_LEVEL,
        TypeShape::Page,
        &Accepted { strategy: PopulateStrategy::Explicit, invalid_keys: vec![], no_populate: false },
    );
    let at = |key: &str, under: &[&str]| Accepted {
        strategy: PopulateStrategy::Explicit,
        invalid_keys: vec![Refused { key: key.into(), under: Some(under.iter().map(|s| s.to_string()).collect()) }],
        no_populate: false,
    };
    let params = client.populate(DEEP_LEVEL, TypeShape::Page, &at("image", &["sections", "cards"]));
    let images = |params: &[(String, String)]| params.iter().filter(|(k, _)| k.ends_with("[image]")).count();
    assert!(params.iter().all(|(k, _)| !k.contains("[cards][populate][image]")), "{params:?}");
    assert!(
        params.iter().any(|(k, _)| k.contains("[sections.card-grid][populate][cards]")),
        "the cards stay: {params:?}"
    );
    let card_images = everything.iter().filter(|(k, _)| k.contains("[cards][populate][image]")).count();
    assert!(card_images > 0 && images(&params) == images(&everything) - card_images, "{params:?}");
    // A media field of a component in a component.
    let params = client.populate(DEEP_LEVEL, TypeShape::Page, &at("shareImage", &["seo"]));
    assert!(params.iter().any(|(k, _)| k == "populate[seo]"), "{params:?}");
    assert!(params.iter().all(|(k, _)| !k.contains("shareImage")), "{params:?}");
    assert_eq!(params.len(), everything.len(), "nothing else changes: {params:?}");
    // A path that is not asked for changes nothing.
    assert_eq!(client.populate(DEEP_LEVEL, TypeShape::Page, &at("image", &["nowhere"])), everything);
}

#[test]
fn an_index_whose_photo_is_refused_is_asked_without_it() {
    let client = client(PopulateStrategy::Deep);
    let asked = Accepted { strategy: PopulateStrategy::Deep, invalid_keys: vec![], no_populate: false };
    let refusal = r#"{"data":null,"error":{"status":400,"name":"ValidationError","message":"Invalid key image","details":{"key":"image","path":"image"}}}"#;
    let learnt = learn_field(&asked, refusal, &super::super::index::keys(Collection::NewsUpdates)).unwrap();
    let (_, params) = client.request(&ContentQuery::Index(Collection::NewsUpdates), Lang::En, &learnt);
    assert!(params.iter().all(|(key, _)| !key.starts_with("populate")), "{params:?}");
    assert!(params.iter().any(|(key, value)| key == "fields[1]" && value == "title"), "{params:?}");
    // Asked again with the key: its photo alone.
    let (_, params) = client.request(&ContentQuery::Index(Collection::VbuServices), Lang::En, &asked);
    assert_eq!(params.iter().filter(|(key, _)| key.starts_with("populate")).count(), 3, "{params:?}");
}

/// An item is asked for with its versions in the other language: explicitly
/// from a stock Strapi (their address alone), of themselves from the
/// deep-populate plugins; a field or the relation refused goes.
#[test]
fn an_item_is_asked_for_with_its_other_language() {
    let item = ContentQuery::Item { collection: Collection::NewsUpdates, id: 7 };
    let explicit = client(PopulateStrategy::Explicit);
    let (_, query) = query_string(&explicit, &item, Lang::En);
    assert!(
        query.contains("populate[localizations][fields][0]=slug&populate[localizations][fields][1]=locale&populate[localizations][fields][2]=publishedAt&filters[id][$eq]=7"),
        "{query}"
    );
    let (_, deep) = query_string(&client(PopulateStrategy::Deep), &item, Lang::En);
    assert_eq!(deep, "locale=en&populate=deep,10&filters[id][$eq]=7");
    let list = ContentQuery::List { collection: Collection::NewsUpdates, page_size: 9, filter: None, page: 1 };
    assert!(!query_string(&explicit, &list, Lang::En).1.contains("localizations"), "a list needs no addresses in both");
    let refused = |key: &str, under: Option<Vec<String>>| Accepted {
        strategy: PopulateStrategy::Explicit,
        invalid_keys: vec![Refused { key: key.into(), under }],
        no_populate: false,
    };
    let without_status =
        explicit.request(&item, Lang::En, &refused("publishedAt", Some(vec!["localizations".into()]))).1;
    let asked: Vec<&str> = without_status
        .iter()
        .filter(|(k, _)| k.starts_with("populate[localizations]"))
        .map(|(_, v)| v.as_str())
        .collect();
    assert_eq!(asked, ["slug", "locale"]);
    let not_localized = explicit.request(&item, Lang::En, &refused("localizations", Some(vec![]))).1;
    assert!(not_localized.iter().all(|(k, _)| !k.contains("localizations")), "{not_localized:?}");
}

/// A CMS on a port of its own that counts what it is asked: each language's
/// version of story 7 has its own id (Strapi 5: 7 and 1007, one document;
/// Strapi 4: no document, the versions linked by `localizations` alone).
mod counted {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use axum::extract::{Query, State};
    use serde_json::json;

    use super::*;
    use crate::content::parse_answer;

    async fn cms(documents: bool) -> (String, Arc<AtomicUsize>) {
        let asked = Arc::new(AtomicUsize::new(0));
        let answer = |State((asked, documents)): State<(Arc<AtomicUsize>, bool)>,
                      Query(query): Query<HashMap<String, String>>| async move {
            asked.fetch_add(1, Ordering::SeqCst);
            let story = |lang: &str| {
                let (id, slug, other, other_id, other_slug) =
                    if lang == "en" { (7, "story", "sw", 1007, "habari") } else { (1007, "habari", "en", 7, "story") };
                let mut story = json!({ "id": id, "title": slug, "slug": slug, "locale": lang,
                    "localizations": [ { "id": other_id, "slug": other_slug, "locale": other, "publishedAt": "2026-01-01T00:00:00.000Z" } ] });
                if documents {
                    story["documentId"] = json!("d7");
                }
                story
            };
            let lang = query.get("locale").map_or("en", String::as_str);
            let wanted = |story: &Value| {
                query
                    .get("filters[id][$eq]")
                    .is_none_or(|id| story["id"].as_u64().is_some_and(|own| id.parse() == Ok(own)))
                    && query.get("filters[documentId][$eq]").is_none_or(|d| story["documentId"] == json!(d))
            };
            let found: Vec<Value> = [story(lang)].into_iter().filter(wanted).collect();
            axum::Json(json!({ "data": found, "meta": {} }))
        };
        let app = axum::Router::new()
            .route("/api/news-updates", axum::routing::get(answer))
            .with_state((asked.clone(), documents));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        (url, asked)
    }

    fn client_of(url: &str) -> StrapiClient {
        let settings = StrapiSettings {
            base_url: url.to_owned(),
            token: None,
            populate: PopulateStrategy::Deep,
            timeout: Duration::from_secs(3),
            max_requests: 4,
            draft: false,
        };
        StrapiClient::new(settings, Normalizer::default()).unwrap()
    }

    #[tokio::test]
    async fn an_item_is_one_request_with_its_address_in_the_other_language() {
        for documents in [true, false] {
            let (url, asked) = cms(documents).await;
            let client = client_of(&url);
            let query = ContentQuery::Item { collection: Collection::NewsUpdates, id: 7 };
            let raw = client.fetch(&query, Lang::En).await.unwrap().unwrap();
            assert_eq!(asked.load(Ordering::SeqCst), 1, "one request");
            let parsed = parse_answer(&query, raw).value.unwrap();
            let other = parsed.localizations().and_then(|l| l.version(Lang::Sw, false)).unwrap();
            assert_eq!((other.id, other.slug.as_str()), (1007, "habari"));
            // Asked by the English id in Swahili: found through its document, or its `localizations`.
            let found = client.fetch(&query, Lang::Sw).await.unwrap().unwrap();
            assert_eq!(found["id"], 1007, "documents: {documents}");
            assert_eq!(asked.load(Ordering::SeqCst), 4, "three more: this language, the other, then by its link");
        }
    }
}
