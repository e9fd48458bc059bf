//! `site-bench render`: times a server bundle's renders in the engine the
//! site runs (the `ssr-runtime` pool, one engine), through the same
//! [`Renderer::render`] call a page pays, so that `make bench` can set the
//! app's render time beside React's floor for the same markup (a bundle
//! `bench/floor.mjs` builds) in QuickJS as well as in node.

use std::fmt::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use serde::Deserialize;
use server::contract::Lang;
use server::contract::page::{PageData, PageKind, RenderOutput};
use server::manifest::AssetManifest;
use ssr_runtime::{Renderer, RendererConfig};

pub type Error = Box<dyn std::error::Error>;

/// One page to render, as `bench/render-node.mjs --save` writes it.
#[derive(Deserialize)]
struct Saved {
    url: String,
    data: serde_json::Value,
}

/// What is timed of each page.
pub enum Timed {
    /// Its render: a line per page (its kind, "(signed in)" added for a
    /// subscriber's page, url, p50 and mean in ms), in the columns of
    /// `bench/floor.mjs`.
    Renders,
    /// For each page for everyone, rendered once: what a signed-in view of
    /// it costs to compress ([`crate::splice::bench`]).
    Splice,
    /// For each signed-in account page: its whole render against its
    /// personal part alone, as a view renders it (a line each: label, url,
    /// whole p50, part p50, ratio).
    Part,
}

/// Renders each page of the file `requests` (a JSON array of `{url,
/// data}`) `runs` times after a warm-up with the bundle at `bundle` (the
/// app's built in, when `None`), and reports what `timed` says. A render
/// that fails stops the bench.
pub async fn bench(requests: &Path, bundle: Option<&Path>, runs: usize, timed: Timed) -> Result<String, Error> {
    let read = |path: &Path| std::fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()));
    let site = site::app_build();
    let saved: Vec<Saved> = serde_json::from_str(&read(requests)?).map_err(|error| format!("requests: {error}"))?;
    let server_js = match bundle {
        Some(path) => read(path)?,
        None => site.server_js.to_owned(),
    };
    let assets = AssetManifest::from_json(site.assets_json)?;
    let renderer = Renderer::start(
        server_js.into(),
        RendererConfig { workers: 1, budget: Duration::from_secs(30), ..Default::default() },
    )?;
    let mut report = String::new();
    for page in saved {
        let route_page = page.data.pointer("/route/page").cloned().unwrap_or_default();
        let kind = PageKind::deserialize(route_page).map_err(|error| format!("{}: {error}", page.url))?;
        // As bench/floor.mjs names it: the same address signed in is another page.
        let signed_in = page.data.get("subscriber").is_some_and(|subscriber| !subscriber.is_null());
        let label = if signed_in { format!("{kind} (signed in)") } else { kind.to_string() };
        let lang = Lang::deserialize(page.data.get("lang").cloned().unwrap_or_default()).unwrap_or_default();
        let page_assets = assets.page_assets(kind, lang);
        match timed {
            Timed::Splice => {
                let data: PageData =
                    serde_json::from_value(page.data).map_err(|error| format!("{}: {error}", page.url))?;
                if !server::pages::for_everyone(&data) {
                    continue;
                }
                let request = server::pages::render_request(page.url.clone(), data, &assets, false);
                let output: RenderOutput = renderer.render(&request).await?;
                let lines = crate::splice::bench(&output, &request.data, &assets.enhance, runs)
                    .unwrap_or_else(|| "not spliceable\n".into());
                let _ = write!(report, "{label} {}\n{lines}", page.url);
            }
            Timed::Part => {
                if kind != PageKind::Account || !signed_in {
                    continue;
                }
                let part_request =
                    serde_json::json!({ "part": { "lang": lang, "subscriber": page.data["subscriber"] } });
                let whole_request = serde_json::json!({ "url": page.url, "data": page.data, "assets": page_assets });
                let (whole, _) = time(&renderer, &whole_request, runs).await?;
                let (part, _) = time(&renderer, &part_request, runs).await?;
                let _ = writeln!(
                    report,
                    "{label:<24} {:<16} whole {whole:.3} ms, part {part:.3} ms, {:.1}x",
                    page.url,
                    whole / part
                );
            }
            Timed::Renders => {
                let request = serde_json::json!({ "url": page.url, "data": page.data, "assets": page_assets });
                let (p50, mean) = time(&renderer, &request, runs).await?;
                let _ = writeln!(report, "{label:<24} {:<42} {p50:.3} {mean:.3}", page.url);
            }
        }
    }
    Ok(report)
}

/// `request` rendered `runs` times after a warm-up: p50 and mean, in ms.
async fn time(renderer: &Renderer, request: &serde_json::Value, runs: usize) -> Result<(f64, f64), Error> {
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
