//! One internal shape for every source.
//!
//! Strapi v4 wraps each entity as `{ id, attributes }` and each relation or
//! media field as `{ data: … }`; v5 answers are already flat (with a
//! `documentId`). Both leave here flat: `{ id, ...fields }`, relations as the
//! entity or a list of them. On the way, media URLs become absolute, links to
//! the CMS's internal file hosts point at the public site, and rich
//! text (`body`: Markdown, or v5 blocks) becomes HTML cleaned by a sanitiser.

use serde_json::{Map, Value};

#[derive(Debug, Clone, Default)]
pub struct Normalizer {
    /// Prefix for media URLs the CMS gives relative to itself (`/uploads/…`).
    pub media_base: Option<String>,
    /// Origins whose links are rewritten to `site_url`.
    pub file_hosts: Vec<String>,
    pub site_url: String,
    /// Signs the image endpoint's addresses of the photos below `media_base`
    /// (each upload's `srcset`); `None` leaves media as the CMS gives it.
    pub images: Option<crate::images::Signer>,
}

impl Normalizer {
    pub fn normalize(&self, answer: Value) -> Value {
        let mut value = flatten(answer);
        self.rewrite(&mut value);
        value
    }

    fn rewrite(&self, value: &mut Value) {
        match value {
            Value::Array(items) => items.iter_mut().for_each(|item| self.rewrite(item)),
            Value::Object(object) => {
                let is_media = is_media(object);
                for (key, field) in object.iter_mut() {
                    if key == "body"
                        && let Some(html) = rich_text_html(field)
                    {
                        *field = Value::String(self.map_hosts(&sanitize(&html)));
                        continue;
                    }
                    if is_media
                        && key == "url"
                        && let (Value::String(url), Some(base)) = (&mut *field, &self.media_base)
                        && url.starts_with('/')
                    {
                        *url = format!("{base}{url}");
                    }
                    self.rewrite(field);
                }
                // Only the site names its own image addresses, and only for
                // an upload itself, not its smaller `formats`.
                object.remove("srcset");
                if is_media {
                    if let Some(Value::Object(formats)) = object.get_mut("formats") {
                        formats.values_mut().filter_map(Value::as_object_mut).for_each(|entry| {
                            entry.remove("srcset");
                        });
                    }
                    if let Some(srcset) = self.images.as_ref().and_then(|signer| signer.srcset(object)) {
                        object.insert("srcset".into(), Value::String(srcset));
                    }
                }
            }
            Value::String(text) if self.file_hosts.iter().any(|host| text.contains(host.as_str())) => {
                *text = self.map_hosts(text);
            }
            _ => {}
        }
    }

    fn map_hosts(&self, text: &str) -> String {
        self.file_hosts.iter().fold(text.to_owned(), |text, host| text.replace(host.as_str(), &self.site_url))
    }
}

/// Unwraps v4's `data`/`attributes`; leaves v5's flat answers as they are.
fn flatten(value: Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.into_iter().map(flatten).collect()),
        Value::Object(mut object) => {
            if is_data_wrapper(&object) {
                return flatten(object.remove("data").unwrap_or(Value::Null));
            }
            if is_v4_entity(&object) {
                let mut flat = Map::new();
                if let Some(id) = object.remove("id") {
                    flat.insert("id".into(), id);
                }
                if let Some(Value::Object(attributes)) = object.remove("attributes") {
                    for (key, field) in attributes {
                        flat.insert(key, flatten(field));
                    }
                }
                return Value::Object(flat);
            }
            Value::Object(object.into_iter().map(|(k, v)| (k, flatten(v))).collect())
        }
        other => other,
    }
}

/// `{ data: … }`, optionally with `meta`: an answer or a v4 relation.
fn is_data_wrapper(object: &Map<String, Value>) -> bool {
    object.contains_key("data") && object.keys().all(|k| k == "data" || k == "meta")
}

/// `{ id, attributes: {…} }`: a v4 entity.
fn is_v4_entity(object: &Map<String, Value>) -> bool {
    matches!(object.get("attributes"), Some(Value::Object(_))) && object.keys().all(|k| k == "id" || k == "attributes")
}

/// Strapi's upload entities carry `mime` (and `hash`, `provider`, `formats`).
fn is_media(object: &Map<String, Value>) -> bool {
    object.contains_key("url") && (object.contains_key("mime") || object.contains_key("provider"))
}

/// The HTML of a rich text field: Markdown (v4 and the v5 Markdown field) or
/// v5's JSON blocks. `None` for anything else.
fn rich_text_html(field: &Value) -> Option<String> {
    match field {
        Value::String(markdown) => {
            let parser = pulldown_cmark::Parser::new_ext(markdown, pulldown_cmark::Options::ENABLE_TABLES);
            let mut html = String::with_capacity(markdown.len() * 2);
            pulldown_cmark::html::push_html(&mut html, parser);
            Some(html)
        }
        Value::Array(blocks) if blocks.iter().all(|b| b.get("type").is_some()) => {
            let mut html = String::new();
            blocks.iter().for_each(|block| blocks_html(block, &mut html));
            Some(html)
        }
        _ => None,
    }
}

/// Strapi 5 "blocks" rich text to HTML; text is escaped here and the result
/// still goes through the sanitiser.
fn blocks_html(node: &Value, out: &mut String) {
    let children = |out: &mut String| {
        for child in node.get("children").and_then(Value::as_array).into_iter().flatten() {
            blocks_html(child, out);
        }
    };
    let tag = |out: &mut String, name: &str, inner: &dyn Fn(&mut String)| {
        out.push('<');
        out.push_str(name);
        out.push('>');
        inner(out);
        out.push_str("</");
        out.push_str(name);
        out.push('>');
    };
    match node.get("type").and_then(Value::as_str).unwrap_or("") {
        "text" => {
            let text = ammonia::clean_text(node.get("text").and_then(Value::as_str).unwrap_or(""));
            let mut wrapped = text;
            for (flag, name) in
                [("bold", "strong"), ("italic", "em"), ("underline", "u"), ("strikethrough", "s"), ("code", "code")]
            {
                if node.get(flag).and_then(Value::as_bool) == Some(true) {
                    wrapped = format!("<{name}>{wrapped}</{name}>");
                }
            }
            out.push_str(&wrapped);
        }
        "paragraph" => tag(out, "p", &children),
        "quote" => tag(out, "blockquote", &children),
        "heading" => {
            let level = node.get("level").and_then(Value::as_u64).unwrap_or(2).clamp(2, 6);
            tag(out, &format!("h{level}"), &children);
        }
        "list" => {
            let name = if node.get("format").and_then(Value::as_str) == Some("ordered") { "ol" } else { "ul" };
            tag(out, name, &children);
        }
        "list-item" => tag(out, "li", &children),
        "link" => {
            let href = ammonia::clean_text(node.get("url").and_then(Value::as_str).unwrap_or("#"));
            out.push_str(&format!("<a href=\"{href}\">"));
            children(out);
            out.push_str("</a>");
        }
        _ => children(out),
    }
}

fn sanitize(html: &str) -> String {
    ammonia::Builder::default().link_rel(Some("noopener noreferrer")).clean(html).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn normalizer() -> Normalizer {
        Normalizer {
            media_base: Some("https://cms.example.co.tz".into()),
            file_hosts: vec!["https://files.internal.example".into()],
            site_url: "https://www.example.co.tz".into(),
            images: None,
        }
    }

    #[test]
    fn photos_below_the_media_base_get_the_sites_srcset_and_nothing_else_does() {
        let normalizer = Normalizer {
            images: Some(crate::images::Signer::new(b"key", "https://cms.example.co.tz")),
            ..normalizer()
        };
        let answer = json!({ "data": { "id": 1, "attributes": {
            "photo": { "data": { "id": 7, "attributes": {
                "url": "/uploads/a_1.jpg", "mime": "image/jpeg", "width": 900, "srcset": "https://evil.example/x.jpg 9w",
                "formats": { "small": { "url": "/uploads/small_a_1.jpg", "mime": "image/jpeg", "width": 500 } }
            } } },
            "logo": { "data": { "id": 8, "attributes": { "url": "/uploads/logo.svg", "mime": "image/svg+xml", "srcset": "x 1w" } } },
            "card": { "url": "/uploads/b.jpg", "srcset": "https://evil.example/x.jpg 9w" }
        } } });
        let flat = normalizer.normalize(answer);
        let srcset = flat["photo"]["srcset"].as_str().unwrap();
        assert!(srcset.starts_with("/img/160/") && srcset.ends_with("/uploads/a_1.jpg 900w"), "{srcset}");
        assert!(srcset.contains(".s500."), "Strapi's small file is the fallback: {srcset}");
        assert!(flat["photo"]["formats"]["small"].get("srcset").is_none());
        assert!(flat["logo"].get("srcset").is_none(), "an SVG keeps its own URL, and the CMS's srcset is dropped");
        assert!(flat["card"].get("srcset").is_none(), "whatever the object");
    }

    #[test]
    fn flattens_v4_entities_and_relations() {
        let answer = json!({
            "data": { "id": 1, "attributes": {
                "title": "Home",
                "seo": { "metaTitle": "Home", "shareImage": { "data": { "id": 7, "attributes": { "url": "/uploads/a.png", "mime": "image/png" } } } },
                "items": { "data": [ { "id": 2, "attributes": { "name": "A" } } ] },
                "empty": { "data": null },
                "sections": [ { "__component": "sections.hero", "id": 3, "title": "Hi" } ]
            } },
            "meta": {}
        });
        assert_eq!(
            normalizer().normalize(answer),
            json!({
                "id": 1,
                "title": "Home",
                "seo": { "metaTitle": "Home", "shareImage": { "id": 7, "url": "https://cms.example.co.tz/uploads/a.png", "mime": "image/png" } },
                "items": [ { "id": 2, "name": "A" } ],
                "empty": null,
                "sections": [ { "__component": "sections.hero", "id": 3, "title": "Hi" } ]
            })
        );
    }

    #[test]
    fn v5_answers_come_out_the_same_as_v4() {
        let v4 = json!({ "data": [ { "id": 4, "attributes": { "title": "News", "image": { "data": { "id": 9, "attributes": { "url": "/uploads/n.jpg", "mime": "image/jpeg" } } } } } ], "meta": { "pagination": { "total": 1 } } });
        let v5 = json!({ "data": [ { "id": 4, "title": "News", "image": { "id": 9, "url": "/uploads/n.jpg", "mime": "image/jpeg" } } ], "meta": { "pagination": { "total": 1 } } });
        assert_eq!(normalizer().normalize(v4), normalizer().normalize(v5));
    }

    #[test]
    fn rich_text_becomes_sanitised_html() {
        let page = json!({ "sections": [ { "body": "**Bold** <script>alert(1)</script> <img src=x onerror=alert(1)> [x](https://example.com)" } ] });
        let page = normalizer().normalize(page);
        let html = page["sections"][0]["body"].as_str().unwrap();
        assert!(html.contains("<strong>Bold</strong>"), "{html}");
        assert!(!html.contains("<script") && !html.contains("onerror"), "{html}");
        assert!(html.contains("rel=\"noopener noreferrer\""), "{html}");
    }

    #[test]
    fn v5_blocks_become_html() {
        let page = json!({ "body": [
            { "type": "heading", "level": 2, "children": [ { "type": "text", "text": "Title <b>" } ] },
            { "type": "paragraph", "children": [ { "type": "text", "text": "Hi ", "bold": true }, { "type": "link", "url": "javascript:alert(1)", "children": [ { "type": "text", "text": "x" } ] } ] }
        ] });
        let html = normalizer().normalize(page)["body"].as_str().unwrap().to_owned();
        assert!(html.starts_with("<h2>Title &lt;b&gt;</h2><p><strong>Hi </strong>"), "{html}");
        assert!(!html.contains("javascript:"), "{html}");
    }

    #[test]
    fn internal_file_host_links_point_at_the_public_site() {
        let page = json!({ "cta": { "url": "https://files.internal.example/docs/report.pdf" }, "body": "[Report](https://files.internal.example/r.pdf)" });
        let page = normalizer().normalize(page);
        assert_eq!(page["cta"]["url"], "https://www.example.co.tz/docs/report.pdf");
        assert!(page["body"].as_str().unwrap().contains("href=\"https://www.example.co.tz/r.pdf\""));
    }
}
