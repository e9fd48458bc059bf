use clap::Parser;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let config = server::Config::parse();
    server::telemetry::init(&config);
    let listener = match tokio::net::TcpListener::bind((config.host.as_str(), config.port)).await {
        Ok(listener) => listener,
        Err(error) => {
            tracing::error!(host = %config.host, port = config.port, %error, "cannot listen");
            return std::process::ExitCode::FAILURE;
        }
    };
    match server::run(listener, config, site::bundle(), server::shutdown_signal()).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "server stopped");
            std::process::ExitCode::FAILURE
        }
    }
}
