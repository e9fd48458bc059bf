//! The README's table from URL to code stays true: every file it names
//! exists, and every page kind of the route table has its page component
//! in it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The rows of the README's "Which file answers which URL" table.
fn table() -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme.find("## Which file answers which URL").expect("the README has the table's section");
    let section = &readme[start..];
    let end = section[3..].find("\n## ").map_or(section.len(), |at| at + 3);
    section[..end].lines().filter(|line| line.starts_with('|')).collect::<Vec<_>>().join("\n")
}

/// Whether a file named `name` is anywhere under `dir`.
fn found_under(dir: &Path, name: &str) -> bool {
    std::fs::read_dir(dir).into_iter().flatten().flatten().any(|entry| {
        let path = entry.path();
        if path.is_dir() { found_under(&path, name) } else { path.file_name().is_some_and(|file| file == name) }
    })
}

#[test]
fn every_file_the_url_table_names_exists() {
    let table = table();
    let named: BTreeSet<&str> = table
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|text| {
            !text.contains('<')
                && (text.ends_with(".rs") || text.ends_with(".ts") || text.ends_with(".tsx") || text.ends_with('/'))
        })
        .filter(|text| !text.starts_with("/"))
        .collect();
    assert!(named.len() > 20, "the table names files: {named:?}");
    let root = root();
    let missing: Vec<&str> = named
        .into_iter()
        .filter(|path| {
            let path = path.split("::").next().unwrap();
            let at = |base: &str| root.join(base).join(path).exists();
            !(at("") || at("server/src") || (!path.contains('/') && found_under(&root.join("app/src"), path)))
        })
        .collect();
    assert!(missing.is_empty(), "the README's URL table names files that do not exist: {missing:?}");
}

#[test]
fn every_page_kind_has_its_component_in_the_url_table() {
    let table = table();
    let routes: Vec<serde_json::Value> = serde_json::from_str(site::app_build().routes_json).unwrap();
    let kinds: BTreeSet<&str> = routes.iter().filter_map(|route| route["page"].as_str()).collect();
    let absent: Vec<&&str> = kinds.iter().filter(|kind| !table.contains(&format!("{kind}.tsx`"))).collect();
    assert!(absent.is_empty(), "page kinds the README's URL table does not lead to: {absent:?}");
}
