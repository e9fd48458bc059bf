//! Strapi v4 answers wrap every entity as `{ data: { id, attributes } }` and
//! every relation or media field the same way. The app gets them flat:
//! `{ id, ...attributes }`, relations as the entity or a list of them.

use serde_json::{Map, Value};

/// Flattens a Strapi v4 answer (top-level `{ data, meta }` included).
pub fn normalize(value: Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.into_iter().map(normalize).collect()),
        Value::Object(mut object) => {
            if is_data_wrapper(&object) {
                return normalize(object.remove("data").unwrap_or(Value::Null));
            }
            if is_entity(&object) {
                let mut flat = Map::new();
                if let Some(id) = object.remove("id") {
                    flat.insert("id".into(), id);
                }
                if let Some(Value::Object(attributes)) = object.remove("attributes") {
                    for (key, field) in attributes {
                        flat.insert(key, normalize(field));
                    }
                }
                return Value::Object(flat);
            }
            Value::Object(object.into_iter().map(|(k, v)| (k, normalize(v))).collect())
        }
        other => other,
    }
}

/// `{ data: … }`, optionally with `meta`: a response or relation wrapper.
fn is_data_wrapper(object: &Map<String, Value>) -> bool {
    object.contains_key("data") && object.keys().all(|k| k == "data" || k == "meta")
}

/// `{ id, attributes: {…} }`: a v4 entity.
fn is_entity(object: &Map<String, Value>) -> bool {
    matches!(object.get("attributes"), Some(Value::Object(_))) && object.keys().all(|k| k == "id" || k == "attributes")
}

/// Rich text fields (`body`) arrive as Markdown; they leave as HTML that the
/// sanitiser has cleaned, so the app can insert them as they are.
pub fn render_rich_text(value: &mut Value) {
    match value {
        Value::Array(items) => items.iter_mut().for_each(render_rich_text),
        Value::Object(object) => {
            for (key, field) in object.iter_mut() {
                match field {
                    Value::String(text) if key == "body" => *text = markdown_to_safe_html(text),
                    _ => render_rich_text(field),
                }
            }
        }
        _ => {}
    }
}

fn markdown_to_safe_html(markdown: &str) -> String {
    let parser = pulldown_cmark::Parser::new_ext(markdown, pulldown_cmark::Options::ENABLE_TABLES);
    let mut html = String::with_capacity(markdown.len() * 2);
    pulldown_cmark::html::push_html(&mut html, parser);
    ammonia::Builder::default()
        .link_rel(Some("noopener noreferrer"))
        .clean(&html)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn flattens_v4_entities_and_relations() {
        let answer = json!({
            "data": { "id": 1, "attributes": {
                "title": "Home",
                "seo": { "metaTitle": "Home", "shareImage": { "data": { "id": 7, "attributes": { "url": "/uploads/a.png" } } } },
                "items": { "data": [ { "id": 2, "attributes": { "name": "A" } } ] },
                "empty": { "data": null },
                "sections": [ { "__component": "sections.hero", "id": 3, "title": "Hi" } ]
            } },
            "meta": {}
        });
        assert_eq!(
            normalize(answer),
            json!({
                "id": 1,
                "title": "Home",
                "seo": { "metaTitle": "Home", "shareImage": { "id": 7, "url": "/uploads/a.png" } },
                "items": [ { "id": 2, "name": "A" } ],
                "empty": null,
                "sections": [ { "__component": "sections.hero", "id": 3, "title": "Hi" } ]
            })
        );
    }

    #[test]
    fn rich_text_becomes_sanitised_html() {
        let mut page = json!({ "sections": [ { "body": "**Bold** <script>alert(1)</script> [x](https://example.com)" } ] });
        render_rich_text(&mut page);
        let html = page["sections"][0]["body"].as_str().unwrap();
        assert!(html.contains("<strong>Bold</strong>"), "{html}");
        assert!(!html.contains("<script"), "{html}");
        assert!(html.contains("rel=\"noopener noreferrer\""), "{html}");
    }
}
