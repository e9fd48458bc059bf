//! The image endpoint's addresses: `/img/<width>/<token>/<path>`, where
//! `<path>` is the photo's path below the CMS's media base and `<token>` is
//! `<version>.<fallbacks>.<signature>`:
//!
//! - `version`: from the upload's `hash` and `updatedAt`, so a file the CMS
//!   replaces gets new addresses (they are cached as immutable);
//! - `fallbacks`: the Strapi `formats` entries kept beside the original
//!   (`large_<file>`, …) by letter and width (`l1000m750s500t245`), what a
//!   photo that cannot be processed is answered with instead;
//! - `signature`: an HMAC of the rest under a key derived from the session
//!   key, so nobody can make the endpoint fetch or encode anything content
//!   did not name, nor vary the version to force new encodes.
//!
//! Widths come from one fixed set; `srcset` lists them for each photo.

use hmac::{Hmac, KeyInit, Mac};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// The widths the endpoint makes, each at most 1.5 times the one before, so
/// that a browser picking from `srcset` is never sent more than 1.5 times
/// the pixels it shows.
pub const WIDTHS: [u32; 9] = [160, 240, 320, 480, 640, 800, 1080, 1440, 1920];

/// Where the endpoint is mounted.
pub const PREFIX: &str = "/img";

/// Strapi's `formats` entries, by the prefix of their file names, with the
/// letter that names each in a token.
const FORMATS: [(&str, char); 4] = [("thumbnail", 't'), ("small", 's'), ("medium", 'm'), ("large", 'l')];

/// Media types the endpoint decodes (a GIF into a still of its first
/// frame); anything else (SVG, PDF) keeps the CMS's URL.
const RESIZABLE: [&str; 4] = ["image/jpeg", "image/png", "image/webp", "image/gif"];

/// Signs and checks addresses for the media under one base URL.
#[derive(Clone)]
pub struct Signer {
    key: [u8; 32],
    media_base: String,
}

impl std::fmt::Debug for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Signer").field("media_base", &self.media_base).finish_non_exhaustive()
    }
}

/// A checked token.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub version: String,
    /// Strapi's smaller files of the photo: file-name prefix and width, narrowest first.
    pub fallbacks: Vec<(&'static str, u32)>,
}

impl Signer {
    /// `secret` is the site's session key; the signing key is derived from
    /// it, so it is the same on every instance sharing `SESSION_KEY`.
    pub fn new(secret: &[u8], media_base: &str) -> Signer {
        let mut derive = Sha256::new();
        derive.update(b"site image addresses\0");
        derive.update(secret);
        Signer { key: derive.finalize().into(), media_base: media_base.trim_end_matches('/').to_owned() }
    }

    /// The `srcset` of an upload entity whose `url` is already absolute, or
    /// `None` when the endpoint does not make it (not a photo, not below
    /// the media base, a path it does not take).
    pub fn srcset(&self, media: &Map<String, Value>) -> Option<String> {
        let mime = media.get("mime")?.as_str()?;
        if !RESIZABLE.contains(&mime) {
            return None;
        }
        let path = media.get("url")?.as_str()?.strip_prefix(&self.media_base)?.strip_prefix('/')?;
        if !valid_path(path) {
            return None;
        }
        let version = version(media);
        let fallbacks = fallbacks(media, &self.media_base, path);
        let token = format!("{version}.{fallbacks}.{}", self.signature(&version, &fallbacks, path));
        let original =
            media.get("width").and_then(Value::as_u64).and_then(|w| u32::try_from(w).ok()).filter(|w| *w > 0);
        let mut candidates: Vec<String> = Vec::new();
        for width in WIDTHS {
            match original {
                Some(original) if width >= original => {
                    // The endpoint never enlarges: this width answers the original's.
                    candidates.push(format!("{PREFIX}/{width}/{token}/{path} {original}w"));
                    break;
                }
                _ => candidates.push(format!("{PREFIX}/{width}/{token}/{path} {width}w")),
            }
        }
        Some(candidates.join(", "))
    }

    /// The token's parts when its signature holds for `path`.
    pub fn verify(&self, token: &str, path: &str) -> Option<Token> {
        let mut parts = token.split('.');
        let (version, fallbacks, signature) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || !valid_path(path) {
            return None;
        }
        let expected = self.signature(version, fallbacks, path);
        // Both are base64 of a MAC: comparing them leaks nothing of the key.
        if !bool::from(subtle::ConstantTimeEq::ct_eq(expected.as_bytes(), signature.as_bytes())) {
            return None;
        }
        Some(Token { version: version.to_owned(), fallbacks: parse_fallbacks(fallbacks)? })
    }

    /// Where the CMS serves the original of `path`.
    pub fn original_url(&self, path: &str) -> String {
        format!("{}/{path}", self.media_base)
    }

    /// The CMS's own file to show instead at `width`: the narrowest of
    /// Strapi's formats at least that wide, else the widest, else the original.
    pub fn fallback_url(&self, token: &Token, path: &str, width: u32) -> String {
        let chosen = token.fallbacks.iter().find(|(_, w)| *w >= width).or(token.fallbacks.last());
        match chosen {
            Some((prefix, _)) => {
                let (dir, file) = path.rsplit_once('/').map_or(("", path), |(dir, file)| (dir, file));
                let dir = if dir.is_empty() { String::new() } else { format!("{dir}/") };
                format!("{}/{dir}{prefix}_{file}", self.media_base)
            }
            None => self.original_url(path),
        }
    }

    fn signature(&self, version: &str, fallbacks: &str, path: &str) -> String {
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.key).expect("HMAC takes any key length");
        mac.update(format!("{version}.{fallbacks}/{path}").as_bytes());
        let tag = mac.finalize().into_bytes();
        base64::Engine::encode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, &tag[..9])
    }
}

/// A path below the media base the endpoint takes: plain file-name
/// characters, no empty, `.` or `..` segment.
fn valid_path(path: &str) -> bool {
    !path.is_empty()
        && path.len() <= 512
        && path.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./~".contains(&b))
        && path.split('/').all(|segment| !segment.is_empty() && segment != "." && segment != "..")
}

/// Eight hex digits of the upload's `hash` and `updatedAt`, `0` without either.
fn version(media: &Map<String, Value>) -> String {
    let parts: Vec<&str> = ["hash", "updatedAt"].iter().filter_map(|k| media.get(*k).and_then(Value::as_str)).collect();
    if parts.is_empty() {
        return "0".into();
    }
    let digest = Sha256::digest(parts.join("\n").as_bytes());
    digest.iter().take(4).map(|b| format!("{b:02x}")).collect()
}

/// The `formats` entries stored beside the original as Strapi's upload
/// plugin names them (`<dir>/<format>_<file>`), as letters and widths.
fn fallbacks(media: &Map<String, Value>, media_base: &str, path: &str) -> String {
    let Some(Value::Object(formats)) = media.get("formats") else { return String::new() };
    let (dir, file) = path.rsplit_once('/').map_or(("", path), |(dir, file)| (dir, file));
    let dir = if dir.is_empty() { String::new() } else { format!("{dir}/") };
    let mut kept: Vec<(u32, char)> = FORMATS
        .iter()
        .filter_map(|(name, letter)| {
            let entry = formats.get(*name)?;
            let url = entry.get("url")?.as_str()?;
            let width = u32::try_from(entry.get("width")?.as_u64()?).ok().filter(|w| *w > 0)?;
            (url == format!("{media_base}/{dir}{name}_{file}")).then_some((width, *letter))
        })
        .collect();
    kept.sort_unstable();
    kept.iter().map(|(width, letter)| format!("{letter}{width}")).collect()
}

fn parse_fallbacks(text: &str) -> Option<Vec<(&'static str, u32)>> {
    let mut fallbacks = Vec::new();
    let mut rest = text;
    while let Some(letter) = rest.chars().next() {
        let (prefix, _) = FORMATS.iter().find(|(_, l)| *l == letter)?;
        let digits = rest[1..].bytes().take_while(u8::is_ascii_digit).count();
        fallbacks.push((*prefix, rest[1..=digits].parse().ok()?));
        rest = &rest[1 + digits..];
    }
    Some(fallbacks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const BASE: &str = "https://cms.example.co.tz";

    fn photo() -> Map<String, Value> {
        let media = json!({
            "url": format!("{BASE}/uploads/harbour_a1b2.jpg"), "mime": "image/jpeg", "width": 2400, "height": 1600,
            "hash": "harbour_a1b2", "updatedAt": "2026-01-01T00:00:00.000Z",
            "formats": {
                "large": { "url": format!("{BASE}/uploads/large_harbour_a1b2.jpg"), "width": 1000 },
                "small": { "url": format!("{BASE}/uploads/small_harbour_a1b2.jpg"), "width": 500 },
                "medium": { "url": "https://elsewhere.example/medium.jpg", "width": 750 }
            }
        });
        media.as_object().unwrap().clone()
    }

    fn split(srcset: &str) -> Vec<(String, String)> {
        srcset.split(", ").map(|c| c.split_once(' ').map(|(u, w)| (u.to_owned(), w.to_owned())).unwrap()).collect()
    }

    #[test]
    fn a_photo_gets_every_width_signed_and_its_fallbacks_in_the_token() {
        let signer = Signer::new(b"secret", BASE);
        let srcset = signer.srcset(&photo()).unwrap();
        let candidates = split(&srcset);
        assert_eq!(candidates.len(), WIDTHS.len());
        let (url, descriptor) = &candidates[4];
        assert_eq!(descriptor, "640w");
        let rest = url.strip_prefix("/img/640/").unwrap();
        let (token, path) = rest.split_once('/').unwrap();
        assert_eq!(path, "uploads/harbour_a1b2.jpg");
        let checked = signer.verify(token, path).unwrap();
        assert_eq!(checked.fallbacks, vec![("small", 500), ("large", 1000)], "the medium stored elsewhere is left out");
        assert_eq!(signer.fallback_url(&checked, path, 640), format!("{BASE}/uploads/large_harbour_a1b2.jpg"));
        assert_eq!(signer.fallback_url(&checked, path, 320), format!("{BASE}/uploads/small_harbour_a1b2.jpg"));
        assert_eq!(signer.fallback_url(&checked, path, 1920), format!("{BASE}/uploads/large_harbour_a1b2.jpg"));
        assert!(signer.verify(token, "uploads/other.jpg").is_none(), "a token names one path");
        assert!(Signer::new(b"other key", BASE).verify(token, path).is_none());
        let forged = token.replacen(&checked.version, "deadbeef", 1);
        assert!(signer.verify(&forged, path).is_none(), "nor may the version vary");
    }

    #[test]
    fn a_small_photo_stops_at_its_own_width_and_a_replaced_file_changes_the_token() {
        let signer = Signer::new(b"secret", BASE);
        let mut media = photo();
        media.insert("width".into(), json!(500));
        let candidates = split(&signer.srcset(&media).unwrap());
        assert_eq!(candidates.last().unwrap().1, "500w");
        assert!(candidates.last().unwrap().0.starts_with("/img/640/"));
        let before = signer.srcset(&photo()).unwrap();
        let mut replaced = photo();
        replaced.insert("updatedAt".into(), json!("2026-02-01T00:00:00.000Z"));
        assert_ne!(signer.srcset(&replaced).unwrap(), before);
    }

    #[test]
    fn svg_other_hosts_and_odd_paths_keep_the_cms_url() {
        let signer = Signer::new(b"secret", BASE);
        let with = |key: &str, value: Value| {
            let mut media = photo();
            media.insert(key.into(), value);
            signer.srcset(&media)
        };
        assert!(with("mime", json!("image/svg+xml")).is_none());
        assert!(with("url", json!("https://elsewhere.example/uploads/a.jpg")).is_none());
        assert!(with("url", json!(format!("{BASE}/uploads/../secret.jpg"))).is_none());
        assert!(with("url", json!(format!("{BASE}/uploads/a b.jpg"))).is_none());
        assert!(signer.verify("0..x", "uploads//a.jpg").is_none());
    }
}
