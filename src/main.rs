use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The site, or one of its tools for operators.
#[derive(Parser)]
#[command(name = "site", about = "The operator's public website and self-service area")]
struct Cli {
    #[command(subcommand)]
    command: Option<Tool>,
    #[command(flatten)]
    config: server::Config,
}

#[derive(Subcommand)]
enum Tool {
    /// Print the content model (content types, components, fields) a CMS must hold, as JSON.
    ContentModel,
    /// Check the CMS at CMS_URL (with CMS_TOKEN) against the content model; exits 1 when it lacks anything.
    CheckCms,
    /// Time renders of a server bundle in the site's JS engine: one line per page (url, kind, p50 and mean ms).
    RenderBench {
        /// The requests, as `bench/render-node.mjs --save` writes them: `[{url, data}, ...]`.
        requests: std::path::PathBuf,
        /// A bundle defining `globalThis.__ssr.render` (default: the app's, built into this binary).
        #[arg(long)]
        bundle: Option<std::path::PathBuf>,
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
}

#[tokio::main]
async fn main() -> ExitCode {
    let Cli { command, config } = Cli::parse();
    server::telemetry::init(&config);
    match command {
        None => server::serve(config, site::bundle(), Some(site::sandbox())).await,
        Some(Tool::ContentModel) => server::content_model(site::bundle()),
        Some(Tool::CheckCms) => server::check_cms(&config, site::bundle()).await,
        Some(Tool::RenderBench { requests, bundle, runs, splice, part }) => {
            let read = |path: &std::path::Path| {
                std::fs::read_to_string(path).map_err(|e| server::AppError::ToolInput { what: path.display().to_string(), source: e.into() })
            };
            let site = site::bundle();
            let result = async {
                let requests = read(&requests)?;
                let bundle = match bundle {
                    Some(path) => read(&path)?,
                    None => site.server_js.to_owned(),
                };
                server::render_bench(&bundle, &requests, site.assets_json, runs, splice, part).await
            };
            match result.await {
                Ok(report) => {
                    print!("{report}");
                    ExitCode::SUCCESS
                }
                Err(error) => error.exit(),
            }
        }
    }
}
