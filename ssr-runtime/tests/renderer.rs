use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{Value, json};
use ssr_runtime::{RenderError, Renderer, RendererConfig};

/// What the fixture bundle returns; the engine knows no such type.
#[derive(Debug, Deserialize)]
struct Output {
    status: u16,
    head: String,
    html: String,
}

fn renderer(workers: usize, budget: Duration) -> Renderer {
    let bundle: Arc<str> = include_str!("fixtures/bundle.js").into();
    Renderer::start(bundle, RendererConfig { workers, budget, ..RendererConfig::default() }).expect("start renderer")
}

/// Any serialisable request: the fixture reads the route name, language and title.
fn request(route: &str) -> Value {
    json!({
        "url": format!("/{route}?q=1"),
        "data": { "lang": "sw", "status": 200, "route": { "name": route }, "content": { "page": { "title": "Habari </script>" } } }
    })
}

async fn render(renderer: &Renderer, route: &str) -> Result<Output, RenderError> {
    renderer.render(&request(route)).await
}

#[tokio::test]
async fn renders_the_fixture() {
    let renderer = renderer(1, Duration::from_secs(2));
    let output = render(&renderer, "home").await.unwrap();
    assert_eq!(output.status, 200);
    assert_eq!(output.head, "<title>Habari </script></title>");
    assert_eq!(output.html, r#"<main lang="sw">/home?q=1</main>"#);
}

#[tokio::test]
async fn provides_the_polyfills_the_bundle_needs() {
    let renderer = renderer(1, Duration::from_secs(2));
    let output = render(&renderer, "polyfills").await.unwrap();
    assert_eq!(output.html, "5:ž€:pong");
}

#[tokio::test]
async fn a_throwing_render_is_an_error_with_the_js_message() {
    let renderer = renderer(1, Duration::from_secs(2));
    match render(&renderer, "throw").await {
        Err(RenderError::Js { message, stack }) => {
            assert!(message.contains("component exploded"), "{message}");
            assert!(stack.unwrap_or_default().contains("component exploded"));
        }
        other => panic!("expected a JS error, got {other:?}"),
    }
    // The engine that threw keeps serving.
    assert!(render(&renderer, "home").await.is_ok());
}

#[tokio::test]
async fn an_infinite_loop_is_terminated_within_budget_and_the_pool_still_serves() {
    let budget = Duration::from_millis(300);
    let renderer = renderer(1, budget);
    let started = Instant::now();
    let result = render(&renderer, "loop").await;
    let elapsed = started.elapsed();
    assert!(matches!(result, Err(RenderError::Timeout(b)) if b == budget), "{result:?}");
    // Generous bound: the point is that it ends, not how fast.
    assert!(elapsed < budget * 10, "terminated after {elapsed:?}");
    for _ in 0..3 {
        let output = render(&renderer, "home").await.expect("pool serves after a timeout");
        assert_eq!(output.status, 200);
    }
    // And it can be terminated again.
    assert!(matches!(render(&renderer, "loop").await, Err(RenderError::Timeout(_))));
    assert!(render(&renderer, "home").await.is_ok());
}

/// A render that finds no free engine within its queue wait is refused then,
/// not when an engine frees up, and no engine spends time on it later.
#[tokio::test]
async fn a_render_waits_for_an_engine_no_longer_than_the_queue_wait() {
    let bundle: Arc<str> = include_str!("fixtures/bundle.js").into();
    let (budget, queue_wait) = (Duration::from_millis(1500), Duration::from_millis(200));
    let renderer =
        Renderer::start(bundle, RendererConfig { workers: 1, budget, queue_wait, ..RendererConfig::default() })
            .unwrap();
    let busy = tokio::spawn({
        let renderer = renderer.clone();
        async move { render(&renderer, "loop").await }
    });
    tokio::time::sleep(Duration::from_millis(50)).await;
    let started = Instant::now();
    let result = render(&renderer, "home").await;
    assert!(matches!(result, Err(RenderError::QueueTimeout(w)) if w == queue_wait), "{result:?}");
    assert!(started.elapsed() < budget / 2, "refused after {:?}", started.elapsed());
    assert!(matches!(busy.await.unwrap(), Err(RenderError::Timeout(_))));
    assert!(render(&renderer, "home").await.is_ok(), "the engine serves on");
}

#[tokio::test]
async fn a_bundle_without_the_entry_point_fails_at_start() {
    match Renderer::start("globalThis.x = 1;".into(), RendererConfig { workers: 1, ..RendererConfig::default() }) {
        Err(RenderError::Startup(message)) => assert!(message.contains("__ssr"), "{message}"),
        other => panic!("expected a startup error, got {:?}", other.err()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_concurrent_renders_all_complete() {
    let renderer = renderer(2, Duration::from_secs(2));
    let renders = (0..50).map(|_| {
        let renderer = renderer.clone();
        tokio::spawn(async move { render(&renderer, "home").await })
    });
    for render in renders {
        assert!(render.await.unwrap().is_ok());
    }
}

/// Engines run below requests' priority: a render never delays an answer
/// that needs no engine.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn engines_run_below_the_requests_priority() {
    let _renderer = renderer(1, Duration::from_secs(2));
    let niceness: Vec<i32> = std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|task| {
            let task = task.ok()?.path();
            let name = std::fs::read_to_string(task.join("comm")).ok()?;
            let stat = std::fs::read_to_string(task.join("stat")).ok()?;
            // Fields after the name (in parentheses): the 19th of the line is the niceness.
            let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
            name.starts_with("ssr-").then(|| fields[16].parse().unwrap())
        })
        .collect();
    assert!(!niceness.is_empty(), "no engine thread found");
    assert!(niceness.iter().all(|nice| *nice == ssr_runtime::NICE), "{niceness:?}");
}
