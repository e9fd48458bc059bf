//! The image endpoint: `GET /img/<width>/<token>/<path>` answers a photo of
//! the CMS's media at one of a fixed set of widths, in WebP when the
//! browser's `Accept` takes it, else in the original's type (addresses:
//! [`address`]). What the browser says of its screen and network (pages ask
//! for the hints with `Accept-CH`, [`ACCEPT_CH`]) chooses how finely:
//!
//! - `Sec-CH-DPR` of 1.5 or more (a phone's screen): encoded at a lower
//!   quality ([`Quality::Dense`]), which looks as good on such a screen for
//!   about four fifths of the bytes;
//! - `ECT: 3g`: the same; `ECT: 2g` or `slow-2g`, or `Save-Data: on`: the
//!   next smaller width at that quality;
//! - no hint (browsers other than Chromium's): the width asked, standard
//!   quality.
//!
//! An animated GIF is answered as its first frame, a still: the page links
//! to the animation ([`address`] says which uploads are made).
//!
//! - Originals come only from `CMS_MEDIA_URL` (the address's path below it,
//!   signed by the site): no open proxy.
//! - Answers are immutable (`max-age` a year): a replaced file has new
//!   addresses, so a CDN in front keeps them for every instance; `Vary:
//!   Accept, Save-Data, Sec-CH-DPR, ECT`.
//! - Each result is kept on disk ([`disk`], bounded); a burst of first
//!   requests for one makes one encode ([`SingleFlight`]).
//! - One decode serves every width and format: the original is fetched and
//!   decoded once into its master ([`master`]: at reduced scale for a JPEG,
//!   at most 1920 pixels wide), kept in memory within `MASTERS_BYTES` until
//!   a minute after its last use, so the widths a page's `srcset` brings
//!   from its first visitors decode once; each width is resized from it
//!   ([`transform`]). Decodes and encodes run on the blocking pool,
//!   `IMAGE_ENCODES` at once, each photo within `IMAGE_TIMEOUT_MS` with
//!   fetching; a decode is bounded by `IMAGE_MAX_PIXELS` (the pixels it
//!   decodes).
//! - A photo that cannot be fetched or processed, a refused bomb included,
//!   is answered with a redirect to the CMS's own smaller file (Strapi's
//!   nearest `formats` entry), kept for a few minutes and logged once:
//!   never a broken image or a 5xx. Without any `formats` entry a failure
//!   sends the original, a refused photo is 422 and a missing one 404.

pub mod address;
mod disk;
mod master;
mod transform;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{FromRef, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

pub use address::Signer;
use address::{Token, WIDTHS};
pub use disk::ImageDisk;
use master::{Master, Undecoded};
use transform::{Quality, Want};

use crate::infra::single_flight::SingleFlight;

/// Largest original fetched from the CMS.
const MAX_ORIGINAL_BYTES: usize = 40 << 20;
/// How long a failure is remembered: its fallback answered without fetching again.
const FAILURE_KEPT: Duration = Duration::from_secs(300);
/// Memory for masters: a few photos at 1920 pixels wide (a 4:3 one is 8 MB).
const MASTERS_BYTES: u64 = 64 << 20;
/// How long a master is kept after it was last used: a page's photos are
/// asked at every width by its first visitors within seconds of each other.
const MASTER_KEPT: Duration = Duration::from_secs(60);
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// A fallback may be replaced by the real answer once the CMS's file is fixed.
const FALLBACK_CACHE: &str = "public, max-age=300";
const VARY: &str = "Accept, Save-Data, Sec-CH-DPR, ECT";
/// What pages ask browsers to send with their photos' requests.
pub const ACCEPT_CH: &str = "Sec-CH-DPR, ECT";
/// Device pixels per CSS pixel from which a photo is encoded [`Quality::Dense`].
const DENSE_DPR: f32 = 1.5;

pub struct Settings {
    pub signer: Option<Signer>,
    pub disk: Option<ImageDisk>,
    pub encodes: usize,
    pub max_pixels: u64,
    pub timeout: Duration,
}

/// The endpoint's state: one per process.
#[derive(Clone)]
pub struct Images(Arc<Inner>);

struct Inner {
    settings: Settings,
    client: reqwest::Client,
    encodes: Arc<tokio::sync::Semaphore>,
    flights: SingleFlight<String, Bytes, Failure>,
    masters: moka::sync::Cache<String, Arc<Master>>,
    master_flights: SingleFlight<String, Arc<Master>, Failure>,
    /// By photo (version and path), not by width: the original failed.
    failures: moka::sync::Cache<String, Failure>,
    /// Masters made since start: originals decoded.
    decoded: AtomicU64,
}

#[derive(Debug, Clone)]
enum Failure {
    /// The CMS has no such file.
    Missing,
    /// More pixels than allowed: not decoded, nor the original sent on.
    Refused(String),
    /// Anything else: the CMS's original is sent when it has no smaller file.
    Failed(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Missing => f.write_str("the CMS has no such file"),
            Failure::Refused(why) => write!(f, "refused: {why}"),
            Failure::Failed(why) => f.write_str(why),
        }
    }
}

impl From<tokio::task::JoinError> for Failure {
    fn from(error: tokio::task::JoinError) -> Failure {
        Failure::Failed(format!("the encode ended: {error}"))
    }
}

impl Images {
    pub fn new(settings: Settings) -> Result<Images, reqwest::Error> {
        let client = reqwest::Client::builder().timeout(settings.timeout).build()?;
        let encodes = Arc::new(tokio::sync::Semaphore::new(settings.encodes.max(1)));
        let failures = moka::sync::Cache::builder().max_capacity(10_000).time_to_live(FAILURE_KEPT).build();
        let masters = moka::sync::Cache::builder()
            .max_capacity(MASTERS_BYTES)
            .weigher(|_, master: &Arc<Master>| u32::try_from(master.bytes()).unwrap_or(u32::MAX))
            .time_to_idle(MASTER_KEPT)
            .build();
        Ok(Images(Arc::new(Inner {
            settings,
            client,
            encodes,
            flights: SingleFlight::default(),
            masters,
            master_flights: SingleFlight::default(),
            failures,
            decoded: AtomicU64::new(0),
        })))
    }

    /// Originals decoded since start (`/healthz?detail`).
    pub fn decoded(&self) -> u64 {
        self.0.decoded.load(Ordering::Relaxed)
    }

    /// Sets the gauges of what the disk holds (`/metrics`).
    pub fn record_held(&self) {
        if let Some(disk) = &self.0.settings.disk {
            let (bytes, files) = disk.held();
            crate::infra::cache_metrics::held("image_disk", bytes, files);
        }
    }

    /// What content needs to name photos through the endpoint (`None` without a CMS).
    pub fn signer(&self) -> Option<&Signer> {
        self.0.settings.signer.as_ref()
    }
}

pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Images: FromRef<S>,
{
    Router::new().route("/img/{width}/{token}/{*path}", get(image))
}

async fn image(
    State(images): State<Images>,
    Path((width, token, path)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> Response {
    let Some(signer) = images.signer() else { return StatusCode::NOT_FOUND.into_response() };
    let Some(width) = width.parse::<u32>().ok().filter(|w| WIDTHS.contains(w)) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let Some(token) = signer.verify(&token, &path) else { return StatusCode::NOT_FOUND.into_response() };
    let (smaller, quality) = fineness(&headers);
    let width = if smaller { WIDTHS.iter().rev().copied().find(|w| *w < width).unwrap_or(width) } else { width };
    let want = if accepts_webp(&headers) { Want::Webp } else { Want::Original };
    let photo = Photo { key: format!("{}/{path}", token.version), original: signer.original_url(&path) };
    match images.variant(photo, width, want, quality).await {
        Ok(bytes) => found(bytes),
        Err(failure) => fallback(signer, &token, &path, width, &failure),
    }
}

/// One original, by its version and path.
#[derive(Clone)]
struct Photo {
    key: String,
    original: String,
}

impl Images {
    /// `photo` at `width` in the format and quality wanted: from disk, or made once for every waiter.
    async fn variant(&self, photo: Photo, width: u32, want: Want, quality: Quality) -> Result<Bytes, Failure> {
        let key = format!("{}/{width}/{}/{}", photo.key, want.name(), quality.name());
        if let Some(disk) = self.0.settings.disk.clone() {
            let owned = key.clone();
            if let Ok(Some(bytes)) = tokio::task::spawn_blocking(move || disk.read(&owned)).await {
                return Ok(Bytes::from(bytes));
            }
        }
        if let Some(failure) = self.0.failures.get(&photo.key) {
            return Err(failure);
        }
        let images = self.clone();
        let failed = photo.key.clone();
        let result = self
            .0
            .flights
            .run(key.clone(), move || async move { images.make(key, photo, width, want, quality).await })
            .await;
        if let Err(failure) = &result
            && !self.0.failures.contains_key(&failed)
        {
            self.0.failures.insert(failed.clone(), failure.clone());
            tracing::warn!(photo = failed, %failure, "photo not resized (remembered for 5 minutes)");
        }
        result
    }

    async fn make(self, key: String, photo: Photo, width: u32, want: Want, quality: Quality) -> Result<Bytes, Failure> {
        let work = async {
            let master = self.master(photo).await?;
            let permit = self.0.encodes.clone().acquire_owned().await.map_err(|e| Failure::Failed(e.to_string()))?;
            Ok::<_, Failure>(
                tokio::task::spawn_blocking(move || {
                    // Held until the encode ends, even past the time limit: the bound holds.
                    let _permit = permit;
                    transform::transform(&master, width, want, quality)
                })
                .await?,
            )
        };
        let settings = &self.0.settings;
        let encoded = tokio::time::timeout(settings.timeout, work)
            .await
            .map_err(|_| Failure::Failed("past IMAGE_TIMEOUT_MS".into()))??;
        let bytes = Bytes::from(encoded);
        if let Some(disk) = &settings.disk {
            disk.keep(&key, bytes.clone());
        }
        Ok(bytes)
    }

    /// The photo's master: kept in memory, or fetched and decoded once for every waiter.
    async fn master(&self, photo: Photo) -> Result<Arc<Master>, Failure> {
        if let Some(master) = self.0.masters.get(&photo.key) {
            return Ok(master);
        }
        let images = self.clone();
        let key = photo.key.clone();
        self.0
            .master_flights
            .run(key, move || async move {
                // A flight that ended between the look-up above and this one kept its master.
                if let Some(master) = images.0.masters.get(&photo.key) {
                    return Ok(master);
                }
                let bytes = images.fetch(&photo.original).await?;
                let permit =
                    images.0.encodes.clone().acquire_owned().await.map_err(|e| Failure::Failed(e.to_string()))?;
                let max_pixels = images.0.settings.max_pixels;
                let decoded = tokio::task::spawn_blocking(move || {
                    let _permit = permit;
                    master::decode(&bytes, max_pixels)
                })
                .await?;
                let master = Arc::new(decoded.map_err(|refusal| match refusal {
                    Undecoded::TooLarge { .. } => Failure::Refused(refusal.to_string()),
                    Undecoded::Undecodable(_) => Failure::Failed(refusal.to_string()),
                })?);
                images.0.decoded.fetch_add(1, Ordering::Relaxed);
                images.0.masters.insert(photo.key, master.clone());
                Ok(master)
            })
            .await
    }

    async fn fetch(&self, url: &str) -> Result<Vec<u8>, Failure> {
        let response =
            self.0.client.get(url).send().await.map_err(|e| Failure::Failed(format!("fetching the original: {e}")))?;
        match response.status() {
            StatusCode::NOT_FOUND | StatusCode::GONE => return Err(Failure::Missing),
            status if !status.is_success() => return Err(Failure::Failed(format!("the CMS answered {status}"))),
            _ => {}
        }
        if response.content_length().is_some_and(|length| length > MAX_ORIGINAL_BYTES as u64) {
            return Err(Failure::Refused("the original is past 40 MiB".into()));
        }
        let mut response = response;
        let mut bytes = Vec::new();
        while let Some(chunk) =
            response.chunk().await.map_err(|e| Failure::Failed(format!("reading the original: {e}")))?
        {
            if bytes.len() + chunk.len() > MAX_ORIGINAL_BYTES {
                return Err(Failure::Refused("the original is past 40 MiB".into()));
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(bytes)
    }
}

fn found(bytes: Bytes) -> Response {
    let content_type = transform::sniff(&bytes).unwrap_or("application/octet-stream");
    let headers = [
        (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
        (header::CACHE_CONTROL, HeaderValue::from_static(IMMUTABLE)),
        (header::VARY, HeaderValue::from_static(VARY)),
    ];
    (headers, bytes).into_response()
}

/// Strapi's nearest smaller file whenever it has one; without, the original
/// for a failure, 422 for a refused photo, 404 for a missing one.
fn fallback(signer: &Signer, token: &Token, path: &str, width: u32, failure: &Failure) -> Response {
    let status = match failure {
        _ if !token.fallbacks.is_empty() => StatusCode::FOUND,
        Failure::Missing => StatusCode::NOT_FOUND,
        Failure::Refused(_) => StatusCode::UNPROCESSABLE_ENTITY,
        Failure::Failed(_) => StatusCode::FOUND,
    };
    let mut response = status.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(FALLBACK_CACHE));
    headers.insert(header::VARY, HeaderValue::from_static(VARY));
    if status == StatusCode::FOUND
        && let Ok(location) = HeaderValue::from_str(&signer.fallback_url(token, path, width))
    {
        headers.insert(header::LOCATION, location);
    }
    response
}

/// Whether to send the next smaller width, and at which quality, by the
/// browser's hints (see the module docs). A hint that does not parse counts
/// as absent.
fn fineness(headers: &HeaderMap) -> (bool, Quality) {
    let hint = |name: &str| {
        headers.get(name).and_then(|v| v.to_str().ok()).map(|v| v.trim().trim_matches('"').to_ascii_lowercase())
    };
    let save_data = hint("save-data").is_some_and(|v| v == "on");
    let ect = hint("ect");
    let slow = matches!(ect.as_deref(), Some("2g" | "slow-2g"));
    let dense =
        hint("sec-ch-dpr").and_then(|v| v.parse::<f32>().ok()).is_some_and(|dpr| dpr.is_finite() && dpr >= DENSE_DPR);
    let smaller = save_data || slow;
    let quality = if smaller || dense || ect.as_deref() == Some("3g") { Quality::Dense } else { Quality::Standard };
    (smaller, quality)
}

/// `Accept` names `image/webp` with a quality above 0.
fn accepts_webp(headers: &HeaderMap) -> bool {
    headers.get_all(header::ACCEPT).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(',')).any(|item| {
        let mut parts = item.split(';').map(str::trim);
        parts.next().is_some_and(|kind| kind.eq_ignore_ascii_case("image/webp"))
            && parts.all(|param| param.strip_prefix("q=").and_then(|q| q.parse::<f32>().ok()).is_none_or(|q| q > 0.0))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn a_dense_screen_or_a_slow_network_gets_a_lighter_photo() {
        let hints = |pairs: &[(&'static str, &'static str)]| {
            let mut headers = HeaderMap::new();
            for (name, value) in pairs {
                headers.insert(*name, HeaderValue::from_static(value));
            }
            fineness(&headers)
        };
        assert_eq!(hints(&[]), (false, Quality::Standard));
        assert_eq!(hints(&[("sec-ch-dpr", "1")]), (false, Quality::Standard));
        assert_eq!(hints(&[("sec-ch-dpr", "2"), ("ect", "4g")]), (false, Quality::Dense));
        assert_eq!(hints(&[("sec-ch-dpr", "2.625")]), (false, Quality::Dense));
        assert_eq!(hints(&[("ect", "3g")]), (false, Quality::Dense));
        assert_eq!(hints(&[("ect", "slow-2g")]), (true, Quality::Dense));
        assert_eq!(hints(&[("save-data", "on"), ("sec-ch-dpr", "1")]), (true, Quality::Dense));
        // Junk is no hint.
        assert_eq!(hints(&[("sec-ch-dpr", "NaN"), ("ect", "5g"), ("save-data", "yes")]), (false, Quality::Standard));
    }

    #[test]
    fn webp_is_sent_to_browsers_that_name_it() {
        assert!(accepts_webp(&accept("image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8")));
        assert!(!accepts_webp(&accept("image/png,image/*;q=0.8,*/*;q=0.5")));
        assert!(!accepts_webp(&accept("image/webp;q=0, image/jpeg")));
        assert!(!accepts_webp(&HeaderMap::new()));
    }
}
