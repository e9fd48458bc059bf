//! The image endpoint against the fake CMS's media library: photos named in
//! content reach pages as a `srcset` of the site's `/img/…` addresses, each
//! answered in WebP or the original's type by `Accept`, from a fixed set of
//! widths, only for the CMS's media, with bombs refused, broken files sent
//! to the CMS's own smaller file, and one fetch and encode per burst.

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

/// A JPEG whose header says 40000×40000 pixels (1.6 gigapixels) in a few hundred bytes.
fn bomb() -> Vec<u8> {
    let mut bytes = jpeg(16, 16);
    let sof = bytes.windows(2).position(|w| w == [0xFF, 0xC0]).expect("a baseline JPEG");
    // Marker, length (2), precision (1), then height and width.
    bytes[sof + 5..sof + 9].copy_from_slice(&[0x9C, 0x40, 0x9C, 0x40]);
    bytes
}

/// The site on the fake CMS, whose home page's hero is the photo `name`.
async fn site_with_photo(cms: &FakeCms, name: &str, mime: &str, width: u32, height: u32) -> TestApp {
    cms.put(
        "home",
        "en",
        json!({ "title": "Home", "sections": [ { "__component": "sections.hero", "id": 1, "title": "Welcome", "image": cms.photo(5, name, mime, width, height, true) } ] }),
    );
    let url = cms.url.clone();
    spawn_app_with(|config| config.cms.url = Some(url.parse().unwrap())).await
}

/// The `srcset` candidates of the page's first `<img>` that has one: (address, descriptor width).
async fn candidates(app: &TestApp, path: &str) -> Vec<(String, u32)> {
    let html = app.get(path).await.text().await.unwrap();
    // React writes the attribute `srcSet`; HTML reads it in any case.
    let srcset = html.split("srcSet=\"").nth(1).and_then(|rest| rest.split('"').next()).unwrap_or_else(|| panic!("no srcset in {html}"));
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
    let app = site_with_photo(&cms, "harbour_a1.jpg", "image/jpeg", 1200, 800).await;
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

    let saving = app.client.get(app.url(&at_width(&candidates, 480))).header(ACCEPT, CHROMIUM_ACCEPT).header("save-data", "on").send().await.unwrap();
    assert_eq!(image::load_from_memory(&saving.bytes().await.unwrap()).unwrap().width(), 320, "Save-Data gets the next smaller width");

    // A phone's screen (its browser sends the hint pages ask for) gets the same width in fewer bytes.
    let page = app.get("/").await;
    assert_eq!(page.headers()["accept-ch"], "Sec-CH-DPR, ECT");
    let standard = get(&app, &at_width(&candidates, 800), CHROMIUM_ACCEPT).await.bytes().await.unwrap();
    let phone = app.client.get(app.url(&at_width(&candidates, 800))).header(ACCEPT, CHROMIUM_ACCEPT).header("sec-ch-dpr", "2").header("ect", "4g").send().await.unwrap();
    let phone = phone.bytes().await.unwrap();
    assert_eq!(image::load_from_memory(&phone).unwrap().width(), 800);
    assert!(phone.len() < standard.len(), "{} bytes at DPR 2, {} at 1", phone.len(), standard.len());
    let slow = app.client.get(app.url(&at_width(&candidates, 800))).header(ACCEPT, CHROMIUM_ACCEPT).header("ect", "2g").send().await.unwrap();
    assert_eq!(image::load_from_memory(&slow.bytes().await.unwrap()).unwrap().width(), 640, "a 2G network gets the next smaller width");
    assert!(app.get("/static/logo.svg").await.headers().get("accept-ch").is_none(), "only pages ask for hints");

    let policy = page.headers()[CONTENT_SECURITY_POLICY].to_str().unwrap().to_owned();
    assert!(policy.contains(&format!("img-src 'self' {};", cms.url)), "images from the site and the CMS's media only: {policy}");
}

#[tokio::test]
async fn widths_outside_the_set_and_addresses_content_did_not_name_are_refused() {
    let cms = FakeCms::start(Shape::V4).await;
    cms.put_file("harbour_b2.jpg", jpeg(800, 600), "image/jpeg");
    cms.put_file("secret.jpg", jpeg(800, 600), "image/jpeg");
    let app = site_with_photo(&cms, "harbour_b2.jpg", "image/jpeg", 800, 600).await;
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
async fn a_bomb_is_refused_undecoded_and_a_broken_photo_sends_the_cms_file_instead() {
    let cms = FakeCms::start(Shape::V5).await;
    cms.put_file("bomb_c3.jpg", bomb(), "image/jpeg");
    let app = site_with_photo(&cms, "bomb_c3.jpg", "image/jpeg", 40000, 40000).await;
    let bomb = get(&app, &at_width(&candidates(&app, "/").await, 640), CHROMIUM_ACCEPT).await;
    assert_eq!(bomb.status(), 422);
    assert_eq!(bomb.headers()[CACHE_CONTROL], "public, max-age=300");
    drop(app);

    let truncated = jpeg(1200, 800);
    cms.put_file("broken_d4.jpg", truncated[..400].to_vec(), "image/jpeg");
    let app = site_with_photo(&cms, "broken_d4.jpg", "image/jpeg", 1200, 800).await;
    let candidates = candidates(&app, "/").await;
    for width in [320, 1080] {
        let broken = get(&app, &at_width(&candidates, width), CHROMIUM_ACCEPT).await;
        assert_eq!(broken.status(), 302);
        assert_eq!(broken.headers()[LOCATION], format!("{}/uploads/small_broken_d4.jpg", cms.url).as_str(), "Strapi's own smaller file");
        assert_eq!(broken.headers()[CACHE_CONTROL], "public, max-age=300", "not kept for long: the real one may come");
    }
    assert_eq!(app.get("/").await.status(), 200, "the page is unaffected");
    let again = get(&app, &at_width(&candidates, 320), CHROMIUM_ACCEPT).await;
    assert_eq!(again.status(), 302);
    assert_eq!(cms.file_requests("broken_d4.jpg"), 2, "one fetch per width, the failure remembered");
}

#[tokio::test]
async fn a_burst_of_first_requests_makes_one_fetch_and_encode_and_later_ones_come_from_disk() {
    let cms = FakeCms::start(Shape::V5).await;
    cms.put_file("crowd_e5.jpg", jpeg(1600, 1000), "image/jpeg");
    cms.delay_files(Duration::from_millis(300));
    let app = site_with_photo(&cms, "crowd_e5.jpg", "image/jpeg", 1600, 1000).await;
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
