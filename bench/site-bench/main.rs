//! `site-bench`: what `make bench` measures with the site's own code rather
//! than over HTTP (bench/README.md): a server bundle's renders in the
//! site's engine, what a signed-in view costs to compress, and the site
//! serving its account pages whole, the baseline of `bench/account.sh`.
//! None of it is in the `site` binary:
//! `cargo build --release --example site-bench` builds it.
//!
//! - `render`: render times, a page's pieces against its whole render;
//! - `splice`: a signed-in view's compression, spliced against whole;
//! - `search`: the site search's query time with many pages indexed.

mod render;
mod search;
mod splice;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "site-bench", about = "The site's benchmark tools (bench/README.md)")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
#[allow(clippy::large_enum_variant, reason = "parsed once, at start")]
enum Command {
    /// Time renders of a server bundle in the site's JS engine: one line per page (url, kind, p50 and mean ms).
    Render {
        /// The requests, as `bench/render-node.mjs --save` writes them: `[{url, data}, ...]`.
        requests: PathBuf,
        /// A bundle defining `globalThis.__ssr.render` (default: the app's, built into this binary).
        #[arg(long)]
        bundle: Option<PathBuf>,
        /// Timed renders per page, after a warm-up.
        #[arg(long, default_value_t = 100)]
        runs: usize,
        /// Time instead what a signed-in view of each page for everyone costs to compress: its pieces spliced against the whole page compressed again.
        #[arg(long)]
        splice: bool,
        /// Time instead, for each signed-in account page, its whole render against its personal part rendered alone (what a view renders).
        #[arg(long)]
        part: bool,
    },
    /// Index PAGES pages made of the embedded content's words and time the search's evaluation set against them, and stray words its last resort answers: build time, index bytes, query p50 and p99.
    Search {
        /// Pages indexed, half in each language.
        #[arg(long, default_value_t = 20_000)]
        pages: usize,
        /// Times each query of the evaluation set is asked.
        #[arg(long, default_value_t = 20)]
        runs: usize,
    },
    /// Serve the site as `site` does, but render the account and CPM pages whole for each view of a subscriber (CPM session), as before they were cached for everyone but their part: bench/account.sh's baseline.
    ServeWhole {
        #[command(flatten)]
        config: server::Config,
    },
}

#[tokio::main]
async fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Render { requests, bundle, runs, splice, part } => {
            let timed = match (splice, part) {
                (true, _) => render::Timed::Splice,
                (false, true) => render::Timed::Part,
                (false, false) => render::Timed::Renders,
            };
            printed(render::bench(&requests, bundle.as_deref(), runs, timed).await)
        }
        Command::Search { pages, runs } => printed(search::bench(Path::new(env!("CARGO_MANIFEST_DIR")), pages, runs)),
        Command::ServeWhole { mut config } => {
            server::telemetry::init(&config);
            config.pages.account_full_render = true;
            server::serve(config, site::app_build(), Some(site::sandbox())).await
        }
    }
}

/// A bench's report on standard output, or its error on standard error.
fn printed(report: Result<String, impl std::fmt::Display>) -> ExitCode {
    match report {
        Ok(report) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("site-bench: {error}");
            ExitCode::FAILURE
        }
    }
}
