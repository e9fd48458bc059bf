//! The `site` binary: its command line, handed to the `server` library with
//! what `build.rs` embedded (`site::app_build()`) and the sandbox.

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
}

#[tokio::main]
async fn main() -> ExitCode {
    let Cli { command, config } = Cli::parse();
    server::telemetry::init(&config);
    match command {
        None => server::serve(config, site::app_build(), Some(site::sandbox())).await,
        Some(Tool::ContentModel) => server::content_model(site::app_build()),
        Some(Tool::CheckCms) => server::check_cms(&config, site::app_build()).await,
    }
}
