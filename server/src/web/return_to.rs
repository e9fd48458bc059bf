//! Where a form sends the browser back to (`returnTo`), parsed once: only a
//! path of this site made of safe characters is followed. Anything else
//! (another site, `//host`, `/\host`, control characters that would break
//! the `Location` header or be dropped by the browser into `//evil`) is no
//! path at all, and the form goes back to the home page instead.

use serde::{Deserialize, Deserializer};

/// Longer than any page of the site with its query.
const MAX_LEN: usize = 512;

/// `path` if it is a same-site path the browser can only read one way.
pub fn site_path(path: &str) -> Option<&str> {
    let rest = path.strip_prefix('/')?;
    let safe = path.len() <= MAX_LEN
        && !rest.starts_with(['/', '\\'])
        // Visible ASCII only: no controls, spaces or backslashes, which
        // browsers strip or read as `/`.
        && path.bytes().all(|b| b.is_ascii_graphic() && b != b'\\');
    safe.then_some(path)
}

/// For `#[serde(deserialize_with)]`: a `returnTo` field, `None` unless safe.
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    let value = Option::<String>::deserialize(deserializer)?;
    Ok(value.as_deref().and_then(site_path).map(str::to_owned))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_of_the_site_are_followed() {
        for path in ["/", "/sw/account", "/account?step=code&msisdn=0754+000+001", "/a%0Ab", "/news/2024-01"] {
            assert_eq!(site_path(path), Some(path));
        }
    }

    #[test]
    fn anything_else_is_no_path() {
        let long = format!("/{}", "a".repeat(MAX_LEN));
        let inputs = [
            "",
            "account",
            "https://evil.example",
            "//evil.example",
            "/\\evil.example",
            "/a\nb",
            "/\t/evil.example",
            "/a b",
            "/a\\b",
            "/\u{7f}",
            "/ünï",
            "/a\rLocation: x",
            long.as_str(),
        ];
        for input in inputs {
            assert_eq!(site_path(input), None, "{input:?}");
        }
    }
}
