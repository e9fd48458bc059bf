//! The content model: what the CMS (or the embedded `content/`) provides,
//! after normalisation (Strapi v4 wrappers removed, rich text rendered to
//! sanitised HTML, media URLs absolute).
//!
//! Every single type is a [`Page`] except the [`Sidebar`]; collections hold
//! [`NewsItem`]s, [`Device`]s, [`BusinessService`]s or [`Trick`]s; popups are
//! [`Popup`]s. A field marked required here is one without which its part
//! means nothing (a card without a title, a link without a URL): when it is
//! missing or mistyped the part is dropped. Every other field has a default.
//!
//! CMS hints ride on the JSON Schema: `x-cms-component` names the Strapi
//! component a struct becomes, `x-cms` picks a Strapi type other than the
//! default (`text` for long plain text).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// HTML the server rendered and sanitised from the CMS's rich text
/// (Markdown or Strapi 5 blocks). Safe to insert as it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct Markup(pub String);

/// A calendar date, `YYYY-MM-DD` (a date-time from the CMS is cut to its date).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema, TS)]
#[schemars(extend("format" = "date"))]
pub struct IsoDate(pub String);

/// An uploaded file (a Strapi media field).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct Media {
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternative_text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
    /// Set by the site, never by the CMS: a photo the site resizes, at each
    /// of its fixed widths through its image endpoint, as the value of an
    /// `<img srcset>` (`/img/… 160w, …`). Absent for SVG, other files and
    /// media outside the CMS's media base.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-site" = true))]
    pub srcset: Option<String>,
}

/// A link; `url` is a path of this site without language prefix, or absolute.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[schemars(extend("x-cms-component" = "shared.link"))]
pub struct Link {
    pub label: String,
    pub url: String,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("x-cms-component" = "shared.seo"))]
#[ts(optional_fields)]
pub struct Seo {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta_title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cms" = "text"))]
    pub meta_description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share_image: Option<Media>,
}

/// A single type: a page's content.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct Page {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    #[serde(default)]
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seo: Option<Seo>,
    /// A CSS colour; the page is white without it (spec §9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background_color: Option<String>,
    /// The dynamic zone.
    #[serde(default)]
    pub sections: Vec<Section>,
}

/// The `sidebar` single type: quick links and a note in the footer.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct Sidebar {
    #[serde(default)]
    pub links: Vec<Link>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub footer_note: Option<String>,
}

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

/// A news, sport news or foundation news article.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct NewsItem {
    pub id: u32,
    /// Strapi 5's id of the entry across its languages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document_id: Option<String>,
    /// Empty when the CMS has none; the server then derives it from the title.
    #[serde(default)]
    pub slug: String,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publish_date: Option<IsoDate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cms" = "text"))]
    pub summary: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<Markup>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<Media>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
}

/// A phone or router in the device catalogue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct Device {
    pub id: u32,
    /// Strapi 5's id of the entry across its languages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document_id: Option<String>,
    #[serde(default)]
    pub slug: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brand: Option<String>,
    /// TZS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cms" = "text"))]
    pub summary: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<Markup>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<Media>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub specification: Option<DeviceSpecification>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publish_date: Option<IsoDate>,
}

/// Specification rows of a device; any may be left out.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema, TS)]
#[schemars(extend("x-cms-component" = "shared.device-specification"))]
#[ts(optional_fields)]
pub struct DeviceSpecification {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub camera: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub battery: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub os: Option<String>,
}

/// A business service, shown under its category (spec §9 category ids).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct BusinessService {
    pub id: u32,
    /// Strapi 5's id of the entry across its languages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document_id: Option<String>,
    #[serde(default)]
    pub slug: String,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category_id: Option<u32>,
    /// The category's slug.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cms" = "text"))]
    pub summary: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<Markup>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<Media>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publish_date: Option<IsoDate>,
}

/// A fraudster trick and how to avoid it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct Trick {
    pub id: u32,
    /// Strapi 5's id of the entry across its languages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document_id: Option<String>,
    #[serde(default)]
    pub slug: String,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cms" = "text"))]
    pub summary: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<Markup>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<Media>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publish_date: Option<IsoDate>,
}

/// A promotional banner shown on the pages of its `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct Popup {
    pub id: u32,
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cms" = "text"))]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<Media>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cta: Option<Link>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publish_date: Option<IsoDate>,
}

/// The collections of spec §7, by their API name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "kebab-case")]
pub enum Collection {
    NewsUpdates,
    SportUpdates,
    FoundationUpdates,
    DeviceUpdates,
    VbuServices,
    TrickMobiles,
}

impl Collection {
    pub const ALL: [Collection; 6] = [
        Collection::NewsUpdates,
        Collection::SportUpdates,
        Collection::FoundationUpdates,
        Collection::DeviceUpdates,
        Collection::VbuServices,
        Collection::TrickMobiles,
    ];

    /// The API name, e.g. `news-updates`.
    pub fn api_name(self) -> &'static str {
        match self {
            Collection::NewsUpdates => "news-updates",
            Collection::SportUpdates => "sport-updates",
            Collection::FoundationUpdates => "foundation-updates",
            Collection::DeviceUpdates => "device-updates",
            Collection::VbuServices => "vbu-services",
            Collection::TrickMobiles => "trick-mobiles",
        }
    }

    pub fn parse(name: &str) -> Option<Collection> {
        Collection::ALL.into_iter().find(|c| c.api_name() == name)
    }
}

/// Items of one collection, tagged with it so the app knows their shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "collection", content = "items", rename_all = "kebab-case")]
pub enum ItemList {
    NewsUpdates(Vec<NewsItem>),
    SportUpdates(Vec<NewsItem>),
    FoundationUpdates(Vec<NewsItem>),
    DeviceUpdates(Vec<Device>),
    VbuServices(Vec<BusinessService>),
    TrickMobiles(Vec<Trick>),
}

/// One item of a collection, tagged with it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "collection", content = "item", rename_all = "kebab-case")]
pub enum CollectionItem {
    NewsUpdates(NewsItem),
    SportUpdates(NewsItem),
    FoundationUpdates(NewsItem),
    DeviceUpdates(Device),
    VbuServices(BusinessService),
    TrickMobiles(Trick),
}

/// What every collection item has: an id, a slug for its address and a heading.
pub trait Item {
    fn id(&self) -> u32;
    /// Strapi 5's id shared by the item's versions in each language.
    fn document_id(&self) -> Option<&str>;
    fn slug(&self) -> &str;
    fn slug_mut(&mut self) -> &mut String;
    /// The title, or a device's name.
    fn heading(&self) -> &str;
}

macro_rules! item {
    ($type:ty, $heading:ident) => {
        impl Item for $type {
            fn id(&self) -> u32 {
                self.id
            }
            fn document_id(&self) -> Option<&str> {
                self.document_id.as_deref()
            }
            fn slug(&self) -> &str {
                &self.slug
            }
            fn slug_mut(&mut self) -> &mut String {
                &mut self.slug
            }
            fn heading(&self) -> &str {
                &self.$heading
            }
        }
    };
}

item!(NewsItem, title);
item!(Device, name);
item!(BusinessService, title);
item!(Trick, title);

impl ItemList {
    /// The list's items, whatever their collection.
    pub fn items(&self) -> Vec<&dyn Item> {
        fn erase<T: Item>(items: &[T]) -> Vec<&dyn Item> {
            items.iter().map(|item| item as &dyn Item).collect()
        }
        match self {
            ItemList::NewsUpdates(items) | ItemList::SportUpdates(items) | ItemList::FoundationUpdates(items) => erase(items),
            ItemList::DeviceUpdates(items) => erase(items),
            ItemList::VbuServices(items) => erase(items),
            ItemList::TrickMobiles(items) => erase(items),
        }
    }

    /// The same, to change.
    pub fn items_mut(&mut self) -> Vec<&mut dyn Item> {
        fn erase<T: Item>(items: &mut [T]) -> Vec<&mut dyn Item> {
            items.iter_mut().map(|item| item as &mut dyn Item).collect()
        }
        match self {
            ItemList::NewsUpdates(items) | ItemList::SportUpdates(items) | ItemList::FoundationUpdates(items) => erase(items),
            ItemList::DeviceUpdates(items) => erase(items),
            ItemList::VbuServices(items) => erase(items),
            ItemList::TrickMobiles(items) => erase(items),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.items().is_empty()
    }
}

impl CollectionItem {
    pub fn item(&self) -> &dyn Item {
        match self {
            CollectionItem::NewsUpdates(item) | CollectionItem::SportUpdates(item) | CollectionItem::FoundationUpdates(item) => item,
            CollectionItem::DeviceUpdates(item) => item,
            CollectionItem::VbuServices(item) => item,
            CollectionItem::TrickMobiles(item) => item,
        }
    }

    pub fn item_mut(&mut self) -> &mut dyn Item {
        match self {
            CollectionItem::NewsUpdates(item) | CollectionItem::SportUpdates(item) | CollectionItem::FoundationUpdates(item) => item,
            CollectionItem::DeviceUpdates(item) => item,
            CollectionItem::VbuServices(item) => item,
            CollectionItem::TrickMobiles(item) => item,
        }
    }
}
