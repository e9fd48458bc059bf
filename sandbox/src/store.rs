//! The database: schema and seeding. Times are Unix milliseconds.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};

use super::domain::Msisdn;
use super::seed::{self, PERMISSIONS, SUBSCRIBERS};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS subscriber (
    msisdn              TEXT PRIMARY KEY,
    first_name          TEXT NOT NULL,
    family_name         TEXT NOT NULL,
    payment_method      TEXT NOT NULL CHECK (payment_method IN ('PREPAID', 'POSTPAID')),
    minor               INTEGER NOT NULL,
    registration_status TEXT NOT NULL,
    scopes              TEXT NOT NULL,          -- JSON array of strings
    airtime             INTEGER NOT NULL CHECK (airtime >= 0),
    wallet              INTEGER NOT NULL CHECK (wallet >= 0),
    alternative_msisdn  TEXT
);
-- One row per bundle held; buying the same bundle again tops it up.
CREATE TABLE IF NOT EXISTS bundle_balance (
    msisdn      TEXT NOT NULL REFERENCES subscriber (msisdn),
    name        TEXT NOT NULL,
    unit        TEXT NOT NULL,
    remaining   INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    PRIMARY KEY (msisdn, name)
);
CREATE TABLE IF NOT EXISTS purchase (
    id          INTEGER PRIMARY KEY,
    payer       TEXT NOT NULL REFERENCES subscriber (msisdn),
    recipient   TEXT NOT NULL REFERENCES subscriber (msisdn),
    bundle_id   TEXT NOT NULL,
    channel     TEXT NOT NULL,
    price       INTEGER NOT NULL,
    billed      INTEGER NOT NULL,               -- 1: postpaid, on the bill
    created_at  INTEGER NOT NULL
);
-- The live code of a number for one purpose; a new code replaces it.
CREATE TABLE IF NOT EXISTS one_time_code (
    msisdn      TEXT NOT NULL,
    purpose     TEXT NOT NULL,
    salt        BLOB NOT NULL,
    hash        BLOB NOT NULL,
    sent_at     INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    wrong_tries INTEGER NOT NULL DEFAULT 0,
    state       TEXT NOT NULL CHECK (state IN ('live', 'used', 'burnt')),
    PRIMARY KEY (msisdn, purpose)
);
-- The SMS the sandbox would have sent: the only place codes are in clear.
CREATE TABLE IF NOT EXISTS inbox (
    id          INTEGER PRIMARY KEY,
    recipient   TEXT NOT NULL,
    about       TEXT NOT NULL,                  -- the number the code opens
    purpose     TEXT NOT NULL,
    code        TEXT NOT NULL,
    sent_at     INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS inbox_by_recipient ON inbox (recipient, id);
CREATE TABLE IF NOT EXISTS token (
    hash        BLOB PRIMARY KEY,
    msisdn      TEXT NOT NULL,
    purpose     TEXT NOT NULL,
    expires_at  INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS permission_grant (
    msisdn        TEXT NOT NULL REFERENCES subscriber (msisdn),
    permission_id TEXT NOT NULL,
    granted       INTEGER NOT NULL,
    PRIMARY KEY (msisdn, permission_id)
);
CREATE TABLE IF NOT EXISTS fail_next (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    path    TEXT,                               -- NULL: any call
    status  INTEGER NOT NULL,
    body    TEXT NOT NULL
);
";

pub(super) fn open(path: &Path) -> rusqlite::Result<Connection> {
    let db = Connection::open(path)?;
    db.busy_timeout(Duration::from_secs(5))?;
    db.pragma_update(None, "journal_mode", "WAL")?;
    db.pragma_update(None, "synchronous", "NORMAL")?;
    db.pragma_update(None, "foreign_keys", true)?;
    db.execute_batch(SCHEMA)?;
    Ok(db)
}

/// Adds what the seed has and the database lacks; never overwrites, so
/// balances and grants changed by earlier calls stay as they are.
pub(super) fn seed(db: &mut Connection, now: i64) -> rusqlite::Result<()> {
    let tx = db.transaction()?;
    for subscriber in SUBSCRIBERS {
        let scopes = serde_json::to_string(subscriber.scopes).expect("strings serialize");
        let added = tx.execute(
            "INSERT OR IGNORE INTO subscriber (msisdn, first_name, family_name, payment_method, minor,
                 registration_status, scopes, airtime, wallet, alternative_msisdn)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                subscriber.msisdn,
                subscriber.first_name,
                subscriber.family_name,
                subscriber.payment_method.as_str(),
                subscriber.minor,
                subscriber.registration_status,
                scopes,
                subscriber.airtime,
                subscriber.wallet,
                subscriber.alternative_msisdn,
            ],
        )?;
        if added == 1 {
            for (bundle_id, remaining) in subscriber.bundles {
                let bundle = seed::bundle(bundle_id).expect("seeded bundles are in the catalogue");
                tx.execute(
                    "INSERT INTO bundle_balance (msisdn, name, unit, remaining, expires_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![
                        subscriber.msisdn,
                        bundle.name.en.as_ref(),
                        bundle.kind.unit(),
                        remaining,
                        now + bundle.validity_hours * 3_600_000,
                    ],
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
