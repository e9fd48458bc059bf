//! The collections ([`Collection`]) and their items: news, devices,
//! business services, tricks and popups, and the lists that hold them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{IsoDate, Link, Markup, Media};

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

/// A business service, shown under its category (small, mid or large business).
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

/// The collections the CMS holds, by their API name (`/api/<name>`).
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
            ItemList::NewsUpdates(items) | ItemList::SportUpdates(items) | ItemList::FoundationUpdates(items) => {
                erase(items)
            }
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
            ItemList::NewsUpdates(items) | ItemList::SportUpdates(items) | ItemList::FoundationUpdates(items) => {
                erase(items)
            }
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
            CollectionItem::NewsUpdates(item)
            | CollectionItem::SportUpdates(item)
            | CollectionItem::FoundationUpdates(item) => item,
            CollectionItem::DeviceUpdates(item) => item,
            CollectionItem::VbuServices(item) => item,
            CollectionItem::TrickMobiles(item) => item,
        }
    }

    pub fn item_mut(&mut self) -> &mut dyn Item {
        match self {
            CollectionItem::NewsUpdates(item)
            | CollectionItem::SportUpdates(item)
            | CollectionItem::FoundationUpdates(item) => item,
            CollectionItem::DeviceUpdates(item) => item,
            CollectionItem::VbuServices(item) => item,
            CollectionItem::TrickMobiles(item) => item,
        }
    }
}
