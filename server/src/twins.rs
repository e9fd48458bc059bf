//! The server's side of `tests/twins/`: rules the app runs too (phone
//! numbers, codes, slugs, language paths, nested form fields, route
//! addresses), checked
//! against the same cases as the app's `*.twins.test.ts`, so that a change
//! to one side alone fails here or there.

use std::collections::BTreeMap;
use std::path::Path;

use contract::Lang;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::forms::nest::nest;
use crate::msisdn::{InputError, Msisdn, OtpCode};
use crate::pages::locale::LocalPath;
use crate::slug::slugify;
use contract::route::fill_path;

fn fixture<T: DeserializeOwned>(name: &str) -> T {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/twins").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Inputs that parse, and inputs that are refused (the API tests check the
/// notice key the fixture names).
#[derive(Deserialize)]
struct Inputs<T> {
    accepted: Vec<T>,
    refused: Vec<String>,
}

#[derive(Deserialize)]
struct Number {
    input: String,
    msisdn: String,
    local: String,
}

#[derive(Deserialize)]
struct Code {
    input: String,
    code: String,
}

#[test]
fn phone_numbers() {
    let numbers: Inputs<Number> = fixture("phone-numbers.json");
    for case in &numbers.accepted {
        let parsed = Msisdn::parse(&case.input).unwrap_or_else(|_| panic!("{:?} refused", case.input));
        assert_eq!(
            (parsed.as_str(), parsed.local().as_str()),
            (case.msisdn.as_str(), case.local.as_str()),
            "{:?}",
            case.input
        );
    }
    for input in &numbers.refused {
        assert_eq!(Msisdn::parse(input), Err(InputError::Msisdn), "{input:?}");
    }
}

#[test]
fn codes() {
    let codes: Inputs<Code> = fixture("codes.json");
    for case in &codes.accepted {
        assert_eq!(
            OtpCode::parse(&case.input).map(|code| code.as_str().to_owned()),
            Ok(case.code.clone()),
            "{:?}",
            case.input
        );
    }
    for input in &codes.refused {
        assert!(OtpCode::parse(input).is_err(), "{input:?}");
    }
}

#[test]
fn slugs() {
    #[derive(Deserialize)]
    struct Slugs {
        cases: Vec<Slug>,
    }
    #[derive(Deserialize)]
    struct Slug {
        text: String,
        slug: String,
    }
    for case in fixture::<Slugs>("slugs.json").cases {
        assert_eq!(slugify(&case.text), case.slug, "{:?}", case.text);
    }
}

#[test]
fn language_paths() {
    #[derive(Deserialize)]
    struct LanguagePaths {
        paths: Vec<Address>,
        codes: Vec<Code>,
    }
    #[derive(Deserialize)]
    struct Address {
        path: String,
        lang: Lang,
        local: String,
        href: String,
    }
    #[derive(Deserialize)]
    struct Code {
        value: String,
        lang: Lang,
    }
    let fixture: LanguagePaths = fixture("language-paths.json");
    for case in fixture.paths {
        let local = LocalPath::parse(&case.path);
        assert_eq!((local.lang, local.path.as_str()), (case.lang, case.local.as_str()), "{:?}", case.path);
        assert_eq!(case.lang.href(&case.local), case.href, "{:?}", case.path);
    }
    for case in fixture.codes {
        assert_eq!(Lang::parse(&case.value), case.lang, "{:?}", case.value);
    }
}

#[test]
fn form_fields() {
    #[derive(Deserialize)]
    struct FormFields {
        cases: Vec<Fields>,
    }
    #[derive(Deserialize)]
    struct Fields {
        pairs: Vec<(String, String)>,
        value: Value,
    }
    for case in fixture::<FormFields>("form-fields.json").cases {
        assert_eq!(nest(&case.pairs), case.value, "{:?}", case.pairs);
    }
}

#[test]
fn route_hrefs() {
    #[derive(Deserialize)]
    struct RouteHrefs {
        cases: Vec<Href>,
    }
    #[derive(Deserialize)]
    struct Href {
        pattern: String,
        params: BTreeMap<String, String>,
        href: Option<String>,
    }
    for case in fixture::<RouteHrefs>("route-hrefs.json").cases {
        let params: Vec<(&str, &str)> =
            case.params.iter().map(|(name, value)| (name.as_str(), value.as_str())).collect();
        assert_eq!(fill_path(&case.pattern, &params), case.href, "{:?} {:?}", case.pattern, case.params);
    }
}
