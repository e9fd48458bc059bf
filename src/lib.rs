//! The `site` package: the built app and default content embedded by
//! `build.rs`, handed to the `server` library by the thin `main`.

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}

/// Everything `build.rs` embedded in the binary.
pub fn bundle() -> server::AppBundle {
    server::AppBundle {
        server_js: embedded::SERVER_JS,
        assets_json: embedded::ASSETS_JSON,
        routes_json: embedded::ROUTES_JSON,
        public_files: embedded::PUBLIC_FILES,
        content_files: embedded::CONTENT_FILES,
    }
}
