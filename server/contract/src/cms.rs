//! The content model as a Strapi CMS holds it, read off the same JSON Schema
//! the parser walks:
//!
//! - [`model`]: every single type and collection type with its attributes,
//!   and every component, in Strapi's own attribute syntax (`site
//!   content-model` prints it; `cms/scripts/generate-schema.mjs` writes the
//!   Strapi project's schema files from it).
//! - [`populate`]: the `populate` tree that makes a stock Strapi return all
//!   of a type's components, media and dynamic zones.
//!
//! Mapping: `Media` is a media field, `Markup` rich text (Markdown), `IsoDate`
//! a date; a struct with `x-cms-component` is a component (a list of them a
//! repeatable one); a tagged union of sections a dynamic zone; a list of
//! text, or a map, JSON; `x-cms: text` long text. `id` and `documentId` are
//! Strapi's own: it fills them in and refuses them in a schema.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::content::{BusinessService, Collection, Device, NewsItem, Page, Popup, Sidebar, Trick};
use crate::locations::Location;
use crate::repair::schema_of;
use crate::synonyms::Synonym;

/// The single type holding the footer links; every other single type is a [`Page`].
pub const SIDEBAR: &str = "sidebar";
/// The collection of popups, beside the collections of [`Collection`].
pub const POPUPS: &str = "popups";
/// The collection of M-Pesa agents and Vodashops ([`Location`]), read whole
/// into the locator's index, never by page or item.
pub const LOCATIONS: &str = "locations";
/// The collection of the search's synonyms ([`Synonym`]), read whole when
/// the search's index is built.
pub const SYNONYMS: &str = "synonyms";
/// Fields of the model that Strapi fills in itself.
const STRAPI_OWN: [&str; 3] = ["id", "documentId", "__component"];

/// What a content type of the CMS holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TypeShape {
    Page,
    Sidebar,
    News,
    Device,
    BusinessService,
    Trick,
    Popup,
    Location,
    Synonym,
}

impl TypeShape {
    /// The shape of the single type `api_id`.
    pub fn of_single(api_id: &str) -> TypeShape {
        if api_id == SIDEBAR { TypeShape::Sidebar } else { TypeShape::Page }
    }

    pub fn of_collection(collection: Collection) -> TypeShape {
        match collection {
            Collection::NewsUpdates | Collection::SportUpdates | Collection::FoundationUpdates => TypeShape::News,
            Collection::DeviceUpdates => TypeShape::Device,
            Collection::VbuServices => TypeShape::BusinessService,
            Collection::TrickMobiles => TypeShape::Trick,
        }
    }

    fn schema(self) -> std::sync::Arc<Value> {
        match self {
            TypeShape::Page => schema_of::<Page>(),
            TypeShape::Sidebar => schema_of::<Sidebar>(),
            TypeShape::News => schema_of::<NewsItem>(),
            TypeShape::Device => schema_of::<Device>(),
            TypeShape::BusinessService => schema_of::<BusinessService>(),
            TypeShape::Trick => schema_of::<Trick>(),
            TypeShape::Popup => schema_of::<Popup>(),
            TypeShape::Location => schema_of::<Location>(),
            TypeShape::Synonym => schema_of::<Synonym>(),
        }
    }

    /// Strapi attributes of this shape; the components they use are added to `components`.
    fn attributes(self, components: &mut BTreeMap<String, Value>) -> Map<String, Value> {
        let schema = self.schema();
        let mut model = Model { defs: schema.get("$defs").and_then(Value::as_object), components };
        model.attributes(&schema)
    }

    /// Whether the CMS keeps an entry per language. Locations are the same
    /// in both (see [`Location`]), and a group of synonyms joins both
    /// languages' words (see [`Synonym`]): one entry each, read once.
    pub fn localized(self) -> bool {
        !matches!(self, TypeShape::Location | TypeShape::Synonym)
    }

    /// The `populate` tree for this shape (see [`populate`]).
    pub fn populate(self) -> Value {
        let mut components = BTreeMap::new();
        let attributes = self.attributes(&mut components);
        populate(&attributes, &components)
    }
}

/// Every collection type: API name, singular name and shape.
pub fn collection_types() -> Vec<(&'static str, String, TypeShape)> {
    let mut types: Vec<_> = Collection::ALL
        .into_iter()
        .map(|c| (c.api_name(), c.api_name().trim_end_matches('s').to_owned(), TypeShape::of_collection(c)))
        .collect();
    types.push((POPUPS, "popup".to_owned(), TypeShape::Popup));
    types.push((LOCATIONS, "location".to_owned(), TypeShape::Location));
    types.push((SYNONYMS, "synonym".to_owned(), TypeShape::Synonym));
    types
}

/// The whole model for a CMS with the single types `single_types` (the
/// route table's content keys and the sidebar).
pub fn model(single_types: &[String]) -> Value {
    let mut components = BTreeMap::new();
    let singles: Vec<Value> = single_types
        .iter()
        .map(|api_id| {
            let attributes = TypeShape::of_single(api_id).attributes(&mut components);
            json!({ "apiId": api_id, "displayName": display_name(api_id), "attributes": attributes })
        })
        .collect();
    let collections: Vec<Value> = collection_types()
        .into_iter()
        .map(|(api_id, singular, shape)| {
            let attributes = shape.attributes(&mut components);
            json!({ "apiId": api_id, "singular": singular, "displayName": display_name(&singular), "localized": shape.localized(), "attributes": attributes })
        })
        .collect();
    let components: Map<String, Value> = components.into_iter().collect();
    json!({ "locales": ["en", "sw"], "singleTypes": singles, "collectionTypes": collections, "components": components })
}

/// `business-small` → `Business small`.
fn display_name(api_id: &str) -> String {
    let words = api_id.replace(['-', '.', '_'], " ");
    let mut chars = words.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

struct Model<'a, 'c> {
    defs: Option<&'a Map<String, Value>>,
    components: &'c mut BTreeMap<String, Value>,
}

impl Model<'_, '_> {
    fn def(&self, reference: &Value) -> Option<(String, Value)> {
        let name = reference.as_str()?.strip_prefix("#/$defs/")?;
        Some((name.to_owned(), self.defs?.get(name)?.clone()))
    }

    fn attributes(&mut self, schema: &Value) -> Map<String, Value> {
        let required: Vec<&str> =
            schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        let mut attributes = Map::new();
        for (name, property) in schema.get("properties").and_then(Value::as_object).into_iter().flatten() {
            if STRAPI_OWN.contains(&name.as_str()) {
                continue;
            }
            let Some(mut attribute) = self.attribute(property) else { continue };
            if required.contains(&name.as_str()) {
                attribute["required"] = Value::Bool(true);
            }
            attributes.insert(name.clone(), attribute);
        }
        attributes
    }

    fn attribute(&mut self, property: &Value) -> Option<Value> {
        // `Option<T>` is `anyOf: [T, null]`.
        if let Some(Value::Array(branches)) = property.get("anyOf") {
            let inner = branches.iter().find(|b| b.get("type") != Some(&json!("null")))?;
            return self.attribute(inner);
        }
        if let Some(reference) = property.get("$ref") {
            let (name, def) = self.def(reference)?;
            return match name.as_str() {
                "Media" => Some(json!({ "type": "media", "multiple": false, "allowedTypes": ["images", "files"] })),
                "Markup" => Some(json!({ "type": "richtext" })),
                "IsoDate" => Some(json!({ "type": "date" })),
                _ => self.component(&def, false).or_else(|| self.attribute(&def)),
            };
        }
        let types: Vec<&str> = match property.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).filter(|t| *t != "null").collect(),
            _ => Vec::new(),
        };
        if let Some(Value::Array(options)) = property.get("enum") {
            return Some(json!({ "type": "enumeration", "enum": options }));
        }
        Some(match types.first().copied()? {
            "string" => json!({ "type": property.get("x-cms").and_then(Value::as_str).unwrap_or("string") }),
            "integer" => {
                json!({ "type": if property.get("format") == Some(&json!("uint64")) { "biginteger" } else { "integer" } })
            }
            "number" => json!({ "type": "decimal" }),
            "boolean" => json!({ "type": "boolean" }),
            "array" => {
                let items = property.get("items")?;
                if let Some((_, def)) = items.get("$ref").and_then(|r| self.def(r)) {
                    if let Some(zone) = self.dynamic_zone(&def) {
                        return Some(zone);
                    }
                    if let Some(component) = self.component(&def, true) {
                        return Some(component);
                    }
                }
                json!({ "type": "json" })
            }
            _ => json!({ "type": "json" }),
        })
    }

    /// A struct marked `x-cms-component`, registered once.
    fn component(&mut self, def: &Value, repeatable: bool) -> Option<Value> {
        let uid = def.get("x-cms-component")?.as_str()?.to_owned();
        self.register(&uid, def);
        Some(json!({ "type": "component", "component": uid, "repeatable": repeatable }))
    }

    /// A tagged union whose branches pin `__component`.
    fn dynamic_zone(&mut self, def: &Value) -> Option<Value> {
        let branches = def.get("oneOf")?.as_array()?;
        let mut uids = Vec::new();
        for branch in branches {
            let uid = branch.pointer("/properties/__component/const")?.as_str()?.to_owned();
            let (_, target) = self.def(branch.get("$ref")?)?;
            self.register(&uid, &target);
            uids.push(Value::String(uid));
        }
        Some(json!({ "type": "dynamiczone", "components": uids }))
    }

    fn register(&mut self, uid: &str, def: &Value) {
        if self.components.contains_key(uid) {
            return;
        }
        self.components.insert(uid.to_owned(), Value::Null);
        let attributes = self.attributes(def);
        let name = uid.split_once('.').map_or(uid, |(_, name)| name);
        self.components.insert(uid.to_owned(), json!({ "displayName": display_name(name), "attributes": attributes }));
    }
}

/// The populate tree of a stock Strapi 5 (and 4) for these attributes:
/// media and components without relations inside are `true`, components
/// with them `{ populate: … }`, dynamic zones `{ on: { uid: … } }`.
/// `None`-like `Value::Null` when nothing needs populating.
pub fn populate(attributes: &Map<String, Value>, components: &BTreeMap<String, Value>) -> Value {
    let mut tree = Map::new();
    for (name, attribute) in attributes {
        let entry = match attribute.get("type").and_then(Value::as_str) {
            Some("media") => Value::Bool(true),
            Some("component") => component_populate(attribute.get("component").and_then(Value::as_str), components),
            Some("dynamiczone") => {
                let mut on = Map::new();
                for uid in attribute
                    .get("components")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                {
                    on.insert(
                        uid.to_owned(),
                        match component_populate(Some(uid), components) {
                            Value::Bool(true) => json!({ "populate": "*" }),
                            nested => nested,
                        },
                    );
                }
                json!({ "on": on })
            }
            _ => continue,
        };
        tree.insert(name.clone(), entry);
    }
    if tree.is_empty() { Value::Null } else { Value::Object(tree) }
}

fn component_populate(uid: Option<&str>, components: &BTreeMap<String, Value>) -> Value {
    let attributes =
        uid.and_then(|uid| components.get(uid)).and_then(|c| c.get("attributes")).and_then(Value::as_object);
    match attributes.map(|a| populate(a, components)) {
        Some(Value::Object(nested)) => json!({ "populate": nested }),
        _ => Value::Bool(true),
    }
}

/// The populate tree as query parameters: `populate[seo][populate][shareImage]=true`.
pub fn populate_params(tree: &Value) -> Vec<(String, String)> {
    fn walk(prefix: String, value: &Value, out: &mut Vec<(String, String)>) {
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    walk(format!("{prefix}[{key}]"), child, out);
                }
            }
            Value::Bool(b) => out.push((prefix, b.to_string())),
            Value::String(s) => out.push((prefix, s.clone())),
            _ => {}
        }
    }
    let mut params = Vec::new();
    walk("populate".to_owned(), tree, &mut params);
    params
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_become_strapi_attributes_and_components() {
        let model = model(&["home".to_owned(), SIDEBAR.to_owned()]);
        let home = &model["singleTypes"][0];
        assert_eq!(home["apiId"], "home");
        assert_eq!(home["attributes"]["title"], json!({ "type": "string" }));
        assert_eq!(
            home["attributes"]["seo"],
            json!({ "type": "component", "component": "shared.seo", "repeatable": false })
        );
        let zone = &home["attributes"]["sections"];
        assert_eq!(zone["type"], "dynamiczone");
        assert_eq!(zone["components"].as_array().unwrap().len(), 12);
        let sidebar = &model["singleTypes"][1]["attributes"];
        assert_eq!(sidebar["links"], json!({ "type": "component", "component": "shared.link", "repeatable": true }));
        let hero = &model["components"]["sections.hero"]["attributes"];
        assert_eq!(hero["title"], json!({ "type": "string", "required": true }));
        assert_eq!(hero["subtitle"], json!({ "type": "text" }));
        assert_eq!(hero["image"]["type"], "media");
        let rich = &model["components"]["sections.rich-text"]["attributes"];
        assert_eq!(rich["body"], json!({ "type": "richtext", "required": true }));
        assert_eq!(model["components"]["sections.table"]["attributes"]["columns"], json!({ "type": "json" }));
        assert_eq!(
            model["components"]["shared.event"]["attributes"]["date"],
            json!({ "type": "date", "required": true })
        );
        let news = model["collectionTypes"].as_array().unwrap().iter().find(|c| c["apiId"] == "news-updates").unwrap();
        assert_eq!(news["singular"], "news-update");
        assert_eq!(news["attributes"]["publishDate"], json!({ "type": "date" }));
        assert!(news["attributes"].get("id").is_none() && news["attributes"].get("documentId").is_none());
        let popup = model["collectionTypes"].as_array().unwrap().iter().find(|c| c["apiId"] == "popups").unwrap();
        assert_eq!(popup["attributes"]["type"], json!({ "type": "string", "required": true }));
    }

    #[test]
    fn the_searchs_synonyms_are_one_collection_for_both_languages() {
        let model = model(&[]);
        let synonyms = model["collectionTypes"].as_array().unwrap().iter().find(|c| c["apiId"] == SYNONYMS).unwrap();
        assert_eq!(synonyms["singular"], "synonym");
        assert_eq!(synonyms["localized"], false, "a group joins both languages' words");
        assert_eq!(synonyms["attributes"]["words"], json!({ "type": "text", "required": true }));
    }

    #[test]
    fn a_page_populates_every_component_and_medium() {
        let params = populate_params(&TypeShape::Page.populate());
        let query: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
        assert!(query.contains(&"populate[seo][populate][shareImage]=true".to_owned()), "{query:?}");
        assert!(
            query.contains(
                &"populate[sections][on][sections.card-grid][populate][cards][populate][image]=true".to_owned()
            ),
            "{query:?}"
        );
        assert!(query.contains(&"populate[sections][on][sections.rich-text][populate]=*".to_owned()), "{query:?}");
        assert!(query.contains(&"populate[sections][on][sections.hero][populate][cta]=true".to_owned()), "{query:?}");
        let device = populate_params(&TypeShape::Device.populate());
        assert_eq!(
            device,
            vec![
                ("populate[image]".to_owned(), "true".to_owned()),
                ("populate[specification]".to_owned(), "true".to_owned())
            ]
        );
    }
}
