//! The search page as tests read it: the settings of a site whose search
//! a test reads, the page once its first index is built, and the addresses
//! of its results.

use reqwest::StatusCode;

use super::{TestApp, eventually};

/// A site whose search a test reads: pre-rendering on, since the pass
/// builds the index.
pub fn searchable(config: &mut server::Config) {
    config.pages.prerender = true;
}

/// The search page for `path`, once the first index is built (a
/// pre-render pass of every page, in a debug build beside the rest of the
/// suite).
pub async fn search(app: &TestApp, path: &str) -> String {
    let ready = |html: &String| !html.contains("Search is getting ready") && !html.contains("Utafutaji unaandaliwa");
    let page = async || {
        let response = app.get(path).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        response.text().await.unwrap()
    };
    eventually(&format!("{path}: the search index built"), page, ready).await
}

/// The addresses of the results on a search page.
pub fn results(html: &str) -> Vec<String> {
    let Some(start) = html.find(r#"<ol class="search-results">"#) else { return Vec::new() };
    let list = &html[start..start + html[start..].find("</ol>").unwrap()];
    list.split(r#"<li><a href=""#).skip(1).map(|rest| rest[..rest.find('"').unwrap()].to_owned()).collect()
}
