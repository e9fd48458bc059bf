//! The CMS's `locations` entries read at the boundary, page after page,
//! each as the contract's [`Location`] along its schema
//! ([`contract::repair`]), into
//! the compact [`PlaceList`] the index is built from and that is kept on
//! disk: an entry that cannot be shown is left out and reported, with why.

use contract::locations::{Location, LocationKind};
use contract::repair::{self, Dropped};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::hours::Hours;
use super::index::Locations;
use crate::msisdn::national_number;

/// Entries dropped are listed one by one up to this many; the rest are counted.
const DROPPED_LISTED: usize = 20;

/// The CMS's entries as the boundary reads them, one page of its answer
/// after another ([`PlaceList::read_page`]), each page's JSON dropped before
/// the next: what a read of every place holds until the index is built
/// from it (about 90 bytes a place, the texts places share kept once,
/// against some 4 KB a place as JSON values), and what is kept on disk, as
/// a compact JSON array of arrays, for a restart while the CMS is down.
#[derive(Default)]
pub struct PlaceList {
    /// Regions, districts, streets and landmarks, each once; an entry names
    /// them by number from 1 (0: none).
    pub(super) texts: indexmap::IndexSet<Box<str>>,
    pub(super) entries: Vec<Entry>,
    /// The ids read so far: an id seen twice (pages read while an entry
    /// moved) counts once.
    seen: std::collections::HashSet<u32>,
    /// Entries read so far, shown or not: where the next one is in the answer.
    read: usize,
    dropped: Vec<Dropped>,
    left_out: usize,
}

/// An entry of the CMS as the boundary reads it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(into = "EntryRow", from = "EntryRow")]
pub(super) struct Entry {
    pub(super) id: u32,
    pub(super) kind: LocationKind,
    pub(super) services: u8,
    /// Its region, district, street, and landmark in English and in
    /// Swahili, as [`PlaceList::texts`] numbers them.
    pub(super) texts: [u32; 5],
    pub(super) name: Box<str>,
    pub(super) phone: u32,
    pub(super) latitude: f32,
    pub(super) longitude: f32,
    pub(super) hours: [Hours; 3],
}

/// An [`Entry`] on disk: an array, its fields in this order.
type EntryRow = (u32, LocationKind, u8, [u32; 5], Box<str>, u32, f32, f32, [Hours; 3]);

impl From<Entry> for EntryRow {
    fn from(e: Entry) -> EntryRow {
        (e.id, e.kind, e.services, e.texts, e.name, e.phone, e.latitude, e.longitude, e.hours)
    }
}

impl From<EntryRow> for Entry {
    fn from((id, kind, services, texts, name, phone, latitude, longitude, hours): EntryRow) -> Entry {
        Entry { id, kind, services, texts, name, phone, latitude, longitude, hours }
    }
}

/// Where an entry's region, district and street are in its `texts`.
pub(super) const REGION: usize = 0;
pub(super) const DISTRICT: usize = 1;
pub(super) const STREET: usize = 2;

/// A [`PlaceList`] as it is kept on disk.
#[derive(Serialize)]
struct PlacesOnDisk<'a> {
    texts: Vec<&'a str>,
    entries: &'a [Entry],
}

#[derive(Deserialize)]
struct PlacesFromDisk {
    texts: Vec<Box<str>>,
    entries: Vec<Entry>,
}

impl Serialize for PlaceList {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        PlacesOnDisk { texts: self.texts.iter().map(|text| &**text).collect(), entries: &self.entries }
            .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for PlaceList {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<PlaceList, D::Error> {
        let kept = PlacesFromDisk::deserialize(deserializer)?;
        let known = kept.texts.len() as u32;
        if kept.entries.iter().any(|entry| {
            entry.texts.iter().any(|n| *n > known) || entry.texts[REGION] == 0 || entry.texts[DISTRICT] == 0
        }) {
            return Err(serde::de::Error::custom("an entry names a text the list lacks"));
        }
        let seen = kept.entries.iter().map(|entry| entry.id).collect();
        let read = kept.entries.len();
        Ok(PlaceList {
            texts: kept.texts.into_iter().collect(),
            entries: kept.entries,
            seen,
            read,
            dropped: Vec::new(),
            left_out: 0,
        })
    }
}

impl PlaceList {
    /// Reads one page of a normalised answer (a list of entries): an entry
    /// that cannot be shown is left out and reported by its place in the
    /// whole answer, and an id seen before counts once.
    pub fn read_page(&mut self, page: Value) {
        let items = match page {
            Value::Array(items) => items,
            Value::Null => Vec::new(),
            item => vec![item],
        };
        for item in items {
            let n = self.read;
            self.read += 1;
            match self.entry(item) {
                Ok(entry) if self.seen.insert(entry.id) => self.entries.push(entry),
                Ok(_) => {}
                Err(reason) => {
                    self.left_out += 1;
                    if self.dropped.len() < DROPPED_LISTED {
                        self.dropped.push(Dropped { path: format!("[{n}]"), reason });
                    }
                }
            }
        }
    }

    /// The places read.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Bytes the list holds on the heap (its texts' set estimated).
    pub fn heap_bytes(&self) -> usize {
        let texts: usize = self.texts.iter().map(|text| text.len() + std::mem::size_of::<Box<str>>() + 16).sum();
        self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.entries.iter().map(|e| e.name.len()).sum::<usize>()
            + texts
            + self.seen.capacity() * 5
    }

    /// The index of the places read, and the entries left out (the first
    /// [`DROPPED_LISTED`] one by one, the rest counted).
    pub fn index(&self) -> (Locations, Vec<Dropped>) {
        let mut dropped = self.dropped.clone();
        if self.left_out > dropped.len() {
            dropped.push(Dropped {
                path: String::new(),
                reason: format!("{} more entries left out", self.left_out - dropped.len()),
            });
        }
        (Locations::build(self), dropped)
    }

    pub(super) fn text(&self, n: u32) -> &str {
        match n {
            0 => "",
            n => &self.texts[n as usize - 1],
        }
    }

    /// The number of `text` (0 for none), kept if new.
    fn number(&mut self, text: String) -> u32 {
        if text.is_empty() {
            return 0;
        }
        match self.texts.get_index_of(text.as_str()) {
            Some(n) => n as u32 + 1,
            None => self.texts.insert_full(text.into_boxed_str()).0 as u32 + 1,
        }
    }

    /// `Err`: why it cannot be shown.
    fn entry(&mut self, item: Value) -> Result<Entry, String> {
        // An entry that fits the type as it is, nearly every one, is taken
        // as it is: a `Location`'s schema asks nothing serde does not check
        // itself, so the walk along it would change nothing, and it costs
        // four times serde's read (bench/README.md, the locator). One that
        // does not fit is walked, and a field it is shown without costs it
        // only that field, unreported: what is reported is the entries left
        // out, with why.
        let location = match Location::deserialize(&item) {
            Ok(location) => location,
            Err(_) => {
                let mut parsed = repair::parse::<Location>(item);
                parsed.value.ok_or_else(|| parsed.dropped.pop().map(|d| d.reason).unwrap_or_default())?
            }
        };
        if location.id == 0 {
            return Err("no usable id".to_owned());
        }
        let (latitude, longitude) = (location.latitude, location.longitude);
        if !(-90.0..=90.0).contains(&latitude)
            || !(-180.0..=180.0).contains(&longitude)
            || (latitude == 0.0 && longitude == 0.0)
        {
            return Err(format!("no such position: {latitude}, {longitude}"));
        }
        let required = |text: &str, name: &str| Some(words(text)).filter(|t| !t.is_empty()).ok_or(format!("no {name}"));
        let (region, district, name) = (
            required(&location.region, "region")?,
            required(&location.district, "district")?,
            required(&location.name, "name")?,
        );
        let optional = |text: &Option<String>| text.as_deref().map(words).unwrap_or_default();
        let hours = [&location.hours_weekdays, &location.hours_saturday, &location.hours_sunday]
            .map(|hours| Hours::parse(&optional(hours)));
        Ok(Entry {
            id: location.id,
            kind: location.kind,
            services: location.services.iter().fold(0, |bits, service| bits | 1 << *service as u8),
            texts: [
                self.number(region),
                self.number(district),
                self.number(optional(&location.street)),
                self.number(optional(&location.landmark)),
                self.number(optional(&location.landmark_sw)),
            ],
            name: name.into_boxed_str(),
            phone: location.phone.as_deref().and_then(national_number).unwrap_or(0),
            latitude: latitude as f32,
            longitude: longitude as f32,
            hours,
        })
    }
}

/// `text` with its runs of white space made one space, trimmed.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use contract::locations::LocationService;
    use serde_json::json;

    use super::*;

    /// Why an entry that fits is taken as serde reads it: the walk along
    /// the schema makes the same place of it, every field given or none.
    #[test]
    fn an_entry_that_fits_is_what_the_walk_along_its_schema_makes_of_it() {
        let whole = json!({ "id": 7, "documentId": "abc", "name": "Duka la Juma", "kind": "shop", "region": "Mwanza",
                            "district": "Nyamagana", "street": "Kirumba", "landmark": "Opposite the market", "landmarkSw": null,
                            "latitude": -2.5164, "longitude": 32.9175, "services": ["devices", "sim-registration"],
                            "hoursWeekdays": "08:00-20:00", "hoursSaturday": "09:00-14:00", "hoursSunday": "", "phone": "0754000111" });
        let least = json!({ "id": 8, "name": "Juma", "kind": "agent", "region": "Mwanza", "district": "Ilemela",
                            "latitude": -2.5, "longitude": 32.9 });
        for entry in [whole, least] {
            let read = Location::deserialize(&entry).unwrap();
            let walked = repair::parse::<Location>(entry);
            assert_eq!((walked.value, walked.dropped), (Some(read), vec![]));
        }
    }

    #[test]
    fn an_entry_with_a_malformed_field_is_dropped_with_its_reason_and_the_rest_kept() {
        let place = json!({ "id": 7, "name": "Duka la  Juma", "kind": "Vodashop", "region": "Mwanza", "district": "Nyamagana",
                            "latitude": " -2.5164", "longitude": 32.9175, "services": "devices; SIM registration",
                            "phone": 754000111, "landmark": ["not", "text"] });
        let broken = |field: &str, value: Value| {
            let mut entry = place.clone();
            entry[field] = value;
            entry
        };
        let mut no_region = place.clone();
        no_region.as_object_mut().unwrap().remove("region");
        let mut list = PlaceList::default();
        list.read_page(json!([
            place,
            broken("latitude", json!("north")),
            broken("kind", json!("kiosk")),
            no_region,
            broken("id", json!(0)),
            broken("region", json!("   ")),
            broken("name", json!(12)),
        ]));
        let (locations, dropped) = list.index();
        assert_eq!(locations.len(), 1);
        let reasons: Vec<_> = dropped.iter().map(|d| (d.path.as_str(), d.reason.as_str())).collect();
        assert_eq!(
            reasons,
            [
                ("[1]", r#"latitude: expected a number, got "north""#),
                ("[2]", r#"kind: "kiosk" is not one of ["agent","shop"]"#),
                ("[3]", "missing region"),
                ("[4]", "no usable id"),
                ("[5]", "no region"),
                ("[6]", "name: expected text, got the number 12"),
            ]
        );
        let kept = &list.entries[0];
        assert_eq!((kept.kind, &*kept.name, kept.latitude), (LocationKind::Shop, "Duka la Juma", -2.5164));
        let services = [LocationService::SimRegistration, LocationService::Devices];
        assert_eq!(kept.services, services.iter().fold(0, |bits, service| bits | 1 << *service as u8));
        assert_eq!((kept.phone, list.text(kept.texts[3])), (0, ""), "what is not text is no phone, no landmark");
    }
}
