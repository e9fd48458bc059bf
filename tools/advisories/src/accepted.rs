//! `accepted.toml`: the advisories the project has read and accepts, each
//! with the reason it gives.

use std::path::Path;

use rustsec::advisory::Id;
use serde::Deserialize;

/// The list as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Accepted {
    #[serde(default)]
    accepted: Vec<Acceptance>,
}

/// One advisory accepted: its id, the crate it names (so the file reads
/// without the database at hand) and why.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Acceptance {
    pub id: Id,
    #[serde(rename = "crate")]
    pub krate: String,
    pub reason: String,
}

impl Accepted {
    pub fn read(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))?;
        Self::parse(&text).map_err(|error| format!("{}: {error}", path.display()))
    }

    pub fn parse(text: &str) -> Result<Self, toml::de::Error> {
        toml::from_str(text)
    }

    /// The acceptance of this advisory, if any.
    pub fn of(&self, id: &Id) -> Option<&Acceptance> {
        self.accepted.iter().find(|acceptance| &acceptance.id == id)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Acceptance> {
        self.accepted.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_acceptance_without_a_reason_is_refused() {
        let error = Accepted::parse("[[accepted]]\nid = \"RUSTSEC-2024-0436\"\ncrate = \"paste\"\n").unwrap_err();
        assert!(error.to_string().contains("reason"), "{error}");
    }

    #[test]
    fn the_projects_own_list_reads() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("accepted.toml");
        let accepted = Accepted::read(&path).unwrap();
        assert!(accepted.iter().all(|acceptance| !acceptance.reason.trim().is_empty()));
        assert!(accepted.of(&"RUSTSEC-2024-0436".parse().unwrap()).is_some());
    }
}
