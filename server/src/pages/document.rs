//! The HTML document around a render: head tags from the app, the page data
//! for hydration as inert JSON, and the client entry as an external module.

use contract::Lang;
use contract::page::{PageData, RenderOutput};

/// JSON that is safe inside `<script type="application/json">`: nothing in it
/// can close the element or start a comment, and U+2028/U+2029 are escaped.
/// The page data, or a part of it (as it is in the page data's JSON).
pub fn script_json(data: &impl serde::Serialize) -> String {
    script_escaped(&serde_json::to_string(data).expect("page data serialises"))
}

/// `json` escaped the same way.
fn script_escaped(json: &str) -> String {
    let mut escaped = String::with_capacity(json.len() + 32);
    for c in json.chars() {
        match c {
            '<' => escaped.push_str("\\u003c"),
            '>' => escaped.push_str("\\u003e"),
            '&' => escaped.push_str("\\u0026"),
            '\u{2028}' => escaped.push_str("\\u2028"),
            '\u{2029}' => escaped.push_str("\\u2029"),
            c => escaped.push(c),
        }
    }
    escaped
}

pub fn document(lang: Lang, output: &RenderOutput, data: &PageData, entry: &str) -> String {
    let json = script_json(data);
    let mut html = String::with_capacity(output.head.len() + output.html.len() + json.len() + 512);
    html.push_str("<!doctype html><html lang=\"");
    html.push_str(lang.code());
    html.push_str(
        "\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
    );
    html.push_str(&output.head);
    html.push_str("</head><body><div id=\"root\">");
    html.push_str(&output.html);
    html.push_str("</div><script type=\"application/json\" id=\"page-data\">");
    html.push_str(&json);
    html.push_str("</script><script type=\"module\" src=\"");
    html.push_str(entry);
    html.push_str("\"></script></body></html>");
    html
}

#[cfg(test)]
mod tests {
    use super::*;
    use contract::content::Page;
    use contract::page::{MatchedRoute, PageContent, PageKind};

    #[test]
    fn page_data_cannot_break_out_of_its_script_element() {
        let data = PageData {
            lang: Lang::En,
            path: "/".into(),
            status: 200,
            route: MatchedRoute { name: "home".into(), page: PageKind::Content, params: Default::default() },
            content: PageContent {
                page: Some(Page {
                    title: "</script><script>alert(1)</script><!-- \u{2028}\u{2029} &".into(),
                    ..Page::default()
                }),
                ..Default::default()
            },
            alternates: None,
            subscriber: None,
            notice: None,
            cpm: None,
            bundles: None,
            form: None,
            search: None,
            locator: None,
            pager: None,
            preview: None,
            site_url: "http://localhost".into(),
            csrf: None,
        };
        let json = script_json(&data);
        assert!(!json.contains('<') && !json.contains('>') && !json.contains('&'));
        assert!(!json.contains('\u{2028}') && !json.contains('\u{2029}'));
        let back: PageData = serde_json::from_str(&json).unwrap();
        assert_eq!(back, data);
    }
}
