//! The search's evaluation sets (`bench/search-eval/`) against the index of
//! the embedded site, built by the real pre-render pass: prints recall at 5
//! and the mean reciprocal rank (MRR) per language and category, and fails
//! when a language falls below the floors the README records. Two sets:
//! `queries.txt`, written with the search, and `hidden.txt`, written by
//! someone who read neither it nor the search, so that a floor kept by
//! tuning the first set is seen not to hold for visitors' own words.
//!
//! `make bench-search` prints the table (`-- --nocapture`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::helpers::{TestApp, results, search, shared_app};

/// A query of the set and the addresses it should find.
struct Query {
    lang: String,
    category: String,
    text: String,
    expected: Vec<String>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn queries(set: &str) -> Vec<Query> {
    let set = std::fs::read_to_string(root().join("bench/search-eval").join(set)).unwrap();
    set.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let parts: Vec<&str> = line.split(" | ").collect();
            assert_eq!(parts.len(), 4, "language | category | query | expected: {line}");
            Query {
                lang: parts[0].to_owned(),
                category: parts[1].to_owned(),
                text: parts[2].to_owned(),
                expected: parts[3].split_whitespace().map(str::to_owned).collect(),
            }
        })
        .collect()
}

/// The floors of the README's row "| floor, each language{row} | recall | MRR | without results |".
fn floors(row: &str) -> (f64, f64, usize) {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = format!("| floor, each language{row} |");
    let row = readme.lines().find(|line| line.starts_with(&start)).expect("the README's floors");
    let cells: Vec<&str> = row.split('|').map(str::trim).filter(|cell| !cell.is_empty()).collect();
    (cells[1].parse().unwrap(), cells[2].parse().unwrap(), cells[3].parse().unwrap())
}

/// Recall at 5, MRR (over the 20 results shown) and queries without results.
#[derive(Default)]
struct Score {
    queries: usize,
    found: usize,
    reciprocal: f64,
    empty: usize,
}

impl Score {
    fn add(&mut self, rank: Option<usize>, empty: bool) {
        self.queries += 1;
        self.found += usize::from(rank.is_some_and(|rank| rank <= 5));
        self.reciprocal += rank.map_or(0.0, |rank| 1.0 / rank as f64);
        self.empty += usize::from(empty);
    }

    fn recall(&self) -> f64 {
        self.found as f64 / self.queries as f64
    }

    fn mrr(&self) -> f64 {
        self.reciprocal / self.queries as f64
    }
}

/// Both sets against one site (its pre-render pass is most of the time).
#[tokio::test]
async fn the_evaluation_sets_find_the_expected_pages_above_the_readmes_floors() {
    let app = shared_app().await;
    evaluate(&app, "queries.txt", 100, "").await;
    evaluate(&app, "hidden.txt", 60, ", held-out set").await;
}

/// Runs the set in `bench/search-eval/{set}`, of at least `per_language`
/// queries in each language, against the floors of the README's row named
/// with `row`.
async fn evaluate(app: &TestApp, set: &str, per_language: usize, row: &str) {
    let queries = queries(set);
    for lang in ["en", "sw"] {
        let count = queries.iter().filter(|query| query.lang == lang).count();
        assert!(count >= per_language, "{set}: {count} queries in {lang}, fewer than {per_language}");
    }
    let mut scores: BTreeMap<(String, String), Score> = BTreeMap::new();
    let mut missed = Vec::new();
    for query in &queries {
        let prefix = if query.lang == "sw" { "/sw" } else { "" };
        let q = serde_urlencoded::to_string([("q", &query.text)]).unwrap();
        let found = results(&search(app, &format!("{prefix}/search?{q}")).await);
        let rank = found.iter().position(|href| query.expected.contains(href)).map(|at| at + 1);
        if rank.is_none_or(|rank| rank > 5) {
            missed.push(format!(
                "{} {:<9} {:<40} {:?} got {:?}",
                query.lang,
                query.category,
                query.text,
                rank,
                &found[..found.len().min(5)]
            ));
        }
        for category in [query.category.as_str(), "all"] {
            scores.entry((query.lang.clone(), category.to_owned())).or_default().add(rank, found.is_empty());
        }
    }
    println!("{set}, missed (rank past 5, or none):\n{}\n", missed.join("\n"));
    println!("| language | category | queries | recall at 5 | MRR | without results |");
    println!("|---|---|---|---|---|---|");
    for ((lang, category), score) in &scores {
        println!(
            "| {lang} | {category} | {} | {:.2} | {:.2} | {} |",
            score.queries,
            score.recall(),
            score.mrr(),
            score.empty
        );
    }
    let (recall, mrr, empty) = floors(row);
    for lang in ["en", "sw"] {
        let all = &scores[&(lang.to_owned(), "all".to_owned())];
        assert!(all.recall() >= recall, "{set} {lang}: recall at 5 {:.2} below the floor {recall}", all.recall());
        assert!(all.mrr() >= mrr, "{set} {lang}: MRR {:.2} below the floor {mrr}", all.mrr());
        assert!(all.empty <= empty, "{set} {lang}: {} queries without results, more than {empty}", all.empty);
    }
}
