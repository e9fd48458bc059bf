//! Decoding, resizing and encoding one photo: blocking CPU work, run on the
//! blocking pool under the endpoint's bound of encodes at once.
//!
//! The header's dimensions are read before anything is decoded, so a
//! decompression bomb (a small file of huge dimensions) is refused for the
//! cost of its header; the decoder's allocations are capped as well. The
//! camera's orientation (EXIF) is applied, so a phone's portrait stays one.

use std::io::Cursor;

use fast_image_resize::images::Image;
use fast_image_resize::{PixelType, ResizeOptions, Resizer};
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader};

/// WebP quality (0–100): photos at about a tenth of a JPEG's bytes at
/// their width, without visible blocks on a phone.
const WEBP_QUALITY: f32 = 65.0;
/// JPEG quality for browsers that take no WebP.
const JPEG_QUALITY: u8 = 75;
/// The qualities of [`Quality::Dense`]: on a screen of two device pixels
/// per CSS pixel each pixel is half as wide, and a photo at this quality
/// looks as good as one at the qualities above on a screen of one, for
/// about four fifths of the bytes (a detailed photograph at 800 px: 94 KB
/// at 65, 76 KB at 45).
const WEBP_QUALITY_DENSE: f32 = 45.0;
const JPEG_QUALITY_DENSE: u8 = 60;

/// What the browser takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Want {
    Webp,
    /// The original's own type: JPEG, or PNG for a photo with transparency.
    Original,
}

impl Want {
    pub fn name(self) -> &'static str {
        match self {
            Want::Webp => "webp",
            Want::Original => "original",
        }
    }
}

/// How finely the photo is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Quality {
    Standard,
    /// For a dense screen or a slow network (see the endpoint's module).
    Dense,
}

impl Quality {
    pub fn name(self) -> &'static str {
        match self {
            Quality::Standard => "q",
            Quality::Dense => "dense",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// More pixels than allowed, by its header.
    TooLarge { width: u32, height: u32 },
    /// Not a JPEG, PNG or WebP, truncated or damaged.
    Undecodable(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::TooLarge { width, height } => write!(f, "{width}×{height} pixels is past IMAGE_MAX_PIXELS"),
            Refusal::Undecodable(why) => write!(f, "cannot be decoded: {why}"),
        }
    }
}

/// `original` at `width` (never wider than it is), encoded in the format wanted.
pub fn transform(original: &[u8], width: u32, want: Want, quality: Quality, max_pixels: u64) -> Result<Vec<u8>, Refusal> {
    let undecodable = |e: image::ImageError| Refusal::Undecodable(e.to_string());
    let mut reader = ImageReader::new(Cursor::new(original)).with_guessed_format().map_err(|e| Refusal::Undecodable(e.to_string()))?;
    match reader.format() {
        Some(ImageFormat::Jpeg) if !jpeg_ends(original) => return Err(Refusal::Undecodable("the JPEG is truncated".into())),
        Some(ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::WebP) => {}
        _ => return Err(Refusal::Undecodable("not a JPEG, PNG or WebP".into())),
    }
    let mut limits = image::Limits::default();
    limits.max_alloc = Some(max_pixels.saturating_mul(4).saturating_add(64 << 20));
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(undecodable)?;
    let (source_width, source_height) = decoder.dimensions();
    if u64::from(source_width) * u64::from(source_height) > max_pixels {
        return Err(Refusal::TooLarge { width: source_width, height: source_height });
    }
    let orientation = decoder.orientation().unwrap_or(image::metadata::Orientation::NoTransforms);
    let mut decoded = DynamicImage::from_decoder(decoder).map_err(undecodable)?;
    decoded.apply_orientation(orientation);
    let alpha = decoded.color().has_alpha();
    let (pixels, pixel_type) = if alpha { (decoded.to_rgba8().into_raw(), PixelType::U8x4) } else { (decoded.to_rgb8().into_raw(), PixelType::U8x3) };
    let (source_width, source_height) = (decoded.width(), decoded.height());
    drop(decoded);
    let target_width = width.min(source_width).max(1);
    let target_height = ((u64::from(source_height) * u64::from(target_width) + u64::from(source_width) / 2) / u64::from(source_width)).max(1) as u32;
    let resized = if target_width == source_width {
        pixels
    } else {
        let source = Image::from_vec_u8(source_width, source_height, pixels, pixel_type).map_err(|e| Refusal::Undecodable(e.to_string()))?;
        let mut target = Image::new(target_width, target_height, pixel_type);
        Resizer::new().resize(&source, &mut target, &ResizeOptions::new()).map_err(|e| Refusal::Undecodable(e.to_string()))?;
        target.into_vec()
    };
    Ok(encode(&resized, target_width, target_height, alpha, want, quality))
}

/// The JPEG decoder fills a truncated file's missing rows with grey rather
/// than fail; a whole one has an end-of-image marker after its last scan's
/// start (scan data never holds one: a 0xFF there is stuffed with 0x00).
fn jpeg_ends(bytes: &[u8]) -> bool {
    let last_scan = bytes.windows(2).rposition(|w| w == [0xFF, 0xDA]);
    last_scan.is_some_and(|start| bytes[start..].windows(2).any(|w| w == [0xFF, 0xD9]))
}

fn encode(pixels: &[u8], width: u32, height: u32, alpha: bool, want: Want, quality: Quality) -> Vec<u8> {
    let (webp_quality, jpeg_quality) = match quality {
        Quality::Standard => (WEBP_QUALITY, JPEG_QUALITY),
        Quality::Dense => (WEBP_QUALITY_DENSE, JPEG_QUALITY_DENSE),
    };
    match want {
        Want::Webp => {
            let encoder = if alpha { webp::Encoder::from_rgba(pixels, width, height) } else { webp::Encoder::from_rgb(pixels, width, height) };
            encoder.encode(webp_quality).to_vec()
        }
        Want::Original if alpha => {
            let mut bytes = Vec::new();
            image::ImageEncoder::write_image(image::codecs::png::PngEncoder::new(&mut bytes), pixels, width, height, image::ExtendedColorType::Rgba8)
                .expect("PNG encodes what was decoded");
            bytes
        }
        Want::Original => {
            let mut bytes = Vec::new();
            image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, jpeg_quality)
                .encode(pixels, width, height, image::ExtendedColorType::Rgb8)
                .expect("JPEG encodes what was decoded");
            bytes
        }
    }
}

/// The media type of an encoded photo by its first bytes.
pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WEBP") {
        Some("image/webp")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jpeg(width: u32, height: u32) -> Vec<u8> {
        let image = image::RgbImage::from_fn(width, height, |x, y| image::Rgb([(x % 256) as u8, (y % 256) as u8, 128]));
        let mut bytes = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 90).encode_image(&image).unwrap();
        bytes
    }

    #[test]
    fn a_photo_is_resized_to_the_width_asked_and_never_enlarged() {
        let original = jpeg(1200, 800);
        let webp = transform(&original, 480, Want::Webp, Quality::Standard, 40_000_000).unwrap();
        assert_eq!(sniff(&webp), Some("image/webp"));
        let decoded = image::load_from_memory(&webp).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (480, 320));
        let jpeg = transform(&original, 1920, Want::Original, Quality::Standard, 40_000_000).unwrap();
        assert_eq!(sniff(&jpeg), Some("image/jpeg"));
        assert_eq!(image::load_from_memory(&jpeg).unwrap().width(), 1200);
    }

    #[test]
    fn a_dense_photo_is_the_same_size_in_fewer_bytes() {
        let original = jpeg(1200, 800);
        for want in [Want::Webp, Want::Original] {
            let standard = transform(&original, 800, want, Quality::Standard, 40_000_000).unwrap();
            let dense = transform(&original, 800, want, Quality::Dense, 40_000_000).unwrap();
            assert!(dense.len() < standard.len(), "{want:?}: {} bytes dense, {} standard", dense.len(), standard.len());
            assert_eq!(image::load_from_memory(&dense).unwrap().width(), 800);
        }
    }

    #[test]
    fn a_header_claiming_too_many_pixels_is_refused_and_a_truncated_file_is_undecodable() {
        let original = jpeg(400, 300);
        assert!(matches!(transform(&original, 160, Want::Webp, Quality::Standard, 100_000), Err(Refusal::TooLarge { width: 400, height: 300 })));
        assert!(matches!(transform(&original[..original.len() / 2], 160, Want::Webp, Quality::Standard, 40_000_000), Err(Refusal::Undecodable(_))));
        assert!(matches!(transform(b"<svg/>", 160, Want::Webp, Quality::Standard, 40_000_000), Err(Refusal::Undecodable(_))));
    }
}
