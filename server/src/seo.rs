//! What crawlers read besides pages: `/robots.txt` and `/sitemap.xml`, the
//! latter listing every page with an address of its own and every item of
//! the collections that have item pages (from their indexes, so every item
//! the CMS holds, with `<lastmod>` from its `updatedAt`), each in both
//! languages with its alternates. An item's photo is listed as an
//! `<image:image>` of its page (the photo lists show of it too, listed once,
//! under the page it belongs to).
//!
//! The sitemap is built once per version of the indexes it lists (they are
//! content: refreshed on their time-to-live, dropped by the webhook) and
//! kept in memory, never built for a request. Past the sitemaps.org limits
//! of one file ([`MAX_URLS`] addresses or [`MAX_BYTES`]) it is split into
//! child sitemaps at `/sitemaps/<n>.xml`, and `/sitemap.xml`, the address
//! `robots.txt` names, becomes their sitemap index. Each file is kept
//! gzipped, written so as it is built (a newsroom's sitemap is some 800
//! bytes an address: 16 MB for 20,000 pages, a twentieth of it gzipped),
//! and sent so to every client that accepts it, unpacked for the others.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{FromRef, Path, State};
use std::io::{Read, Write};

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use contract::Lang;
use contract::content::Collection;
use contract::locations::LocationKind;
use contract::page::PageKind;

use crate::content::{Content, IndexEntry, IndexImage, LoadedIndex};
use crate::manifest::{RouteDef, RouteTable};
use crate::places::Locations;

/// Addresses one sitemap file holds at most.
pub const MAX_URLS: usize = 50_000;
/// Bytes one sitemap file holds at most (uncompressed).
pub const MAX_BYTES: usize = 50 * 1024 * 1024;
const URLSET_OPEN: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" \
                           xmlns:xhtml=\"http://www.w3.org/1999/xhtml\" xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\">\n";
const URLSET_CLOSE: &str = "</urlset>\n";
const XML: &str = "application/xml; charset=utf-8";

/// What the sitemap and `robots.txt` are made of: the route table, the
/// content, the site's address; and the sitemap as last built.
#[derive(Clone)]
pub struct Seo {
    routes: Arc<RouteTable>,
    content: Content,
    /// `SITE_URL`, the sitemap's addresses' origin.
    site_url: Arc<str>,
    sitemap: Arc<Sitemap>,
}

impl Seo {
    pub fn new(routes: Arc<RouteTable>, content: Content, site_url: &str) -> Seo {
        Seo { routes, content, site_url: site_url.into(), sitemap: Arc::default() }
    }

    /// Builds the sitemap now if an index changed (the pre-render pass
    /// asks), so that no crawler waits for it.
    pub async fn refresh_sitemap(&self) {
        self.sitemap.current(self).await;
    }
}

pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Seo: FromRef<S>,
{
    Router::new()
        .route("/robots.txt", get(robots))
        .route("/sitemap.xml", get(sitemap))
        .route("/sitemaps/{file}", get(child))
}

async fn robots(State(seo): State<Seo>) -> Response {
    let body = format!(
        "User-agent: *\nDisallow: /_data/\nDisallow: /api/\nDisallow: /sandbox/\nDisallow: /sw/_data/\n\nSitemap: {}/sitemap.xml\n",
        seo.site_url
    );
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8"), (header::CACHE_CONTROL, "public, max-age=3600")], body)
        .into_response()
}

/// One page in both languages: its path without prefix in each, and for an
/// item its heading and when it last changed in each.
pub struct Entry {
    pub en: String,
    pub sw: String,
    pub item: Option<ItemParts>,
}

pub struct ItemParts {
    pub collection: Collection,
    pub title: [String; 2],
    pub updated: [Option<String>; 2],
    /// The item's photo in each language.
    pub images: [Option<IndexImage>; 2],
}

/// The sitemap as last built, and the index versions it was built from.
#[derive(Default)]
struct Sitemap {
    built: tokio::sync::Mutex<Option<Arc<Built>>>,
}

struct Built {
    versions: Vec<u64>,
    /// One `<urlset>` per file.
    files: Vec<Gzipped>,
    /// The sitemap index, when there is more than one file.
    index: Option<Gzipped>,
}

/// An XML file, gzipped.
struct Gzipped(Bytes);

/// A file being written into a [`Gzipped`], counting its bytes unpacked.
struct GzipWriter {
    encoder: flate2::write::GzEncoder<Vec<u8>>,
    len: usize,
}

impl GzipWriter {
    fn new(start: &str) -> GzipWriter {
        let mut writer =
            GzipWriter { encoder: flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default()), len: 0 };
        writer.push(start);
        writer
    }

    fn push(&mut self, text: &str) {
        self.encoder.write_all(text.as_bytes()).expect("compress to memory");
        self.len += text.len();
    }

    fn finish(mut self, end: &str) -> Gzipped {
        self.push(end);
        let mut body = self.encoder.finish().expect("compress to memory");
        body.shrink_to_fit();
        Gzipped(Bytes::from(body))
    }
}

impl Gzipped {
    /// The file as the request accepts it: gzipped, or unpacked.
    fn respond(&self, request: &HeaderMap) -> Response {
        let mut response = if crate::assets::accepts(request, "gzip") {
            let mut response = self.0.clone().into_response();
            response.headers_mut().insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            response
        } else {
            self.text().into_response()
        };
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(XML));
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=3600"));
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        response
    }

    /// The file unpacked.
    fn text(&self) -> String {
        let mut text = String::new();
        flate2::read::GzDecoder::new(&self.0[..]).read_to_string(&mut text).expect("a file gzipped here unpacks");
        text
    }
}

impl Sitemap {
    /// The sitemap of the current indexes: the one kept, or built now if
    /// an index changed since (one build at a time; the others wait for it).
    async fn current(&self, seo: &Seo) -> Arc<Built> {
        let mut built = self.built.lock().await;
        let listed = indexes(seo).await;
        let locations = locations(seo).await;
        let mut versions = versions(&listed);
        versions.push(locations.as_ref().map_or(0, |(_, version)| *version));
        if let Some(kept) = built.as_ref().filter(|kept| kept.versions == versions) {
            return kept.clone();
        }
        let entries = entries(seo, &listed, locations.as_ref().map(|(l, _)| l));
        drop(listed);
        let site = seo.site_url.to_string();
        let fresh = tokio::task::spawn_blocking(move || build(&site, &entries, versions)).await.expect("sitemap build");
        tracing::info!(files = fresh.files.len(), "sitemap built");
        let fresh = Arc::new(fresh);
        *built = Some(fresh.clone());
        fresh
    }
}

/// Every page the sitemap lists, in both languages, but only the newest
/// `items` of each collection: the addresses pre-rendering warms.
pub async fn addresses(seo: &Seo, items: usize) -> Vec<String> {
    let locations = locations(seo).await;
    let entries = entries(seo, &indexes(seo).await, locations.as_ref().map(|(l, _)| l));
    let mut per_collection: HashMap<Collection, usize> = HashMap::new();
    entries
        .into_iter()
        .filter(|entry| match &entry.item {
            None => true,
            Some(item) => {
                let count = per_collection.entry(item.collection).or_default();
                *count += 1;
                *count <= items
            }
        })
        .flat_map(|entry| [Lang::En.href(&entry.en), Lang::Sw.href(&entry.sw)])
        .collect()
}

/// Every item the indexes hold: its address and heading in each language.
pub async fn items(seo: &Seo) -> Vec<(Lang, String, String)> {
    let entries = entries(seo, &indexes(seo).await, None);
    entries
        .into_iter()
        .filter_map(|entry| {
            let [en_title, sw_title] = entry.item?.title;
            Some([(Lang::En, Lang::En.href(&entry.en), en_title), (Lang::Sw, Lang::Sw.href(&entry.sw), sw_title)])
        })
        .flatten()
        .collect()
}

async fn sitemap(State(seo): State<Seo>, request: HeaderMap) -> Response {
    let built = seo.sitemap.current(&seo).await;
    built.index.as_ref().unwrap_or(&built.files[0]).respond(&request)
}

/// `/sitemaps/<n>.xml`: the `n`th child of the sitemap index.
async fn child(State(seo): State<Seo>, Path(file): Path<String>, request: HeaderMap) -> Response {
    let built = seo.sitemap.current(&seo).await;
    let number = file.strip_suffix(".xml").and_then(|n| n.parse::<usize>().ok()).filter(|n| *n >= 1);
    match number.and_then(|n| built.files.get(n - 1)).filter(|_| built.index.is_some()) {
        Some(file) => file.respond(&request),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// The files of the sitemap of `entries`, split at the limits of one file.
fn build(site: &str, entries: &[Entry], versions: Vec<u64>) -> Built {
    let mut files = Vec::new();
    let (mut file, mut urls) = (GzipWriter::new(URLSET_OPEN), 0);
    for entry in entries {
        let en = format!("{site}{}", Lang::En.href(&entry.en));
        let sw = format!("{site}{}", Lang::Sw.href(&entry.sw));
        let updated = entry.item.as_ref().map_or([None, None], |item| item.updated.clone());
        let images = entry.item.as_ref().map_or([None, None], |item| item.images.clone());
        for ((loc, updated), image) in [(&en, &updated[0]), (&sw, &updated[1])].into_iter().zip(images) {
            let lastmod =
                updated.as_deref().map(|date| format!("<lastmod>{}</lastmod>", escape(date))).unwrap_or_default();
            let image = image.map(|image| image_entry(site, &image)).unwrap_or_default();
            let url = format!(
                "<url><loc>{}</loc>{lastmod}<xhtml:link rel=\"alternate\" hreflang=\"en\" href=\"{}\"/>\
                 <xhtml:link rel=\"alternate\" hreflang=\"sw\" href=\"{}\"/>\
                 <xhtml:link rel=\"alternate\" hreflang=\"x-default\" href=\"{}\"/>{image}</url>\n",
                escape(loc),
                escape(&en),
                escape(&sw),
                escape(&en)
            );
            if urls == MAX_URLS || file.len + url.len() + URLSET_CLOSE.len() > MAX_BYTES {
                files.push(std::mem::replace(&mut file, GzipWriter::new(URLSET_OPEN)).finish(URLSET_CLOSE));
                urls = 0;
            }
            file.push(&url);
            urls += 1;
        }
    }
    files.push(file.finish(URLSET_CLOSE));
    let index = (files.len() > 1).then(|| {
        let mut index = GzipWriter::new("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        for n in 1..=files.len() {
            index.push(&format!("<sitemap><loc>{}/sitemaps/{n}.xml</loc></sitemap>\n", escape(site)));
        }
        index.finish("</sitemapindex>\n")
    });
    Built { versions, files, index }
}

/// A page's photo: its address, absolute (one the CMS gives below the site
/// itself, `/static/…`, on the site's origin), and its description as title.
fn image_entry(site: &str, image: &IndexImage) -> String {
    let loc = if image.url.starts_with('/') && !image.url.starts_with("//") {
        format!("{site}{}", image.url)
    } else {
        image.url.clone()
    };
    if !loc.starts_with("https://") && !loc.starts_with("http://") {
        return String::new();
    }
    let title =
        image.alt.as_deref().map(|alt| format!("<image:title>{}</image:title>", escape(alt))).unwrap_or_default();
    format!("<image:image><image:loc>{}</image:loc>{title}</image:image>", escape(&loc))
}

/// The index of a collection with item pages, in each language (`None`
/// while it cannot be read).
struct Listed<'a> {
    route: &'a RouteDef,
    collection: Collection,
    indexes: [Option<LoadedIndex>; 2],
}

/// The indexes of every collection with item pages.
async fn indexes(seo: &Seo) -> Vec<Listed<'_>> {
    let mut listed = Vec::new();
    for route in seo.routes.all() {
        let Some(collection) = route.item.filter(|_| route.page.is_some() && route.path.contains(":id")) else {
            continue;
        };
        let (en, sw) = tokio::join!(seo.content.index(collection, Lang::En), seo.content.index(collection, Lang::Sw));
        let read = |loaded: Result<LoadedIndex, _>| {
            loaded.map_err(|error| tracing::warn!(%error, collection = collection.api_name(), "sitemap: collection unavailable")).ok()
        };
        listed.push(Listed { route, collection, indexes: [read(en), read(sw)] });
    }
    listed
}

/// What the sitemap is built from: the versions of the indexes.
fn versions(listed: &[Listed]) -> Vec<u64> {
    listed
        .iter()
        .flat_map(|listed| listed.indexes.iter().map(|index| index.as_ref().map_or(0, |index| index.version)))
        .collect()
}

/// The agents and shops (their English names make the addresses of both
/// languages), read now if memory lacks them.
async fn locations(seo: &Seo) -> Option<(Locations, u64)> {
    match seo.content.locations(std::time::Duration::from_secs(10)).await {
        crate::content::Places::Listed(locations, version) => Some((locations, version)),
        crate::content::Places::None(_) | crate::content::Places::Unread => None,
    }
}

/// The listed pages: every route's page for everyone at its address without
/// parameters (`/faq` for `/faq/:item?`), every item of the collections
/// with item pages, and a locator's page per region and district.
fn entries(seo: &Seo, listed: &[Listed], locations: Option<&Locations>) -> Vec<Entry> {
    let mut entries = Vec::new();
    for route in seo.routes.all() {
        let shown = route.page.is_some()
            && route.page != Some(PageKind::NotFound)
            && !route.meta.requires_auth
            && !route.meta.noindex;
        if let Some(address) = route.address().filter(|_| shown) {
            entries.push(Entry { en: address.clone(), sw: address, item: None });
        }
        for listed in listed.iter().filter(|listed| std::ptr::eq(listed.route, &**route)) {
            entries.extend(items_of(listed));
        }
        if let (Some(kind), Some(locations)) =
            (route.locations.filter(|_| route.page == Some(PageKind::Locator)), locations)
        {
            entries.extend(areas_of(route, kind, locations));
        }
    }
    entries
}

/// A locator's page of every region and district with places of `kind`.
fn areas_of(route: &RouteDef, kind: LocationKind, locations: &Locations) -> Vec<Entry> {
    let mut entries = Vec::new();
    for region in locations.regions(kind) {
        let Some(area) = locations.area(&region.slug, None) else { continue };
        let mut paths = vec![route.href(&[("region", &region.slug)])];
        paths.extend(
            locations
                .districts(area, kind)
                .iter()
                .map(|district| route.href(&[("region", &region.slug), ("district", &district.slug)])),
        );
        entries.extend(paths.into_iter().flatten().map(|path| Entry { en: path.clone(), sw: path, item: None }));
    }
    entries
}

/// Every item of a collection with its address in each language.
fn items_of(listed: &Listed) -> Vec<Entry> {
    let [Some(en), sw] = &listed.indexes else { return Vec::new() };
    // The same entry in Swahili: the same document (Strapi 5), else the same id.
    let sw_entries = sw.as_ref().map_or(&[][..], |sw| sw.index().entries());
    let by_document: HashMap<&str, &IndexEntry> =
        sw_entries.iter().filter_map(|e| Some((e.document_id.as_deref()?, e))).collect();
    let by_id: HashMap<u32, &IndexEntry> = sw_entries.iter().map(|e| (e.id, e)).collect();
    en.index()
        .entries()
        .iter()
        .filter_map(|item| {
            let same = match &item.document_id {
                Some(document) => by_document.get(document.as_str()),
                None => by_id.get(&item.id),
            };
            let sw = same.copied().unwrap_or(item);
            let (id, sw_id) = (item.id.to_string(), sw.id.to_string());
            Some(Entry {
                en: listed.route.href(&[("id", &id), ("slug", &item.slug)])?,
                sw: listed.route.href(&[("id", &sw_id), ("slug", &sw.slug)])?,
                item: Some(ItemParts {
                    collection: listed.collection,
                    title: [item.title.clone(), sw.title.clone()],
                    updated: [item.updated_at.clone(), sw.updated_at.clone()],
                    images: [item.image.clone(), sw.image.clone()],
                }),
            })
        })
        .collect()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(n: usize) -> Entry {
        Entry {
            en: format!("/news-event/{n}/story-{n}"),
            sw: format!("/news-event/{n}/habari-{n}"),
            item: Some(ItemParts {
                collection: Collection::NewsUpdates,
                title: [String::new(), String::new()],
                updated: [Some("2025-01-02T03:04:05.000Z".into()), None],
                images: [
                    Some(IndexImage {
                        url: format!("https://cms.site.tz/uploads/photo_{n}.jpg"),
                        alt: Some("Towers & <masts>".into()),
                    }),
                    None,
                ],
            }),
        }
    }

    /// A crawler that accepts gzip gets the file as kept; one that does
    /// not, the same file unpacked.
    #[test]
    fn sends_its_files_gzipped_to_whoever_accepts_it() {
        let built = build("https://site.tz", &(1..=3).map(item).collect::<Vec<_>>(), vec![]);
        let mut gzip = HeaderMap::new();
        gzip.insert(header::ACCEPT_ENCODING, HeaderValue::from_static("gzip, deflate, br"));
        let packed = built.files[0].respond(&gzip);
        assert_eq!(packed.headers()[header::CONTENT_ENCODING], "gzip");
        assert_eq!(packed.headers()[header::VARY], "accept-encoding");
        let plain = built.files[0].respond(&HeaderMap::new());
        assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
        assert_eq!(plain.headers()[header::CONTENT_TYPE], XML);
        assert!(built.files[0].text().starts_with("<?xml"));
    }

    #[test]
    fn splits_into_children_past_the_limit_of_one_file() {
        let small: Vec<Entry> = (1..=10).map(item).collect();
        let built = build("https://site.tz", &small, vec![]);
        assert!(built.index.is_none());
        let text = built.files[0].text();
        assert_eq!(text.matches("<url>").count(), 20);
        assert!(
            text.contains("<loc>https://site.tz/news-event/1/story-1</loc><lastmod>2025-01-02T03:04:05.000Z</lastmod>"),
            "{text}"
        );
        assert!(text.contains("<loc>https://site.tz/sw/news-event/1/habari-1</loc><xhtml:link"), "{text}");
        assert!(
            text.contains("<image:image><image:loc>https://cms.site.tz/uploads/photo_1.jpg</image:loc><image:title>Towers &amp; &lt;masts&gt;</image:title></image:image></url>"),
            "{text}"
        );
        assert_eq!(text.matches("<image:image>").count(), 10, "one per item, in the language it has one");
        let large: Vec<Entry> = (1..=30_001).map(item).collect();
        let built = build("https://site.tz", &large, vec![]);
        let counts: Vec<usize> = built.files.iter().map(|f| f.text().matches("<url>").count()).collect();
        assert_eq!(counts, vec![MAX_URLS, 10_002]);
        let index = built.index.as_ref().unwrap().text();
        assert!(index.contains("<sitemap><loc>https://site.tz/sitemaps/2.xml</loc></sitemap>"), "{index}");
    }
}
