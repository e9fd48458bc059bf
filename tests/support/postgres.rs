//! A real PostgreSQL for a test, from the machine's packages (Debian's
//! `postgresql`: `/usr/lib/postgresql/<version>/bin`, or `initdb` on the
//! `PATH`): a new cluster in a temporary directory, listening on a random
//! loopback port, stopped when dropped. PostgreSQL refuses to run as root,
//! so as root (CI) it runs as the `postgres` user the package made.
//!
//! Where it is missing a test is skipped with a notice, so a developer
//! without it can run the rest; with `REQUIRE_POSTGRES` set (as `.ci/run`
//! does) the test fails instead, so CI cannot pass without having run it.
//!
//! Shared by the server's unit tests and the API tests (each includes this
//! file as a module of its own), so it uses nothing but the standard
//! library and `tempfile`.

// Each includer uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub struct Postgres {
    pub port: u16,
    bin: PathBuf,
    /// The user the server runs as, when this process is root.
    user: Option<&'static str>,
    dir: tempfile::TempDir,
}

/// `initdb` and its siblings: the newest of Debian's versions, else the `PATH`'s.
fn binaries() -> Option<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| Some((entry.file_name().to_str()?.parse().ok()?, entry.path().join("bin"))))
        .filter(|(_, bin): &(u32, PathBuf)| bin.join("initdb").exists())
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return Some(bin);
    }
    let found = Command::new("initdb").arg("--version").stdout(Stdio::null()).status().is_ok_and(|s| s.success());
    found.then(PathBuf::new)
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|out| out.stdout.trim_ascii() == b"0")
}

/// Fails the test where `REQUIRE_POSTGRES` is set; otherwise says it is skipped.
fn missing(why: &str) {
    if std::env::var_os("REQUIRE_POSTGRES").is_some_and(|value| !value.is_empty() && value != "0") {
        panic!("{why}, and REQUIRE_POSTGRES is set (apt-get install postgresql)");
    }
    eprintln!("NOTICE: {why}; PostgreSQL test skipped (apt-get install postgresql)");
}

impl Postgres {
    /// A new cluster, started; `None` where PostgreSQL is not installed
    /// and the test may be skipped.
    pub fn start() -> Option<Postgres> {
        let Some(bin) = binaries() else {
            missing("PostgreSQL (initdb) is not installed");
            return None;
        };
        let user = is_root().then_some("postgres");
        let dir = tempfile::tempdir().expect("a temporary directory");
        if let Some(user) = user {
            let owned = Command::new("chown").arg(format!("{user}:")).arg(dir.path()).status();
            assert!(
                owned.is_ok_and(|s| s.success()),
                "chown {user} {}: is the postgres user there?",
                dir.path().display()
            );
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let postgres = Postgres { port, bin, user, dir };
        let data = postgres.data();
        postgres.run("initdb", &["-D", &data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"]);
        postgres.resume();
        Some(postgres)
    }

    /// `postgres://` to the database `postgres`, as `DATABASE_URL`.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    fn data(&self) -> String {
        self.dir.path().join("data").display().to_string()
    }

    /// One of PostgreSQL's programs, as the user it runs as; panics with its output if it fails.
    fn run(&self, program: &str, args: &[&str]) -> Output {
        let path = self.bin.join(program);
        let mut command = match self.user {
            Some(user) => {
                let mut command = Command::new("runuser");
                command.args(["-u", user, "--"]).arg(&path);
                command
            }
            None => Command::new(&path),
        };
        let output = command.args(args).current_dir(self.dir.path()).output().unwrap_or_else(|error| {
            panic!("{} cannot run: {error}", Path::new(program).display());
        });
        assert!(
            output.status.success(),
            "{program} {args:?}: {}\n{}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        output
    }

    /// Starts it (again, with what it held) and waits until it takes connections.
    pub fn resume(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
            self.port,
            self.dir.path().display()
        );
        let log = self.dir.path().join("log").display().to_string();
        self.run("pg_ctl", &["-D", &self.data(), "-l", &log, "-o", &options, "-w", "-t", "60", "start"]);
    }

    /// Stops it at once, as a crash would: connections drop, new ones are refused.
    pub fn stop(&self) {
        self.run("pg_ctl", &["-D", &self.data(), "-m", "immediate", "-w", "stop"]);
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let path = self.bin.join("pg_ctl");
        let data = self.data();
        let args = ["-D", data.as_str(), "-m", "immediate", "-w", "stop"];
        let _ = match self.user {
            Some(user) => Command::new("runuser").args(["-u", user, "--"]).arg(&path).args(args).output(),
            None => Command::new(&path).args(args).output(),
        };
    }
}
