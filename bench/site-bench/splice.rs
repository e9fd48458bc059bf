//! `site-bench render --splice`: what a signed-in view of a page for
//! everyone costs to compress, its pieces spliced as the server serves them
//! (`server/src/pages/splice.rs`) against the whole page compressed again.

use std::io::Write;

use flate2::Compression;
use server::contract::page::{PageData, RenderOutput};
use server::pages::document::document;
use server::pages::splice::{OwnParts, escape_text, prepare};

/// What a signed-in view of the page a render gave (`output` of `data`,
/// its document loading `entry`) costs to compress, `runs` times each way:
/// a line per way (p50 µs, bytes, time against the pieces'). `None` when
/// the page cannot take a subscriber's parts.
pub fn bench(output: &RenderOutput, data: &PageData, entry: &str, runs: usize) -> Option<String> {
    let html = document(data.lang, output, data, entry);
    let splice = prepare(html.as_bytes(), output.account.as_ref()?)?;
    let own = OwnParts {
        name_html: escape_text("Amina Mwakyusa"),
        subscriber_json:
            r#"{"msisdn":"255754000001","names":"Amina Mwakyusa","balance":null,"paymentMethods":["AIRTIME","MPESA"]}"#
                .into(),
        ..OwnParts::default()
    };
    let identity = splice.identity(html.as_bytes(), &own);
    let time = |answer: &dyn Fn() -> usize| {
        let bytes = answer();
        let mut times: Vec<f64> = (0..runs.max(1))
            .map(|_| {
                let started = std::time::Instant::now();
                std::hint::black_box(answer());
                started.elapsed().as_secs_f64() * 1e6
            })
            .collect();
        times.sort_by(f64::total_cmp);
        (times[times.len() / 2], bytes)
    };
    let whole = |level: u32| {
        let identity = identity.clone();
        move || {
            let mut encoder = flate2::write::GzEncoder::new(Vec::new(), Compression::new(level));
            encoder.write_all(&identity).expect("compress to memory");
            encoder.finish().expect("compress to memory").len()
        }
    };
    let (pieces_us, pieces_bytes) = time(&|| splice.gzip(&own).len());
    let mut report =
        format!("{:<28} {:>9.1} {:>7} {:>8}\n", "pieces spliced (served)", pieces_us, pieces_bytes, "1.0x");
    for level in [1, 6, 9] {
        let (us, bytes) = time(&whole(level));
        report.push_str(&format!(
            "{:<28} {:>9.1} {:>7} {:>7.1}x\n",
            format!("whole page, gzip level {level}"),
            us,
            bytes,
            us / pieces_us
        ));
    }
    Some(report)
}
