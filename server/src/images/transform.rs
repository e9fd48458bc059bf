//! One photo the endpoint answers: a master ([`super::master`]) at one
//! width, encoded in the format wanted. Blocking CPU work, run on the
//! blocking pool under the endpoint's bound of encodes at once.

use super::master::Master;

/// WebP quality (0–100): photos at about a tenth of a JPEG's bytes at
/// their width, without visible blocks on a phone.
const WEBP_QUALITY: f32 = 65.0;
/// JPEG quality for browsers that take no WebP.
const JPEG_QUALITY: u8 = 75;

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

/// `master` at `width` (never wider than it is), encoded in the format wanted.
pub fn transform(master: &Master, width: u32, want: Want) -> Vec<u8> {
    let photo = master.at_width(width);
    encode(photo.pixels(), photo.width(), photo.height(), photo.alpha(), want)
}

fn encode(pixels: &[u8], width: u32, height: u32, alpha: bool, want: Want) -> Vec<u8> {
    match want {
        Want::Webp => {
            let encoder = if alpha { webp::Encoder::from_rgba(pixels, width, height) } else { webp::Encoder::from_rgb(pixels, width, height) };
            encoder.encode(WEBP_QUALITY).to_vec()
        }
        Want::Original if alpha => {
            let mut bytes = Vec::new();
            image::ImageEncoder::write_image(image::codecs::png::PngEncoder::new(&mut bytes), pixels, width, height, image::ExtendedColorType::Rgba8)
                .expect("PNG encodes what was decoded");
            bytes
        }
        Want::Original => {
            let mut bytes = Vec::new();
            image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, JPEG_QUALITY)
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
        super::super::master::decode(&bytes, 40_000_000).unwrap()
    }

    #[test]
    fn a_photo_is_resized_to_the_width_asked_and_never_enlarged() {
        let master = master(1200, 800);
        let webp = transform(&master, 480, Want::Webp);
        assert_eq!(sniff(&webp), Some("image/webp"));
        let decoded = image::load_from_memory(&webp).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (480, 320));
        let jpeg = transform(&master, 1920, Want::Original);
        assert_eq!(sniff(&jpeg), Some("image/jpeg"));
        assert_eq!(image::load_from_memory(&jpeg).unwrap().width(), 1200);
    }
}
