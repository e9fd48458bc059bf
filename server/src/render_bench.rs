//! `site render-bench`: times a server bundle's renders in the engine the
//! site runs (the `ssr-runtime` pool, one engine), through the same
//! [`ssr_runtime::Renderer::render`] call a page pays, so that `make bench`
//! can set the app's render time beside React's floor for the same markup
//! (a bundle `bench/floor.mjs` builds) in QuickJS as well as in node.

use std::fmt::Write;
use std::time::{Duration, Instant};

use serde::Deserialize;

use contract::page::{PageData, RenderOutput, RenderRequest};

use crate::AppError;
use crate::manifest::AssetManifest;

/// One page to render, as `bench/render-node.mjs --save` writes it.
#[derive(Deserialize)]
struct Saved {
    url: String,
    data: serde_json::Value,
}

/// Renders each of `requests` (a JSON array of `{url, data}`) `runs` times
/// after a warm-up with the bundle `server_js`, and returns a line per page:
/// its kind ("(signed in)" added for a subscriber's page), url, p50 and mean
/// in ms, in the columns of `bench/floor.mjs`. A render that fails stops the
/// bench.
///
/// With `splice`, each page for everyone is rendered once and what a
/// signed-in view of it costs to compress is timed instead
/// ([`crate::pages::splice_bench`]).
pub async fn render_bench(server_js: &str, requests: &str, assets_json: &str, runs: usize, splice: bool) -> Result<String, AppError> {
    let saved: Vec<Saved> = serde_json::from_str(requests).map_err(|e| AppError::Config(format!("requests: {e}")))?;
    let assets = AssetManifest::from_json(assets_json)?;
    let renderer = ssr_runtime::Renderer::start(
        server_js.into(),
        ssr_runtime::RendererConfig { workers: 1, budget: Duration::from_secs(30), ..Default::default() },
    )?;
    let mut report = String::new();
    for page in saved {
        let kind = page.data.pointer("/route/page").and_then(|kind| kind.as_str()).unwrap_or("?").to_owned();
        // As bench/floor.mjs names it: the same address signed in is another page.
        let signed_in = page.data.get("subscriber").is_some_and(|subscriber| !subscriber.is_null());
        let label = if signed_in { format!("{kind} (signed in)") } else { kind.clone() };
        if splice {
            let data: PageData = serde_json::from_value(page.data).map_err(|e| AppError::Config(format!("{}: {e}", page.url)))?;
            if !crate::pages::for_everyone(&data) {
                continue;
            }
            let request = RenderRequest { url: page.url.clone(), assets: assets.for_page(&kind), data, account_slot: Some(crate::pages::NAME_SLOT.into()), personal_part: false };
            let output: RenderOutput = renderer.render(&request).await?;
            let report_lines = crate::pages::splice_bench(&output, &request.data, &assets.enhance, runs).unwrap_or_else(|| "not spliceable\n".into());
            let _ = write!(report, "{label} {}\n{report_lines}", page.url);
            continue;
        }
        let request = serde_json::json!({ "url": page.url, "data": page.data, "assets": assets.for_page(&kind) });
        for _ in 0..runs.div_ceil(10).max(5) {
            renderer.render::<_, serde_json::Value>(&request).await?;
        }
        let mut times = Vec::with_capacity(runs);
        for _ in 0..runs.max(1) {
            let started = Instant::now();
            renderer.render::<_, serde_json::Value>(&request).await?;
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(f64::total_cmp);
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        let p50 = times[times.len() / 2];
        let _ = writeln!(report, "{label:<24} {:<42} {p50:.3} {mean:.3}", page.url);
    }
    Ok(report)
}
