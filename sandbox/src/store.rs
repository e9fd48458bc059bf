//! The database: schema, opening and seeding. Times are Unix milliseconds.
//!
//! A file that is there is the sandbox's state (balances, purchases, grants):
//! it is opened only when it is whole and of this schema, and otherwise
//! refused with what to do, never re-seeded over.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use super::SandboxError;
use super::domain::Msisdn;
use super::seed::{self, PERMISSIONS, SUBSCRIBERS};

const SCHEMA: &str = "
CREATE TABLE subscriber (
    msisdn              TEXT PRIMARY KEY,
    first_name          TEXT NOT NULL,
    family_name         TEXT NOT NULL,
    payment_method      TEXT NOT NULL CHECK (payment_method IN ('PREPAID', 'POSTPAID')),
    minor               INTEGER NOT NULL,
    registration_status TEXT NOT NULL,
    scopes              TEXT NOT NULL,          -- JSON array of strings
    airtime             INTEGER NOT NULL CHECK (airtime >= 0),
    wallet              INTEGER NOT NULL CHECK (wallet >= 0),
    alternative_msisdn  TEXT,
    mpesa_account       INTEGER NOT NULL DEFAULT 1  -- 0: no M-Pesa account (wallet unused)
);
-- One row per allowance of a bundle held (its data, its minutes, its SMS);
-- buying the same bundle again tops it up.
CREATE TABLE bundle_balance (
    msisdn      TEXT NOT NULL REFERENCES subscriber (msisdn),
    bundle_id   TEXT NOT NULL,                  -- of the catalogue; before version 2, the English name
    unit        TEXT NOT NULL,
    remaining   INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    PRIMARY KEY (msisdn, bundle_id, unit)
);
CREATE TABLE purchase (
    id          INTEGER PRIMARY KEY,
    payer       TEXT NOT NULL REFERENCES subscriber (msisdn),
    recipient   TEXT NOT NULL REFERENCES subscriber (msisdn),
    bundle_id   TEXT NOT NULL,
    channel     TEXT NOT NULL,
    price       INTEGER NOT NULL,
    billed      INTEGER NOT NULL,               -- 1: postpaid, on the bill
    created_at  INTEGER NOT NULL
);
-- The live code of a number for one purpose; a new code replaces it. An
-- empty hash: a request with no code (a number no code may be sent to).
CREATE TABLE one_time_code (
    msisdn      TEXT NOT NULL,
    purpose     TEXT NOT NULL,
    salt        BLOB NOT NULL,
    hash        BLOB NOT NULL,
    sent_at     INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    wrong_tries INTEGER NOT NULL DEFAULT 0,
    state       TEXT NOT NULL CHECK (state IN ('live', 'used', 'burnt')),
    requested_by TEXT,                          -- the only subscriber it serves; NULL: anyone
    PRIMARY KEY (msisdn, purpose)
);
-- The SMS the sandbox would have sent: the only place codes are in clear.
CREATE TABLE inbox (
    id          INTEGER PRIMARY KEY,
    recipient   TEXT NOT NULL,
    about       TEXT NOT NULL,                  -- the number the code opens
    purpose     TEXT NOT NULL,
    code        TEXT NOT NULL,
    sent_at     INTEGER NOT NULL,
    text_en     TEXT NOT NULL DEFAULT '',       -- what the SMS says
    text_sw     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX inbox_by_recipient ON inbox (recipient, id);
CREATE TABLE token (
    hash        BLOB PRIMARY KEY,
    msisdn      TEXT NOT NULL,
    purpose     TEXT NOT NULL,
    expires_at  INTEGER NOT NULL
);
CREATE TABLE permission_grant (
    msisdn        TEXT NOT NULL REFERENCES subscriber (msisdn),
    permission_id TEXT NOT NULL,
    granted       INTEGER NOT NULL,
    PRIMARY KEY (msisdn, permission_id)
);
CREATE TABLE fail_next (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    path    TEXT,                               -- NULL: any call
    status  INTEGER NOT NULL,                   -- 0: the call's own answer
    body    TEXT NOT NULL,
    delay_ms INTEGER NOT NULL DEFAULT 0         -- the answer is held this long
);
";

/// What each version of [`SCHEMA`] added to the one before, for databases
/// made before it: `PRAGMA user_version` counts those applied, and a new
/// database starts with all of them counted. Columns they add come last in
/// `SCHEMA` too, so that both end alike.
const MIGRATIONS: &[&str] = &[
    // 1: a code that serves only the subscriber who asked for it (a modem
    // registration); the text of each SMS.
    "ALTER TABLE one_time_code ADD COLUMN requested_by TEXT;
     ALTER TABLE inbox ADD COLUMN text_en TEXT NOT NULL DEFAULT '';
     ALTER TABLE inbox ADD COLUMN text_sw TEXT NOT NULL DEFAULT '';",
    // 2: numbers without M-Pesa; balances per bundle id and unit (a bundle
    // may credit data, minutes and SMS), the rows of before keeping their
    // name as id; fail-next holding an answer back.
    "ALTER TABLE subscriber ADD COLUMN mpesa_account INTEGER NOT NULL DEFAULT 1;
     CREATE TABLE bundle_balance_2 (
         msisdn      TEXT NOT NULL REFERENCES subscriber (msisdn),
         bundle_id   TEXT NOT NULL,
         unit        TEXT NOT NULL,
         remaining   INTEGER NOT NULL,
         expires_at  INTEGER NOT NULL,
         PRIMARY KEY (msisdn, bundle_id, unit)
     );
     INSERT INTO bundle_balance_2 SELECT msisdn, name, unit, remaining, expires_at FROM bundle_balance;
     DROP TABLE bundle_balance;
     ALTER TABLE bundle_balance_2 RENAME TO bundle_balance;
     ALTER TABLE fail_next ADD COLUMN delay_ms INTEGER NOT NULL DEFAULT 0;",
];

/// The version of [`SCHEMA`]: how many [`MIGRATIONS`] it includes.
const VERSION: u32 = MIGRATIONS.len() as u32;

/// Opens the database at `path`, first creating it (empty, not seeded) when
/// there is none. The file, and its write-ahead log if any, must be whole and
/// of this schema or an earlier one (brought up to date); what is not is
/// refused before anything is written.
pub(super) fn open(path: &Path) -> Result<Connection, SandboxError> {
    let unusable = |problem: String| SandboxError::Unusable { path: path.to_owned(), problem };
    let wal = beside(path, "-wal");
    if !path.exists() {
        // Checked again: another instance may have made it, and written, since.
        if std::fs::metadata(&wal).is_ok_and(|wal| wal.len() > 0) && !path.exists() {
            return Err(unusable(format!("is missing, but its write-ahead log {} is there", wal.display())));
        }
        create(path)?;
    }
    if std::fs::metadata(path).is_ok_and(|file| file.len() == 0) {
        return Err(unusable("is empty (0 bytes)".into()));
    }
    check_wal(&wal).map_err(unusable)?;
    let mut db = Connection::open(path)?;
    db.busy_timeout(Duration::from_secs(5))?;
    // Every transaction takes the write lock when it begins, so one that
    // reads then writes waits its turn (`busy_timeout`) behind another
    // instance on the same file instead of failing "database is locked".
    db.set_transaction_behavior(TransactionBehavior::Immediate);
    check_integrity(&db).map_err(unusable)?;
    upgrade(&mut db)?.map_err(unusable)?;
    db.pragma_update(None, "journal_mode", "WAL")?;
    db.pragma_update(None, "synchronous", "NORMAL")?;
    db.pragma_update(None, "foreign_keys", true)?;
    Ok(db)
}

/// `path` with `suffix` added to its name: SQLite's `-wal` and `-shm` files.
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = OsString::from(path.as_os_str());
    name.push(suffix);
    PathBuf::from(name)
}

/// Makes the schema in a file of this process's own beside `path` and links
/// it into place, so that a start stopped midway leaves no half-made file to
/// be refused, and instances starting at once on one `DATA_DIR` all open
/// the one file the first of them made (a link, unlike a rename, never
/// replaces a file another instance may already have opened and seeded).
fn create(path: &Path) -> Result<(), SandboxError> {
    static MADE: AtomicU32 = AtomicU32::new(0);
    let fresh = beside(path, &format!(".new-{}-{}", std::process::id(), MADE.fetch_add(1, Ordering::Relaxed)));
    let created = |source: std::io::Error| SandboxError::Create { path: path.to_owned(), source };
    let made = (|| {
        match std::fs::remove_file(&fresh) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => return Err(created(error)),
            _ => {}
        }
        let db = Connection::open(&fresh)?;
        db.execute_batch(SCHEMA)?;
        db.pragma_update(None, "user_version", VERSION)?;
        db.pragma_update(None, "journal_mode", "WAL")?;
        db.close().map_err(|(_, error)| error)?;
        match std::fs::hard_link(&fresh, path) {
            Err(error) if error.kind() != std::io::ErrorKind::AlreadyExists => Err(created(error)),
            _ => Ok(()),
        }
    })();
    for leftover in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(beside(&fresh, leftover));
    }
    made
}

/// A write-ahead log that SQLite would not recognise is silently dropped on
/// opening, and the changes in it with it: so its header (magic, version
/// and checksum, as SQLite checks them) is read first. A missing or empty
/// log is none to replay.
fn check_wal(wal: &Path) -> Result<(), String> {
    let mut header = Vec::with_capacity(32);
    match std::fs::File::open(wal).and_then(|file| file.take(32).read_to_end(&mut header)) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(error) => return Err(format!("has a write-ahead log {} that cannot be read ({error})", wal.display())),
        Ok(_) => {}
    }
    if header.is_empty() || (header.len() == 32 && wal_header_is_valid(&header)) {
        Ok(())
    } else {
        Err(format!("has a damaged write-ahead log {} (not a SQLite write-ahead log)", wal.display()))
    }
}

/// The 32-byte WAL header of the SQLite file format (sqlite.org/fileformat2.html#walformat):
/// big-endian magic (its last bit gives the checksum's byte order), version
/// 3007000, and two checksums of its first 24 bytes.
fn wal_header_is_valid(header: &[u8]) -> bool {
    let big_endian_at = |at: usize| u32::from_be_bytes(header[at..at + 4].try_into().expect("4 bytes"));
    let magic = big_endian_at(0);
    if magic & !1 != 0x377f_0682 || big_endian_at(4) != 3_007_000 {
        return false;
    }
    let word = |at: usize| {
        let bytes = header[at..at + 4].try_into().expect("4 bytes");
        if magic & 1 == 1 { u32::from_be_bytes(bytes) } else { u32::from_le_bytes(bytes) }
    };
    let (mut s0, mut s1) = (0u32, 0u32);
    for at in (0..24).step_by(8) {
        s0 = s0.wrapping_add(word(at)).wrapping_add(s1);
        s1 = s1.wrapping_add(word(at + 4)).wrapping_add(s0);
    }
    (s0, s1) == (big_endian_at(24), big_endian_at(28))
}

/// The file is a SQLite database that passes its integrity check.
fn check_integrity(db: &Connection) -> Result<(), String> {
    let verdict: String = db
        .query_row("PRAGMA integrity_check(1)", [], |row| row.get(0))
        .map_err(|error| format!("cannot be read as a SQLite database ({error})"))?;
    if verdict == "ok" { Ok(()) } else { Err(format!("is damaged ({verdict})")) }
}

/// Applies the [`MIGRATIONS`] the database lacks, and keeps them only if it
/// then has exactly the tables and columns of [`SCHEMA`]; otherwise what is
/// wrong with it. A migration that does not apply (a database of other
/// tables) leaves a difference that the answer names.
fn upgrade(db: &mut Connection) -> rusqlite::Result<Result<(), String>> {
    let tx = db.transaction()?;
    let version: u32 = tx.pragma_query_value(None, "user_version", |row| row.get(0))?;
    let Some(missing) = MIGRATIONS.get(version as usize..) else {
        return Ok(Err(format!(
            "was made by a newer sandbox (schema version {version}; this one knows up to {VERSION})"
        )));
    };
    for migration in missing {
        if tx.execute_batch(migration).is_err() {
            break;
        }
    }
    if let Err(problem) = schema_difference(&columns(&tx)?) {
        return Ok(Err(problem));
    }
    tx.pragma_update(None, "user_version", VERSION)?;
    tx.commit()?;
    Ok(Ok(()))
}

/// How `found`, every column of a database, differs from [`SCHEMA`]'s.
fn schema_difference(found: &BTreeSet<String>) -> Result<(), String> {
    let expected = {
        let reference = Connection::open_in_memory().and_then(|db| db.execute_batch(SCHEMA).map(|()| db));
        reference.and_then(|db| columns(&db)).expect("the schema makes a database")
    };
    if *found == expected {
        return Ok(());
    }
    let listed = |columns: Vec<&String>| {
        let more = if columns.len() > 5 { ", …" } else { "" };
        columns.iter().take(5).map(|c| c.as_str()).collect::<Vec<_>>().join(", ") + more
    };
    let missing: Vec<_> = expected.difference(found).collect();
    let unknown: Vec<_> = found.difference(&expected).collect();
    let mut differences = Vec::new();
    if !missing.is_empty() {
        differences.push(format!("it lacks {}", listed(missing)));
    }
    if !unknown.is_empty() {
        differences.push(format!("it has {}, which the sandbox does not know", listed(unknown)));
    }
    Err(format!("is not of the sandbox's schema: {}", differences.join("; ")))
}

/// Every column of every table, as `table.column TYPE`.
fn columns(db: &Connection) -> rusqlite::Result<BTreeSet<String>> {
    let mut query = db.prepare(
        "SELECT m.name || '.' || c.name || ' ' || c.type FROM sqlite_schema AS m, pragma_table_info(m.name) AS c
         WHERE m.type = 'table' AND m.name NOT GLOB 'sqlite_*'",
    )?;
    let rows = query.query_map([], |row| row.get(0))?;
    rows.collect()
}

/// Adds what the seed has and the database lacks; never overwrites, so
/// balances and grants changed by earlier calls stay as they are.
pub(super) fn seed(db: &mut Connection, now: i64) -> rusqlite::Result<()> {
    let tx = db.transaction()?;
    for subscriber in SUBSCRIBERS {
        let scopes = serde_json::to_string(subscriber.scopes).expect("strings serialize");
        let added = tx.execute(
            "INSERT OR IGNORE INTO subscriber (msisdn, first_name, family_name, payment_method, minor,
                 registration_status, scopes, airtime, wallet, alternative_msisdn, mpesa_account)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            params![
                subscriber.msisdn,
                subscriber.first_name,
                subscriber.family_name,
                subscriber.payment_method.as_str(),
                subscriber.minor,
                subscriber.registration_status,
                scopes,
                subscriber.airtime,
                subscriber.wallet.unwrap_or(0),
                subscriber.alternative_msisdn,
                subscriber.wallet.is_some(),
            ],
        )?;
        if added == 1 {
            for (bundle_id, remaining) in subscriber.bundles {
                let bundle = seed::bundle(bundle_id).expect("seeded bundles are in the catalogue");
                let (unit, _) = bundle.allowances[0];
                tx.execute(
                    "INSERT INTO bundle_balance (msisdn, bundle_id, unit, remaining, expires_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![subscriber.msisdn, bundle.id, unit.as_str(), remaining, now + bundle.validity.hours * 3_600_000],
                )?;
            }
        }
        for permission in PERMISSIONS {
            tx.execute(
                "INSERT OR IGNORE INTO permission_grant (msisdn, permission_id, granted) VALUES (?1, ?2, ?3)",
                params![subscriber.msisdn, permission.id, permission.granted_by_default],
            )?;
        }
    }
    tx.commit()
}

pub(super) fn is_subscriber(db: &Connection, msisdn: &Msisdn) -> rusqlite::Result<bool> {
    db.query_row("SELECT 1 FROM subscriber WHERE msisdn = ?1", [msisdn], |_| Ok(()))
        .optional()
        .map(|found| found.is_some())
}
