//! The image endpoint against the fake CMS's media library: photos named in
//! content reach pages as a `srcset` of the site's `/img/…` addresses, each
//! answered in WebP or the original's type by `Accept`, from a fixed set of
//! widths, only for the CMS's media; a phone's 48-megapixel photo is made,
//! an animated GIF answered as a still, what cannot be made sent as the
//! CMS's own smaller file (bombs refused where there is none), and one
//! fetch and decode serves every width and format.

use std::time::Duration;

use reqwest::header::{ACCEPT, CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, LOCATION, VARY};
use serde_json::json;

use crate::fake_cms::{FakeCms, Shape};
use crate::helpers::{TestApp, spawn_app_with};

const CHROMIUM_ACCEPT: &str = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";

/// A photo-like JPEG: smooth colour fields and grain.
fn jpeg(width: u32, height: u32) -> Vec<u8> {
    let image = image::RgbImage::from_fn(width, height, |x, y| {
        let grain = ((x.wrapping_mul(374_761_393) ^ y.wrapping_mul(668_265_263)) >> 27) as u8;
        image::Rgb([(x * 255 / width) as u8 ^ grain, (y * 255 / height) as u8, 128 + grain])
    });
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 90).encode_image(&image).unwrap();
    bytes
}

/// A JPEG whose header says 60000×60000 pixels (3.6 gigapixels) in a few
/// hundred bytes: even at 1/8 scale, 56 million pixels to decode.
fn bomb() -> Vec<u8> {
    let mut bytes = jpeg(16, 16);
    let sof = bytes.windows(2).position(|w| w == [0xFF, 0xC0]).expect("a baseline JPEG");
    // Marker, length (2), precision (1), then height and width.
    bytes[sof + 5..sof + 9].copy_from_slice(&[0xEA, 0x60, 0xEA, 0x60]);
    bytes
}

/// Strapi's usual formats of a wide photo.
const FORMATS: &[(&str, u32)] = &[("small", 500), ("large", 1000)];

/// The site on the fake CMS, whose home page's hero is the photo `name` with Strapi's `formats`.
async fn site_with_photo(
    cms: &FakeCms,
    name: &str,
    mime: &str,
    (width, height): (u32, u32),
    formats: &[(&str, u32)],
) -> TestApp {
    site_with_photo_and(cms, name, mime, (width, height), formats, |_| {}).await
}

async fn site_with_photo_and(
    cms: &FakeCms,
    name: &str,
    mime: &str,
    (width, height): (u32, u32),
    formats: &[(&str, u32)],
    configure: impl FnOnce(&mut server::Config),
) -> TestApp {
    cms.put(
        "home",
        "en",
        json!({ "title": "Home", "sections": [ { "__component": "sections.hero", "id": 1, "title": "Welcome", "image": cms.photo(5, name, mime, width, height, formats) } ] }),
    );
    let url = cms.url.clone();
    spawn_app_with(|config| {
        config.cms.url = Some(url.parse().unwrap());
        configure(config);
    })
    .await
}

/// The `srcset` candidates of the page's first `<img>` that has one: (address, descriptor width).
async fn candidates(app: &TestApp, path: &str) -> Vec<(String, u32)> {
    let html = app.get(path).await.text().await.unwrap();
    // React writes the attribute `srcSet`; HTML reads it in any case.
    let srcset = html
        .split("srcSet=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no srcset in {html}"));
    srcset
        .split(", ")
        .map(|candidate| {
            let (url, width) = candidate.split_once(' ').unwrap();
            (url.replace("&amp;", "&"), width.trim_end_matches('w').parse().unwrap())
        })
        .collect()
}

async fn get(app: &TestApp, path: &str, accept: &str) -> reqwest::Response {
    app.client.get(app.url(path)).header(ACCEPT, accept).send().await.unwrap()
}

fn at_width(candidates: &[(String, u32)], width: u32) -> String {
    candidates.iter().find(|(_, w)| *w == width).unwrap_or_else(|| panic!("no {width}w in {candidates:?}")).0.clone()
}

#[tokio::test]
async fn a_photo_reaches_the_page_at_fixed_widths_in_webp_or_its_own_type_by_accept() {
    let cms = FakeCms::start(Shape::V5).await;
    cms.put_file("harbour_a1.jpg", jpeg(1200, 800), "image/jpeg");
    let app = site_with_photo(&cms, "harbour_a1.jpg", "image/jpeg", (1200, 800), FORMATS).await;
    let candidates = candidates(&app, "/").await;
    let widths: Vec<u32> = candidates.iter().map(|(_, w)| *w).collect();
    assert_eq!(widths, [160, 240, 320, 480, 640, 800, 1080, 1200], "the fixed widths up to the photo's own");

    let webp = get(&app, &at_width(&candidates, 480), CHROMIUM_ACCEPT).await;
    assert_eq!(webp.status(), 200);
    assert_eq!(webp.headers()[CONTENT_TYPE], "image/webp");
    assert_eq!(webp.headers()[CACHE_CONTROL], "public, max-age=31536000, immutable");
    assert_eq!(webp.headers()[VARY], "Accept, Save-Data, Sec-CH-DPR, ECT");
    let decoded = image::load_from_memory(&webp.bytes().await.unwrap()).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (480, 320));

    let jpeg = get(&app, &at_width(&candidates, 480), "image/png,image/*;q=0.8").await;
    assert_eq!(jpeg.headers()[CONTENT_TYPE], "image/jpeg", "a browser without WebP gets the original's type");
    assert_eq!(image::load_from_memory(&jpeg.bytes().await.unwrap()).unwrap().width(), 480);

    let widest = get(&app, &at_width(&candidates, 1200), CHROMIUM_ACCEPT).await;
    assert_eq!(image::load_from_memory(&widest.bytes().await.unwrap()).unwrap().width(), 1200, "never enlarged");

    let saving = app
        .client
        .get(app.url(&at_width(&candidates, 480)))
        .header(ACCEPT, CHROMIUM_ACCEPT)
        .header("save-data", "on")
        .send()
        .await
        .unwrap();
    assert_eq!(
        image::load_from_memory(&saving.bytes().await.unwrap()).unwrap().width(),
        320,
        "Save-Data gets the next smaller width"
    );

    // A phone's screen (its browser sends the hint pages ask for) gets the same width in fewer bytes.
    let page = app.get("/").await;
    assert_eq!(page.headers()["accept-ch"], "Sec-CH-DPR, ECT");
    let standard = get(&app, &at_width(&candidates, 800), CHROMIUM_ACCEPT).await.bytes().await.unwrap();
    let phone = app
        .client
        .get(app.url(&at_width(&candidates, 800)))
        .header(ACCEPT, CHROMIUM_ACCEPT)
        .header("sec-ch-dpr", "2")
        .header("ect", "4g")
        .send()
        .await
        .unwrap();
    let phone = phone.bytes().await.unwrap();
    assert_eq!(image::load_from_memory(&phone).unwrap().width(), 800);
    assert!(phone.len() < standard.len(), "{} bytes at DPR 2, {} at 1", phone.len(), standard.len());
    let slow = app
        .client
        .get(app.url(&at_width(&candidates, 800)))
        .header(ACCEPT, CHROMIUM_ACCEPT)
        .header("ect", "2g")
        .send()
        .await
        .unwrap();
    assert_eq!(
        image::load_from_memory(&slow.bytes().await.unwrap()).unwrap().width(),
        640,
        "a 2G network gets the next smaller width"
    );
    assert!(app.get("/static/logo.svg").await.headers().get("accept-ch").is_none(), "only pages ask for hints");

    let policy = page.headers()[CONTENT_SECURITY_POLICY].to_str().unwrap().to_owned();
    assert!(
        policy.contains(&format!("img-src 'self' {};", cms.url)),
        "images from the site and the CMS's media only: {policy}"
    );
}

#[tokio::test]
async fn widths_outside_the_set_and_addresses_content_did_not_name_are_refused() {
    let cms = FakeCms::start(Shape::V4).await;
    cms.put_file("harbour_b2.jpg", jpeg(800, 600), "image/jpeg");
    cms.put_file("secret.jpg", jpeg(800, 600), "image/jpeg");
    let app = site_with_photo(&cms, "harbour_b2.jpg", "image/jpeg", (800, 600), FORMATS).await;
    let address = at_width(&candidates(&app, "/").await, 320);
    let (_, rest) = address.split_once("/img/320/").unwrap();
    let (token, path) = rest.split_once('/').unwrap();
    assert_eq!(path, "uploads/harbour_b2.jpg");
    assert_eq!(get(&app, &address, CHROMIUM_ACCEPT).await.status(), 200);
    for refused in [
        format!("/img/500/{token}/{path}"),
        format!("/img/99999/{token}/{path}"),
        format!("/img/320/{token}/uploads/secret.jpg"),
        format!("/img/320/{token}/uploads/..%2Fsecret.jpg"),
        format!("/img/320/{}/{path}", token.replacen('.', "x.", 1)),
        format!("/img/320/0..AAAAAAAAAAAA/{path}"),
        format!("/img/320/{token}/https:/evil.example/a.jpg"),
    ] {
        assert_eq!(get(&app, &refused, CHROMIUM_ACCEPT).await.status(), 404, "{refused}");
    }
    assert_eq!(cms.file_requests("secret.jpg"), 0, "nothing content did not name is fetched");
}

#[tokio::test]
async fn what_cannot_be_made_sends_the_cms_file_instead_and_without_one_a_bomb_is_refused() {
    let cms = FakeCms::start(Shape::V5).await;
    cms.put_file("bomb_c3.jpg", bomb(), "image/jpeg");
    let app = site_with_photo(&cms, "bomb_c3.jpg", "image/jpeg", (60000, 60000), &[]).await;
    let bomb = get(&app, &at_width(&candidates(&app, "/").await, 640), CHROMIUM_ACCEPT).await;
    assert_eq!(bomb.status(), 422, "no file of the CMS to send instead");
    assert_eq!(bomb.headers()[CACHE_CONTROL], "public, max-age=300");
    drop(app);

    // A PNG cannot be decoded at reduced scale: past the bound it is not decoded, and Strapi's nearest file is sent.
    let png = image::RgbImage::from_pixel(1600, 1000, image::Rgb([20, 120, 60]));
    let mut bytes = Vec::new();
    png.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png).unwrap();
    cms.put_file("chart_f6.png", bytes, "image/png");
    let app = site_with_photo_and(&cms, "chart_f6.png", "image/png", (1600, 1000), FORMATS, |config| {
        config.images.max_pixels = 1_000_000
    })
    .await;
    let refused = get(&app, &at_width(&candidates(&app, "/").await, 800), CHROMIUM_ACCEPT).await;
    assert_eq!(refused.status(), 302);
    assert_eq!(
        refused.headers()[LOCATION],
        format!("{}/uploads/large_chart_f6.png", cms.url).as_str(),
        "the narrowest of Strapi's files at least 800 wide"
    );
    drop(app);

    let truncated = jpeg(1200, 800);
    cms.put_file("broken_d4.jpg", truncated[..400].to_vec(), "image/jpeg");
    let app = site_with_photo(&cms, "broken_d4.jpg", "image/jpeg", (1200, 800), FORMATS).await;
    let candidates = candidates(&app, "/").await;
    for (width, format) in [(320, "small"), (1080, "large")] {
        let broken = get(&app, &at_width(&candidates, width), CHROMIUM_ACCEPT).await;
        assert_eq!(broken.status(), 302);
        assert_eq!(
            broken.headers()[LOCATION],
            format!("{}/uploads/{format}_broken_d4.jpg", cms.url).as_str(),
            "Strapi's own file"
        );
        assert_eq!(broken.headers()[CACHE_CONTROL], "public, max-age=300", "not kept for long: the real one may come");
    }
    assert_eq!(app.get("/").await.status(), 200, "the page is unaffected");
    let again = get(&app, &at_width(&candidates, 320), CHROMIUM_ACCEPT).await;
    assert_eq!(again.status(), 302);
    assert_eq!(
        cms.file_requests("broken_d4.jpg"),
        1,
        "one fetch for the photo, its failure remembered for every width"
    );
}

#[tokio::test]
async fn a_phones_48_megapixel_photo_is_made_at_every_width_from_one_decode() {
    let cms = FakeCms::start(Shape::V5).await;
    // 8000×6000, past the default IMAGE_MAX_PIXELS (25 million) by its header; decoded at 1/4, 2000×1500.
    let photo = image::RgbImage::from_fn(8000, 6000, |x, y| image::Rgb([(x / 32) as u8, (y / 24) as u8, 90]));
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 50).encode_image(&photo).unwrap();
    drop(photo);
    cms.put_file("market_g7.jpg", bytes, "image/jpeg");
    // Decoding and resizing are slow in a debug build on a loaded machine (a
    // width up to a second here, 20 ms in release): this counts decodes, so
    // no time limit is in the way, the server's nor the client's.
    let app = site_with_photo_and(&cms, "market_g7.jpg", "image/jpeg", (8000, 6000), FORMATS, |config| {
        config.images.timeout = Duration::from_secs(120)
    })
    .await;
    let patient = reqwest::Client::builder()
        .timeout(Duration::from_secs(120))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let candidates = candidates(&app, "/").await;
    assert_eq!(candidates.len(), 9, "every width: {candidates:?}");
    const OLDER: &str = "image/jpeg,image/*;q=0.8";

    // The first requests, for different widths at once, wait for one decode.
    let first = [(800, CHROMIUM_ACCEPT), (160, CHROMIUM_ACCEPT), (1920, OLDER)].map(|(width, accept)| {
        let request = patient.get(app.url(&at_width(&candidates, width))).header(ACCEPT, accept);
        async move { request.send().await.unwrap() }
    });
    let [photo, narrowest, widest] = futures::future::join_all(first).await.try_into().unwrap();
    assert_eq!(photo.status(), 200);
    assert_eq!(photo.headers()[CONTENT_TYPE], "image/webp");
    let decoded = image::load_from_memory(&photo.bytes().await.unwrap()).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (800, 600));
    assert_eq!(image::load_from_memory(&narrowest.bytes().await.unwrap()).unwrap().width(), 160);
    assert_eq!(widest.headers()[CONTENT_TYPE], "image/jpeg");
    assert_eq!(image::load_from_memory(&widest.bytes().await.unwrap()).unwrap().width(), 1920);

    for (address, width) in &candidates {
        for accept in [CHROMIUM_ACCEPT, OLDER] {
            let answer = patient.get(app.url(address)).header(ACCEPT, accept).send().await.unwrap();
            assert_eq!(answer.status(), 200);
            assert_eq!(image::load_from_memory(&answer.bytes().await.unwrap()).unwrap().width(), *width);
        }
    }
    let health: serde_json::Value = app.get("/healthz?detail").await.json().await.unwrap();
    assert_eq!(health["images"]["decoded"], 1, "every width in both formats from one decode: {health}");
    assert_eq!(cms.file_requests("market_g7.jpg"), 1);
}

#[tokio::test]
async fn an_animated_gif_is_answered_as_a_still_and_the_page_links_to_the_animation() {
    let cms = FakeCms::start(Shape::V4).await;
    let mut bytes = Vec::new();
    {
        let mut encoder = image::codecs::gif::GifEncoder::new(&mut bytes);
        encoder.set_repeat(image::codecs::gif::Repeat::Infinite).unwrap();
        for colour in [[200, 30, 30, 255], [30, 30, 200, 255]] {
            encoder
                .encode_frame(image::Frame::new(image::RgbaImage::from_pixel(480, 270, image::Rgba(colour))))
                .unwrap();
        }
    }
    cms.put_file("dance_h8.gif", bytes, "image/gif");
    let app = site_with_photo(&cms, "dance_h8.gif", "image/gif", (480, 270), &[("small", 400)]).await;
    let candidates = candidates(&app, "/").await;
    let still = get(&app, &at_width(&candidates, 320), CHROMIUM_ACCEPT).await;
    assert_eq!(still.status(), 200);
    assert_eq!(still.headers()[CONTENT_TYPE], "image/webp");
    let decoded = image::load_from_memory(&still.bytes().await.unwrap()).unwrap().to_rgb8();
    assert_eq!((decoded.width(), decoded.height()), (320, 180));
    let [r, _, b] = decoded.get_pixel(160, 90).0;
    assert!(r > 150 && b < 80, "the first frame");
    let older = get(&app, &at_width(&candidates, 320), "image/png,image/*;q=0.8").await;
    assert_eq!(older.headers()[CONTENT_TYPE], "image/jpeg", "opaque: a JPEG for a browser without WebP");

    let html = app.get("/").await.text().await.unwrap();
    assert!(html.contains(&format!("href=\"{}/uploads/dance_h8.gif\"", cms.url)), "a link to the animation: {html}");
}

#[tokio::test]
async fn a_burst_of_first_requests_makes_one_fetch_and_encode_and_later_ones_come_from_disk() {
    let cms = FakeCms::start(Shape::V5).await;
    cms.put_file("crowd_e5.jpg", jpeg(1600, 1000), "image/jpeg");
    cms.delay_files(Duration::from_millis(300));
    let app = site_with_photo(&cms, "crowd_e5.jpg", "image/jpeg", (1600, 1000), FORMATS).await;
    let address = at_width(&candidates(&app, "/").await, 640);
    let burst: Vec<_> = (0..24)
        .map(|_| {
            let request = app.client.get(app.url(&address)).header(ACCEPT, CHROMIUM_ACCEPT);
            async move { request.send().await.unwrap().bytes().await.unwrap() }
        })
        .collect();
    let answers = futures::future::join_all(burst).await;
    assert!(answers.iter().all(|a| *a == answers[0] && !a.is_empty()));
    assert_eq!(cms.file_requests("crowd_e5.jpg"), 1, "one fetch for the whole burst");
    cms.stop().await;
    let later = get(&app, &address, CHROMIUM_ACCEPT).await;
    assert_eq!(later.status(), 200, "kept on disk: the CMS is no longer needed");
    assert_eq!(later.bytes().await.unwrap(), answers[0]);
}
