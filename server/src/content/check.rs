//! `site content-model` and `site check-cms`: the content model as a CMS
//! must hold it, and a check of a CMS against it before the site is pointed
//! at it.
//!
//! The check asks the CMS exactly as the site would (same client, same
//! populate fall-backs) for every single type the route table reads, in both
//! languages, for page 1 of every collection and every popup type, and for
//! every location (not localized: once), then
//! parses each answer into the model. It reports per type and language:
//! `ok`, `missing` (the CMS has no such type or entry), or the fields that
//! are absent (the CMS schema lacks them), do not fit (wrong type), or that
//! the CMS has but the site's question did not populate, so pages would
//! silently go without them (it asks once more with `populate=*` and
//! compares), with their JSON paths; list indices are folded
//! (`sections[].cards[].link`).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde_json::Value;

use contract::Lang;
use contract::cms::{SIDEBAR, TypeShape};
use contract::content::Collection;

use super::{ContentQuery, ContentSource, parse_answer};
use crate::manifest::RouteTable;

/// Every single type the site reads: the route table's content keys and the sidebar.
pub fn single_types(routes: &RouteTable) -> Vec<String> {
    let keys: BTreeSet<String> =
        routes.all().iter().filter_map(|r| r.content.clone()).chain([SIDEBAR.to_owned()]).collect();
    keys.into_iter().collect()
}

/// The content model for a CMS serving this route table (see [`contract::cms::model`]).
pub fn content_model(routes: &RouteTable) -> serde_json::Value {
    contract::cms::model(&single_types(routes))
}

/// What the check found for one query in one language.
#[derive(Debug, PartialEq)]
pub enum Finding {
    Ok,
    /// A collection with no entries: nothing wrong with the schema, nothing to show.
    Empty,
    Missing,
    /// Fields absent or not fitting, as `path: why`.
    Problems(Vec<String>),
    Unreachable(String),
}

/// The report of a whole check: its text, and whether the CMS has all the site needs.
pub struct Report {
    pub text: String,
    pub complete: bool,
}

/// Checks `source` (the CMS client) against the model.
pub async fn check(source: &dyn ContentSource, routes: &RouteTable) -> Report {
    let mut queries: Vec<ContentQuery> = single_types(routes).into_iter().map(ContentQuery::Single).collect();
    queries.extend(Collection::ALL.into_iter().map(|collection| ContentQuery::List {
        collection,
        page_size: 25,
        filter: None,
        page: 1,
    }));
    // Every agent and shop, as the locator reads them: an entry that cannot be shown is named.
    queries.push(ContentQuery::Locations);
    // The search's synonyms, whose absence the search makes up for with its own list.
    queries.push(ContentQuery::Synonyms);
    let popup_types: BTreeSet<&str> = routes.all().iter().filter_map(|r| r.popups.as_deref()).collect();
    queries.extend(popup_types.into_iter().map(|kind| ContentQuery::Popups(kind.to_owned())));

    let mut text = String::new();
    let mut complete = true;
    for query in &queries {
        // A type that is not localized (the locations) is one answer for every language.
        let langs = if query.localized() { &Lang::ALL[..] } else { &[Lang::default()][..] };
        for &lang in langs {
            let finding = match source.fetch(query, lang).await {
                Err(error) => Finding::Unreachable(error.to_string()),
                Ok(None) => Finding::Missing,
                Ok(Some(raw)) => {
                    let read = query.shape().map(TypeShape::populate).unwrap_or_default();
                    let unasked = match source.everything(query, lang).await {
                        Ok(Some(every)) => unpopulated(&raw, &every, &read),
                        Ok(None) => Vec::new(),
                        Err(error) => vec![format!("(could not ask for every field: {error})")],
                    };
                    judge(query, raw, unasked)
                }
            };
            // Without synonyms the search reads queries with its own list: nothing lacks.
            let optional = matches!(query, ContentQuery::Synonyms) && finding == Finding::Missing;
            complete &= optional || matches!(finding, Finding::Ok | Finding::Empty);
            let name = if query.localized() {
                format!("{query} [{}]", lang.code())
            } else {
                format!("{query} [every language]")
            };
            match finding {
                Finding::Ok => writeln!(text, "ok        {name}"),
                Finding::Empty => writeln!(text, "empty     {name}"),
                Finding::Missing => writeln!(text, "MISSING   {name}: {}", missing(query)),
                Finding::Unreachable(error) => writeln!(text, "FAILED    {name}: {error}"),
                Finding::Problems(problems) => writeln!(text, "FIELDS    {name}")
                    .and_then(|()| problems.iter().try_for_each(|p| writeln!(text, "            {p}"))),
            }
            .expect("writing to a string");
        }
    }
    let verdict = if complete {
        "the CMS has everything the site reads"
    } else {
        "the CMS lacks what the lines in capitals name"
    };
    writeln!(text, "\n{verdict}").expect("writing to a string");
    Report { text, complete }
}

/// Fields the site reads (`read`: the model's populate tree, as
/// [`TypeShape::populate`] gives it) that `every` (the answer to
/// `populate=*`) has, with something in them, and `asked` (the site's own
/// answer) lacks, as `path: …` lines with list indices folded.
fn unpopulated(asked: &Value, every: &Value, read: &Value) -> Vec<String> {
    fn walk(asked: &Value, every: &Value, read: &Value, path: &str, found: &mut BTreeSet<String>) {
        match (asked, every) {
            (Value::Array(asked), Value::Array(every)) => {
                for (n, (asked, every)) in asked.iter().zip(every).enumerate() {
                    walk(asked, every, read, &format!("{path}[{n}]"), found);
                }
            }
            (Value::Object(asked), Value::Object(every)) => {
                // A dynamic zone's member reads what its component does.
                let read = match (read.get("on"), every.get("__component").and_then(Value::as_str)) {
                    (Some(members), Some(component)) => {
                        members.get(component).and_then(|member| member.get("populate")).unwrap_or(&Value::Null)
                    }
                    _ => read,
                };
                let Value::Object(fields) = read else { return };
                for (name, value) in every {
                    let Some(entry) = fields.get(name) else { continue };
                    let place = if path.is_empty() { name.clone() } else { format!("{path}.{name}") };
                    match asked.get(name) {
                        _ if !has_something(value) => {}
                        None | Some(Value::Null) => {
                            found
                                .insert(format!("{}: in the CMS but not populated: pages go without it", fold(&place)));
                        }
                        Some(asked) => walk(
                            asked,
                            value,
                            entry.get("populate").or_else(|| entry.get("on").map(|_| entry)).unwrap_or(&Value::Null),
                            &place,
                            found,
                        ),
                    }
                }
            }
            _ => {}
        }
    }
    fn has_something(value: &Value) -> bool {
        match value {
            Value::Null => false,
            Value::Array(items) => !items.is_empty(),
            Value::Object(fields) => !fields.is_empty(),
            _ => true,
        }
    }
    let mut found = BTreeSet::new();
    walk(asked, every, read, "", &mut found);
    found.into_iter().collect()
}

fn judge(query: &ContentQuery, raw: Value, unasked: Vec<String>) -> Finding {
    let is_list = raw.is_array();
    let parsed = parse_answer(query, raw);
    let mut problems: BTreeSet<String> = unasked.into_iter().collect();
    for absent in &parsed.absent {
        problems.insert(format!("{}: absent", fold(absent)));
    }
    for dropped in &parsed.dropped {
        problems.insert(format!("{}: {}", fold(dropped.place()), dropped.reason));
    }
    match parsed.value {
        _ if !problems.is_empty() => Finding::Problems(problems.into_iter().collect()),
        Some(value) if is_list && value.is_empty() => Finding::Empty,
        Some(_) => Finding::Ok,
        None => Finding::Missing,
    }
}

/// What the CMS lacks when it has nothing for `query`, naming the type to add.
fn missing(query: &ContentQuery) -> String {
    match query {
        ContentQuery::Single(key) => format!("the CMS has no single type `{key}`, or no entry in it"),
        ContentQuery::Synonyms => format!(
            "the CMS has no collection `{}`: the search uses its embedded list until it is added",
            query.model()
        ),
        query => format!("the CMS has no collection `{}`: its pages show none until it is added", query.model()),
    }
}

/// `sections[3].cards[0].link` → `sections[].cards[].link`.
fn fold(path: &str) -> String {
    let mut folded = String::with_capacity(path.len());
    let mut in_index = false;
    for c in path.chars() {
        match c {
            '[' => {
                in_index = true;
                folded.push_str("[]");
            }
            ']' => in_index = false,
            _ if in_index => {}
            c => folded.push(c),
        }
    }
    folded
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_page_without_sections_and_a_mistyped_card_are_reported_by_path() {
        let raw = json!({ "title": "Home", "seo": null, "backgroundColor": null });
        assert_eq!(
            judge(&ContentQuery::single("home"), raw, vec![]),
            Finding::Problems(vec!["sections: absent".into()])
        );
        let raw = json!({ "title": "Home", "seo": null, "backgroundColor": null, "sections": [
            { "__component": "sections.card-grid", "title": null, "cards": [ { "title": 5, "text": null, "image": null, "link": null } ] }
        ] });
        assert_eq!(
            judge(&ContentQuery::single("home"), raw, vec![]),
            Finding::Problems(vec!["sections[].cards[]: title: expected text, got the number 5".into()])
        );
        assert_eq!(fold("a[12].b[0]"), "a[].b[]");
    }

    /// A missing type is named, so that the editors know which to add.
    #[test]
    fn a_missing_type_is_named() {
        assert_eq!(
            missing(&ContentQuery::Locations),
            "the CMS has no collection `locations`: its pages show none until it is added"
        );
        assert_eq!(missing(&ContentQuery::single("home")), "the CMS has no single type `home`, or no entry in it");
        assert!(missing(&ContentQuery::Synonyms).ends_with("the search uses its embedded list until it is added"));
        let news = ContentQuery::List { collection: Collection::NewsUpdates, page_size: 25, filter: None, page: 1 };
        assert!(missing(&news).contains("`news-updates`"));
    }

    /// The SEO component the site did not ask for (Strapi 5 leaves it out):
    /// named, and so is an image of a card; fields the site does not read
    /// (Strapi's own relations) and empty ones are not.
    #[test]
    fn fields_the_cms_has_but_the_site_did_not_populate_are_named() {
        let asked = json!({ "title": "Home", "sections": [ { "__component": "sections.card-grid", "cards": [ { "title": "A" }, { "title": "B", "image": { "url": "/b.png" } } ] } ] });
        let every = json!({
            "title": "Home",
            "seo": { "metaTitle": "Home | Vodacom" },
            "localizations": [ { "id": 2 } ],
            "banner": null,
            "sections": [ { "__component": "sections.card-grid", "cards": [ { "title": "A", "image": { "url": "/a.png" } }, { "title": "B" } ] } ]
        });
        let read = TypeShape::Page.populate();
        assert_eq!(
            unpopulated(&asked, &every, &read),
            vec![
                "sections[].cards[].image: in the CMS but not populated: pages go without it",
                "seo: in the CMS but not populated: pages go without it"
            ]
        );
        assert!(unpopulated(&every, &every, &read).is_empty());
    }
}
