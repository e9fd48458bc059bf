//! The check itself: which crates of a lockfile the database names, and
//! whether that fails the check.

use rustsec::database::Query;
use rustsec::{Database, Lockfile, Vulnerability};

use crate::accepted::Accepted;

/// What the check found, as the lines it prints.
#[derive(Debug, Default)]
pub struct Findings {
    /// Vulnerabilities no acceptance covers: each fails the check.
    pub failures: Vec<String>,
    /// Informational advisories (unmaintained, unsound, notices) and the
    /// vulnerabilities accepted, each with its acceptance's reason if any.
    pub warnings: Vec<String>,
    /// Acceptances that match no crate of the lockfile any more.
    pub stale: Vec<String>,
}

impl Findings {
    pub fn failed(&self) -> bool {
        !self.failures.is_empty()
    }
}

pub fn check(db: &Database, lockfile: &Lockfile, accepted: &Accepted) -> Findings {
    let mut findings = Findings::default();
    let vulnerabilities = db.query_vulnerabilities(lockfile, &Query::crate_scope());
    let informational = db.query_vulnerabilities(lockfile, &Query::crate_scope().informational(true));
    for vulnerability in &vulnerabilities {
        let line = describe(vulnerability, "vulnerability");
        match accepted.of(&vulnerability.advisory.id) {
            Some(acceptance) => findings.warnings.push(format!("{line}\n  accepted: {}", acceptance.reason.trim())),
            None => findings.failures.push(line),
        }
    }
    for advisory in &informational {
        let kind = advisory.advisory.informational.as_ref().map_or("informational", |kind| kind.as_str());
        let line = describe(advisory, kind);
        match accepted.of(&advisory.advisory.id) {
            Some(acceptance) => findings.warnings.push(format!("{line}\n  accepted: {}", acceptance.reason.trim())),
            None => findings
                .warnings
                .push(format!("{line}\n  not in accepted.toml: read it, then accept it there or move off the crate")),
        }
    }
    let found = vulnerabilities.iter().chain(&informational);
    let matched: Vec<_> = found.map(|finding| &finding.advisory.id).collect();
    for acceptance in accepted.iter().filter(|acceptance| !matched.contains(&&acceptance.id)) {
        findings.stale.push(format!("{} ({}) matches no crate of the lockfile", acceptance.id, acceptance.krate));
    }
    findings
}

fn describe(finding: &Vulnerability, kind: &str) -> String {
    let advisory = &finding.advisory;
    let package = &finding.package;
    let patched: Vec<String> = finding.versions.patched().iter().map(ToString::to_string).collect();
    let patched = if patched.is_empty() { "none".to_owned() } else { patched.join(", ") };
    format!("{} {kind}: {} {}: {} (patched: {patched})", advisory.id, package.name, package.version, advisory.title)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database of two advisories in the RustSec layout: a vulnerability
    /// of `leaky` before 1.2.0, and `oldie` unmaintained.
    fn database() -> (tempfile::TempDir, Database) {
        let dir = tempfile::tempdir().unwrap();
        let advisories = [
            ("leaky", "RUSTSEC-2020-0001", "", "patched = [\">= 1.2.0\"]"),
            ("oldie", "RUSTSEC-2021-0002", "informational = \"unmaintained\"\n", "patched = []"),
        ];
        for (krate, id, extra, versions) in advisories {
            let folder = dir.path().join("crates").join(krate);
            std::fs::create_dir_all(&folder).unwrap();
            let text = format!(
                "```toml\n[advisory]\nid = \"{id}\"\npackage = \"{krate}\"\ndate = \"2020-01-01\"\n{extra}\n\
                 [versions]\n{versions}\n```\n\n# {krate} is bad\n\nWhy.\n"
            );
            std::fs::write(folder.join(format!("{id}.md")), text).unwrap();
        }
        let db = Database::open(dir.path()).unwrap();
        (dir, db)
    }

    fn lockfile(packages: &[(&str, &str)]) -> Lockfile {
        let mut text = String::from("version = 4\n");
        for (name, version) in packages {
            text.push_str(&format!(
                "\n[[package]]\nname = \"{name}\"\nversion = \"{version}\"\n\
                 source = \"registry+https://github.com/rust-lang/crates.io-index\"\n"
            ));
        }
        text.parse().unwrap()
    }

    fn accepted(text: &str) -> Accepted {
        Accepted::parse(text).unwrap()
    }

    #[test]
    fn a_vulnerable_version_fails_and_a_patched_one_passes() {
        let (_dir, db) = database();
        let findings = check(&db, &lockfile(&[("leaky", "1.1.9")]), &Accepted::default());
        assert!(findings.failed());
        assert!(findings.failures[0].starts_with("RUSTSEC-2020-0001 vulnerability: leaky 1.1.9"), "{findings:?}");
        let findings = check(&db, &lockfile(&[("leaky", "1.2.0")]), &Accepted::default());
        assert!(!findings.failed(), "{findings:?}");
    }

    #[test]
    fn an_accepted_vulnerability_is_printed_with_its_reason_and_passes() {
        let (_dir, db) = database();
        let list =
            accepted("[[accepted]]\nid = \"RUSTSEC-2020-0001\"\ncrate = \"leaky\"\nreason = \"Never reached.\"\n");
        let findings = check(&db, &lockfile(&[("leaky", "1.0.0")]), &list);
        assert!(!findings.failed(), "{findings:?}");
        assert!(findings.warnings[0].ends_with("accepted: Never reached."), "{findings:?}");
    }

    #[test]
    fn an_unmaintained_crate_is_reported_without_failing() {
        let (_dir, db) = database();
        let findings = check(&db, &lockfile(&[("oldie", "0.1.0")]), &Accepted::default());
        assert!(!findings.failed(), "{findings:?}");
        assert_eq!(findings.warnings.len(), 1);
        assert!(findings.warnings[0].starts_with("RUSTSEC-2021-0002 unmaintained: oldie 0.1.0"), "{findings:?}");
        assert!(findings.warnings[0].contains("not in accepted.toml"), "{findings:?}");
    }

    #[test]
    fn an_acceptance_matching_nothing_is_named_stale() {
        let (_dir, db) = database();
        let list = accepted("[[accepted]]\nid = \"RUSTSEC-2021-0002\"\ncrate = \"oldie\"\nreason = \"Kept.\"\n");
        let findings = check(&db, &lockfile(&[("leaky", "2.0.0")]), &list);
        assert!(findings.warnings.is_empty(), "{findings:?}");
        assert_eq!(findings.stale, ["RUSTSEC-2021-0002 (oldie) matches no crate of the lockfile"]);
    }
}
