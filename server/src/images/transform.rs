//! One photo the endpoint answers: a master ([`super::master`]) at one
//! width, encoded in the format wanted. Blocking CPU work, run on the
//! blocking pool under the endpoint's bound of encodes at once.

use super::master::Master;

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
    /// The original's own type: JPEG, or PNG for a photo with transparency
    /// (a GIF's still is either).
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

/// `master` at `width` (never wider than it is), encoded in the format and quality wanted.
pub fn transform(master: &Master, width: u32, want: Want, quality: Quality) -> Vec<u8> {
    let photo = master.at_width(width);
    encode(photo.pixels(), photo.width(), photo.height(), photo.alpha(), want, quality)
}

fn encode(pixels: &[u8], width: u32, height: u32, alpha: bool, want: Want, quality: Quality) -> Vec<u8> {
    let (webp_quality, jpeg_quality) = match quality {
        Quality::Standard => (WEBP_QUALITY, JPEG_QUALITY),
        Quality::Dense => (WEBP_QUALITY_DENSE, JPEG_QUALITY_DENSE),
    };
    match want {
        Want::Webp => {
            let encoder = if alpha {
                webp::Encoder::from_rgba(pixels, width, height)
            } else {
                webp::Encoder::from_rgb(pixels, width, height)
            };
            encoder.encode(webp_quality).to_vec()
        }
        Want::Original if alpha => {
            let mut bytes = Vec::new();
            image::ImageEncoder::write_image(
                image::codecs::png::PngEncoder::new(&mut bytes),
                pixels,
                width,
                height,
                image::ExtendedColorType::Rgba8,
            )
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

    fn master(width: u32, height: u32) -> Master {
        let image = image::RgbImage::from_fn(width, height, |x, y| image::Rgb([(x % 256) as u8, (y % 256) as u8, 128]));
        let mut bytes = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 90).encode_image(&image).unwrap();
        crate::images::master::decode(&bytes, 40_000_000).unwrap()
    }

    #[test]
    fn a_photo_is_resized_to_the_width_asked_and_never_enlarged() {
        let master = master(1200, 800);
        let webp = transform(&master, 480, Want::Webp, Quality::Standard);
        assert_eq!(sniff(&webp), Some("image/webp"));
        let decoded = image::load_from_memory(&webp).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (480, 320));
        let jpeg = transform(&master, 1920, Want::Original, Quality::Standard);
        assert_eq!(sniff(&jpeg), Some("image/jpeg"));
        assert_eq!(image::load_from_memory(&jpeg).unwrap().width(), 1200);
    }

    #[test]
    fn a_dense_photo_is_the_same_size_in_fewer_bytes() {
        let master = master(1200, 800);
        for want in [Want::Webp, Want::Original] {
            let standard = transform(&master, 800, want, Quality::Standard);
            let dense = transform(&master, 800, want, Quality::Dense);
            assert!(dense.len() < standard.len(), "{want:?}: {} bytes dense, {} standard", dense.len(), standard.len());
            assert_eq!(image::load_from_memory(&dense).unwrap().width(), 800);
        }
    }
}
