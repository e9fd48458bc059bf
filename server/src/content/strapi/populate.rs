//! How relations, media and components are asked for: the configured
//! [`PopulateStrategy`] first, then what the CMS's refusals teach (a plugin
//! it lacks, a key its schema lacks, and where), kept per content type.

use serde_json::{Map, Value, json};

use crate::config::PopulateStrategy;

/// A key the CMS called invalid, and where it did.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Refused {
    pub(super) key: String,
    /// The attribute path of the component or relation whose populate named
    /// it, as Strapi 5 reports it (`seo` for the SEO component's
    /// `shareImage`; a dynamic zone's members add nothing to their zone's
    /// path); empty at the top; `None` when the CMS did not say where (Strapi
    /// 4), and the key is then left out wherever it is asked for.
    pub(super) under: Option<Vec<String>>,
}

/// What a content type of this CMS accepts, as learnt from its refusals.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Accepted {
    pub(super) strategy: PopulateStrategy,
    /// Populate keys the CMS called invalid: fields its schema lacks.
    pub(super) invalid_keys: Vec<Refused>,
    /// Refused even explicit populate with no key named: ask without.
    pub(super) no_populate: bool,
}
/// What to ask next after a 400 with `body`, if anything is left to try.
pub(super) fn learn(accepted: &Accepted, body: &str) -> Option<Accepted> {
    if accepted.no_populate {
        return None;
    }
    if accepted.strategy != PopulateStrategy::Explicit {
        // The deep-populate plugin is not installed: ask a stock Strapi's way.
        return Some(Accepted { strategy: PopulateStrategy::Explicit, ..accepted.clone() });
    }
    match invalid_key(body) {
        Some(key) if !accepted.invalid_keys.contains(&key) => {
            let mut invalid_keys = accepted.invalid_keys.clone();
            invalid_keys.push(key);
            Some(Accepted { invalid_keys, ..accepted.clone() })
        }
        _ => Some(Accepted { no_populate: true, ..accepted.clone() }),
    }
}

/// What an index asks next after a 400 with `body`: without the field of
/// `fields` it names, which the collection's schema lacks.
pub(super) fn learn_field(accepted: &Accepted, body: &str, fields: &[&str]) -> Option<Accepted> {
    let key = invalid_key(body)
        .filter(|refused| fields.contains(&refused.key.as_str()) && !accepted.invalid_keys.contains(refused))?;
    let mut invalid_keys = accepted.invalid_keys.clone();
    invalid_keys.push(key);
    Some(Accepted { invalid_keys, ..accepted.clone() })
}

/// The key a Strapi validation error names and where: `error.details`
/// (`key`, and `path` in Strapi 5), or the message `Invalid key <key>`
/// (`… at <path>`).
pub(super) fn invalid_key(body: &str) -> Option<Refused> {
    let error: Value = serde_json::from_str(body).ok()?;
    let error = error.get("error")?;
    let path = |path: &str| path.split('.').filter(|step| !step.is_empty()).map(str::to_owned).collect::<Vec<_>>();
    if let Some(Value::String(key)) = error.pointer("/details/key") {
        let under = match error.pointer("/details/path") {
            None => None,
            Some(Value::String(at)) => Some(path(at)),
            Some(_) => Some(Vec::new()),
        };
        return Some(Refused { key: key.clone(), under });
    }
    let message = error.get("message")?.as_str()?.strip_prefix("Invalid key ")?;
    let (key, under) = match message.split_once(" at ") {
        Some((key, at)) => (key, Some(path(at.trim()))),
        None => (message, None),
    };
    let key = key.trim().trim_matches(['"', '\'', '`']);
    (!key.is_empty()).then(|| Refused { key: key.to_owned(), under })
}

/// A populate tree's `fields` without `key` where the CMS refused it:
/// in the populate of the attribute path `under` (a dynamic zone's members
/// all share their zone's path), or wherever it is asked for when `under`
/// is `None`. Everything that held it is still populated (`true`, or `*`
/// for a dynamic zone's member): Strapi 5 leaves out a component nobody
/// asked for, so dropping the parent with the refused key would lose every
/// field it has (a `shared.seo` without `shareImage` would lose
/// `metaTitle`), and an image refused in one component stays asked for in
/// the others.
pub(super) fn without(fields: &Map<String, Value>, key: &str, under: Option<&[String]>) -> Map<String, Value> {
    let here = under.is_none_or(<[String]>::is_empty);
    fields
        .iter()
        .filter(|(name, _)| !(here && *name == key))
        .map(|(name, entry)| {
            let entry = match under {
                None => entry_without(entry, key, None),
                Some([first, rest @ ..]) if first == name => entry_without(entry, key, Some(rest)),
                Some(_) => entry.clone(),
            };
            (name.clone(), entry)
        })
        .collect()
}

fn entry_without(entry: &Value, key: &str, under: Option<&[String]>) -> Value {
    if let Some(Value::Object(nested)) = entry.get("populate") {
        let nested = without(nested, key, under);
        return if nested.is_empty() { Value::Bool(true) } else { json!({ "populate": nested }) };
    }
    if let Some(Value::Object(members)) = entry.get("on") {
        let members: Map<String, Value> = members
            .iter()
            .map(|(uid, member)| {
                let member = match entry_without(member, key, under) {
                    Value::Bool(true) => json!({ "populate": "*" }),
                    member => member,
                };
                (uid.clone(), member)
            })
            .collect();
        return json!({ "on": members });
    }
    entry.clone()
}
