//! The locator's index at scale (`bench/locator.sh`, part of `make bench`):
//! the agents and shops of a CSV (`tools/locations.py csv 180000`) served
//! as Strapi 5 pages them (100 an answer, `meta.pagination`, on a local
//! port) and read by the CMS client, twice: as one answer of every page
//! parsed afterwards (how the content cache read them before, with its copy
//! for the disk), and page by page into the entries the index is built
//! from (how it reads them now, its disk copy written); for each, the peak
//! of the memory the read holds (jemalloc's count of bytes allocated,
//! sampled every millisecond, over what was held before). Then the memory
//! the index holds, the size of its disk copy, and the time of nearest-20
//! queries, for random points over Tanzania and around its towns, checked
//! against a brute force on a few.
//!
//!     cargo run --release -p server --example locator_bench -- FILE.csv [QUERIES]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::extract::{RawQuery, State};
use contract::Lang;
use contract::locations::LocationKind;
use serde_json::{Value, json};
use server::content::{
    CacheSettings, Content, ContentQuery, ContentSource, DiskCache, Normalizer, StrapiClient, StrapiSettings,
};
use server::locator::nearest_open;
use server::places::{Locations, PlaceList, WeekTime, on_sphere};
use tikv_jemalloc_ctl::{epoch, stats};

/// Places in one answer of the CMS: Strapi's largest page.
const PAGE: usize = 100;

fn allocated() -> usize {
    epoch::advance().expect("jemalloc epoch");
    stats::allocated::read().expect("jemalloc stats")
}

/// The most allocated while `work` runs, over what was allocated before it,
/// sampled every millisecond; and what it returned.
fn peak<T>(work: impl FnOnce() -> T) -> (usize, T) {
    let before = allocated();
    let (done, most) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicUsize::new(before)));
    let sampler = {
        let (done, most) = (done.clone(), most.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                most.fetch_max(allocated(), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(1));
            }
        })
    };
    let result = work();
    most.fetch_max(allocated(), Ordering::Relaxed);
    done.store(true, Ordering::Relaxed);
    sampler.join().expect("the sampler");
    (most.load(Ordering::Relaxed).saturating_sub(before), result)
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

/// The CSV's places as Strapi 5 answers `GET /api/locations`, page by page, as text.
fn strapi_pages(text: &str) -> Vec<String> {
    let mut lines = text.lines();
    let header = fields(lines.next().expect("a header"));
    let entries: Vec<Value> = lines
        .map(|line| {
            let row: std::collections::HashMap<&str, String> = header.iter().map(String::as_str).zip(fields(line)).collect();
            let id = row["id"].parse::<u64>().unwrap_or(0);
            json!({
                "id": id, "documentId": format!("{id:024x}"), "name": row["name"], "kind": row["kind"], "region": row["region"],
                "district": row["district"], "street": row["street"], "landmark": row["landmark_en"], "landmarkSw": row["landmark_sw"],
                "latitude": row["latitude"].parse::<f64>().unwrap_or(f64::NAN), "longitude": row["longitude"].parse::<f64>().unwrap_or(f64::NAN),
                "services": row["services"].split(';').collect::<Vec<_>>(), "hoursWeekdays": row["hoursWeekdays"],
                "hoursSaturday": row["hoursSaturday"], "hoursSunday": row["hoursSunday"], "phone": row["phone"],
            })
        })
        .collect();
    let count = entries.chunks(PAGE).count();
    entries
        .chunks(PAGE)
        .enumerate()
        .map(|(n, data)| {
            let pagination = json!({ "page": n + 1, "pageSize": PAGE, "pageCount": count, "total": entries.len() });
            json!({ "data": data, "meta": { "pagination": pagination } }).to_string()
        })
        .collect()
}

/// Answers `GET /api/locations?pagination[page]=N…` with page N.
async fn answer(State(pages): State<Arc<Vec<String>>>, RawQuery(query): RawQuery) -> axum::response::Response {
    use axum::response::IntoResponse;
    let query = query.unwrap_or_default();
    let page: usize = url::form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == "pagination[page]")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(1);
    match pages.get(page.max(1) - 1) {
        Some(text) => ([(axum::http::header::CONTENT_TYPE, "application/json")], text.clone()).into_response(),
        None => {
            let pagination = json!({ "page": page, "pageSize": PAGE, "pageCount": pages.len(), "total": 0 });
            axum::Json(json!({ "data": [], "meta": { "pagination": pagination } })).into_response()
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: locator_bench FILE.csv [QUERIES]");
    let queries: usize = args.next().map_or(20_000, |q| q.parse().expect("a number of queries"));
    let text = std::fs::read_to_string(&path).expect("the CSV");
    let pages = Arc::new(strapi_pages(&text));
    drop(text);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).expect("a port");
    let address = listener.local_addr().expect("its address");
    let cms = axum::Router::new().route("/api/locations", axum::routing::get(answer)).with_state(pages.clone());
    runtime.spawn(async move { axum::serve(listener, cms).await });
    let client = || {
        let settings = StrapiSettings {
            base_url: format!("http://{address}"),
            token: None,
            populate: Default::default(),
            timeout: Duration::from_secs(30),
            max_requests: 4,
            draft: false,
        };
        let normalizer =
            Normalizer { media_base: None, file_hosts: Vec::new(), site_url: "http://localhost".into(), images: None };
        Arc::new(StrapiClient::new(settings, normalizer).expect("a CMS client"))
    };
    let cms_text: usize = pages.iter().map(String::len).sum();
    println!("the CMS: {} pages of {PAGE}, {:.1} MB as text", pages.len(), cms_text as f64 / 1e6);

    // Before: every page in one answer, its copy for the disk, then parsed.
    let source = client();
    let (held, read) = peak(|| {
        let raw =
            runtime.block_on(source.fetch(&ContentQuery::Locations, Lang::En)).expect("the read").expect("the places");
        let kept = raw.clone();
        let (locations, _) = Locations::parse(raw);
        drop(kept);
        locations.len()
    });
    println!("a read as one answer (before): peak {:.1} MB ({read} places)", held as f64 / 1e6);

    // Now: page by page, through the content cache, its disk copy written.
    let disk_dir = tempfile::tempdir().expect("a directory");
    let disk = DiskCache::open(disk_dir.path(), 64 << 20).expect("the disk cache");
    let settings = CacheSettings {
        fresh: Duration::from_secs(3600),
        locations_fresh: Duration::from_secs(3600),
        stale_if_error: Duration::from_secs(3600),
        timeout: Duration::from_secs(30),
        bytes: 32 << 20,
        disk: Some(disk),
    };
    let content = Content::new(client(), settings);
    let kept_bytes = || {
        std::fs::read_dir(disk_dir.path().join("content-cache"))
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|f| f.metadata().ok())
            .map(|m| m.len())
            .sum::<u64>()
    };
    let started = Instant::now();
    let (held, locations) = peak(|| {
        let server::content::Places::Listed(locations, _) =
            runtime.block_on(content.locations(Duration::from_secs(600)))
        else {
            panic!("the places were not read");
        };
        while kept_bytes() == 0 {
            std::thread::sleep(Duration::from_millis(5));
        }
        // The disk copy is written (renamed into place) once whole.
        std::thread::sleep(Duration::from_millis(50));
        locations
    });
    let read_time = started.elapsed();
    println!(
        "a read page by page (now): peak {:.1} MB, {:.2} s with the index built and the disk copy written ({:.1} MB)",
        held as f64 / 1e6,
        read_time.as_secs_f64(),
        kept_bytes() as f64 / 1e6
    );
    drop((content, locations));

    // The index alone: built on this thread from the entries of a read.
    let mut places = PlaceList::default();
    let found = runtime
        .block_on(client().each_page(&ContentQuery::Locations, Lang::En, &mut |page| places.read_page(page)))
        .expect("the read");
    assert!(found);
    let before = allocated();
    let started = Instant::now();
    let (locations, _) = places.index();
    let build = started.elapsed();
    let index = allocated().saturating_sub(before);
    println!(
        "locations: {} places, index built in {:.2} s from entries of {:.1} MB; index memory: {:.1} MB allocated (estimate from its parts: {:.1} MB)",
        locations.len(),
        build.as_secs_f64(),
        places.heap_bytes() as f64 / 1e6,
        index as f64 / 1e6,
        locations.heap_bytes() as f64 / 1e6
    );
    drop(places);

    // Points: half anywhere in Tanzania's box, half within ~5 km of a place (where people ask from).
    let mut random = fastrand::Rng::with_seed(0x2545_F491_4F6C_DD1D);
    let towns: Vec<(f64, f64)> = locations.points().step_by(997).map(|(_, lat, lng)| (lat, lng)).collect();
    let points: Vec<(f64, f64)> = (0..queries)
        .map(|n| {
            if n % 2 == 0 {
                (-11.7 + random.f64() * 10.7, 29.4 + random.f64() * 11.0)
            } else {
                let (lat, lng) = towns[random.usize(..towns.len())];
                (lat + (random.f64() - 0.5) * 0.09, lng + (random.f64() - 0.5) * 0.09)
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
    let agents: Vec<[f64; 3]> = locations
        .points()
        .filter(|(kind, ..)| *kind == LocationKind::Agent)
        .map(|(_, lat, lng)| on_sphere(lat, lng))
        .collect();
    for (lat, lng) in points.iter().take(20) {
        let p = on_sphere(*lat, *lng);
        let mut brute: Vec<f64> =
            agents.iter().map(|a| (a[0] - p[0]).powi(2) + (a[1] - p[1]).powi(2) + (a[2] - p[2]).powi(2)).collect();
        brute.sort_by(f64::total_cmp);
        let chord = |m: f64| (2.0 * (m / (2.0 * 6_371_008.8)).sin()).powi(2);
        let found: Vec<f64> =
            locations.nearest(LocationKind::Agent, p, 2_000_000.0).take(20).map(|(_, m)| chord(m)).collect();
        assert!(
            found.iter().zip(&brute).all(|(a, b)| (a - b).abs() < 1e-9),
            "nearest differs from the brute force at {lat}, {lng}"
        );
    }
    println!("nearest checked against a brute force: 20 points, the same 20 distances");
}
