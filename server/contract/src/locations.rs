//! M-Pesa agents and Vodashops: the CMS's `locations` collection
//! ([`Location`], one entry per place, with a [`LocationKind`]) and what the
//! locator pages (`/mpesa-agents`, `/vodashop`) show of it ([`LocatorPage`]).
//!
//! The server never hands the CMS's entries to a render as they are: it
//! parses them at the boundary into its own compact index
//! (`server/src/locator/`) and sends a page only the places it shows.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::Pager;

/// An agent (cash in and out, Lipa) or a Vodashop (SIM registration,
/// devices); a shop is a `vodashop` too, as editors write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "lowercase")]
#[schemars(extend("x-aliases" = { "vodashop": "shop" }))]
pub enum LocationKind {
    Agent,
    Shop,
}

impl LocationKind {
    pub const ALL: [LocationKind; 2] = [LocationKind::Agent, LocationKind::Shop];

    /// A kind as a visitor's request names it, read as an entry of the CMS
    /// names it ([`crate::repair`]: in any case, or by its other name).
    pub fn parse(value: &str) -> Option<LocationKind> {
        crate::repair::parse::<LocationKind>(Value::from(value)).value
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
}

/// An entry of the CMS's `locations` collection, as the CMS must hold it
/// (the Strapi schema is generated from this type). The server reads it
/// with exactly these fields (no populate) and parses each entry on its own
/// along this type's schema ([`crate::repair`]): an entry without what it
/// cannot be shown without (its id, name, kind, region, district and
/// position) is left out and logged with why; a field it can be shown
/// without (a landmark, hours, a phone, a service) costs only itself where
/// it does not fit.
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub street: Option<String>,
    /// Where to find it, in English ("Opposite the market").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub landmark: Option<String>,
    /// The same in Swahili ("Mkabala na soko"); a page in either language
    /// shows the other's when its own is empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub landmark_sw: Option<String>,
    /// WGS 84 degrees.
    pub latitude: f64,
    pub longitude: f64,
    /// A list, or one text (`cash-in, lipa`) as a spreadsheet's import gives it.
    #[serde(default)]
    pub services: Vec<LocationService>,
    /// Monday to Friday, `HH:MM-HH:MM` in Tanzanian time; empty: closed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hours_weekdays: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hours_saturday: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hours_sunday: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_asked_for_is_read_as_the_cms_entries_name_it() {
        let kinds = ["agent", " Shop ", "VODASHOP", "kiosk", ""].map(LocationKind::parse);
        assert_eq!(kinds, [Some(LocationKind::Agent), Some(LocationKind::Shop), Some(LocationKind::Shop), None, None]);
    }
}
