//! What the configuration turns into before the state is put together: the
//! content source (Strapi or the embedded content), the drafts' source for
//! the preview, the content cache and its disk, the image endpoint and its
//! signer, the rendered pages' disk, the operator client's settings, the sessions' lifetimes, and the
//! check that `DATA_DIR` takes writes.

use std::sync::Arc;

use crate::app_build::AppBuild;
use crate::config::Config;
use crate::error::StartError;
use crate::pages::disk::PageDisk;
use crate::{account, content, images};

/// The content cache's settings (freshness from `content`, the time limit
/// of a CMS request from `cms`), with the disk for the CMS's last good
/// answers when there is a CMS and `CONTENT_DISK_CACHE_MB` is not 0.
pub(crate) fn content_cache(config: &Config) -> Result<content::CacheSettings, StartError> {
    let mut settings = content::CacheSettings {
        fresh: config.content.ttl,
        locations_fresh: config.content.locations_ttl,
        stale_if_error: config.content.stale_if_error,
        timeout: config.cms.timeout,
        bytes: config.content.cache_bytes,
        disk: None,
    };
    if config.cms.url.is_some() && config.content.disk_cache_bytes > 0 {
        let disk = content::DiskCache::open(&config.data_dir, config.content.disk_cache_bytes)
            .map_err(|source| StartError::Disk { what: "content disk cache", dir: config.data_dir.clone(), source })?;
        settings.disk = Some(disk);
    }
    Ok(settings)
}

/// The rendered pages' disk in `DATA_DIR/page-cache/` (`PAGE_DISK_CACHE_MB`),
/// in a directory of this build's: pages another build rendered (another
/// app, another public address, image addresses signed with another key)
/// are never served.
pub(crate) fn page_disk(
    config: &Config,
    app: AppBuild,
    key: &axum_extra::extract::cookie::Key,
) -> Result<Option<PageDisk>, StartError> {
    if config.pages.disk_cache_bytes == 0 {
        return Ok(None);
    }
    use sha2::Digest;
    let mut build = sha2::Sha256::new();
    for part in [app.server_js, app.assets_json, app.routes_json, app.strings_json] {
        build.update(part.as_bytes());
    }
    build.update(config.site_url.as_str().as_bytes());
    build.update(config.cms.media_base().map(|base| base.to_string()).unwrap_or_default().as_bytes());
    build.update(sha2::Sha256::digest(key.master()));
    let build: String = build.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect();
    PageDisk::open(&config.data_dir, &build, config.pages.disk_cache_bytes)
        .map(Some)
        .map_err(|source| StartError::Disk { what: "page disk cache", dir: config.data_dir.clone(), source })
}

/// Signs the image endpoint's addresses of the CMS's media, with a key
/// derived from the session key; `None` without a CMS (the embedded
/// content's pictures are SVG, served as they are).
pub(crate) fn image_signer(config: &Config, key: &axum_extra::extract::cookie::Key) -> Option<images::Signer> {
    config.cms.media_base().map(|base| images::Signer::new(key.master(), base.as_str()))
}

/// The image endpoint, its disk in `DATA_DIR/image-cache/` (`IMAGE_CACHE_MB`).
pub(crate) fn images(config: &Config, key: &axum_extra::extract::cookie::Key) -> Result<images::Images, StartError> {
    let disk = if config.images.cache_bytes > 0 {
        let disk = images::ImageDisk::open(&config.data_dir, config.images.cache_bytes)
            .map_err(|source| StartError::Disk { what: "image disk cache", dir: config.data_dir.clone(), source })?;
        Some(disk)
    } else {
        None
    };
    let settings = images::Settings {
        signer: image_signer(config, key),
        disk,
        encodes: config
            .images
            .encodes
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get() / 2))
            .max(1),
        max_pixels: config.images.max_pixels,
        timeout: config.images.timeout,
    };
    images::Images::new(settings).map_err(|source| StartError::HttpClient { what: "image endpoint", source })
}

/// How the operator API is called (`DIGITAL_API_…`).
pub(crate) fn operator_settings(config: &Config) -> account::operator::OperatorSettings {
    let operator = &config.operator;
    account::operator::OperatorSettings {
        timeout: operator.timeout,
        max_requests: operator.max_requests,
        breaker: account::breaker::BreakerSettings {
            failures: operator.breaker_failures.max(1),
            cooldown: operator.breaker_cooldown,
        },
    }
}

/// How long a session lives (`SESSION_IDLE_SECS`, `SESSION_ABSOLUTE_SECS`).
pub(crate) fn session_lifetimes(config: &Config) -> account::session_store::Lifetimes {
    account::session_store::Lifetimes { idle: config.sessions.idle, absolute: config.sessions.absolute }
}

/// `DATA_DIR` exists (it is created) and takes writes; if not, the error
/// names the directory and what to do, rather than "Permission denied".
/// Instances sharing one `DATA_DIR` start together, so each probes with a
/// file of its own: with one shared name, one instance's remove could find
/// the file already removed by another and refuse to start.
pub(crate) fn writable_data_dir(dir: &std::path::Path) -> Result<(), StartError> {
    static PROBES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let probe_number = PROBES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let probe = dir.join(format!(".write-probe-{}-{probe_number}", std::process::id()));
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&probe, b""))
        .and_then(|()| std::fs::remove_file(&probe))
        .map_err(|source| StartError::DataDir { dir: dir.to_owned(), source })
}

/// The Strapi client when `CMS_URL` is set, else the embedded content.
pub(crate) fn content_source(
    config: &Config,
    build: AppBuild,
    images: Option<images::Signer>,
) -> Result<Arc<dyn content::ContentSource>, StartError> {
    let normalizer = normalizer(config, images);
    Ok(match strapi_settings(config) {
        Some(settings) => {
            tracing::info!(base_url = %settings.base_url, populate = ?config.cms.populate, "content from the CMS");
            Arc::new(content::StrapiClient::new(settings, normalizer)?)
        }
        None => Arc::new(content::EmbeddedContent::new(build.content_files, &normalizer)?),
    })
}

/// A Strapi client of its own reading drafts, for the preview: with
/// `PREVIEW_SECRET` and `CMS_URL` only.
pub(crate) fn drafts_source(
    config: &Config,
    images: Option<images::Signer>,
) -> Result<Option<Arc<dyn content::ContentSource>>, StartError> {
    let Some(settings) = strapi_settings(config).filter(|_| config.cms.preview_secret.is_some()) else {
        return Ok(None);
    };
    let settings = content::StrapiSettings { draft: true, ..settings };
    Ok(Some(Arc::new(content::StrapiClient::new(settings, normalizer(config, images))?)))
}

fn normalizer(config: &Config, images: Option<images::Signer>) -> content::Normalizer {
    content::Normalizer {
        media_base: config.cms.media_base().map(ToString::to_string),
        images,
        file_hosts: config.cms.file_hosts.iter().map(ToString::to_string).collect(),
        site_url: config.site_url.to_string(),
    }
}

/// How the CMS at `CMS_URL` is read, if one is set.
fn strapi_settings(config: &Config) -> Option<content::StrapiSettings> {
    Some(content::StrapiSettings {
        base_url: config.cms.url.as_ref()?.to_string(),
        token: config.cms.token.as_ref().map(|t| t.expose().to_owned()),
        populate: config.cms.populate,
        timeout: config.cms.timeout,
        max_requests: config.cms.max_requests,
        draft: false,
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use clap::Parser;

    use super::{content_cache, writable_data_dir};
    use crate::config::Config;

    #[test]
    fn the_locations_have_a_lifetime_of_their_own() {
        // With no CMS: the disk for its answers is not opened.
        let settings = content_cache(&Config::parse_from(["site", "--content-ttl-secs", "5"])).unwrap();
        assert_eq!(
            settings.fresh_for(&crate::content::ContentQuery::Locations),
            Duration::from_secs(3600),
            "the locations' own lifetime"
        );
    }

    /// Several instances given one `DATA_DIR` start at once (`make
    /// test-scale` starts three): none may refuse to start because another's
    /// probe came and went under it.
    #[test]
    fn instances_starting_together_on_one_data_dir_all_find_it_writable() {
        let dir = std::env::temp_dir().join(format!("site-probe-{}", std::process::id()));
        let starts: Vec<_> = (0..8)
            .map(|_| {
                let dir = dir.clone();
                std::thread::spawn(move || (0..200).map(|_| writable_data_dir(&dir)).find(Result::is_err))
            })
            .collect();
        let refusals: Vec<_> = starts.into_iter().filter_map(|start| start.join().unwrap()).collect();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(refusals.is_empty(), "{refusals:?}");
    }
}
