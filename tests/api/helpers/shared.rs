//! One site that the tests of what every visitor sees share: the site with
//! its embedded content and the sandbox, as `spawn_app` starts it, but
//! pre-rendering at start as the binary does, started once for the whole
//! test binary. A test that reads pages, data, assets and the search of the
//! default site, and neither changes the site's state (no sandbox switch,
//! no sign-in, no webhook) nor counts what the server did (renders, cache
//! hits, requests to the CMS), asks for it with [`shared_app`] instead of
//! starting a site of its own: the crawls and searches of the whole site
//! then render each page once in all, not once per test, and the
//! pre-render pass that builds the search index runs once.

use std::path::PathBuf;
use std::time::Duration;

use tokio::sync::{OnceCell, oneshot};

use super::{TestApp, client, searchable, start};

/// The shared site's address, once it answers.
static ADDRESS: OnceCell<String> = OnceCell::const_new();

/// The shared site, started by the first test that asks (the others wait
/// for it to answer), with a client of the test's own: a client's pooled
/// connections belong to the runtime that opened them, which ends with its
/// test. It is never stopped; the process's end stops it.
pub async fn shared_app() -> TestApp {
    let address = ADDRESS
        .get_or_init(|| async {
            let (started, address) = oneshot::channel();
            std::thread::Builder::new().name("shared-site".into()).spawn(move || run(started)).unwrap();
            address.await.expect("the shared site starts")
        })
        .await;
    TestApp { address: address.clone(), client: client(), shutdown: None, _data_dir: None }
}

/// Runs the shared site on a runtime of its own, on a thread of its own
/// that holds it until the process ends; its address goes to `started`.
/// Each `#[tokio::test]` has a runtime of its own that ends with the test,
/// and with it every task it spawned: a server started there would stop
/// when the first test using it ends.
fn run(started: oneshot::Sender<String>) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("shared-site")
        .enable_all()
        .build()
        .expect("the shared site's runtime");
    runtime.block_on(async {
        let app = start(site::app_build(), &data_dir(), shared_settings).await;
        let _ = started.send(app.address.clone());
        // The app's drop would stop the server: held as long as the process runs.
        std::future::pending::<()>().await;
        drop(app);
    });
}

/// The test server's settings ([`super::test_config`]) but for what many
/// tests at once need. Pre-rendering as the binary does, so that the
/// crawls find the pages rendered, and the search's ([`searchable`]). Two engines, and
/// the limits of one client address raised to them with a long wait: every
/// test comes from 127.0.0.1, and the share and queue wait of one address
/// would refuse one test's renders for another's.
fn shared_settings(config: &mut server::Config) {
    searchable(config);
    config.pages.render_workers = Some(2);
    config.pages.renders_per_address = Some(2);
    config.pages.render_queue_per_address = 256;
    config.pages.render_queue_timeout = Duration::from_secs(60);
}

/// The shared site's `DATA_DIR`: a folder of this process under the tests'
/// own temporary folder (`target/tmp`, which `cargo clean` removes), since
/// the site is never dropped to remove it; the folders of earlier runs,
/// whose processes have ended, are removed first.
fn data_dir() -> PathBuf {
    let parent = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    const PREFIX: &str = "shared-site-";
    for entry in std::fs::read_dir(&parent).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let ended = name
            .strip_prefix(PREFIX)
            .and_then(|pid| pid.parse::<u32>().ok())
            .is_some_and(|pid| !PathBuf::from(format!("/proc/{pid}")).exists());
        if ended {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    let dir = parent.join(format!("{PREFIX}{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the shared site's DATA_DIR");
    dir
}
