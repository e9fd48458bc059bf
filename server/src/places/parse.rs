//! The CMS's `locations` entries read at the boundary, page after page,
//! into the compact [`PlaceList`] the index is built from and that is kept
//! on disk: an entry that cannot be shown is left out and reported.

use contract::locations::{LocationKind, LocationService};
use contract::repair::Dropped;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::hours::Hours;
use super::index::Locations;

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
        for item in &items {
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
    fn entry(&mut self, item: &Value) -> Result<Entry, String> {
        let id = item
            .get("id")
            .and_then(Value::as_u64)
            .and_then(|id| u32::try_from(id).ok())
            .filter(|id| *id > 0)
            .ok_or("no usable id")?;
        let text = |name: &str| {
            item.get(name)
                .and_then(Value::as_str)
                .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
                .unwrap_or_default()
        };
        let required = |name: &'static str| Some(text(name)).filter(|t| !t.is_empty()).ok_or(format!("no {name}"));
        let kind =
            item.get("kind").and_then(Value::as_str).and_then(LocationKind::parse).ok_or("no kind (agent or shop)")?;
        let degrees = |name: &'static str| {
            let value = item.get(name).and_then(|v| v.as_f64().or_else(|| v.as_str()?.trim().parse().ok()));
            value.filter(|v| v.is_finite()).ok_or(format!("no {name}"))
        };
        let (latitude, longitude) = (degrees("latitude")?, degrees("longitude")?);
        if !(-90.0..=90.0).contains(&latitude)
            || !(-180.0..=180.0).contains(&longitude)
            || (latitude == 0.0 && longitude == 0.0)
        {
            return Err(format!("no such position: {latitude}, {longitude}"));
        }
        let services = match item.get("services") {
            Some(Value::Array(codes)) => {
                codes.iter().filter_map(Value::as_str).filter_map(LocationService::parse).collect::<Vec<_>>()
            }
            Some(Value::String(codes)) => codes.split([',', ';']).filter_map(LocationService::parse).collect(),
            _ => Vec::new(),
        };
        let hours = ["hoursWeekdays", "hoursSaturday", "hoursSunday"].map(|name| Hours::parse(&text(name)));
        let (region, district, name) = (required("region")?, required("district")?, required("name")?);
        let (street, landmark, landmark_sw, phone) =
            (text("street"), text("landmark"), text("landmarkSw"), text("phone"));
        Ok(Entry {
            id,
            kind,
            services: services.iter().fold(0, |bits, service| bits | 1 << *service as u8),
            texts: [
                self.number(region),
                self.number(district),
                self.number(street),
                self.number(landmark),
                self.number(landmark_sw),
            ],
            name: name.into_boxed_str(),
            phone: national_number(&phone).unwrap_or(0),
            latitude: latitude as f32,
            longitude: longitude as f32,
            hours,
        })
    }
}

/// The national number of a phone number as typed (`0754 000 111`,
/// `+255 754 000 111`, `754000111`), or `None` when it is none.
fn national_number(typed: &str) -> Option<u32> {
    let digits: String = typed.chars().filter(char::is_ascii_digit).collect();
    let national = match digits.strip_prefix("255") {
        Some(rest) if rest.len() == 9 => rest,
        _ => match digits.strip_prefix('0') {
            Some(rest) if rest.len() == 9 => rest,
            _ if digits.len() == 9 => &digits,
            _ => return None,
        },
    };
    national.parse().ok().filter(|n| *n > 0)
}
