//! No CMS content, however malformed, makes a page answer 5xx or a render
//! throw. Every embedded content file is mutated field by field: each field
//! (and each list element) removed, set to null and set to the wrong type,
//! each text replaced by odd text (no date, markup, a long word), and each
//! list emptied, inside the entries' attributes as a CMS editor or
//! a schema change could leave them; the Strapi envelope itself is the
//! transport's business (a malformed one is a content error, served stale).
//!
//! Every variant goes through the normaliser and the parser. Variants that
//! leave the same mark on the model (the same content type, the same field
//! path with list positions folded and section components named, the same
//! mutation) render alike, so the first of each is also rendered through
//! the whole server, on every route that shows the mutated file: content
//! pages answer 200 with a non-empty `<main>`; an item page answers 200, or
//! 404 when the mutation took what an item cannot be without (its id,
//! title or name).

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use serde_json::{Value, json};
use server::AppState;
use server::content::{ContentError, ContentQuery, ContentSource, EmbeddedContent, Normalizer, parse_answer};
use server::contract::Lang;
use server::contract::content::Collection;
use tower::ServiceExt;

/// The embedded content with at most one file replaced by a mutated copy.
struct Mutating {
    base: EmbeddedContent,
    normalizer: Normalizer,
    current: Mutex<Option<(String, Arc<EmbeddedContent>)>>,
}

impl Mutating {
    fn mutate(&self, file: &str, bytes: &[u8]) {
        let one = EmbeddedContent::new(&[(file, bytes)], &self.normalizer).expect("a mutated file is still JSON");
        *self.current.lock().unwrap() = Some((file.to_owned(), Arc::new(one)));
    }
}

/// The file under `content/` answering `query` in `lang`.
fn file_of(query: &ContentQuery, lang: Lang) -> String {
    match query {
        ContentQuery::Single(key) => format!("{}/{key}.json", lang.code()),
        ContentQuery::List { collection, .. }
        | ContentQuery::Item { collection, .. }
        | ContentQuery::All(collection)
        | ContentQuery::Index(collection) => {
            format!("{}/collections/{}.json", lang.code(), collection.api_name())
        }
        ContentQuery::Popups(_) => format!("{}/collections/popups.json", lang.code()),
        // The same in every language.
        ContentQuery::Locations => "collections/locations.json".to_owned(),
        ContentQuery::Synonyms => "collections/synonyms.json".to_owned(),
    }
}

/// A file's language and its path under it; a file the same in every
/// language (`collections/locations.json`) is the default language's.
fn lang_of(file: &str) -> (Lang, &str) {
    let name = file.strip_suffix(".json").unwrap();
    match name.split_once('/').unwrap() {
        ("collections", _) => (Lang::default(), name),
        (lang, rest) => (Lang::parse(lang), rest),
    }
}

#[async_trait]
impl ContentSource for Mutating {
    async fn fetch(&self, query: &ContentQuery, lang: Lang) -> Result<Option<Value>, ContentError> {
        let current = self.current.lock().unwrap().clone();
        match current {
            Some((file, mutated)) if file == file_of(query, lang) => mutated.fetch(query, lang).await,
            _ => self.base.fetch(query, lang).await,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Mutation {
    Removed,
    Null,
    WrongType,
    OddText,
    Emptied,
}

/// One mutated entry of a file, and the mark it leaves on the model.
struct Variant<'f> {
    file: &'static str,
    /// The file as it was, and where the mutated entry goes in it.
    answer: &'f Value,
    entry: Option<usize>,
    /// The entry (a single type's `data`, or one item of a collection) mutated.
    mutated: Value,
    signature: (String, String, Mutation),
    /// The collection item's id the mutation is inside, if any.
    item_id: Option<u64>,
}

impl Variant<'_> {
    /// The whole file with the mutated entry in it.
    fn file_bytes(&self) -> Vec<u8> {
        let mut answer = self.answer.clone();
        match self.entry {
            Some(index) => answer["data"][index] = self.mutated.clone(),
            None => answer["data"] = self.mutated.clone(),
        }
        serde_json::to_vec(&answer).unwrap()
    }

    /// The mutated entry as its query's answer, normalised and parsed.
    fn parse(&self, normalizer: &Normalizer) -> server::contract::repair::Parsed<server::content::ContentValue> {
        let (query, _) = query_of(self.file);
        let data = if self.entry.is_some() { json!([self.mutated]) } else { self.mutated.clone() };
        parse_answer(&query, normalizer.normalize(json!({ "data": data })))
    }
}

/// Every variant of every entry of `answer` (the file `file`), one at a time.
fn for_each_variant<'f>(file: &'static str, answer: &'f Value, mut each: impl FnMut(Variant<'f>)) {
    let (_, name) = lang_of(file);
    let kind = match name.strip_prefix("collections/") {
        Some(collection) => collection.to_owned(),
        None if name == "sidebar" => "sidebar".to_owned(),
        None => "page".to_owned(),
    };
    let entries: Vec<(Option<usize>, &Value)> = match &answer["data"] {
        Value::Array(items) => items.iter().enumerate().map(|(i, item)| (Some(i), item)).collect(),
        data => vec![(None, data)],
    };
    for (entry, data) in entries {
        let mut nodes = Vec::new();
        walk(&data["attributes"], &mut Vec::new(), &mut String::new(), &mut nodes);
        for (path, folded, node, in_list) in nodes {
            let mut mutations = vec![Mutation::Null, Mutation::WrongType];
            if !in_list {
                mutations.push(Mutation::Removed);
            }
            if node.is_array() {
                mutations.push(Mutation::Emptied);
            }
            if node.is_string() {
                mutations.push(Mutation::OddText);
            }
            for mutation in mutations {
                let mut mutated = data.clone();
                let full: Vec<PathStep> =
                    std::iter::once(PathStep::Key("attributes".into())).chain(path.iter().cloned()).collect();
                apply(&mut mutated, &full, mutation);
                let item_id = entry.and(data["id"].as_u64());
                each(Variant {
                    file,
                    answer,
                    entry,
                    mutated,
                    signature: (kind.clone(), folded.clone(), mutation),
                    item_id,
                });
            }
        }
    }
}

#[derive(Debug, Clone)]
enum PathStep {
    Key(String),
    Index(usize),
}

/// Every node under `value`: its path, its folded path (list positions as
/// `[]`, sections as `[<component>]`), the node, and whether it is a list element.
fn walk(
    value: &Value,
    path: &mut Vec<PathStep>,
    folded: &mut String,
    out: &mut Vec<(Vec<PathStep>, String, Value, bool)>,
) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let mark = folded.len();
                folded.push('.');
                folded.push_str(key);
                path.push(PathStep::Key(key.clone()));
                out.push((path.clone(), folded.clone(), child.clone(), false));
                walk(child, path, folded, out);
                path.pop();
                folded.truncate(mark);
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                let mark = folded.len();
                match child.get("__component").and_then(Value::as_str) {
                    Some(component) => folded.push_str(&format!("[{component}]")),
                    None => folded.push_str("[]"),
                }
                path.push(PathStep::Index(index));
                out.push((path.clone(), folded.clone(), child.clone(), true));
                walk(child, path, folded, out);
                path.pop();
                folded.truncate(mark);
            }
        }
        _ => {}
    }
}

fn apply(answer: &mut Value, path: &[PathStep], mutation: Mutation) {
    let (last, parent_path) = path.split_last().unwrap();
    let mut parent = &mut *answer;
    for step in parent_path {
        parent = match step {
            PathStep::Key(key) => &mut parent[key.as_str()],
            PathStep::Index(index) => &mut parent[*index],
        };
    }
    let slot = match last {
        PathStep::Key(key) if mutation == Mutation::Removed => {
            parent.as_object_mut().unwrap().remove(key);
            return;
        }
        PathStep::Key(key) => &mut parent[key.as_str()],
        PathStep::Index(index) => &mut parent[*index],
    };
    *slot = match mutation {
        Mutation::Null => Value::Null,
        Mutation::Emptied => json!([]),
        Mutation::OddText => json!(format!("not-a-date </script><b>&amp; {}", "x".repeat(300))),
        Mutation::WrongType => match slot {
            Value::String(_) => json!(7),
            Value::Number(_) | Value::Bool(_) => json!("seven"),
            Value::Array(_) => json!({ "not": "a list" }),
            Value::Object(_) => json!("not an object"),
            Value::Null => json!(true),
        },
        Mutation::Removed => unreachable!(),
    };
}

/// The query a file answers.
fn query_of(file: &str) -> (ContentQuery, Lang) {
    let (lang, rest) = lang_of(file);
    match rest.strip_prefix("collections/") {
        Some("popups") => (ContentQuery::Popups("home".into()), lang),
        Some("locations") => (ContentQuery::Locations, lang),
        Some(collection) => (ContentQuery::All(Collection::parse(collection).unwrap()), lang),
        None => (ContentQuery::Single(rest.to_owned()), lang),
    }
}

/// The addresses that show `file`, for a mutation inside item `item_id`,
/// read off the route table the binary embeds.
fn addresses(routes: &[Value], file: &str, item_id: Option<u64>) -> Vec<(String, bool)> {
    let (lang, rest) = lang_of(file);
    let prefix = if lang == Lang::Sw { "/sw" } else { "" };
    // A route's address without parameters: its optional ones left out (`/mpesa-agents/:region?` is `/mpesa-agents`).
    let static_path = |route: &Value| {
        let path = route["path"].as_str().filter(|p| !p.is_empty() && !p.contains('*'))?;
        let segments: Vec<&str> = path.split('/').filter(|s| !(s.starts_with(':') && s.ends_with('?'))).collect();
        Some(segments.join("/")).filter(|p| !p.contains(':')).map(|p| if p.is_empty() { "/".to_owned() } else { p })
    };
    let content_of = |route: &Value| -> Option<String> {
        if route["meta"]["isPassThrough"] == true {
            let parent = routes.iter().find(|r| r["name"] == route["parent"])?;
            return parent["content"].as_str().map(str::to_owned);
        }
        route["content"].as_str().map(str::to_owned)
    };
    let mut paths: Vec<(String, bool)> = Vec::new();
    match rest.strip_prefix("collections/") {
        None if rest == "sidebar" => paths.push(("/voice-sms".into(), false)),
        None => paths.extend(
            routes
                .iter()
                .filter(|r| content_of(r).as_deref() == Some(rest))
                .filter_map(static_path)
                .take(1)
                .map(|p| (p, false)),
        ),
        Some("popups") => {
            paths.extend(routes.iter().filter(|r| r["popups"].is_string()).filter_map(static_path).map(|p| (p, false)))
        }
        // The locator's first page: its regions, whatever an entry lost.
        Some("locations") => {
            let locator =
                routes.iter().filter(|r| r["locations"].is_string()).filter_map(|r| r["path"].as_str()).next();
            paths.extend(locator.map(|path| (path.split("/:").next().unwrap_or(path).to_owned(), false)));
        }
        Some(collection) => {
            let shows = |route: &&Value| route["list"]["collection"] == collection || route["all"] == collection;
            paths.extend(routes.iter().filter(shows).filter_map(static_path).take(1).map(|p| (p, false)));
            if let (Some(id), Some(item_route)) = (item_id, routes.iter().find(|r| r["item"] == collection)) {
                let pattern = item_route["path"].as_str().unwrap();
                paths.push((pattern.replace(":id", &id.to_string()).replace("/:slug?", ""), true));
            }
        }
    }
    assert!(!paths.is_empty(), "no route shows {file}");
    paths
        .into_iter()
        .map(|(path, item)| (format!("{prefix}{}", if path == "/" && !prefix.is_empty() { "" } else { &path }), item))
        .collect()
}

async fn get_page(app: &axum::Router, path: &str) -> (StatusCode, String, Option<String>) {
    let request = Request::get(path).body(Body::empty()).unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let location = response.headers().get(header::LOCATION).map(|l| l.to_str().unwrap().to_owned());
    let body = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
    (status, String::from_utf8_lossy(&body).into_owned(), location)
}

fn main_is_filled(html: &str) -> bool {
    let Some(start) = html.find("<main") else { return false };
    let Some(end) = html[start..].find("</main>") else { return false };
    let inner = &html[start..start + end];
    inner.find('>').is_some_and(|open| !inner[open + 1..].trim().is_empty())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_mutation_of_any_content_file_breaks_a_page() {
    let bundle = site::app_build();
    let normalizer = Normalizer { site_url: "http://localhost".into(), ..Normalizer::default() };
    let source = Arc::new(Mutating {
        base: EmbeddedContent::new(bundle.content_files, &normalizer).unwrap(),
        normalizer: normalizer.clone(),
        current: Mutex::new(None),
    });
    let data_dir = tempfile::tempdir().unwrap();
    let mut config = server::Config::defaults();
    config.data_dir = data_dir.path().to_owned();
    config.pages.render_workers = Some(2);
    let state = AppState::with_content_source(config, bundle, "http://127.0.0.1:9/", source.clone()).unwrap();
    let app = server::app(state.clone());
    let routes: Vec<Value> = serde_json::from_str(bundle.routes_json).unwrap();

    let mut variants = 0;
    let mut rendered = BTreeSet::new();
    let mut renders = 0;
    let mut failures = Vec::new();
    for (file, bytes) in bundle.content_files {
        if !file.ends_with(".json") {
            continue;
        }
        let answer: Value = serde_json::from_slice(bytes).unwrap();
        let mut marks = Vec::new();
        for_each_variant(file, &answer, |variant| {
            variants += 1;
            let parsed = variant.parse(&normalizer);
            if variant.entry.is_none() && parsed.value.is_none() {
                failures.push(format!(
                    "{file} {:?}: the page did not survive parsing: {:?}",
                    variant.signature, parsed.dropped
                ));
            }
            // The first variant of each mark on the model is rendered too.
            if rendered.insert(variant.signature.clone()) {
                marks.push((variant.file_bytes(), variant.signature.clone(), variant.item_id));
            }
        });
        for (bytes, signature, item_id) in marks {
            source.mutate(file, &bytes);
            state.content.store.cache().invalidate(|_| true);
            for (path, is_item) in addresses(&routes, file, item_id) {
                renders += 1;
                let (mut status, mut html, location) = get_page(&app, &path).await;
                if status == StatusCode::PERMANENT_REDIRECT {
                    (status, html, _) = get_page(&app, &location.unwrap()).await;
                }
                let fine = match status {
                    StatusCode::OK => main_is_filled(&html),
                    StatusCode::NOT_FOUND => is_item,
                    _ => false,
                };
                if !fine {
                    failures.push(format!("{path} answered {status} for {file} {signature:?}"));
                }
            }
        }
    }
    println!(
        "{variants} variants of {} content files: every one parsed, {} distinct marks on the model rendered ({renders} page renders)",
        bundle.content_files.len(),
        rendered.len()
    );
    assert!(variants > 50_000, "every field of every file: {variants}");
    assert!(failures.is_empty(), "{} failures, the first: {:#?}", failures.len(), &failures[..failures.len().min(20)]);
}
