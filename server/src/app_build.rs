//! [`AppBuild`]: what `build.rs` embeds, handed to the server by the
//! `site` binary (and by the tests, the same way).

/// What `build.rs` embeds in the binary: the app's compiled scripts and manifests, the
/// public files and the default content.
#[derive(Clone, Copy)]
pub struct AppBuild {
    pub server_js: &'static str,
    pub assets_json: &'static str,
    pub routes_json: &'static str,
    /// The app's strings by language (`app/src/i18n`), for the error page.
    pub strings_json: &'static str,
    /// Paths relative to the public root (`assets/…`, `static/…`), with `.br`/`.gz` twins.
    pub public_files: &'static [(&'static str, &'static [u8])],
    /// Paths relative to `content/`.
    pub content_files: &'static [(&'static str, &'static [u8])],
}
