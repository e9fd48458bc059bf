//! M-Pesa agents and Vodashops: the CMS's `locations` collection
//! ([`Location`], one entry per place, with a [`LocationKind`]) and what the
//! locator pages (`/mpesa-agents`, `/vodashop`) show of it ([`LocatorPage`]).
//!
//! The server never hands the CMS's entries to a render as they are: it
//! parses them at the boundary into its own compact index
//! (`server/src/locator/`) and sends a page only the places it shows.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::Pager;

/// An agent (cash in and out, Lipa) or a Vodashop (SIM registration, devices).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, JsonSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum LocationKind {
    Agent,
    Shop,
}

impl LocationKind {
    pub const ALL: [LocationKind; 2] = [LocationKind::Agent, LocationKind::Shop];

    pub fn parse(value: &str) -> Option<LocationKind> {
        match value.trim().to_ascii_lowercase().as_str() {
            "agent" => Some(LocationKind::Agent),
            "shop" | "vodashop" => Some(LocationKind::Shop),
            _ => None,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            LocationKind::Agent => "agent",
            LocationKind::Shop => "shop",
        }
    }
}

/// Read as [`LocationKind::parse`] reads it: editors write `Shop`,
/// `vodashop`.
impl<'de> Deserialize<'de> for LocationKind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<LocationKind, D::Error> {
        let kind = String::deserialize(deserializer)?;
        LocationKind::parse(&kind).ok_or_else(|| serde::de::Error::custom(format!("no kind (agent or shop): {kind:?}")))
    }
}

/// What a place does for a visitor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "kebab-case")]
pub enum LocationService {
    CashIn,
    CashOut,
    Lipa,
    SimRegistration,
    Devices,
}

impl LocationService {
    pub const ALL: [LocationService; 5] = [
        LocationService::CashIn,
        LocationService::CashOut,
        LocationService::Lipa,
        LocationService::SimRegistration,
        LocationService::Devices,
    ];

    pub fn parse(value: &str) -> Option<LocationService> {
        let value = value.trim().to_ascii_lowercase().replace(['_', ' '], "-");
        LocationService::ALL.into_iter().find(|service| service.code() == value)
    }

    pub fn code(self) -> &'static str {
        match self {
            LocationService::CashIn => "cash-in",
            LocationService::CashOut => "cash-out",
            LocationService::Lipa => "lipa",
            LocationService::SimRegistration => "sim-registration",
            LocationService::Devices => "devices",
        }
    }
}

/// An entry of the CMS's `locations` collection, as the CMS must hold it
/// (the Strapi schema is generated from this type). The server reads it
/// with exactly these fields (no populate) and parses each entry on its own:
/// one that does not fit is left out and logged.
///
/// Not localized: names, streets, districts and regions are proper nouns,
/// services and hours codes, so one entry serves both languages and the
/// site reads and holds the collection once. The one text a visitor reads
/// in their language, the landmark, has a field per language.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    pub id: u32,
    pub name: String,
    pub kind: LocationKind,
    /// The region's name (`Dar es Salaam`); its address is made from it.
    pub region: String,
    pub district: String,
    /// The ward or street.
    #[serde(default, deserialize_with = "crate::lenient::text", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub street: Option<String>,
    /// Where to find it, in English ("Opposite the market").
    #[serde(default, deserialize_with = "crate::lenient::text", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub landmark: Option<String>,
    /// The same in Swahili ("Mkabala na soko"); a page in either language
    /// shows the other's when its own is empty.
    #[serde(default, deserialize_with = "crate::lenient::text", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub landmark_sw: Option<String>,
    /// WGS 84 degrees.
    #[serde(deserialize_with = "crate::lenient::degrees")]
    #[schemars(with = "f64")]
    pub latitude: f64,
    #[serde(deserialize_with = "crate::lenient::degrees")]
    #[schemars(with = "f64")]
    pub longitude: f64,
    /// Service codes (`cash-in`, `cash-out`, `lipa`, `sim-registration`, `devices`).
    #[serde(default, deserialize_with = "crate::lenient::codes")]
    #[schemars(with = "Vec<String>")]
    pub services: Vec<String>,
    /// Monday to Friday, `HH:MM-HH:MM` in Tanzanian time; empty: closed.
    #[serde(default, deserialize_with = "crate::lenient::text", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub hours_weekdays: Option<String>,
    #[serde(default, deserialize_with = "crate::lenient::text", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub hours_saturday: Option<String>,
    #[serde(default, deserialize_with = "crate::lenient::text", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub hours_sunday: Option<String>,
    #[serde(default, deserialize_with = "crate::lenient::text", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub phone: Option<String>,
}

impl Location {
    /// An entry of the CMS's answer, or why it cannot be shown: what an
    /// entry cannot be shown without (its id, name, kind, region, district
    /// and position) must be there, and an entry without it is left out
    /// with serde's reason ("missing field `region`"); what it can be shown
    /// without (a landmark, hours, a phone) is no field where it is not text.
    pub fn read(entry: &Value) -> Result<Location, String> {
        Location::deserialize(entry).map_err(|error| error.to_string())
    }
}

/// The Strapi fields of [`Location`] the server asks for.
pub const LOCATION_FIELDS: [&str; 14] = [
    "name",
    "kind",
    "region",
    "district",
    "street",
    "landmark",
    "landmarkSw",
    "latitude",
    "longitude",
    "services",
    "hoursWeekdays",
    "hoursSaturday",
    "hoursSunday",
    "phone",
];

/// A region or district: its address segment, name and how many places of
/// the page's kind it has.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct Place {
    pub slug: String,
    pub name: String,
    pub count: u32,
}

/// Opening hours of one kind of day, as shown: `08:00–20:00`, or `None`: closed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WeekHours {
    pub weekdays: Option<String>,
    pub saturday: Option<String>,
    pub sunday: Option<String>,
}

/// One place found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LocationHit {
    pub id: u32,
    pub name: String,
    pub kind: LocationKind,
    pub region: String,
    pub district: String,
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub street: Option<String>,
    /// In the page's language, or the other's where it has none.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub landmark: Option<String>,
    /// Rounded to 5 decimals (about a metre).
    pub latitude: f64,
    pub longitude: f64,
    pub services: Vec<LocationService>,
    pub hours: WeekHours,
    /// Open at the time the page was made, in Tanzanian time.
    pub open_now: bool,
    /// Metres from the place asked for, when one was.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<u32>,
    /// As dialled: `+255754000001`.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
}

/// What a locator page shows: the form's choices, what was asked and what
/// was found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LocatorPage {
    pub kind: LocationKind,
    /// Every region with places of this kind, by name.
    pub regions: Vec<Place>,
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<Place>,
    /// The region's districts, when one is chosen.
    pub districts: Vec<Place>,
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub district: Option<Place>,
    /// A place name typed (`?q=`), trimmed, at most 60 characters.
    pub query: String,
    /// The place the query was found as (a street, ward, district or region), if any.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found: Option<String>,
    pub results: Vec<LocationHit>,
    /// Places in all that match what was asked.
    pub total: u32,
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pager: Option<Pager>,
    /// False until the locations are read (a moment after start).
    pub ready: bool,
    /// False when the CMS lists no places (it has no `locations` collection
    /// yet, or an empty one): the page says so and offers its other ways.
    pub listed: bool,
}

/// `GET /api/locations/near`: the nearest places open now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct NearbyLocations {
    pub results: Vec<LocationHit>,
}
