//! What the API tests share: the site started on a random port, builds of
//! the app that render slowly or count their renders, readers of what a
//! page carries, and Redis for the tests of several instances; in its
//! modules, one site many tests share, the sandbox's subscribers and
//! switches, browsers of the site,
//! request bodies from the contract's types, waiting for what happens in
//! the background, the forms' submissions, signed-in pages compared, and
//! the search page.

use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::oneshot;

pub mod bodies;
mod eventually;
mod forms;
mod sandbox;
mod search;
mod shared;
mod signed_in;
mod visitor;

pub use eventually::eventually;
pub use forms::{BUSINESS, FOUNDATION, TOKEN, application, lead};
pub use sandbox::{AMINA, BARAKA, JUMA, NEEMA, code_in_inbox, fail_next, hold_next, latest_code};
pub use search::{results, search, searchable};
pub use shared::shared_app;
pub use signed_in::{SITE_URL, decoded_page, first_difference, masked_page, spliced_and_rendered};
pub use visitor::{Replay, Visitor};

pub struct TestApp {
    pub address: String,
    /// Follows no redirects and decodes no compression, to see what the server sends.
    pub client: reqwest::Client,
    /// Stops the server when the app is dropped; none for [`shared_app`]'s.
    shutdown: Option<oneshot::Sender<()>>,
    _data_dir: Option<tempfile::TempDir>,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.expect("request")
    }

    /// The page at `path`, which answers 200.
    pub async fn page(&self, path: &str) -> String {
        let response = self.get(path).await;
        assert_eq!(response.status(), reqwest::StatusCode::OK, "{path}");
        response.text().await.unwrap()
    }

    /// The same, for many requests at once.
    pub fn get_owned(&self, path: String) -> impl std::future::Future<Output = reqwest::Response> + use<> {
        let request = self.client.get(self.url(&path));
        async move { request.send().await.expect("request") }
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
    }
}

/// The site reading its content from `cms`, taking its webhook with the
/// secret `hook-secret`.
pub async fn site_with(cms: &crate::fake_cms::FakeCms, configure: impl FnOnce(&mut server::Config)) -> TestApp {
    let url = cms.url.clone();
    spawn_app_with(move |config| {
        config.cms.url = Some(url.parse().unwrap());
        config.cms.webhook_secret = Some("hook-secret".parse().unwrap());
        configure(config);
    })
    .await
}

/// Starts the whole site with its embedded defaults on a random port.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

pub async fn spawn_app_with(configure: impl FnOnce(&mut server::Config)) -> TestApp {
    spawn_bundle_with(site::app_build(), configure).await
}

/// A test server's settings: its address, its own data, one render worker.
pub fn test_config(address: &str, data_dir: &std::path::Path) -> server::Config {
    let mut config = server::Config::defaults();
    config.site_url = address.parse().unwrap();
    config.data_dir = data_dir.to_owned();
    config.pages.render_workers = Some(1);
    // Tests count renders and time answers: pages render on request only,
    // but for the test of pre-rendering itself.
    config.pages.prerender = false;
    // Many servers run in one test binary: no metrics listener unless a test asks.
    config.operations.metrics_addr = None;
    config
}

/// The site with another build of the app (e.g. a server bundle that fails),
/// with the sandbox mounted as the binary mounts it.
pub async fn spawn_bundle_with(bundle: server::AppBuild, configure: impl FnOnce(&mut server::Config)) -> TestApp {
    let data_dir = tempfile::tempdir().expect("temp dir");
    let mut app = start(bundle, data_dir.path(), configure).await;
    app._data_dir = Some(data_dir);
    app
}

/// The site started with its data in `data_dir`, once it answers.
async fn start(
    bundle: server::AppBuild,
    data_dir: &std::path::Path,
    configure: impl FnOnce(&mut server::Config),
) -> TestApp {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = format!("http://{}", listener.local_addr().unwrap());
    let mut config = test_config(&address, data_dir);
    configure(&mut config);
    let (shutdown, stop) = oneshot::channel::<()>();
    tokio::spawn(server::run(listener, config, bundle, Some(site::sandbox()), async {
        let _ = stop.await;
    }));
    let client = client();
    let health = async || client.get(format!("{address}/healthz")).send().await.ok().map(|response| response.status());
    eventually("the server answers", health, |status| status.is_some_and(|status| status.is_success())).await;
    TestApp { address, client, shutdown: Some(shutdown), _data_dir: None }
}

/// A test's client of the site: no redirects followed, no compression decoded.
fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
}

/// A port free on the loopback address, for a server a test starts.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The addresses a sitemap (or a sitemap index) lists.
pub fn locs(xml: &str) -> Vec<String> {
    xml.split("<loc>").skip(1).filter_map(|part| part.split_once("</loc>")).map(|(loc, _)| loc.to_owned()).collect()
}

/// The value of the series `series` (its name and labels) in a Prometheus
/// text exposition.
pub fn metric(text: &str, series: &str) -> Option<f64> {
    text.lines().find_map(|line| line.strip_prefix(series)?.strip_prefix(' ')?.trim().parse().ok())
}

/// The site's build with its server render wrapped: `wrapper` is a JS
/// function that takes the bundle's `render` and returns the one to use.
pub fn bundle_wrapping_render(wrapper: &str) -> server::AppBuild {
    let mut bundle = site::app_build();
    let wrapped = format!("{}\n;globalThis.__ssr.render = ({wrapper})(globalThis.__ssr.render);", bundle.server_js);
    bundle.server_js = Box::leak(wrapped.into_boxed_str());
    bundle
}

/// A build whose renders each take `ms` milliseconds of an engine first.
pub fn slow_bundle(ms: u64) -> server::AppBuild {
    bundle_wrapping_render(&format!(
        "(render) => (request) => {{ const until = Date.now() + {ms}; while (Date.now() < until) {{}} return render(request); }}"
    ))
}

/// A build whose pages say which render of their engine made them (see
/// [`render_number`]); with one render worker, every render of the site.
pub fn counting_bundle() -> server::AppBuild {
    bundle_wrapping_render(
        "(render) => { let renders = 0; return async (request) => { const output = await render(request); renders += 1; \
         output.head += `<meta name=\"render\" content=\"${renders}\">`; return output; }; }",
    )
}

/// Which render made a page of [`counting_bundle`].
pub fn render_number(html: &str) -> u64 {
    let start = html.find(r#"<meta name="render" content=""#).expect("a page of the counting bundle")
        + r#"<meta name="render" content=""#.len();
    html[start..start + html[start..].find('"').unwrap()].parse().unwrap()
}

/// How many pages the fast path answered, from `/healthz?detail`.
pub async fn fast_hits(app: &TestApp) -> u64 {
    let detail: serde_json::Value = app.get("/healthz?detail").await.json().await.unwrap();
    detail["pages"]["fastHits"].as_u64().expect("pages.fastHits")
}

/// The page data embedded in a server-rendered page.
pub fn embedded_page_data(html: &str) -> serde_json::Value {
    let start = html.find(r#"<script type="application/json" id="page-data">"#).expect("page data script")
        + r#"<script type="application/json" id="page-data">"#.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).expect("page data is JSON")
}

/// `<script>` elements that a browser would execute from inline text: any
/// that is neither a data block (`application/json`, `application/ld+json`)
/// nor loaded by `src`.
pub fn executable_inline_scripts(html: &str) -> usize {
    html.split("<script")
        .skip(1)
        .filter(|tag| {
            let open = &tag[..tag.find('>').unwrap_or(tag.len())];
            !(open.contains(r#"type="application/json""#)
                || open.contains(r#"type="application/ld+json""#)
                || open.contains(" src="))
        })
        .count()
}

/// A tool a test needs from the machine (`redis-server`, `redis-cli`) is
/// missing: with `REQUIRE_REDIS` set (as `.ci/run` does) the test fails, so
/// CI cannot pass without having run it; otherwise it is skipped with a
/// notice, so a developer without Redis can still run the rest.
pub fn missing_tool(tool: &str) {
    if std::env::var_os("REQUIRE_REDIS").is_some_and(|value| !value.is_empty() && value != "0") {
        panic!("{tool} is not installed and REQUIRE_REDIS is set (apt-get install redis-server)");
    }
    eprintln!("NOTICE: {tool} is not installed; Redis test skipped (apt-get install redis-server)");
}

/// A real `redis-server` on a random loopback port, stopped when dropped;
/// `None` where the binary is missing and the test may be skipped
/// ([`missing_tool`]).
pub struct RedisServer {
    pub port: u16,
    child: Option<std::process::Child>,
    _dir: tempfile::TempDir,
}

impl RedisServer {
    pub async fn start() -> Option<RedisServer> {
        if std::process::Command::new("redis-server").arg("--version").output().is_err() {
            missing_tool("redis-server");
            return None;
        }
        let port = free_port();
        let mut server = RedisServer { port, child: None, _dir: tempfile::tempdir().unwrap() };
        server.resume().await;
        Some(server)
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }

    /// Starts it (again, empty) on its port and waits until it answers.
    pub async fn resume(&mut self) {
        let child = std::process::Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(self._dir.path())
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("redis-server starts");
        self.child = Some(child);
        // The connection's error, while there is one.
        let refused =
            async || tokio::net::TcpStream::connect(("127.0.0.1", self.port)).await.err().map(|e| e.to_string());
        eventually("redis-server answers", refused, Option::is_none).await;
    }

    /// Kills it: connections drop, new ones are refused.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A key for `SESSION_KEY` that several instances share.
pub fn shared_session_key() -> server::config::Secret {
    "c2hhcmVkLXNlc3Npb24ta2V5LWZvci10ZXN0cy1vbmx5LTY0LWJ5dGVzLW9yLW1vcmUtc28tdGhpcy1pcy1sb25nLWVub3VnaA=="
        .parse()
        .unwrap()
}

/// `html` with the browser session's form tokens masked as `TOKEN`: a
/// browser without the `csrf` cookie gets a new token with each page
/// rendered for it.
pub fn masking_csrf(html: &str) -> String {
    let mut masked = html.to_owned();
    for marker in [r#"name="csrf" value=""#, r#""csrf":""#] {
        let mut from = 0;
        while let Some(at) = masked[from..].find(marker) {
            let start = from + at + marker.len();
            let end = start + masked[start..].find('"').expect("a closing quote");
            masked.replace_range(start..end, "TOKEN");
            from = start + "TOKEN".len();
        }
    }
    masked
}

/// `html` without its form tokens, fields and page data member: a page for
/// everyone carries one only in a signed-in visitor's account control.
pub fn without_csrf(html: &str) -> String {
    masking_csrf(html)
        .replace(r#"<input type="hidden" name="csrf" value="TOKEN"/>"#, "")
        .replace(r#","csrf":"TOKEN""#, "")
}
