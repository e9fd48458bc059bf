//! The M-Pesa agent and Vodashop locator: `/mpesa-agents` and `/vodashop`
//! (routes of kind `locator`, whose `locations` names the kind of place),
//! and `POST /api/locations/near` for "near me".
//!
//! Every place is in memory ([`crate::places`], one index for both
//! languages), read from the CMS's `locations` collection like an index
//! (every page, its fields only, kept on disk) by the content store: a
//! search never asks the CMS, and an unknown region, district or place is
//! answered from memory. This module says what a locator page shows for its address
//!   (`/mpesa-agents/<region>/<district>?q=&page=`, [`page`]), and the
//!   nearest places open to a visitor's position ([`router`]). The
//!   position comes in a request body, is used for that one answer and is
//!   never logged, kept or put in an address.

use std::time::Duration;

use axum::extract::{FromRef, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use contract::Lang;
use contract::Pager;
use contract::locations::{LocationKind, LocatorPage, NearbyLocations};
use serde::Deserialize;

use crate::content::{Content, Places};
use crate::places::{Locations, WeekTime, on_sphere};

/// Places on a page of results.
pub const PAGE_SIZE: usize = 20;
/// A place typed finds places at most this far from it, metres.
const PLACE_RADIUS: f64 = 50_000.0;
/// A place typed finds at most this many (five pages).
const PLACE_RESULTS: usize = 100;
/// "Near me" looks this far at most, metres; the search's radius grows
/// from nothing until it has [`NEAR_RESULTS`] open places or reaches it.
pub const NEAR_RADIUS: f64 = 100_000.0;
pub const NEAR_RESULTS: usize = 20;
/// Without that many open, the nearest this many are shown, closed or not.
const NEAR_AT_LEAST: usize = 5;
/// A page says which places are open as of this often: part of its cache
/// key, so a cached page is made again within this of a place's opening or
/// closing.
const OPEN_NOW_EVERY: u64 = 15 * 60;
/// The longest a visitor waits for the locations to be read the first time.
const FIRST_READ_WAIT: Duration = Duration::from_secs(3);
/// The longest place name read from `?q=` (the place field's length).
const QUERY_CHARS: usize = contract::protocol::field_lengths::PLACE_QUERY;

/// What a locator address asks: parsed at the boundary.
#[derive(Debug, Clone, PartialEq)]
pub struct Asked {
    pub kind: LocationKind,
    /// Address segments (`dar-es-salaam`, `ilala`).
    pub region: Option<String>,
    pub district: Option<String>,
    /// The form's choices (`?region=&district=`), which move to the address.
    pub chosen_region: Option<String>,
    pub chosen_district: Option<String>,
    pub query: String,
    pub page: u32,
}

impl Asked {
    pub fn parse(
        kind: LocationKind,
        param: impl Fn(&str) -> Option<String>,
        query: impl Fn(&str) -> Option<String>,
    ) -> Asked {
        let slug = |value: Option<String>| value.map(|v| crate::slug::slugify(&v)).filter(|v| !v.is_empty());
        let typed = query("q").unwrap_or_default();
        let typed: String = typed.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(QUERY_CHARS).collect();
        Asked {
            kind,
            region: slug(param("region")),
            district: slug(param("district")),
            chosen_region: slug(query("region")),
            chosen_district: slug(query("district")),
            query: typed,
            page: query("page").and_then(|p| p.trim().parse().ok()).filter(|p| *p >= 1).unwrap_or(1),
        }
    }
}

/// What a locator address is.
pub enum Outcome {
    /// The page, and the versions it is made from (the locations', and the
    /// quarter hour "open now" is of).
    Page(Box<LocatorPage>, [u64; 2]),
    /// The form's choice, at its own address (`/mpesa-agents/arusha`, without language prefix).
    Choose(String),
    /// No such region, district or page of results.
    NotFound,
}

/// What the locator page at `base` (its route's path, `/mpesa-agents`)
/// shows for `asked` in `lang`.
pub async fn page(content: &Content, lang: Lang, base: &str, asked: &Asked) -> Outcome {
    let places = content.locations(FIRST_READ_WAIT).await;
    let loaded = match &places {
        Places::Listed(locations, version) => Some((locations, *version)),
        Places::None(_) | Places::Unread => None,
    };
    if let Some(region) = &asked.chosen_region {
        // A district of another region (the region changed, the district
        // select not yet, without JavaScript) is left out.
        let district = asked.chosen_district.as_ref().filter(|district| {
            loaded.as_ref().is_none_or(|(locations, _)| locations.area(region, Some(district.as_str())).is_some())
        });
        return Outcome::Choose(match district {
            Some(district) => format!("{base}/{region}/{district}"),
            None => format!("{base}/{region}"),
        });
    }
    let Some((locations, version)) = loaded else {
        // None listed (the CMS has no `locations` yet) is a page like any
        // other, saying so, and has no region pages; not read yet is one to
        // come back to.
        let (ready, listed, version) = match &places {
            Places::None(_) if asked.region.is_some() => return Outcome::NotFound,
            Places::None(version) => (true, false, *version),
            Places::Listed(..) | Places::Unread => (false, true, 0),
        };
        let empty = LocatorPage {
            kind: asked.kind,
            regions: Vec::new(),
            region: None,
            districts: Vec::new(),
            district: None,
            query: asked.query.clone(),
            found: None,
            results: Vec::new(),
            total: 0,
            pager: None,
            ready,
            listed,
        };
        return Outcome::Page(Box::new(empty), [version, 0]);
    };
    let seconds = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let quarter = seconds / OPEN_NOW_EVERY;
    let now = WeekTime::of_unix((quarter * OPEN_NOW_EVERY) as i64);
    let (kind, page) = (asked.kind, asked.page as usize);
    let area = match &asked.region {
        Some(region) => match locations.area(region, asked.district.as_deref()) {
            Some(area) => Some(area),
            None => return Outcome::NotFound,
        },
        None => None,
    };
    let mut shown = LocatorPage {
        kind,
        regions: locations.regions(kind),
        region: area.map(|area| locations.region_place(area, kind)),
        districts: area.map(|area| locations.districts(area, kind)).unwrap_or_default(),
        district: area.and_then(|area| locations.district_place(area, kind)),
        query: asked.query.clone(),
        found: None,
        results: Vec::new(),
        total: 0,
        pager: None,
        ready: true,
        listed: true,
    };
    let skip = (page - 1) * PAGE_SIZE;
    if !asked.query.is_empty() {
        if let Some(place) = locations.find_place(&asked.query) {
            let near: Vec<(usize, f64)> =
                locations.nearest_to(kind, &place, PLACE_RADIUS).take(PLACE_RESULTS).collect();
            shown.total = near.len() as u32;
            shown.results =
                near.iter().skip(skip).take(PAGE_SIZE).map(|(n, d)| locations.hit(*n, now, Some(*d), lang)).collect();
            shown.found = Some(place.label);
        }
    } else if let Some(area) = area {
        let run = locations.in_area(area, kind);
        shown.total = run.len() as u32;
        shown.results = run.skip(skip).take(PAGE_SIZE).map(|n| locations.hit(n, now, None, lang)).collect();
    }
    let pages = (shown.total as usize).div_ceil(PAGE_SIZE).max(1);
    if page > pages {
        return Outcome::NotFound;
    }
    if pages > 1 {
        shown.pager = Some(Pager { page: page as u32, pages: pages as u32 });
    }
    Outcome::Page(Box::new(shown), [version, quarter])
}

pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Content: FromRef<S>,
{
    Router::new().route(contract::protocol::endpoints::LOCATIONS_NEAR, post(near))
}

/// A visitor's position: what "near me" sends.
#[derive(Debug, Deserialize)]
struct NearBody {
    kind: String,
    lang: Option<String>,
    latitude: f64,
    longitude: f64,
}

/// The nearest places of a kind open now to a position (sorted by distance);
/// with fewer than [`NEAR_AT_LEAST`] open within [`NEAR_RADIUS`], the
/// nearest whatever their hours. A body that is not a position answers 422,
/// logged without the position.
async fn near(State(content): State<Content>, body: axum::body::Bytes) -> Response {
    let refused = |why: &str| {
        tracing::info!(why, "a near-me request that is no position");
        let mut response = (axum::http::StatusCode::UNPROCESSABLE_ENTITY, Json(serde_json::json!({}))).into_response();
        response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        response
    };
    let Ok(asked) = serde_json::from_slice::<NearBody>(&body) else { return refused("not a position") };
    let Some(kind) = LocationKind::parse(&asked.kind) else { return refused("no such kind") };
    let (lat, lng) = (asked.latitude, asked.longitude);
    if !lat.is_finite() || !lng.is_finite() || !(-90.0..=90.0).contains(&lat) || !(-180.0..=180.0).contains(&lng) {
        return refused("no such position");
    }
    let lang = Lang::parse(asked.lang.as_deref().unwrap_or("en"));
    let results = match content.locations(FIRST_READ_WAIT).await {
        Places::Listed(locations, _) => nearest_open(&locations, kind, on_sphere(lat, lng), WeekTime::now(), lang),
        Places::None(_) | Places::Unread => Vec::new(),
    };
    let mut response = Json(NearbyLocations { results }).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// See [`near`].
pub fn nearest_open(
    locations: &Locations,
    kind: LocationKind,
    point: [f64; 3],
    now: WeekTime,
    lang: Lang,
) -> Vec<contract::locations::LocationHit> {
    let open: Vec<(usize, f64)> = locations
        .nearest(kind, point, NEAR_RADIUS)
        .filter(|(n, _)| locations.open(*n, now))
        .take(NEAR_RESULTS)
        .collect();
    let chosen = if open.len() >= NEAR_AT_LEAST {
        open
    } else {
        locations.nearest(kind, point, NEAR_RADIUS).take(NEAR_AT_LEAST).collect()
    };
    chosen.into_iter().map(|(n, d)| locations.hit(n, now, Some(d), lang)).collect()
}
