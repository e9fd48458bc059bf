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
async fn main() -> std::process::ExitCode {
    let Cli { command, config } = Cli::parse();
    server::telemetry::init(&config);
    match command {
        None => serve(config).await,
        Some(Tool::ContentModel) => match server::content_model(site::bundle()) {
            Ok(model) => {
                println!("{model:#}");
                std::process::ExitCode::SUCCESS
            }
            Err(error) => fail(&error),
        },
        Some(Tool::CheckCms) => match server::check_cms(&config, site::bundle()).await {
            Ok(report) => {
                print!("{}", report.text);
                if report.complete { std::process::ExitCode::SUCCESS } else { std::process::ExitCode::FAILURE }
            }
            Err(error) => fail(&error),
        },
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
                    std::process::ExitCode::SUCCESS
                }
                Err(error) => fail(&error),
            }
        }
    }
}

async fn serve(config: server::Config) -> std::process::ExitCode {
    let listener = match tokio::net::TcpListener::bind((config.host.as_str(), config.port)).await {
        Ok(listener) => listener,
        Err(error) => {
            tracing::error!(host = %config.host, port = config.port, %error, "cannot listen");
            return std::process::ExitCode::FAILURE;
        }
    };
    match server::run(listener, config, site::bundle(), Some(site::sandbox()), server::shutdown_signal()).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => fail(&error),
    }
}

/// Logs why, and says it on stderr too: logs go to stdout, and a start that
/// fails should tell whoever started it.
fn fail(error: &server::AppError) -> std::process::ExitCode {
    tracing::error!(%error, "stopped");
    eprintln!("site: {error}");
    std::process::ExitCode::FAILURE
}
