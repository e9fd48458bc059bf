//! The `site` package: the built app and default content embedded by
//! `build.rs`, and the sandbox operator API, handed to the `server` library
//! by the thin `main` (and by the integration tests, the same way).

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}

/// Everything `build.rs` embedded in the binary.
pub fn app_build() -> server::AppBuild {
    server::AppBuild {
        server_js: embedded::SERVER_JS,
        assets_json: embedded::ASSETS_JSON,
        routes_json: embedded::ROUTES_JSON,
        strings_json: embedded::STRINGS_JSON,
        public_files: embedded::PUBLIC_FILES,
        content_files: embedded::CONTENT_FILES,
    }
}

/// The sandbox (the `sandbox` crate), mounted at `/sandbox` when
/// `DIGITAL_API_URL` is unset: the operator API at `/sandbox/digital/`, its
/// inbox and switches beside it.
pub fn sandbox() -> server::StandIn {
    server::StandIn { path: SANDBOX_PATH, api: "/digital/", open: open_sandbox }
}

const SANDBOX_PATH: &str = "/sandbox";

/// Opens `DATA_DIR/sandbox.sqlite3`; a damaged one stops the start.
fn open_sandbox(config: &server::Config) -> Result<axum::Router, server::StartError> {
    let options = sandbox::SandboxOptions {
        log_codes: !config.production,
        resend_after: config.sessions.otp_resend,
        ..Default::default()
    };
    let sandbox =
        sandbox::Sandbox::open(&config.data_dir, options).map_err(|error| server::StartError::StandIn(error.into()))?;
    tracing::warn!(
        "the sandbox operator API is on at {SANDBOX_PATH}: made-up subscribers, and every code readable at {SANDBOX_PATH}/inbox; set DIGITAL_API_URL for the operator's own"
    );
    Ok(sandbox::router(sandbox))
}
