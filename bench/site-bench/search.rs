//! `site-bench search`: the site search's query time with many pages
//! indexed. The pages are made of the embedded content's own words in each
//! language (`content/<lang>/*.json`), drawn from a fixed seed: a name of
//! two to four words, a description, headings and 250 words of text, one in
//! ten with a USSD code; the queries are the evaluation set's
//! (`bench/search-eval/queries.txt`), each asked `runs` times in its language,
//! timed by the set's category, and words no page holds that fall to the
//! search's last resort: a content word with letters of no word before or
//! after it ("qzxjmedicine"), timed apart.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use server::contract::Lang;
use server::search::{Page, Search, Synonyms};

/// Stray words asked in each language.
const LAST_RESORT: usize = 50;

/// A fixed-seed generator (xorshift): the same pages on every run.
struct Draw(u64);

impl Draw {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn words(&mut self, from: &[String], count: usize) -> String {
        (0..count).map(|_| from[self.below(from.len())].as_str()).collect::<Vec<_>>().join(" ")
    }
}

/// Every word of the strings of `dir`'s JSON files.
fn vocabulary(dir: &Path) -> std::io::Result<Vec<String>> {
    fn strings(value: &serde_json::Value, into: &mut Vec<String>) {
        match value {
            serde_json::Value::String(text) if !text.starts_with('/') && !text.starts_with("http") => {
                into.extend(text.split_whitespace().map(str::to_owned));
            }
            serde_json::Value::Array(items) => items.iter().for_each(|item| strings(item, into)),
            serde_json::Value::Object(fields) => fields.values().for_each(|field| strings(field, into)),
            _ => {}
        }
    }
    let mut words = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|extension| extension == "json") {
            let text = std::fs::read_to_string(&path)?;
            strings(&serde_json::from_str(&text).map_err(std::io::Error::other)?, &mut words);
        }
    }
    Ok(words)
}

/// The report: pages, build time, index bytes, then query p50 / p99 / worst
/// for the whole set and each kind of query.
pub fn bench(root: &Path, pages: usize, runs: usize) -> std::io::Result<String> {
    let mut draw = Draw(0x9e37_79b9_7f4a_7c15);
    let mut all = Vec::with_capacity(pages);
    for lang in [Lang::En, Lang::Sw] {
        let words = vocabulary(&root.join("content").join(lang.code()))?;
        for n in 0..pages / 2 {
            let code = (draw.below(10) == 0).then(|| format!(" Piga *149*{}#.", draw.below(100)));
            let text = format!("{}{}", draw.words(&words, 250), code.unwrap_or_default());
            let name_words = 2 + draw.below(3);
            let title = draw.words(&words, name_words);
            all.push(Page {
                lang,
                href: format!("/{}/page-{n}", lang.code()),
                names: title.clone(),
                title,
                description: draw.words(&words, 20),
                headings: draw.words(&words, 12),
                codes: server::search::codes(&text),
                text,
            });
        }
    }
    let search = Search::default();
    let started = Instant::now();
    search.rebuild(all, Synonyms::default()).map_err(std::io::Error::other)?;
    let built = started.elapsed().as_secs_f64();
    let set = std::fs::read_to_string(root.join("bench/search-eval/queries.txt"))?;
    // Language, category, query.
    let queries: Vec<(Lang, &str, &str)> = set
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .filter_map(|line| {
            let parts: Vec<&str> = line.split(" | ").collect();
            Some((if parts.first()? == &"sw" { Lang::Sw } else { Lang::En }, *parts.get(1)?, *parts.get(2)?))
        })
        .collect();
    // The last resort's queries: LAST_RESORT content words in each language,
    // each with four letters that begin no word before or after it.
    let mut strays = Vec::new();
    for lang in [Lang::En, Lang::Sw] {
        let words: Vec<String> = vocabulary(&root.join("content").join(lang.code()))?
            .into_iter()
            .filter(|word| word.len() >= 6 && word.chars().all(|c| c.is_ascii_alphabetic()))
            .map(|word| word.to_lowercase())
            .collect();
        for n in 0..LAST_RESORT {
            let word = &words[draw.below(words.len())];
            let stray = if n % 2 == 0 { format!("qzxj{word}") } else { format!("{word}jxzq") };
            strays.push((lang, "stray word", stray));
        }
    }
    let queries = queries.into_iter().map(|(lang, category, query)| (lang, category, query.to_owned()));
    let queries: Vec<(Lang, &str, String)> = queries.chain(strays).collect();
    // Each query's times under its category, and under "one word" too when
    // it is one: the kinds whose costs differ (a typo walks the words of
    // the index, a question is many words, a code is found whole); the
    // evaluation set's under "all", and any query the last resort answered
    // under "last resort".
    let mut times: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    let mut close = 0;
    for _ in 0..runs {
        for (lang, category, query) in &queries {
            let started = Instant::now();
            let found = std::hint::black_box(search.search(*lang, query));
            let took = started.elapsed().as_secs_f64() * 1e3;
            close += usize::from(found.close);
            let ordinary = *category != "stray word";
            let kinds = [
                ordinary.then_some("all"),
                Some(*category),
                (ordinary && query.split_whitespace().count() == 1).then_some("one word"),
                found.close.then_some("last resort"),
            ];
            for kind in kinds.into_iter().flatten() {
                times.entry(kind).or_default().push(took);
            }
        }
    }
    let (bytes, held) = search.held();
    let parts = search.parts().map_err(std::io::Error::other)?;
    let parts: Vec<String> = parts.iter().map(|(part, bytes)| format!("{part} {:.1}", *bytes as f64 / 1e6)).collect();
    let mut report = format!(
        "search, {held} pages: built in {built:.1} s, index {:.1} MB ({})\n",
        bytes as f64 / 1e6,
        parts.join(", ")
    );
    report.push_str(&format!("answered by the last resort: {close} of {} asked\n", queries.len() * runs));
    report.push_str(&format!("{:<10} {:>7} {:>8} {:>8} {:>8}\n", "queries", "asked", "p50 ms", "p99 ms", "worst"));
    let all = times.remove("all").unwrap_or_default();
    for (kind, mut times) in std::iter::once(("all", all)).chain(times) {
        times.sort_by(f64::total_cmp);
        let at = |share: f64| times[((times.len() - 1) as f64 * share) as usize];
        report.push_str(&format!(
            "{kind:<10} {:>7} {:>8.2} {:>8.2} {:>8.2}\n",
            times.len(),
            at(0.5),
            at(0.99),
            at(1.0)
        ));
    }
    Ok(report)
}
