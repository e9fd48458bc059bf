use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use ssr_runtime::{Lang, MatchedRoute, PageAssets, PageContent, PageData, RenderError, RenderRequest, Renderer, RendererConfig};

fn renderer(workers: usize, budget: Duration) -> Renderer {
    let bundle: Arc<str> = include_str!("fixtures/bundle.js").into();
    Renderer::start(bundle, RendererConfig { workers, budget, ..RendererConfig::default() }).expect("start renderer")
}

fn request(route: &str) -> RenderRequest {
    RenderRequest {
        url: format!("/{route}?q=1"),
        data: PageData {
            lang: Lang::Sw,
            path: format!("/{route}"),
            status: 200,
            route: MatchedRoute { name: route.into(), page: "content".into(), params: Default::default() },
            content: PageContent { page: Some(json!({ "title": "Habari </script>" })), ..Default::default() },
            alternates: None,
            subscriber: None,
            notice: None,
            cpm: None,
            bundles: None,
            site_url: "http://localhost".into(),
        },
        assets: PageAssets::default(),
    }
}

#[tokio::test]
async fn renders_the_fixture() {
    let renderer = renderer(1, Duration::from_secs(2));
    let output = renderer.render(request("home")).await.unwrap();
    assert_eq!(output.status, 200);
    assert_eq!(output.head, "<title>Habari </script></title>");
    assert_eq!(output.html, r#"<main lang="sw">/home?q=1</main>"#);
}

#[tokio::test]
async fn provides_the_polyfills_the_bundle_needs() {
    let renderer = renderer(1, Duration::from_secs(2));
    let output = renderer.render(request("polyfills")).await.unwrap();
    assert_eq!(output.html, "5:ž€:pong");
}

#[tokio::test]
async fn a_throwing_render_is_an_error_with_the_js_message() {
    let renderer = renderer(1, Duration::from_secs(2));
    match renderer.render(request("throw")).await {
        Err(RenderError::Js { message, stack }) => {
            assert!(message.contains("component exploded"), "{message}");
            assert!(stack.unwrap_or_default().contains("component exploded"));
        }
        other => panic!("expected a JS error, got {other:?}"),
    }
    // The engine that threw keeps serving.
    assert!(renderer.render(request("home")).await.is_ok());
}

#[tokio::test]
async fn an_infinite_loop_is_terminated_within_budget_and_the_pool_still_serves() {
    let budget = Duration::from_millis(300);
    let renderer = renderer(1, budget);
    let started = Instant::now();
    let result = renderer.render(request("loop")).await;
    let elapsed = started.elapsed();
    assert!(matches!(result, Err(RenderError::Timeout(b)) if b == budget), "{result:?}");
    // Generous bound: the point is that it ends, not how fast.
    assert!(elapsed < budget * 10, "terminated after {elapsed:?}");
    for _ in 0..3 {
        let output = renderer.render(request("home")).await.expect("pool serves after a timeout");
        assert_eq!(output.status, 200);
    }
    // And it can be terminated again.
    assert!(matches!(renderer.render(request("loop")).await, Err(RenderError::Timeout(_))));
    assert!(renderer.render(request("home")).await.is_ok());
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
        tokio::spawn(async move { renderer.render(request("home")).await })
    });
    for render in renders {
        assert!(render.await.unwrap().is_ok());
    }
}
