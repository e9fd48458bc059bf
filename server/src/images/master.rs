//! A photo's master: its original decoded once, turned by its camera's
//! orientation (EXIF, so a phone's portrait stays one) and at most as wide
//! as the widest photo the endpoint makes; every width and format is made
//! from it ([`super::transform`]). Blocking CPU work: run on the blocking
//! pool under the endpoint's bound of encodes at once.
//!
//! What one decode may hold is bounded by `max_pixels` (`IMAGE_MAX_PIXELS`),
//! counted in the pixels actually decoded:
//!
//! - A JPEG (nearly every camera's and phone's photo) is decoded at reduced
//!   scale in the DCT (`jpeg-decoder`: 1/2, 1/4 or 1/8), the smallest scale
//!   still at least as wide as the master, and only the pixels decoded
//!   count. A 100-megapixel JPEG of 28 MB (12000×8400) is decoded at 1/4,
//!   3000×2100. Measured on this project's 2-core machine with the same
//!   calls built in release: decoded in 0.33 s, its master made by 0.35 s
//!   and an 800-pixel WebP by 0.37 s, the process's peak 38 MB above where
//!   it started (a full decode alone is 290 MB). The ignored test below
//!   measures it at the test profile's opt-levels: 5.2 s and 0.6 s more,
//!   49 MB, the time mostly generic resizing code left unoptimised in this
//!   crate. A progressive JPEG's decoder keeps every coefficient of the
//!   full image (2 bytes a sample), so it counts at its full size.
//! - PNG, WebP and GIF (its first frame, a still) cannot be decoded at
//!   reduced scale: their header's pixel count is checked before anything
//!   is decoded, so a decompression bomb (a small file of huge dimensions)
//!   is refused for the cost of its header; the decoder's allocations are
//!   capped as well.
//!
//! CMYK and YCCK JPEGs (print workflows) are turned into RGB; grayscale
//! stays grey in RGB. A channel of transparency that nothing uses is
//! dropped, so an opaque GIF or PNG is sent as a JPEG to browsers without
//! WebP.

use std::borrow::Cow;
use std::io::Cursor;

use fast_image_resize::images::{Image, ImageRef};
use fast_image_resize::{PixelType, ResizeOptions, Resizer};
use image::metadata::Orientation;
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader};

use super::address::WIDTHS;

/// The widest master kept: the widest photo the endpoint makes.
const MASTER_WIDTH: u32 = WIDTHS[WIDTHS.len() - 1];

/// The decoded photo, RGB or RGBA, one row after the other.
#[derive(Debug, Clone, PartialEq)]
pub struct Master {
    pixels: Vec<u8>,
    width: u32,
    height: u32,
    alpha: bool,
}

/// Why a photo was not decoded.
#[derive(Debug, Clone, PartialEq)]
pub enum Undecoded {
    /// More pixels to decode than allowed (a JPEG's at the scale it would be decoded at).
    TooLarge { width: u32, height: u32 },
    /// Not a JPEG, PNG, WebP or GIF, truncated or damaged.
    Undecodable(String),
}

impl std::fmt::Display for Undecoded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Undecoded::TooLarge { width, height } => {
                write!(f, "{width}×{height} pixels to decode is past IMAGE_MAX_PIXELS")
            }
            Undecoded::Undecodable(why) => write!(f, "cannot be decoded: {why}"),
        }
    }
}

fn undecodable(error: impl std::fmt::Display) -> Undecoded {
    Undecoded::Undecodable(error.to_string())
}

/// The master of `original`, decoding at most `max_pixels`.
pub fn decode(original: &[u8], max_pixels: u64) -> Result<Master, Undecoded> {
    let format = image::guess_format(original).map_err(undecodable)?;
    let image = match format {
        ImageFormat::Jpeg if !jpeg_ends(original) => {
            return Err(Undecoded::Undecodable("the JPEG is truncated".into()));
        }
        ImageFormat::Jpeg => decode_jpeg(original, max_pixels)?,
        ImageFormat::Png | ImageFormat::WebP | ImageFormat::Gif => decode_whole(original, format, max_pixels)?,
        _ => return Err(Undecoded::Undecodable("not a JPEG, PNG, WebP or GIF".into())),
    };
    Ok(Master::new(image).at_width(MASTER_WIDTH).into_owned())
}

/// A JPEG at the smallest DCT scale still at least `MASTER_WIDTH` wide once turned upright.
fn decode_jpeg(original: &[u8], max_pixels: u64) -> Result<DynamicImage, Undecoded> {
    let mut decoder = jpeg_decoder::Decoder::new(original);
    decoder.read_info().map_err(undecodable)?;
    let info = decoder.info().ok_or_else(|| Undecoded::Undecodable("no frame header".into()))?;
    // EXIF comes right after the start of the image, so the header has it.
    let orientation = decoder.exif_data().and_then(Orientation::from_exif_chunk).unwrap_or(Orientation::NoTransforms);
    let turned = matches!(
        orientation,
        Orientation::Rotate90 | Orientation::Rotate270 | Orientation::Rotate90FlipH | Orientation::Rotate270FlipH
    );
    let master = MASTER_WIDTH as u16;
    // The decoder picks the smallest scale reaching either side asked for: ask only the one shown as the width.
    let (width, height) = if turned {
        decoder.scale(u16::MAX, info.height.min(master))
    } else {
        decoder.scale(info.width.min(master), u16::MAX)
    }
    .map_err(undecodable)?;
    let (width, height) = (u32::from(width), u32::from(height));
    let decoded = if info.coding_process == jpeg_decoder::CodingProcess::DctProgressive {
        (u32::from(info.width), u32::from(info.height))
    } else {
        (width, height)
    };
    if u64::from(decoded.0) * u64::from(decoded.1) > max_pixels {
        return Err(Undecoded::TooLarge { width: decoded.0, height: decoded.1 });
    }
    decoder.set_max_decoding_buffer_size(usize::try_from(max_pixels.saturating_mul(4)).unwrap_or(usize::MAX));
    let pixels = decoder.decode().map_err(undecodable)?;
    let short = || Undecoded::Undecodable("fewer pixels than the header says".into());
    let mut image = match info.pixel_format {
        jpeg_decoder::PixelFormat::L8 => {
            DynamicImage::ImageLuma8(image::GrayImage::from_raw(width, height, pixels).ok_or_else(short)?)
        }
        jpeg_decoder::PixelFormat::L16 => {
            let samples = pixels.chunks_exact(2).map(|b| u16::from_ne_bytes([b[0], b[1]])).collect();
            DynamicImage::ImageLuma16(image::ImageBuffer::from_raw(width, height, samples).ok_or_else(short)?)
        }
        jpeg_decoder::PixelFormat::RGB24 => {
            DynamicImage::ImageRgb8(image::RgbImage::from_raw(width, height, pixels).ok_or_else(short)?)
        }
        jpeg_decoder::PixelFormat::CMYK32 => {
            DynamicImage::ImageRgb8(image::RgbImage::from_raw(width, height, cmyk_to_rgb(&pixels)).ok_or_else(short)?)
        }
    };
    image.apply_orientation(orientation);
    Ok(image)
}

/// The decoder gives ink amounts (0 none, 255 full); light is what no ink
/// takes away, times what black leaves.
fn cmyk_to_rgb(cmyk: &[u8]) -> Vec<u8> {
    cmyk.chunks_exact(4)
        .flat_map(|p| {
            let k = 255 - u16::from(p[3]);
            [p[0], p[1], p[2]].map(|ink| ((255 - u16::from(ink)) * k / 255) as u8)
        })
        .collect()
}

/// A PNG, WebP or GIF (its first frame) whole, refused by its header past `max_pixels`.
fn decode_whole(original: &[u8], format: ImageFormat, max_pixels: u64) -> Result<DynamicImage, Undecoded> {
    let mut reader = ImageReader::with_format(Cursor::new(original), format);
    let mut limits = image::Limits::default();
    limits.max_alloc = Some(max_pixels.saturating_mul(4).saturating_add(64 << 20));
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(undecodable)?;
    let (width, height) = decoder.dimensions();
    if u64::from(width) * u64::from(height) > max_pixels {
        return Err(Undecoded::TooLarge { width, height });
    }
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let mut image = DynamicImage::from_decoder(decoder).map_err(undecodable)?;
    image.apply_orientation(orientation);
    Ok(image)
}

/// The JPEG decoder fills a truncated file's missing rows with grey rather
/// than fail; a whole one has an end-of-image marker after its last scan's
/// start (scan data never holds one: a 0xFF there is stuffed with 0x00).
fn jpeg_ends(bytes: &[u8]) -> bool {
    let last_scan = bytes.windows(2).rposition(|w| w == [0xFF, 0xDA]);
    last_scan.is_some_and(|start| bytes[start..].windows(2).any(|w| w == [0xFF, 0xD9]))
}

impl Master {
    fn new(image: DynamicImage) -> Master {
        let transparent = |rgba: &image::RgbaImage| rgba.pixels().any(|p| p[3] < 255);
        let alpha =
            image.color().has_alpha() && image.as_rgba8().map_or_else(|| transparent(&image.to_rgba8()), transparent);
        let (width, height) = (image.width(), image.height());
        let pixels = if alpha { image.into_rgba8().into_raw() } else { image.into_rgb8().into_raw() };
        Master { pixels, width, height, alpha }
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    /// Whether some pixel is (partly) transparent: the pixels are RGBA, else RGB.
    pub fn alpha(&self) -> bool {
        self.alpha
    }

    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// What it holds in memory.
    pub fn bytes(&self) -> usize {
        self.pixels.len()
    }

    /// This photo at `width` with its proportions, or itself when it is no
    /// wider: never enlarged.
    pub fn at_width(&self, width: u32) -> Cow<'_, Master> {
        if width >= self.width {
            return Cow::Borrowed(self);
        }
        let width = width.max(1);
        let height = ((u64::from(self.height) * u64::from(width) + u64::from(self.width) / 2) / u64::from(self.width))
            .max(1) as u32;
        let pixel_type = if self.alpha { PixelType::U8x4 } else { PixelType::U8x3 };
        let source =
            ImageRef::new(self.width, self.height, &self.pixels, pixel_type).expect("a master's buffer fits its size");
        let mut target = Image::new(width, height, pixel_type);
        Resizer::new()
            .resize(&source, &mut target, &ResizeOptions::new())
            .expect("both images have the same pixel type");
        Cow::Owned(Master { pixels: target.into_vec(), width, height, alpha: self.alpha })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// EXIF (from its TIFF header) with one entry: the orientation.
    fn exif(orientation: u16) -> Vec<u8> {
        let mut tiff = b"II*\0\x08\0\0\0\x01\0\x12\x01\x03\0\x01\0\0\0".to_vec();
        tiff.extend_from_slice(&orientation.to_le_bytes());
        tiff.extend_from_slice(&[0; 6]);
        tiff
    }

    /// A flat grey JPEG with a red block at its top-left corner.
    fn jpeg_with_corner(width: u32, height: u32, orientation: Option<u16>) -> Vec<u8> {
        let mut image = image::RgbImage::from_pixel(width, height, image::Rgb([128, 128, 128]));
        for y in 0..height / 4 {
            for x in 0..width / 4 {
                image.put_pixel(x, y, image::Rgb([220, 20, 20]));
            }
        }
        let mut bytes = Vec::new();
        let mut encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 80);
        if let Some(orientation) = orientation {
            image::ImageEncoder::set_exif_metadata(&mut encoder, exif(orientation)).unwrap();
        }
        encoder.encode_image(&image).unwrap();
        bytes
    }

    fn pixel(master: &Master, x: u32, y: u32) -> Vec<u8> {
        let channels = if master.alpha() { 4 } else { 3 };
        let at = ((y * master.width() + x) * channels) as usize;
        master.pixels()[at..at + channels as usize].to_vec()
    }

    fn near(actual: &[u8], expected: [u8; 3]) -> bool {
        actual.iter().zip(expected).all(|(a, e)| a.abs_diff(e) <= 10)
    }

    #[test]
    fn a_large_jpeg_is_decoded_at_reduced_scale_upright_and_only_its_scaled_pixels_count() {
        // 24 MP, turned a quarter clockwise by its camera: a portrait 4000 wide once upright.
        let original = jpeg_with_corner(6000, 4000, Some(6));
        // At half scale (3000×2000, 6 MP) the upright width 2000 still covers 1920; the full 24 MP would be refused.
        let master = decode(&original, 6_000_000).unwrap();
        assert_eq!((master.width(), master.height()), (1920, 2880), "upright and at most 1920 wide");
        assert!(near(&pixel(&master, 1900, 20), [220, 20, 20]), "the stored top-left corner is shown top right");
        assert!(near(&pixel(&master, 20, 20), [128, 128, 128]));
        assert_eq!(decode(&original, 5_999_999), Err(Undecoded::TooLarge { width: 3000, height: 2000 }));
        // Without the turn, the width decides: 1/4 (1500 wide) is too narrow, 1/2 is kept.
        let landscape = decode(&jpeg_with_corner(6000, 4000, None), 6_000_000).unwrap();
        assert_eq!((landscape.width(), landscape.height()), (1920, 1280));
        assert!(near(&pixel(&landscape, 20, 20), [220, 20, 20]));
    }

    /// The process's resident memory: now, and its peak since the last reset.
    fn resident() -> (u64, u64) {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let kib = |field: &str| {
            status.lines().find_map(|l| l.strip_prefix(field)?.trim().strip_suffix(" kB")?.parse::<u64>().ok()).unwrap()
                << 10
        };
        (kib("VmRSS:"), kib("VmHWM:"))
    }

    /// What a 100-megapixel photo costs: its decode at 1/4 (3000×2100), the
    /// master and an 800-pixel WebP. The peak is the whole process's, so run
    /// it alone: `cargo test --release -p server --lib 100_megapixel -- --ignored --nocapture`.
    #[test]
    #[ignore = "measures the whole process: run it alone"]
    fn a_100_megapixel_photo_costs_the_pixels_of_its_scaled_decode() {
        use crate::images::transform::{Quality, Want, transform};
        let (width, height) = (12000u16, 8400u16);
        let original = {
            // Smooth fields and grain, as a camera's: 28 MB at quality 85.
            let mut seed = 0x2545_f491_u32;
            let mut pixels = Vec::with_capacity(usize::from(width) * usize::from(height) * 3);
            for y in 0..u32::from(height) {
                for x in 0..u32::from(width) {
                    seed ^= seed << 13;
                    seed ^= seed >> 17;
                    seed ^= seed << 5;
                    let grain = (seed & 63) as u8;
                    pixels.extend_from_slice(&[(x / 48) as u8 ^ grain, (y / 33) as u8 ^ (grain >> 1), 100 + grain]);
                }
            }
            let mut bytes = Vec::new();
            jpeg_encoder::Encoder::new(&mut bytes, 85)
                .encode(&pixels, width, height, jpeg_encoder::ColorType::Rgb)
                .unwrap();
            bytes
        };
        let (before, _) = resident();
        // Resets the peak to what is resident now (Linux).
        std::fs::write("/proc/self/clear_refs", "5").unwrap();
        let started = std::time::Instant::now();
        let master = decode(&original, 25_000_000).unwrap();
        let decoded = started.elapsed();
        let webp = transform(&master, 800, Want::Webp, Quality::Standard);
        let (_, peak) = resident();
        let added = peak.saturating_sub(before);
        println!(
            "{width}×{height} JPEG of {} MB: decoded in {} ms, with an 800-pixel WebP in {} ms; peak {} MB above the {} MB before",
            original.len() >> 20,
            decoded.as_millis(),
            started.elapsed().as_millis(),
            added >> 20,
            before >> 20
        );
        assert_eq!((master.width(), master.height()), (1920, 1344));
        assert!(!webp.is_empty());
        // Decoded at 1/4: 3000×2100 RGB is 19 MB, the master 7.7 MB; at full size it would be 302 MB.
        assert!(added < 80 << 20, "{} MB above the start", added >> 20);
    }

    #[test]
    fn a_small_photo_is_never_enlarged_and_grey_stays_grey() {
        let image = image::GrayImage::from_pixel(180, 120, image::Luma([90]));
        let mut bytes = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 90).encode_image(&image).unwrap();
        let master = decode(&bytes, 40_000_000).unwrap();
        assert_eq!((master.width(), master.height(), master.alpha()), (180, 120, false));
        assert!(near(&pixel(&master, 90, 60), [90, 90, 90]));
    }

    #[test]
    fn cmyk_and_ycck_jpegs_keep_their_colours_and_progressive_ones_decode() {
        // Ink 0 % cyan, 80 % magenta, 100 % yellow, 20 % black: an orange-red of RGB (204, 41, 0).
        let cmyk: Vec<u8> = [0u8, 204, 255, 51].repeat(64 * 48);
        for color in [jpeg_encoder::ColorType::Cmyk, jpeg_encoder::ColorType::CmykAsYcck] {
            let mut bytes = Vec::new();
            jpeg_encoder::Encoder::new(&mut bytes, 95).encode(&cmyk, 64, 48, color).unwrap();
            let master = decode(&bytes, 40_000_000).unwrap();
            assert!(near(&pixel(&master, 32, 24), [204, 41, 0]), "{color:?}: {:?}", pixel(&master, 32, 24));
        }
        let rgb: Vec<u8> = [30u8, 90, 200].repeat(2400 * 1600);
        let mut bytes = Vec::new();
        let mut encoder = jpeg_encoder::Encoder::new(&mut bytes, 90);
        encoder.set_progressive(true);
        encoder.encode(&rgb, 2400, 1600, jpeg_encoder::ColorType::Rgb).unwrap();
        let master = decode(&bytes, 40_000_000).unwrap();
        assert_eq!((master.width(), master.height()), (1920, 1280));
        assert!(near(&pixel(&master, 100, 100), [30, 90, 200]));
        // Its decoder holds every coefficient: counted at full size, not at the scale decoded.
        assert_eq!(decode(&bytes, 3_000_000), Err(Undecoded::TooLarge { width: 2400, height: 1600 }));
    }

    #[test]
    fn an_animated_gif_becomes_its_first_frame_opaque_where_nothing_is_transparent() {
        let mut bytes = Vec::new();
        {
            let mut encoder = image::codecs::gif::GifEncoder::new(&mut bytes);
            encoder.set_repeat(image::codecs::gif::Repeat::Infinite).unwrap();
            for colour in [[200, 30, 30, 255], [30, 30, 200, 255]] {
                let frame = image::Frame::new(image::RgbaImage::from_pixel(300, 200, image::Rgba(colour)));
                encoder.encode_frame(frame).unwrap();
            }
        }
        let master = decode(&bytes, 40_000_000).unwrap();
        assert_eq!((master.width(), master.height(), master.alpha()), (300, 200, false));
        assert!(near(&pixel(&master, 150, 100), [200, 30, 30]), "the first frame: {:?}", pixel(&master, 150, 100));
    }

    #[test]
    fn a_png_past_the_bound_is_refused_undecoded_and_broken_files_are_undecodable() {
        let image = image::RgbaImage::from_pixel(600, 500, image::Rgba([0, 0, 0, 100]));
        let mut png = Vec::new();
        image.write_to(&mut Cursor::new(&mut png), ImageFormat::Png).unwrap();
        assert_eq!(decode(&png, 299_999), Err(Undecoded::TooLarge { width: 600, height: 500 }));
        assert!(decode(&png, 300_000).unwrap().alpha(), "a transparent PNG keeps its alpha");
        let jpeg = jpeg_with_corner(400, 300, None);
        assert!(matches!(decode(&jpeg[..jpeg.len() / 2], 40_000_000), Err(Undecoded::Undecodable(_))));
        assert!(matches!(decode(b"<svg/>", 40_000_000), Err(Undecoded::Undecodable(_))));
    }
}
