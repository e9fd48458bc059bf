//! Parse, don't trust: content from outside (the CMS, the embedded files)
//! is walked along the JSON Schema of its type before serde sees it.
//!
//! - A field that is missing, null or of the wrong type is removed, so serde
//!   gives it its default; when the field is required, the part holding it
//!   is dropped instead (a card, a section, a link), up to the nearest list
//!   element or optional field.
//! - A list element that does not fit is dropped; an unknown section
//!   component is an element that does not fit.
//! - Numbers given as numeric text, and whole floats for integers, are
//!   accepted as the number; a date (`format: date`) must be a real
//!   `YYYY-MM-DD`, and a date-time is cut to its date.
//! - A code (a value of an `enum`) is read as people write it: in any case,
//!   with spaces or underscores for its hyphens, or by another name the
//!   schema gives it (`x-aliases`); a list of codes may be one text, the
//!   codes separated by commas or semicolons, as a spreadsheet's import
//!   gives them.
//!
//! Every drop is reported with its JSON path (`sections[3].cards[1].title`)
//! and why; fields the answer lacks altogether are reported as absent, which
//! is how `site check-cms` finds a CMS schema without them (not those the
//! site sets itself, marked `x-site`).

use std::any::TypeId;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Map, Number, Value};

/// A part of the content that was left out, and why.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Dropped {
    /// JSON path from the answer's root; empty for the whole answer.
    pub path: String,
    pub reason: String,
}

impl Dropped {
    /// Where, as a log line or a report says it.
    pub fn place(&self) -> &str {
        if self.path.is_empty() { "(the whole answer)" } else { &self.path }
    }
}

/// Content parsed into `T`: `None` when even the whole could not be kept.
#[derive(Debug)]
pub struct Parsed<T> {
    pub value: Option<T>,
    pub dropped: Vec<Dropped>,
    /// Paths of model fields the answer did not have at all.
    pub absent: Vec<String>,
}

/// Parses `raw` into `T`, degrading what does not fit (see the module docs).
pub fn parse<T: DeserializeOwned + JsonSchema + 'static>(raw: Value) -> Parsed<T> {
    let schema = schema_of::<T>();
    let mut walk =
        Walk { defs: schema.get("$defs").and_then(Value::as_object), dropped: Vec::new(), absent: Vec::new() };
    let value = match walk.repair(raw, &schema, &Path::Root) {
        Ok(repaired) => match serde_json::from_value::<T>(repaired) {
            Ok(value) => Some(value),
            Err(error) => {
                walk.dropped
                    .push(Dropped { path: String::new(), reason: format!("does not fit the content model: {error}") });
                None
            }
        },
        Err(reason) => {
            walk.dropped.push(Dropped { path: String::new(), reason });
            None
        }
    };
    Parsed { value, dropped: walk.dropped, absent: walk.absent }
}

/// The JSON Schema of `T`, generated once per type.
pub fn schema_of<T: JsonSchema + 'static>() -> Arc<Value> {
    static SCHEMAS: LazyLock<Mutex<HashMap<TypeId, Arc<Value>>>> = LazyLock::new(Mutex::default);
    let mut schemas = SCHEMAS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    schemas
        .entry(TypeId::of::<T>())
        .or_insert_with(|| Arc::new(serde_json::to_value(schemars::schema_for!(T)).expect("a schema is JSON")))
        .clone()
}

struct Walk<'a> {
    defs: Option<&'a Map<String, Value>>,
    dropped: Vec<Dropped>,
    absent: Vec<String>,
}

impl<'a> Walk<'a> {
    /// The value as the schema allows it, or why it cannot be kept. Drops
    /// recorded inside a part that is then refused are forgotten: the part's
    /// own drop says it all.
    fn repair(&mut self, value: Value, node: &Value, path: &Path<'_>) -> Result<Value, String> {
        let (dropped, absent) = (self.dropped.len(), self.absent.len());
        let result = self.repair_node(value, node, path);
        if result.is_err() {
            self.dropped.truncate(dropped);
            self.absent.truncate(absent);
        }
        result
    }

    fn repair_node(&mut self, value: Value, node: &Value, path: &Path<'_>) -> Result<Value, String> {
        let node = resolve(self.defs, node);
        let Value::Object(schema) = node.as_ref() else {
            // `true` or `false`: anything, or nothing.
            return if node.as_bool() == Some(false) { Err("not allowed".into()) } else { Ok(value) };
        };
        if let Some(Value::Array(branches)) = schema.get("anyOf").or_else(|| schema.get("oneOf")) {
            return self.alternatives(value, branches, path);
        }
        if let Some(expected) = schema.get("const") {
            return if &value == expected {
                Ok(value)
            } else {
                Err(format!("expected {expected}, got {}", describe(&value)))
            };
        }
        if let Some(Value::Array(options)) = schema.get("enum") {
            return option(value, options, schema);
        }
        let types = types_of(schema);
        if types.is_empty() {
            return Ok(value);
        }
        let allows = |name: &str| types.contains(&name);
        match value {
            Value::Null if allows("null") => Ok(Value::Null),
            Value::Object(object) if allows("object") => self.object(object, schema, path),
            Value::Array(items) if allows("array") => self.array(items, schema, path),
            Value::String(text) if allows("array") && self.lists_codes(schema) => {
                let codes = text.split([',', ';']).map(str::trim).filter(|code| !code.is_empty());
                self.array(codes.map(Value::from).collect(), schema, path)
            }
            Value::String(text) if allows("string") && schema.get("format").and_then(Value::as_str) == Some("date") => {
                calendar_date(&text)
                    .map(Value::String)
                    .ok_or_else(|| format!("expected a date (YYYY-MM-DD), got {}", short(&Value::String(text))))
            }
            Value::String(_) if allows("string") => Ok(value),
            Value::Bool(_) if allows("boolean") => Ok(value),
            Value::Number(number) if allows("integer") => integer(&number, schema),
            Value::Number(_) if allows("number") => Ok(value),
            Value::String(text) if allows("integer") => match text.trim().parse::<Number>() {
                Ok(number) => integer(&number, schema),
                Err(_) => Err(format!("expected a whole number, got {}", short(&Value::String(text)))),
            },
            Value::String(text) if allows("number") => match text.trim().parse::<f64>().ok().and_then(Number::from_f64)
            {
                Some(number) => Ok(Value::Number(number)),
                None => Err(format!("expected a number, got {}", short(&Value::String(text)))),
            },
            other => Err(format!(
                "expected {}, got {}",
                types.iter().map(|t| article(t)).collect::<Vec<_>>().join(" or "),
                describe(&other)
            )),
        }
    }

    /// `anyOf`/`oneOf`: `null` for an optional value, a tagged union (a
    /// section by `__component`), or the first branch that fits.
    fn alternatives(&mut self, value: Value, branches: &[Value], path: &Path<'_>) -> Result<Value, String> {
        // A tagged union pins its tag in each branch itself: pick the branch
        // without resolving the other eleven.
        if let Some(tag) = discriminator(branches) {
            let actual = value.get(tag).cloned().unwrap_or(Value::Null);
            let branch = branches.iter().find(|b| b.pointer(&format!("/properties/{tag}/const")) == Some(&actual));
            return match branch {
                Some(branch) => self.repair(value, branch, path),
                None if actual.is_null() => Err(format!("no {tag}")),
                None => Err(format!("unknown {tag} {actual}")),
            };
        }
        let resolved: Vec<Cow<'_, Value>> = branches.iter().map(|b| resolve(self.defs, b)).collect();
        let (nulls, others): (Vec<_>, Vec<_>) = resolved.into_iter().partition(|b| is_null_schema(b));
        if value.is_null() {
            return if nulls.is_empty() { Err("expected a value, got null".into()) } else { Ok(Value::Null) };
        }
        if let [only] = others.as_slice() {
            return self.repair(value, only, path);
        }
        let mut first_error = None;
        for branch in others {
            let branch = branch.into_owned();
            let before = self.dropped.len();
            match self.repair(value.clone(), &branch, path) {
                Ok(fits) if self.dropped.len() == before => return Ok(fits),
                Ok(_) => self.dropped.truncate(before),
                Err(reason) => {
                    first_error.get_or_insert(reason);
                }
            }
        }
        Err(first_error.unwrap_or_else(|| "fits no alternative".into()))
    }

    fn object(
        &mut self,
        mut object: Map<String, Value>,
        schema: &Map<String, Value>,
        path: &Path<'_>,
    ) -> Result<Value, String> {
        let empty = Map::new();
        let properties = schema.get("properties").and_then(Value::as_object).unwrap_or(&empty);
        let required =
            |name: &str| schema.get("required").and_then(Value::as_array).is_some_and(|r| r.iter().any(|n| n == name));
        let mut kept = Map::with_capacity(properties.len());
        for (name, property) in properties {
            let at = Path::Field(path, name);
            match object.remove_entry(name) {
                None if required(name) => return Err(format!("missing {name}")),
                None => {
                    // The CMS's own keys: not every CMS has them; and what
                    // the site sets itself no CMS has.
                    let site_set = property.get("x-site").and_then(Value::as_bool).unwrap_or(false);
                    if name != "id" && name != "documentId" && !site_set {
                        self.absent.push(at.to_string());
                    }
                }
                Some((name, field)) => match self.repair(field, property, &at) {
                    Ok(field) => {
                        kept.insert(name, field);
                    }
                    Err(reason) if required(&name) => return Err(format!("{name}: {reason}")),
                    Err(reason) => self.dropped.push(Dropped { path: at.to_string(), reason }),
                },
            }
        }
        if let Some(additional @ Value::Object(_)) = schema.get("additionalProperties") {
            for (name, field) in object {
                let at = Path::Field(path, &name);
                match self.repair(field, additional, &at) {
                    Ok(field) => {
                        kept.insert(name, field);
                    }
                    Err(reason) => self.dropped.push(Dropped { path: at.to_string(), reason }),
                }
            }
        }
        Ok(Value::Object(kept))
    }

    /// Whether the list's items are codes (an `enum`), which a comma
    /// never is part of.
    fn lists_codes(&self, schema: &Map<String, Value>) -> bool {
        schema.get("items").is_some_and(|items| resolve(self.defs, items).get("enum").is_some())
    }

    fn array(&mut self, items: Vec<Value>, schema: &Map<String, Value>, path: &Path<'_>) -> Result<Value, String> {
        let Some(item_schema) = schema.get("items") else { return Ok(Value::Array(items)) };
        let mut kept = Vec::with_capacity(items.len());
        for (index, item) in items.into_iter().enumerate() {
            let at = Path::Item(path, index);
            match self.repair(item, item_schema, &at) {
                Ok(item) => kept.push(item),
                Err(reason) => self.dropped.push(Dropped { path: at.to_string(), reason }),
            }
        }
        Ok(Value::Array(kept))
    }
}

/// The schema with its `$ref` and `allOf` merged in (its own keys first).
fn resolve<'s>(defs: Option<&'s Map<String, Value>>, node: &'s Value) -> Cow<'s, Value> {
    let Value::Object(schema) = node else { return Cow::Borrowed(node) };
    if !schema.contains_key("$ref") && !schema.contains_key("allOf") {
        return Cow::Borrowed(node);
    }
    // A reference alone is what it refers to, borrowed rather than copied
    // for every value of its type.
    if let (1, Some(Value::String(reference))) = (schema.len(), schema.get("$ref"))
        && let Some(target) = reference.strip_prefix("#/$defs/").and_then(|name| defs?.get(name))
    {
        return resolve(defs, target);
    }
    let mut merged = schema.clone();
    let mut parts = Vec::new();
    if let Some(Value::String(reference)) = merged.remove("$ref") {
        let target = reference.strip_prefix("#/$defs/").and_then(|name| defs?.get(name));
        parts.extend(target.map(|t| resolve(defs, t).into_owned()));
    }
    if let Some(Value::Array(all)) = merged.remove("allOf") {
        parts.extend(all.iter().map(|part| resolve(defs, part).into_owned()));
    }
    for part in parts {
        let Value::Object(part) = part else { continue };
        for (key, value) in part {
            match (key.as_str(), merged.get_mut(&key), value) {
                ("properties", Some(Value::Object(mine)), Value::Object(theirs)) => {
                    for (name, property) in theirs {
                        mine.entry(name).or_insert(property);
                    }
                }
                ("required", Some(Value::Array(mine)), Value::Array(theirs)) => {
                    for name in theirs {
                        if !mine.contains(&name) {
                            mine.push(name);
                        }
                    }
                }
                (_, Some(_), _) => {}
                (_, None, value) => {
                    merged.insert(key, value);
                }
            }
        }
    }
    Cow::Owned(Value::Object(merged))
}

fn types_of(schema: &Map<String, Value>) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(name)) => vec![name.as_str()],
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn is_null_schema(schema: &Value) -> bool {
    schema.as_object().is_some_and(|s| types_of(s) == ["null"])
}

/// The property every branch pins with `const` (`__component`, `collection`).
fn discriminator(branches: &[Value]) -> Option<&str> {
    let first = branches.first()?.get("properties")?.as_object()?;
    first
        .iter()
        .filter(|(_, property)| property.get("const").is_some())
        .map(|(name, _)| name.as_str())
        .find(|name| branches.iter().all(|b| b.pointer(&format!("/properties/{name}/const")).is_some()))
}

/// One of the schema's `enum` values, as the value names it: the value
/// itself, or a text that is one of them written another way (in any case,
/// with spaces or underscores for its hyphens: `SIM registration` for
/// `sim-registration`) or one of their other names (`x-aliases`, a map from
/// the other name to the value).
fn option(value: Value, options: &[Value], schema: &Map<String, Value>) -> Result<Value, String> {
    if options.contains(&value) {
        return Ok(value);
    }
    let as_code = |text: &str| text.trim().to_lowercase().replace(['_', ' '], "-");
    let named = value.as_str().map(as_code).and_then(|code| {
        let spelled = options.iter().find(|option| option.as_str().is_some_and(|option| as_code(option) == code));
        let aliases = schema.get("x-aliases").and_then(Value::as_object);
        let alias = || aliases?.iter().find(|(alias, _)| as_code(alias) == code).map(|(_, option)| option);
        spelled.or_else(alias).filter(|option| options.contains(option)).cloned()
    });
    named.ok_or_else(|| format!("{} is not one of {}", short(&value), Value::Array(options.to_vec())))
}

/// A whole number within the schema's `format` and `minimum`.
fn integer(number: &Number, schema: &Map<String, Value>) -> Result<Value, String> {
    let whole = match (number.as_i64(), number.as_u64(), number.as_f64()) {
        (Some(n), _, _) => n as i128,
        (_, Some(n), _) => n as i128,
        (_, _, Some(f)) if f.fract() == 0.0 && f.abs() < 9.0e15 => f as i128,
        _ => return Err(format!("expected a whole number, got {number}")),
    };
    let (low, high): (i128, i128) = match schema.get("format").and_then(Value::as_str) {
        Some("uint8") => (0, u8::MAX.into()),
        Some("uint16") => (0, u16::MAX.into()),
        Some("uint32") => (0, u32::MAX.into()),
        Some("uint64" | "uint") => (0, u64::MAX.into()),
        Some("int8") => (i8::MIN.into(), i8::MAX.into()),
        Some("int16") => (i16::MIN.into(), i16::MAX.into()),
        Some("int32") => (i32::MIN.into(), i32::MAX.into()),
        _ => (i64::MIN.into(), i64::MAX.into()),
    };
    let minimum = schema.get("minimum").and_then(Value::as_f64).map_or(low, |m| (m.ceil() as i128).max(low));
    if whole < minimum || whole > high {
        return Err(format!("{number} is out of range"));
    }
    Ok(if whole < 0 { Value::from(whole as i64) } else { Value::from(whole as u64) })
}

/// `2025-03-05`, or the date of `2025-03-05T10:00:00Z`, if it is a real day.
fn calendar_date(text: &str) -> Option<String> {
    let date = text.trim().get(..10)?;
    let bytes = date.as_bytes();
    let digits = |range: std::ops::Range<usize>| {
        date[range].parse::<u32>().ok().filter(|_| {
            bytes.iter().enumerate().all(|(i, b)| if i == 4 || i == 7 { *b == b'-' } else { b.is_ascii_digit() })
        })
    };
    let (year, month, day) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    let month = time::Month::try_from(u8::try_from(month).ok()?).ok()?;
    time::Date::from_calendar_date(year as i32, month, u8::try_from(day).ok()?).ok().map(|_| date.to_owned())
}

/// Where a part is, from the answer's root (`sections[3].cards[1].title`):
/// written out only for a part reported, not for every part walked.
enum Path<'p> {
    Root,
    Field(&'p Path<'p>, &'p str),
    Item(&'p Path<'p>, usize),
}

impl std::fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Path::Root => Ok(()),
            Path::Field(Path::Root, name) => f.write_str(name),
            Path::Field(parent, name) => write!(f, "{parent}.{name}"),
            Path::Item(parent, index) => write!(f, "{parent}[{index}]"),
        }
    }
}

fn article(kind: &str) -> &'static str {
    match kind {
        "object" => "an object",
        "array" => "a list",
        "string" => "text",
        "integer" => "a whole number",
        "number" => "a number",
        "boolean" => "true or false",
        "null" => "null",
        _ => "a value",
    }
}

fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(_) => "true or false".into(),
        Value::Number(_) => format!("the number {}", short(value)),
        Value::String(_) => format!("the text {}", short(value)),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// A value as it reads in a log line, cut short.
fn short(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::*;
    use crate::content::{Page, Section, Sidebar};

    #[test]
    fn content_that_fits_is_kept_as_it_is() {
        let raw = json!({ "title": "Home", "sections": [ { "__component": "sections.hero", "id": 1, "title": "Hi", "cta": { "label": "Go", "url": "/x" } } ] });
        let parsed = parse::<Page>(raw);
        assert_eq!(parsed.dropped, vec![]);
        let page = parsed.value.unwrap();
        assert_eq!(page.title, "Home");
        assert!(matches!(&page.sections[0], Section::Hero(hero) if hero.cta.as_ref().unwrap().url == "/x"));
    }

    #[test]
    fn what_the_site_sets_itself_is_not_expected_from_the_cms() {
        let parsed = parse::<crate::content::Media>(
            json!({ "url": "/a.jpg", "alternativeText": null, "width": 1, "height": 1, "mime": "image/jpeg", "size": 12.5 }),
        );
        assert_eq!(parsed.absent, Vec::<String>::new());
    }

    #[test]
    fn a_missing_list_takes_its_default_and_a_bad_link_is_dropped() {
        let parsed = parse::<Sidebar>(json!({ "footerNote": "Dial 100" }));
        assert_eq!(parsed.value.unwrap().links, vec![]);
        assert_eq!(parsed.absent, vec!["links"]);
        let parsed = parse::<Sidebar>(json!({ "links": [ { "label": "A", "url": "/a" }, { "label": "B" }, null, 7 ] }));
        assert_eq!(parsed.value.unwrap().links.len(), 1);
        let paths: Vec<_> = parsed.dropped.iter().map(|d| (d.path.as_str(), d.reason.as_str())).collect();
        assert_eq!(
            paths,
            vec![
                ("links[1]", "missing url"),
                ("links[2]", "expected an object, got null"),
                ("links[3]", "expected an object, got the number 7")
            ]
        );
    }

    #[test]
    fn a_part_missing_a_required_field_is_dropped_up_to_the_nearest_list_element() {
        let raw = json!({ "sections": [
            { "__component": "sections.card-grid", "title": "Cards", "cards": [ { "title": "One", "link": { "label": "x" } }, { "text": "no title" } ] },
            { "__component": "sections.unknown", "title": "?" },
            { "__component": "sections.rich-text", "body": null },
            "junk"
        ] });
        let parsed = parse::<Page>(raw);
        let page = parsed.value.unwrap();
        assert_eq!(page.sections.len(), 1);
        let Section::CardGrid(grid) = &page.sections[0] else { panic!("{page:?}") };
        assert_eq!(grid.cards.len(), 1);
        assert_eq!(grid.cards[0].link, None);
        let paths: Vec<_> = parsed.dropped.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(
            paths,
            vec!["sections[0].cards[0].link", "sections[0].cards[1]", "sections[1]", "sections[2]", "sections[3]"]
        );
        assert_eq!(parsed.dropped[2].reason, "unknown __component \"sections.unknown\"");
    }

    #[test]
    fn mistyped_fields_take_their_default_and_numbers_in_text_are_numbers() {
        let raw = json!({ "title": 5, "backgroundColor": ["red"], "sections": [
            { "__component": "sections.tariff-bands", "bands": [
                { "min": "1000", "max": 2500.0, "send": 10, "withdraw": 20 },
                { "min": -1, "max": 5, "send": 1, "withdraw": 1 }
            ] },
            { "__component": "sections.bundle-table", "bundleIds": ["data-daily-1gb", 5, null], "category": 7 }
        ] });
        let parsed = parse::<Page>(raw);
        let page = parsed.value.unwrap();
        assert_eq!((page.title.as_str(), page.background_color), ("", None));
        let Section::TariffBands(tariff) = &page.sections[0] else { panic!() };
        let bands: Vec<_> = tariff.bands.iter().map(|b| (b.min, b.max)).collect();
        assert_eq!(bands, vec![(1000, 2500)]);
        assert!(parsed.dropped.iter().any(|d| d.path == "sections[0].bands[1]"), "{:?}", parsed.dropped);
        let Section::BundleTable(table) = &page.sections[1] else { panic!() };
        assert_eq!(
            (table.bundle_ids.as_deref(), table.category.as_deref()),
            (Some(&["data-daily-1gb".to_owned()][..]), None)
        );
    }

    #[test]
    fn dates_are_real_days_and_date_times_are_cut_to_their_date() {
        let raw = json!({ "sections": [ { "__component": "sections.events", "events": [
            { "title": "AGM", "date": "2025-09-30T08:00:00.000Z" },
            { "title": "Leap", "date": "2024-02-29" },
            { "title": "Never", "date": "2025-02-29" },
            { "title": "Junk", "date": "not-a-date" }
        ] } ] });
        let parsed = parse::<Page>(raw);
        let Section::Events(events) = &parsed.value.unwrap().sections[0] else { panic!() };
        let dates: Vec<_> = events.events.iter().map(|e| e.date.0.as_str()).collect();
        assert_eq!(dates, vec!["2025-09-30", "2024-02-29"]);
        assert_eq!(parsed.dropped.len(), 2, "{:?}", parsed.dropped);
    }

    /// Codes as an editor or a spreadsheet's import writes them.
    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    #[serde(rename_all = "kebab-case")]
    #[schemars(extend("x-aliases" = { "vodashop": "shop" }))]
    enum Code {
        CashIn,
        SimRegistration,
        Shop,
    }

    #[derive(Debug, Deserialize, JsonSchema)]
    struct Coded {
        code: Code,
        #[serde(default)]
        codes: Vec<Code>,
        #[serde(default)]
        names: Vec<String>,
    }

    #[test]
    fn a_code_is_read_in_any_case_with_spaces_or_underscores_for_its_hyphens_or_by_another_name() {
        let code = |text: &str| parse::<Coded>(json!({ "code": text })).value.map(|coded| coded.code);
        assert_eq!(code("sim-registration"), Some(Code::SimRegistration));
        assert_eq!(code(" SIM registration "), Some(Code::SimRegistration));
        assert_eq!(code("Cash_In"), Some(Code::CashIn));
        assert_eq!(code("VodaShop"), Some(Code::Shop));
        assert_eq!(code("cashin"), None);
        let parsed = parse::<Coded>(json!({ "code": "kiosk" }));
        assert_eq!(parsed.dropped[0].reason, r#"code: "kiosk" is not one of ["cash-in","sim-registration","shop"]"#);
    }

    #[test]
    fn a_list_of_codes_may_be_one_text_separated_by_commas_or_semicolons() {
        let parsed = parse::<Coded>(
            json!({ "code": "shop", "codes": "cash-in, SIM registration;; teleport", "names": "Juma, Neema" }),
        );
        let coded = parsed.value.unwrap();
        assert_eq!(coded.codes, vec![Code::CashIn, Code::SimRegistration]);
        assert_eq!(coded.names, Vec::<String>::new(), "a text may hold a comma: a list of texts is not split");
        let dropped: Vec<_> = parsed.dropped.iter().map(|d| (d.path.as_str(), d.reason.as_str())).collect();
        assert_eq!(
            dropped,
            vec![
                ("codes[2]", r#""teleport" is not one of ["cash-in","sim-registration","shop"]"#),
                ("names", "expected a list, got the text \"Juma, Neema\"")
            ]
        );
    }

    #[test]
    fn an_answer_that_is_not_an_object_is_nothing() {
        let parsed = parse::<Page>(json!("<html>"));
        assert!(parsed.value.is_none());
        assert_eq!(parsed.dropped[0].path, "");
    }
}
