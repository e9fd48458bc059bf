//! The locator's index at scale (`bench/locator.sh`, part of `make bench`):
//! the agents and shops of a CSV (`tools/locations.py csv 180000`) parsed
//! into the index as the content cache does, then the memory it holds
//! (jemalloc's count of bytes allocated, before and after; and what the
//! answer it is built from holds meanwhile) and the time of
//! nearest-20 queries, for random points over Tanzania and around its towns,
//! checked against a brute force on a few.
//!
//!     cargo run --release -p server --example locator_bench -- FILE.csv [QUERIES]

use std::time::Instant;

use contract::Lang;
use contract::locations::LocationKind;
use serde_json::{Value, json};
use server::locator::{Locations, WeekTime, nearest_open, on_sphere};
use tikv_jemalloc_ctl::{epoch, stats};

fn allocated() -> usize {
    epoch::advance().expect("jemalloc epoch");
    stats::allocated::read().expect("jemalloc stats")
}

/// One CSV line's fields (the generator quotes a field only when it must).
fn fields(line: &str) -> Vec<String> {
    let (mut fields, mut field, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            (c, _) => field.push(c),
        }
    }
    fields.push(field);
    fields
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 * p) as usize).min(sorted.len() - 1)]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: locator_bench FILE.csv [QUERIES]");
    let queries: usize = args.next().map_or(20_000, |q| q.parse().expect("a number of queries"));
    let text = std::fs::read_to_string(&path).expect("the CSV");
    let mut lines = text.lines();
    let header = fields(lines.next().expect("a header"));
    let before_answer = allocated();
    let entries: Vec<Value> = lines
        .map(|line| {
            let row: std::collections::HashMap<&str, String> = header.iter().map(String::as_str).zip(fields(line)).collect();
            json!({
                "id": row["id"].parse::<u64>().unwrap_or(0), "name": row["name"], "kind": row["kind"], "region": row["region"],
                "district": row["district"], "street": row["street"], "landmark": row["landmark_en"], "landmarkSw": row["landmark_sw"],
                "latitude": row["latitude"].parse::<f64>().unwrap_or(f64::NAN), "longitude": row["longitude"].parse::<f64>().unwrap_or(f64::NAN),
                "services": row["services"].split(';').collect::<Vec<_>>(), "hoursWeekdays": row["hoursWeekdays"],
                "hoursSaturday": row["hoursSaturday"], "hoursSunday": row["hoursSunday"], "phone": row["phone"],
            })
        })
        .collect();
    let raw = Value::Array(entries);
    let answer = allocated().saturating_sub(before_answer);

    let before = allocated();
    let started = Instant::now();
    let (locations, dropped) = Locations::parse(&raw);
    let build = started.elapsed();
    let held = allocated().saturating_sub(before);
    drop(dropped);
    println!("locations: {} places ({} in the CSV), index built in {:.2} s", locations.len(), raw.as_array().map_or(0, Vec::len), build.as_secs_f64());
    println!("index memory: {:.1} MB allocated (estimate from its parts: {:.1} MB)", held as f64 / 1e6, locations.heap_bytes() as f64 / 1e6);
    // What a read of the CMS holds until the index is built from it (and, with a disk, its copy and its file's bytes).
    println!("the answer it is built from, as JSON values: {:.1} MB allocated, {:.1} MB as text", answer as f64 / 1e6, serde_json::to_vec(&raw).map_or(0, |t| t.len()) as f64 / 1e6);
    drop(raw);

    // Points: half anywhere in Tanzania's box, half within ~5 km of a place (where people ask from).
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let towns: Vec<(f64, f64)> = locations.points().step_by(997).map(|(_, lat, lng)| (lat, lng)).collect();
    let points: Vec<(f64, f64)> = (0..queries)
        .map(|n| {
            if n % 2 == 0 {
                (-11.7 + next() * 10.7, 29.4 + next() * 11.0)
            } else {
                let (lat, lng) = towns[(next() * towns.len() as f64) as usize % towns.len()];
                (lat + (next() - 0.5) * 0.09, lng + (next() - 0.5) * 0.09)
            }
        })
        .collect();
    let now = WeekTime::at(2, 11 * 60);
    for (label, open_only) in [("nearest 20", false), ("nearest 20 open now (near me)", true)] {
        let mut times = Vec::with_capacity(points.len());
        let mut found = 0usize;
        for (lat, lng) in &points {
            let started = Instant::now();
            let count = if open_only {
                nearest_open(&locations, LocationKind::Agent, on_sphere(*lat, *lng), now, Lang::Sw).len()
            } else {
                locations.nearest(LocationKind::Agent, on_sphere(*lat, *lng), 2_000_000.0).take(20).count()
            };
            times.push(started.elapsed().as_secs_f64() * 1e3);
            found += count;
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{label}: {} queries, p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms ({:.1} places each)",
            times.len(),
            percentile(&times, 0.5),
            percentile(&times, 0.99),
            times[times.len() - 1],
            found as f64 / times.len() as f64
        );
    }

    // The first answers checked against a brute force over every place.
    let agents: Vec<[f64; 3]> = locations.points().filter(|(kind, ..)| *kind == LocationKind::Agent).map(|(_, lat, lng)| on_sphere(lat, lng)).collect();
    for (lat, lng) in points.iter().take(20) {
        let p = on_sphere(*lat, *lng);
        let mut brute: Vec<f64> = agents.iter().map(|a| (a[0] - p[0]).powi(2) + (a[1] - p[1]).powi(2) + (a[2] - p[2]).powi(2)).collect();
        brute.sort_by(f64::total_cmp);
        let chord = |m: f64| (2.0 * (m / (2.0 * 6_371_008.8)).sin()).powi(2);
        let found: Vec<f64> = locations.nearest(LocationKind::Agent, p, 2_000_000.0).take(20).map(|(_, m)| chord(m)).collect();
        assert!(found.iter().zip(&brute).all(|(a, b)| (a - b).abs() < 1e-9), "nearest differs from the brute force at {lat}, {lng}");
    }
    println!("nearest checked against a brute force: 20 points, the same 20 distances");
}
