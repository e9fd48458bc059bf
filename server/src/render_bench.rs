//! `site render-bench`: times a server bundle's renders in the engine the
//! site runs (the `ssr-runtime` pool, one engine), through the same
//! [`ssr_runtime::Renderer::render`] call a page pays, so that `make bench`
//! can set the app's render time beside React's floor for the same markup
//! (a bundle `bench/floor.mjs` builds) in QuickJS as well as in node.

use std::fmt::Write;
use std::time::{Duration, Instant};

use serde::Deserialize;

use contract::page::{PageData, PageKind, RenderOutput, RenderRequest};

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
/// ([`crate::pages::splice_bench`]). With `part`, each signed-in account
/// page is timed whole and its personal part alone, as a view renders it
/// (a line each: label, url, whole p50, part p50, ratio).
pub async fn render_bench(server_js: &str, requests: &str, assets_json: &str, runs: usize, splice: bool, part: bool) -> Result<String, AppError> {
    let saved: Vec<Saved> = serde_json::from_str(requests).map_err(|e| AppError::ToolInput { what: "requests".into(), source: e.into() })?;
    let assets = AssetManifest::from_json(assets_json)?;
    let renderer = ssr_runtime::Renderer::start(
        server_js.into(),
        ssr_runtime::RendererConfig { workers: 1, budget: Duration::from_secs(30), ..Default::default() },
    )?;
    let mut report = String::new();
    for page in saved {
        let route_page = page.data.pointer("/route/page").cloned().unwrap_or_default();
        let kind = PageKind::deserialize(route_page).map_err(|e| AppError::ToolInput { what: page.url.clone(), source: e.into() })?;
        // As bench/floor.mjs names it: the same address signed in is another page.
        let signed_in = page.data.get("subscriber").is_some_and(|subscriber| !subscriber.is_null());
        let label = if signed_in { format!("{kind} (signed in)") } else { kind.to_string() };
        if splice {
            let data: PageData = serde_json::from_value(page.data).map_err(|e| AppError::ToolInput { what: page.url.clone(), source: e.into() })?;
            if !crate::pages::for_everyone(&data) {
                continue;
            }
            let request = RenderRequest { url: page.url.clone(), assets: assets.for_page(kind), data, account_slot: Some(crate::pages::NAME_SLOT.into()), csrf_slot: Some(crate::pages::CSRF_SLOT.into()), personal_part: false };
            let output: RenderOutput = renderer.render(&request).await?;
            let report_lines = crate::pages::splice_bench(&output, &request.data, &assets.enhance, runs).unwrap_or_else(|| "not spliceable\n".into());
            let _ = write!(report, "{label} {}\n{report_lines}", page.url);
            continue;
        }
        if part {
            if kind != PageKind::Account || !signed_in {
                continue;
            }
            let lang = page.data.get("lang").cloned().unwrap_or_default();
            let part_request = serde_json::json!({ "part": { "lang": lang, "subscriber": page.data["subscriber"] } });
            let whole_request = serde_json::json!({ "url": page.url, "data": page.data, "assets": assets.for_page(kind) });
            let (whole, _) = time(&renderer, &whole_request, runs).await?;
            let (part, _) = time(&renderer, &part_request, runs).await?;
            let _ = writeln!(report, "{label:<24} {:<16} whole {whole:.3} ms, part {part:.3} ms, {:.1}x", page.url, whole / part);
            continue;
        }
        let request = serde_json::json!({ "url": page.url, "data": page.data, "assets": assets.for_page(kind) });
        let (p50, mean) = time(&renderer, &request, runs).await?;
        let _ = writeln!(report, "{label:<24} {:<42} {p50:.3} {mean:.3}", page.url);
    }
    Ok(report)
}

/// `request` rendered `runs` times after a warm-up: p50 and mean, in ms.
async fn time(renderer: &ssr_runtime::Renderer, request: &serde_json::Value, runs: usize) -> Result<(f64, f64), AppError> {
    for _ in 0..runs.div_ceil(10).max(5) {
        renderer.render::<_, serde_json::Value>(request).await?;
    }
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs.max(1) {
        let started = Instant::now();
        renderer.render::<_, serde_json::Value>(request).await?;
        times.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    Ok((times[times.len() / 2], times.iter().sum::<f64>() / times.len() as f64))
}
