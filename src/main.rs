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
