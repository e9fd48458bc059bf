//! Every agent and shop in memory ([`Locations`]): one index for both
//! languages, since what a place is called and where it is are proper nouns
//! and codes. The CMS's entries are parsed at the boundary into compact
//! records (52 bytes: the position in f32 degrees, within half a metre at
//! Tanzania's longitudes; the phone as a number; streets and landmarks,
//! which repeat, interned once; names in one arena), sorted so that each
//! region's and district's places of a kind are one run of them, with a
//! spatial index (an R*-tree of `rstar`) per kind for the nearest places
//! to a point, and the names of streets, wards, districts and regions for a
//! place typed.
//!
//! The entries come from [`PlaceList`] (`parse`), and distances on the
//! Earth from `geometry`.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use contract::Lang;
use contract::locations::{LocationHit, LocationKind, LocationService, Place, WeekHours};
use contract::repair::Dropped;
use rstar::primitives::GeomWithData;
use rstar::{RTree, RTreeNode};
use serde_json::Value;

use super::geometry::{chord_squared, metres, on_sphere};
use super::hours::{Hours, WeekTime};
use super::parse::{DISTRICT, PlaceList, REGION, STREET};
use crate::slug::slugify;

/// Tanzania's country code, before a national number (`+255754000111`).
const COUNTRY_CODE: &str = "+255";

type Point = GeomWithData<[f32; 3], u32>;

/// The agents and shops, shared by every page that shows them in either language.
#[derive(Clone, Default)]
pub struct Locations(Arc<Index>);

#[derive(Default)]
struct Index {
    /// By kind, region, district, street, name.
    records: Vec<Record>,
    /// Every record's name, one after another in the records' order.
    names: String,
    /// Streets and landmarks, each once.
    phrases: Phrases,
    regions: Vec<Region>,
    districts: Vec<District>,
    /// Per kind ([`LocationKind::ALL`]'s order): each record's point.
    trees: [RTree<Point>; 2],
    /// Names a visitor may type, normalised ([`normalize`]), sorted.
    places: Vec<PlaceName>,
}

/// One place.
#[derive(Debug, Clone, PartialEq)]
struct Record {
    id: u32,
    /// The national number (`754000111`, dialled `+255754000111`); 0: none.
    phone: u32,
    /// WGS 84 degrees.
    latitude: f32,
    longitude: f32,
    /// Where its name ends in `names`; it starts where the previous record's ends.
    name_end: u32,
    /// Its street or ward, and its landmark in English and in Swahili, as
    /// [`Phrases`] numbers them (0: none).
    street: u32,
    landmark: [u32; 2],
    region: u16,
    district: u16,
    hours: [Hours; 3],
    kind: LocationKind,
    services: u8,
}

/// 180,000 places are 9.4 MB of these.
const _: () = assert!(std::mem::size_of::<Record>() == 52);

/// Texts many places share, each kept once and numbered: phrase `n` is
/// `text[ends[n - 1]..ends[n]]`; phrase 0 is the empty text.
#[derive(Debug, Clone, PartialEq)]
struct Phrases {
    text: String,
    ends: Vec<u32>,
}

impl Default for Phrases {
    fn default() -> Phrases {
        Phrases { text: String::new(), ends: vec![0] }
    }
}

impl Phrases {
    fn get(&self, n: u32) -> &str {
        match n as usize {
            0 => "",
            n => &self.text[self.ends[n - 1] as usize..self.ends[n] as usize],
        }
    }
}

/// Numbers phrases while the index is built, from the numbers a
/// [`PlaceList`] gives its texts.
#[derive(Default)]
struct Interner {
    phrases: Phrases,
    /// By text number: its phrase number, 0 until it is first seen.
    numbers: Vec<u32>,
}

impl Interner {
    fn number(&mut self, list: &PlaceList, text: u32) -> u32 {
        if text == 0 {
            return 0;
        }
        if self.numbers.is_empty() {
            self.numbers = vec![0; list.texts.len() + 1];
        }
        let number = &mut self.numbers[text as usize];
        if *number == 0 {
            self.phrases.text.push_str(list.text(text));
            self.phrases.ends.push(self.phrases.text.len() as u32);
            *number = (self.phrases.ends.len() - 1) as u32;
        }
        *number
    }
}

#[derive(Debug, Clone, PartialEq)]
struct Region {
    name: String,
    slug: String,
    /// Per kind: its records.
    runs: [Range<u32>; 2],
    /// Its districts, by name.
    districts: Vec<u16>,
}

#[derive(Debug, Clone, PartialEq)]
struct District {
    name: String,
    slug: String,
    runs: [Range<u32>; 2],
}

/// A name typed places are found by, and where that place is.
#[derive(Debug, Clone, PartialEq)]
struct PlaceName {
    key: String,
    /// As shown: `Kariakoo, Ilala`.
    label: String,
    point: [f64; 3],
    /// Places it has: the larger wins among equal names.
    count: u32,
}

/// A region and, perhaps, one of its districts, as an address names them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Area {
    region: u16,
    district: Option<u16>,
}

/// A place found by a typed name.
pub struct FoundPlace {
    pub label: String,
    point: [f64; 3],
}

impl std::fmt::Debug for Locations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Locations({} places, {} regions)", self.0.records.len(), self.0.regions.len())
    }
}

impl PartialEq for Locations {
    fn eq(&self, other: &Locations) -> bool {
        let (a, b) = (&self.0, &other.0);
        Arc::ptr_eq(a, b)
            || (a.records == b.records
                && a.names == b.names
                && a.phrases == b.phrases
                && a.regions == b.regions
                && a.districts == b.districts)
    }
}

/// A name as typed places are looked up by: lower case, letters and digits
/// with single spaces.
pub fn normalize(name: &str) -> String {
    slugify(name).replace('-', " ")
}

fn kind_index(kind: LocationKind) -> usize {
    match kind {
        LocationKind::Agent => 0,
        LocationKind::Shop => 1,
    }
}

fn lang_index(lang: Lang) -> usize {
    match lang {
        Lang::En => 0,
        Lang::Sw => 1,
    }
}

impl Locations {
    /// The index of the places `list` read.
    pub(super) fn build(list: &PlaceList) -> Locations {
        Locations(Arc::new(Index::build(list)))
    }

    /// The locations of a normalised answer (a list of entries) read as
    /// one page (see [`PlaceList`]).
    pub fn parse(raw: Value) -> (Locations, Vec<Dropped>) {
        let mut list = PlaceList::default();
        list.read_page(raw);
        list.index()
    }

    pub fn is_empty(&self) -> bool {
        self.0.records.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.records.len()
    }

    /// Bytes the index holds on the heap (the R-trees' nodes estimated:
    /// bulk loading fills them, six to a parent).
    pub fn heap_bytes(&self) -> usize {
        let index = &self.0;
        let tree_bytes: usize =
            index.trees.iter().map(|tree| tree.size() * std::mem::size_of::<RTreeNode<Point>>() * 6 / 5).sum();
        let names: usize = index
            .regions
            .iter()
            .map(|r| r.name.capacity() + r.slug.capacity() + r.districts.capacity() * 2)
            .sum::<usize>()
            + index.districts.iter().map(|d| d.name.capacity() + d.slug.capacity()).sum::<usize>()
            + index.places.iter().map(|p| p.key.capacity() + p.label.capacity()).sum::<usize>();
        index.records.capacity() * std::mem::size_of::<Record>()
            + index.names.capacity()
            + index.phrases.text.capacity()
            + index.phrases.ends.capacity() * 4
            + index.regions.capacity() * std::mem::size_of::<Region>()
            + index.districts.capacity() * std::mem::size_of::<District>()
            + index.places.capacity() * std::mem::size_of::<PlaceName>()
            + names
            + tree_bytes
    }

    /// Regions with places of `kind`, by name.
    pub fn regions(&self, kind: LocationKind) -> Vec<Place> {
        let k = kind_index(kind);
        let mut regions: Vec<Place> = self
            .0
            .regions
            .iter()
            .filter(|r| !r.runs[k].is_empty())
            .map(|r| place(&r.name, &r.slug, &r.runs[k]))
            .collect();
        regions.sort_by_cached_key(|r| normalize(&r.name));
        regions
    }

    /// The districts of `area`'s region with places of `kind`, by name.
    pub fn districts(&self, area: Area, kind: LocationKind) -> Vec<Place> {
        let k = kind_index(kind);
        self.0.regions[area.region as usize]
            .districts
            .iter()
            .map(|d| &self.0.districts[*d as usize])
            .filter(|d| !d.runs[k].is_empty())
            .map(|d| place(&d.name, &d.slug, &d.runs[k]))
            .collect()
    }

    /// The region (and district) whose address segments these are.
    pub fn area(&self, region: &str, district: Option<&str>) -> Option<Area> {
        let r = self.0.regions.iter().position(|r| r.slug == region)?;
        let district = match district {
            None => None,
            Some(slug) => {
                Some(*self.0.regions[r].districts.iter().find(|d| self.0.districts[**d as usize].slug == slug)?)
            }
        };
        Some(Area { region: r as u16, district })
    }

    pub fn region_place(&self, area: Area, kind: LocationKind) -> Place {
        let region = &self.0.regions[area.region as usize];
        place(&region.name, &region.slug, &region.runs[kind_index(kind)])
    }

    pub fn district_place(&self, area: Area, kind: LocationKind) -> Option<Place> {
        let district = &self.0.districts[area.district? as usize];
        Some(place(&district.name, &district.slug, &district.runs[kind_index(kind)]))
    }

    /// Records of `kind` in `area`, by district, street and name.
    pub fn in_area(&self, area: Area, kind: LocationKind) -> Range<usize> {
        let k = kind_index(kind);
        let run = match area.district {
            Some(d) => &self.0.districts[d as usize].runs[k],
            None => &self.0.regions[area.region as usize].runs[k],
        };
        run.start as usize..run.end as usize
    }

    /// The place a visitor's typed name is: a street or ward, district or
    /// region of that name, else the first whose name starts with it, else
    /// contains it; the one with the most places among equals.
    pub fn find_place(&self, typed: &str) -> Option<FoundPlace> {
        let key = normalize(typed);
        if key.is_empty() {
            return None;
        }
        let places = &self.0.places;
        let from = places.partition_point(|p| p.key.as_str() < key.as_str());
        let exact = places[from..].iter().take_while(|p| p.key == key).max_by_key(|p| p.count);
        let prefix = || places[from..].iter().take_while(|p| p.key.starts_with(&key)).max_by_key(|p| p.count);
        let within = || places.iter().filter(|p| p.key.contains(&key)).max_by_key(|p| p.count);
        exact.or_else(prefix).or_else(within).map(|p| FoundPlace { label: p.label.clone(), point: p.point })
    }

    /// Records of `kind` nearest to `point`, nearest first, with their
    /// distance in metres, up to `within` metres.
    pub fn nearest(&self, kind: LocationKind, point: [f64; 3], within: f64) -> impl Iterator<Item = (usize, f64)> + '_ {
        let bound = chord_squared(within) as f32;
        self.0.trees[kind_index(kind)]
            .nearest_neighbor_iter_with_distance_2(&point.map(|axis| axis as f32))
            .take_while(move |(_, d2)| *d2 <= bound)
            .map(move |(p, _)| (p.data as usize, metres(&self.point_of(p.data as usize), &point)))
    }

    /// [`Locations::nearest`] from a place found by name.
    pub fn nearest_to(
        &self,
        kind: LocationKind,
        place: &FoundPlace,
        within: f64,
    ) -> impl Iterator<Item = (usize, f64)> + '_ {
        self.nearest(kind, place.point, within)
    }

    /// Whether record `n` is open at `now`.
    pub fn open(&self, n: usize, now: WeekTime) -> bool {
        now.open(&self.0.records[n].hours)
    }

    /// Record `n` as a page in `lang` shows it.
    pub fn hit(&self, n: usize, now: WeekTime, distance: Option<f64>, lang: Lang) -> LocationHit {
        let index = &self.0;
        let record = &index.records[n];
        let optional = |text: &str| Some(text.to_owned()).filter(|t| !t.is_empty());
        let round = |degrees: f32| (f64::from(degrees) * 1e5).round() / 1e5;
        let own = lang_index(lang);
        let landmark =
            [record.landmark[own], record.landmark[1 - own]].into_iter().find(|phrase| *phrase != 0).unwrap_or(0);
        LocationHit {
            id: record.id,
            name: self.name(n).to_owned(),
            kind: record.kind,
            region: index.regions[record.region as usize].name.clone(),
            district: index.districts[record.district as usize].name.clone(),
            street: optional(index.phrases.get(record.street)),
            landmark: optional(index.phrases.get(landmark)),
            latitude: round(record.latitude),
            longitude: round(record.longitude),
            services: LocationService::ALL.into_iter().filter(|s| (record.services & (1 << *s as u8)) != 0).collect(),
            hours: WeekHours {
                weekdays: record.hours[0].shown(),
                saturday: record.hours[1].shown(),
                sunday: record.hours[2].shown(),
            },
            open_now: now.open(&record.hours),
            distance: distance.map(|d| d.round().min(f64::from(u32::MAX)) as u32),
            phone: (record.phone != 0).then(|| format!("{COUNTRY_CODE}{:09}", record.phone)),
        }
    }

    fn name(&self, n: usize) -> &str {
        let records = &self.0.records;
        let start = if n == 0 { 0 } else { records[n - 1].name_end as usize };
        &self.0.names[start..records[n].name_end as usize]
    }

    /// Record `n`'s point on the unit sphere, in f64.
    fn point_of(&self, n: usize) -> [f64; 3] {
        let record = &self.0.records[n];
        on_sphere(f64::from(record.latitude), f64::from(record.longitude))
    }

    /// Every record's position and kind, for tests and the bench's brute force.
    pub fn points(&self) -> impl Iterator<Item = (LocationKind, f64, f64)> + '_ {
        self.0.records.iter().map(|r| (r.kind, f64::from(r.latitude), f64::from(r.longitude)))
    }
}

fn place(name: &str, slug: &str, run: &Range<u32>) -> Place {
    Place { slug: slug.to_owned(), name: name.to_owned(), count: run.end - run.start }
}

/// A name typed places are found by, as the texts of a [`PlaceList`] make it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Named {
    /// `Kariakoo, Ilala`.
    Street {
        street: u32,
        district: u32,
    },
    /// `Ilala, Dar es Salaam`.
    District {
        district: u32,
        region: u32,
    },
    Region(u32),
}

impl Index {
    fn build(list: &PlaceList) -> Index {
        let fold = |text: &str| normalize(text);
        let entries = &list.entries;
        // Each text's rank by its folded form (equal ones share it): entries
        // are sorted by kind, region, district and street by these, then by
        // name and id within each run.
        let rank = {
            let folded: Vec<String> =
                std::iter::once(String::new()).chain(list.texts.iter().map(|text| fold(text))).collect();
            let mut order: Vec<u32> = (0..folded.len() as u32).collect();
            order.sort_by(|a, b| folded[*a as usize].cmp(&folded[*b as usize]));
            let mut rank = vec![0u32; folded.len()];
            for pair in 1..order.len() {
                let (before, this) = (order[pair - 1] as usize, order[pair] as usize);
                rank[this] = rank[before] + u32::from(folded[before] != folded[this]);
            }
            rank
        };
        let group = |n: &u32| {
            let e = &entries[*n as usize];
            (
                kind_index(e.kind),
                rank[e.texts[REGION] as usize],
                rank[e.texts[DISTRICT] as usize],
                rank[e.texts[STREET] as usize],
            )
        };
        let mut order: Vec<u32> = (0..entries.len() as u32).collect();
        order.sort_unstable_by_key(group);
        for run in order.chunk_by_mut(|a, b| group(a) == group(b)) {
            run.sort_by_cached_key(|n| (fold(&entries[*n as usize].name), entries[*n as usize].id));
        }
        let mut index = Index::default();
        let mut phrases = Interner::default();
        let mut region_of: HashMap<u32, u16> = HashMap::new();
        let mut district_of: HashMap<(u16, u32), u16> = HashMap::new();
        let mut points: [Vec<Point>; 2] = [Vec::new(), Vec::new()];
        // Per name: sum of points, count.
        let mut named: HashMap<Named, ([f64; 3], u32)> = HashMap::new();
        index.records.reserve_exact(entries.len());
        for entry in order.into_iter().map(|n| &entries[n as usize]) {
            let n = index.records.len() as u32;
            let k = kind_index(entry.kind);
            let [region_text, district_text, street_text, english, swahili] = entry.texts;
            let region = *region_of.entry(rank[region_text as usize]).or_insert_with(|| {
                let name = list.text(region_text);
                index.regions.push(Region {
                    name: name.to_owned(),
                    slug: slugify(name),
                    runs: [0..0, 0..0],
                    districts: Vec::new(),
                });
                (index.regions.len() - 1) as u16
            });
            let district = *district_of.entry((region, rank[district_text as usize])).or_insert_with(|| {
                let name = list.text(district_text);
                index.districts.push(District { name: name.to_owned(), slug: slugify(name), runs: [0..0, 0..0] });
                index.regions[region as usize].districts.push((index.districts.len() - 1) as u16);
                (index.districts.len() - 1) as u16
            });
            extend(&mut index.regions[region as usize].runs[k], n);
            extend(&mut index.districts[district as usize].runs[k], n);
            index.names.push_str(&entry.name);
            let point = on_sphere(f64::from(entry.latitude), f64::from(entry.longitude));
            points[k].push(Point::new(point.map(|axis| axis as f32), n));
            let mut name = |name: Named| {
                let counted = named.entry(name).or_insert(([0.0; 3], 0));
                (0..3).for_each(|axis| counted.0[axis] += point[axis]);
                counted.1 += 1;
            };
            if street_text != 0 {
                name(Named::Street { street: street_text, district: district_text });
            }
            name(Named::District { district: district_text, region: region_text });
            name(Named::Region(region_text));
            index.records.push(Record {
                id: entry.id,
                phone: entry.phone,
                latitude: entry.latitude,
                longitude: entry.longitude,
                name_end: index.names.len() as u32,
                street: phrases.number(list, street_text),
                landmark: [phrases.number(list, english), phrases.number(list, swahili)],
                region,
                district,
                hours: entry.hours,
                kind: entry.kind,
                services: entry.services,
            });
        }
        index.names.shrink_to_fit();
        index.phrases = phrases.phrases;
        index.phrases.text.shrink_to_fit();
        index.phrases.ends.shrink_to_fit();
        for region in &mut index.regions {
            let districts = &index.districts;
            region.districts.sort_by_cached_key(|d| fold(&districts[*d as usize].name));
        }
        index.trees = points.map(RTree::bulk_load);
        index.places = named
            .into_iter()
            .map(|(name, (sum, count))| {
                let label = match name {
                    Named::Street { street, district } => format!("{}, {}", list.text(street), list.text(district)),
                    Named::District { district, region } => format!("{}, {}", list.text(district), list.text(region)),
                    Named::Region(region) => list.text(region).to_owned(),
                };
                // The key is the name before its comma: "Kariakoo" finds "Kariakoo, Ilala".
                let key = fold(label.split(',').next().unwrap_or(&label));
                let length = (sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]).sqrt().max(f64::MIN_POSITIVE);
                PlaceName { key, label, point: sum.map(|axis| axis / length), count }
            })
            .collect();
        index.places.sort_by(|a, b| a.key.cmp(&b.key).then(b.count.cmp(&a.count)).then(a.label.cmp(&b.label)));
        index
    }
}

/// Makes `run` (empty, or ending at `n`) take in record `n`.
fn extend(run: &mut Range<u32>, n: u32) {
    if run.start == run.end {
        *run = n..n + 1;
    } else {
        run.end = n + 1;
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::geometry::EARTH_RADIUS;
    use super::*;

    /// `count` places scattered over Tanzania, from a fixed seed.
    pub fn generated(count: u32) -> Value {
        let mut random = fastrand::Rng::with_seed(0x9E37_79B9_7F4A_7C15);
        Value::Array(
            (1..=count)
                .map(|id| {
                    let (lat, lng) = (-11.5 + random.f64() * 10.5, 29.5 + random.f64() * 10.5);
                    json!({ "id": id, "name": format!("Agent {id}"), "kind": if id % 10 == 0 { "shop" } else { "agent" },
                            "region": format!("Region {}", id % 7), "district": format!("District {}", id % 23),
                            "latitude": lat, "longitude": lng, "services": ["cash-in"], "hoursWeekdays": "08:00-20:00" })
                })
                .collect(),
        )
    }

    #[test]
    fn nearest_is_what_a_brute_force_finds() {
        let (locations, dropped) = Locations::parse(generated(5_000));
        assert!(dropped.is_empty());
        let mut random = fastrand::Rng::with_seed(7);
        for _ in 0..50 {
            let (lat, lng) = (-11.0 + random.f64() * 10.0, 30.0 + random.f64() * 10.0);
            let point = on_sphere(lat, lng);
            for kind in LocationKind::ALL {
                let found: Vec<f64> = locations.nearest(kind, point, 2_000_000.0).take(20).map(|(_, d)| d).collect();
                let mut brute: Vec<f64> = locations
                    .points()
                    .filter(|(k, ..)| *k == kind)
                    .map(|(_, la, ln)| haversine(lat, lng, la, ln))
                    .collect();
                brute.sort_by(f64::total_cmp);
                assert_eq!(found.len(), 20);
                for (a, b) in found.iter().zip(&brute) {
                    assert!((a - b).abs() < 0.5, "{a} against {b}");
                }
            }
        }
    }

    /// Read page after page, as the cache reads the CMS, the places are
    /// the index one answer makes; and so they are read back from disk.
    #[test]
    fn pages_read_one_after_another_and_read_back_from_disk_make_the_same_index() {
        let Value::Array(mut items) = generated(1_050) else { unreachable!() };
        items[3] = json!({ "id": 4, "name": "No kind", "region": "Arusha", "district": "Arusha", "latitude": -3.4, "longitude": 36.7 });
        items[700] = items[10].clone();
        let (whole, dropped) = Locations::parse(Value::Array(items.clone()));
        let mut list = PlaceList::default();
        for page in items.chunks(100) {
            list.read_page(Value::Array(page.to_vec()));
        }
        let (paged, paged_dropped) = list.index();
        assert_eq!(paged, whole);
        assert_eq!(paged_dropped, dropped);
        assert_eq!(
            dropped.iter().map(|d| d.path.as_str()).collect::<Vec<_>>(),
            ["[3]"],
            "its place in the whole answer"
        );
        assert_eq!(list.len(), 1_048);

        let kept = serde_json::to_vec(&list).unwrap();
        // Against some 370 as the CMS gives them (this one's positions with all of f32's digits).
        assert!(kept.len() < 150 * list.len(), "{} bytes a place on disk", kept.len() / list.len());
        let back: PlaceList = serde_json::from_slice(&kept).unwrap();
        assert_eq!(back.index().0, whole);
        let hit = |l: &Locations| l.hit(5, WeekTime::at(1, 9 * 60), None, Lang::Sw);
        assert_eq!(hit(&back.index().0), hit(&whole));
        // A file that names a text it lacks is refused, not served.
        let damaged = String::from_utf8(kept).unwrap().replacen("\"texts\":[", "\"texts\":[\"x\"],\"was\":[", 1);
        assert!(serde_json::from_str::<PlaceList>(&damaged).is_err());
    }

    fn haversine(lat1: f64, lng1: f64, lat2: f64, lng2: f64) -> f64 {
        let (p1, p2) = (lat1.to_radians(), lat2.to_radians());
        let (dp, dl) = ((lat2 - lat1).to_radians(), (lng2 - lng1).to_radians());
        let a = (dp / 2.0).sin().powi(2) + p1.cos() * p2.cos() * (dl / 2.0).sin().powi(2);
        2.0 * EARTH_RADIUS * a.sqrt().asin()
    }

    #[test]
    fn entries_that_cannot_be_shown_are_left_out_and_the_rest_grouped() {
        let raw = json!([
            { "id": 1, "name": "Mama Neema Shop", "kind": "agent", "region": "Dar es Salaam", "district": "Ilala", "street": "Kariakoo",
              "latitude": -6.8187, "longitude": 39.2775, "services": ["cash-in", "CASH OUT", "teleport"], "phone": "0754 000 111",
              "landmark": "Opposite the market", "landmarkSw": "Mkabala na soko",
              "hoursWeekdays": "07:30-21:00", "hoursSunday": "" },
            { "id": 2, "name": "Vodashop Mlimani City", "kind": "shop", "region": "Dar es Salaam", "district": "Kinondoni",
              "latitude": "-6.7724", "longitude": "39.2207", "services": "sim-registration,devices", "hoursWeekdays": "09:00-18:00",
              "landmark": "Opposite the mall", "phone": "12345" },
            { "id": 3, "name": "Nowhere", "kind": "agent", "region": "Arusha", "district": "Arusha", "latitude": 0, "longitude": 0 },
            { "id": 4, "name": "No kind", "region": "Arusha", "district": "Arusha", "latitude": -3.4, "longitude": 36.7 },
            { "id": 5, "name": "Far north", "kind": "agent", "region": "Arusha", "district": "Arusha", "latitude": 95, "longitude": 36.7 },
            { "id": 1, "name": "Twice", "kind": "agent", "region": "Dar es Salaam", "district": "Ilala", "latitude": -6.8, "longitude": 39.2 },
            "junk"
        ]);
        let (locations, dropped) = Locations::parse(raw);
        assert_eq!(locations.len(), 2);
        assert_eq!(dropped.len(), 4);
        let regions = locations.regions(LocationKind::Agent);
        assert_eq!(regions.iter().map(|r| (r.slug.as_str(), r.count)).collect::<Vec<_>>(), vec![("dar-es-salaam", 1)]);
        let area = locations.area("dar-es-salaam", Some("ilala")).unwrap();
        assert!(locations.area("dar-es-salaam", Some("nowhere")).is_none());
        let range = locations.in_area(area, LocationKind::Agent);
        let hit = locations.hit(range.start, WeekTime::at(0, 8 * 60), None, Lang::En);
        assert_eq!(hit.name, "Mama Neema Shop");
        assert_eq!(hit.services, vec![LocationService::CashIn, LocationService::CashOut]);
        assert_eq!(hit.phone.as_deref(), Some("+255754000111"));
        assert_eq!(hit.street.as_deref(), Some("Kariakoo"));
        assert_eq!(hit.landmark.as_deref(), Some("Opposite the market"));
        assert_eq!(
            locations.hit(range.start, WeekTime::at(0, 8 * 60), None, Lang::Sw).landmark.as_deref(),
            Some("Mkabala na soko")
        );
        assert_eq!((hit.latitude, hit.longitude), (-6.8187, 39.2775), "f32 degrees, shown to 5 decimals as given");
        assert_eq!(hit.hours.weekdays.as_deref(), Some("07:30–21:00"));
        assert_eq!(hit.hours.sunday, None);
        assert!(hit.open_now);
        assert!(!locations.open(range.start, WeekTime::at(6, 8 * 60)));
        let found = locations.find_place("kariakoo").unwrap();
        assert_eq!(found.label, "Kariakoo, Ilala");
        assert!(locations.find_place("Zanzibar").is_none());
        let (n, distance) = locations.nearest_to(LocationKind::Shop, &found, 50_000.0).next().unwrap();
        let shop = locations.hit(n, WeekTime::at(0, 0), None, Lang::Sw);
        assert_eq!(shop.name, "Vodashop Mlimani City");
        assert_eq!(
            shop.landmark.as_deref(),
            Some("Opposite the mall"),
            "the English landmark where there is no Swahili one"
        );
        assert_eq!(shop.phone, None);
        assert!((6_000.0..9_000.0).contains(&distance), "{distance}");
    }
}
