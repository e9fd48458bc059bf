//! An item's versions in the other language, as its own answer names them
//! (`localizations`), so that its page knows its address in both languages
//! from the one request that read it.
//!
//! Strapi gives each language's version of an entry its own id; Strapi 5
//! links them by one `documentId`, and its `localizations` relation joins
//! every other row of that document: the other languages' versions, and,
//! where Strapi does not filter them by status, their drafts (and this
//! language's draft) too. So a version is picked by its language and, when
//! both are listed, by whether it is published. Strapi 4's `localizations`
//! is a relation of its own and lists the published versions. The
//! deep-populate plugins populate it one level deep (every plain field); a
//! stock Strapi is asked for `slug`, `locale` and `publishedAt` alone.

use contract::Lang;
use serde_json::Value;

use crate::slug::{is_slug, slugify};

/// One version of an item in another language.
#[derive(Debug, Clone, PartialEq)]
pub struct Localization {
    pub lang: Lang,
    pub id: u32,
    /// Its slug, made of `a-z`, `0-9` and `-` (from its heading when it has none).
    pub slug: String,
    /// `None` where the answer does not say (Strapi 4 without drafts, a plugin that leaves it out).
    pub published: Option<bool>,
}

/// What an item's answer says of its versions in other languages.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Localizations(Vec<Localization>);

impl Localizations {
    /// The `localizations` of a normalised item; `None` when the answer
    /// does not have them (a CMS not asked for them, or whose type is not
    /// localized; the embedded content). A version in a language the site
    /// does not have, or without a usable id or address, is left out.
    pub fn of(item: &Value) -> Option<Localizations> {
        let listed = match item.get("localizations")? {
            Value::Array(listed) => listed,
            Value::Null => return Some(Localizations::default()),
            _ => return None,
        };
        Some(Localizations(listed.iter().filter_map(parse).collect()))
    }

    /// The version in `lang`: of several (a document's draft and published
    /// rows), the published one, or for a preview (`drafts`) the draft.
    pub fn version(&self, lang: Lang, drafts: bool) -> Option<&Localization> {
        let mut versions = self.0.iter().filter(|version| version.lang == lang);
        let first = versions.clone().next()?;
        Some(versions.find(|version| version.published == Some(!drafts)).unwrap_or(first))
    }
}

fn parse(version: &Value) -> Option<Localization> {
    let code = version.get("locale")?.as_str()?;
    let lang = Lang::ALL.into_iter().find(|lang| lang.code() == code)?;
    let id = u32::try_from(version.get("id")?.as_u64()?).ok().filter(|id| *id > 0)?;
    let text = |name: &str| version.get(name).and_then(Value::as_str).unwrap_or_default();
    let slug = match text("slug") {
        slug if is_slug(slug) => slug.to_owned(),
        slug => Some(slugify(slug))
            .filter(|slug| !slug.is_empty())
            .unwrap_or_else(|| slugify(if text("title").is_empty() { text("name") } else { text("title") })),
    };
    if slug.is_empty() {
        return None;
    }
    let published = match version.get("publishedAt") {
        Some(Value::Null) => Some(false),
        Some(Value::String(_)) => Some(true),
        _ => None,
    };
    Some(Localization { lang, id, slug, published })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Strapi 5 without a status filter on the relation: this language's
    /// draft and the other's draft and published rows. The published one is
    /// the address; a preview's is the draft.
    #[test]
    fn the_published_version_in_the_other_language_is_picked() {
        let item = json!({ "id": 6, "slug": "story", "localizations": [
            { "id": 5, "locale": "en", "slug": "story", "publishedAt": null },
            { "id": 7, "locale": "sw", "slug": "habari", "publishedAt": null },
            { "id": 8, "locale": "sw", "slug": "habari", "publishedAt": "2026-01-01T00:00:00.000Z" },
            { "id": 9, "locale": "fr", "slug": "histoire", "publishedAt": "2026-01-01T00:00:00.000Z" }
        ] });
        let localizations = Localizations::of(&item).unwrap();
        assert_eq!(localizations.version(Lang::Sw, false).map(|v| (v.id, v.slug.as_str())), Some((8, "habari")));
        assert_eq!(localizations.version(Lang::Sw, true).map(|v| v.id), Some(7));
        assert_eq!(localizations.0.len(), 3, "a language the site lacks is left out");
    }

    /// Strapi 4 (after normalising) lists the published versions alone;
    /// a slug that is no slug is made one, from the heading if need be.
    #[test]
    fn a_version_without_status_or_slug_still_has_an_address() {
        let item = json!({ "id": 3, "localizations": [ { "id": 4, "locale": "sw", "slug": "Habari Njema!" } ] });
        let version = Localizations::of(&item).unwrap().version(Lang::Sw, false).cloned();
        assert_eq!(version, Some(Localization { lang: Lang::Sw, id: 4, slug: "habari-njema".into(), published: None }));
        let titled = json!({ "localizations": [ { "id": 4, "locale": "sw", "slug": null, "title": "Simu Mpya" } ] });
        assert_eq!(Localizations::of(&titled).unwrap().version(Lang::Sw, false).unwrap().slug, "simu-mpya");
        let nameless =
            json!({ "localizations": [ { "id": 4, "locale": "sw" }, { "id": 0, "locale": "sw", "slug": "x" } ] });
        assert_eq!(Localizations::of(&nameless).unwrap().version(Lang::Sw, false), None);
    }

    /// No `localizations` at all says nothing; an empty list says there is
    /// no other version.
    #[test]
    fn an_answer_without_them_says_nothing() {
        assert_eq!(Localizations::of(&json!({ "id": 3, "slug": "a" })), None);
        let none = Localizations::of(&json!({ "id": 3, "localizations": [] })).unwrap();
        assert_eq!(none.version(Lang::Sw, false), None);
    }
}
