//! `advisories`: `Cargo.lock` checked against a copy of the RustSec advisory
//! database on disk, never the network (`make audit`, docs/testing.md).
//! Exits 1 on a vulnerability that `accepted.toml` does not accept, 2 when
//! the database, the lockfile or the list cannot be read; informational
//! advisories (unmaintained, unsound) are printed and fail nothing.

mod accepted;
mod check;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use rustsec::{Database, Lockfile};

use crate::accepted::Accepted;

/// Check a lockfile against the RustSec advisory database in a folder.
#[derive(Parser)]
#[command(name = "advisories")]
struct Cli {
    /// The advisory database's folder (its `crates/` inside).
    #[arg(long, env = "ADVISORY_DB")]
    db: PathBuf,
    /// The lockfile to check.
    #[arg(long, default_value = "Cargo.lock")]
    lockfile: PathBuf,
    /// The advisories accepted, with their reasons.
    #[arg(long, default_value = "tools/advisories/accepted.toml")]
    accepted: PathBuf,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let read = || -> Result<_, String> {
        let db = Database::open(&cli.db).map_err(|error| format!("{}: {error}", cli.db.display()))?;
        let lockfile = Lockfile::load(&cli.lockfile).map_err(|error| format!("{}: {error}", cli.lockfile.display()))?;
        Ok((db, lockfile, Accepted::read(&cli.accepted)?))
    };
    let (db, lockfile, accepted) = match read() {
        Ok(read) => read,
        Err(error) => {
            eprintln!("advisories: {error}");
            return ExitCode::from(2);
        }
    };
    let findings = check::check(&db, &lockfile, &accepted);
    for line in findings.warnings.iter().chain(&findings.stale) {
        println!("warning: {line}");
    }
    for line in &findings.failures {
        println!("error: {line}");
    }
    println!(
        "advisories: {} crates of {} checked against {} advisories in {}: {} vulnerable, {} warnings",
        lockfile.packages.len(),
        cli.lockfile.display(),
        db.iter().count(),
        cli.db.display(),
        findings.failures.len(),
        findings.warnings.len() + findings.stale.len(),
    );
    if findings.failed() { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
