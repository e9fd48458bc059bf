//! A page's dynamic zone: [`Section`], one variant per Strapi component,
//! and the component each variant holds.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{IsoDate, Link, Markup, Media};
/// One entry of a page's dynamic zone, by its Strapi component name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "__component")]
pub enum Section {
    #[serde(rename = "sections.hero")]
    Hero(HeroSection),
    #[serde(rename = "sections.rich-text")]
    RichText(RichTextSection),
    #[serde(rename = "sections.card-grid")]
    CardGrid(CardGridSection),
    #[serde(rename = "sections.bundle-table")]
    BundleTable(BundleTableSection),
    #[serde(rename = "sections.faq")]
    Faq(FaqSection),
    #[serde(rename = "sections.table")]
    Table(TableSection),
    #[serde(rename = "sections.tariff-bands")]
    TariffBands(TariffBandsSection),
    #[serde(rename = "sections.steps")]
    Steps(StepsSection),
    #[serde(rename = "sections.documents")]
    Documents(DocumentsSection),
    #[serde(rename = "sections.people")]
    People(PeopleSection),
    #[serde(rename = "sections.events")]
    Events(EventsSection),
    #[serde(rename = "sections.cta-banner")]
    CtaBanner(CtaBannerSection),
}

/// The first, largest block of a page; its title is the page's `<h1>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[ts(optional_fields)]
pub struct HeroSection {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cms" = "text"))]
    pub subtitle: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<Media>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cta: Option<Link>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[ts(optional_fields)]
pub struct RichTextSection {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub body: Markup,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[ts(optional_fields)]
pub struct CardGridSection {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default)]
    pub cards: Vec<Card>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[schemars(extend("x-cms-component" = "shared.card"))]
#[ts(optional_fields)]
pub struct Card {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cms" = "text"))]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<Media>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<Link>,
}

/// Bundles of the operator's catalogue, by reference: the server fills in
/// their names, prices, validity and USSD codes from the same catalogue the
/// purchase uses, so an advertised price is the price sold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct BundleTableSection {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// These bundles of the catalogue, in this order, by id (`data-daily-1gb`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bundle_ids: Option<Vec<String>>,
    /// Without ids: every bundle of this catalogue category (`internet-daily`), in the catalogue's order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
}

impl BundleTableSection {
    /// Whether the catalogue's bundle `id` of `category` is in this table.
    pub fn lists(&self, id: &str, category: &str) -> bool {
        match self.bundle_ids.as_deref() {
            Some(ids) if !ids.is_empty() => ids.iter().any(|listed| listed == id),
            _ => self.category.as_deref() == Some(category),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[ts(optional_fields)]
pub struct FaqSection {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default)]
    pub items: Vec<FaqItem>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[schemars(extend("x-cms-component" = "shared.faq-item"))]
#[ts(optional_fields)]
pub struct FaqItem {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    pub question: String,
    #[schemars(extend("x-cms" = "text"))]
    pub answer: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[ts(optional_fields)]
pub struct TableSection {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default)]
    pub columns: Vec<String>,
    #[serde(default)]
    pub rows: Vec<TableRow>,
}

/// A table row; its first cell heads it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[schemars(extend("x-cms-component" = "shared.table-row"))]
#[ts(optional_fields)]
pub struct TableRow {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    pub cells: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[ts(optional_fields)]
pub struct TariffBandsSection {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cms" = "text"))]
    pub note: Option<String>,
    #[serde(default)]
    pub bands: Vec<TariffBand>,
}

/// M-Pesa fees for amounts from `min` to `max`, all in TZS.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[schemars(extend("x-cms-component" = "shared.tariff-band"))]
#[ts(optional_fields)]
pub struct TariffBand {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    pub min: u32,
    pub max: u32,
    pub send: u32,
    pub withdraw: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[ts(optional_fields)]
pub struct StepsSection {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default)]
    pub steps: Vec<Step>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[schemars(extend("x-cms-component" = "shared.step"))]
#[ts(optional_fields)]
pub struct Step {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cms" = "text"))]
    pub text: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[ts(optional_fields)]
pub struct DocumentsSection {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default)]
    pub documents: Vec<DocumentEntry>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("x-cms-component" = "shared.document"))]
#[ts(optional_fields)]
pub struct DocumentEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publish_date: Option<IsoDate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<Media>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[ts(optional_fields)]
pub struct PeopleSection {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default)]
    pub people: Vec<Person>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[schemars(extend("x-cms-component" = "shared.person"))]
#[ts(optional_fields)]
pub struct Person {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cms" = "text"))]
    pub bio: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub photo: Option<Media>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[ts(optional_fields)]
pub struct EventsSection {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default)]
    pub events: Vec<EventEntry>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[schemars(extend("x-cms-component" = "shared.event"))]
#[ts(optional_fields)]
pub struct EventEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    pub title: String,
    pub date: IsoDate,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
}

/// A call to action between sections.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[ts(optional_fields)]
pub struct CtaBannerSection {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cms" = "text"))]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cta: Option<Link>,
}
