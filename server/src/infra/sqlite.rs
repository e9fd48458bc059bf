//! Opening the SQLite files in `DATA_DIR` (forms, sessions) so that several
//! instances can share one directory and start at once: they wait their
//! turn for a lock rather than fail "database is locked".

use std::path::Path;
use std::time::{Duration, Instant};

use rusqlite::{Connection, ErrorCode, TransactionBehavior};

/// How long a statement waits for another instance's lock.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Opens (or creates) the database at `path` in write-ahead-log mode, its
/// transactions taking the write lock when they begin: a transaction that
/// reads then writes would otherwise fail at once when another instance
/// wrote in between, whatever the busy timeout.
pub fn open(path: &Path) -> rusqlite::Result<Connection> {
    let mut db = Connection::open(path)?;
    db.busy_timeout(BUSY_TIMEOUT)?;
    db.set_transaction_behavior(TransactionBehavior::Immediate);
    // Switching a new file to WAL needs it to itself, and SQLite answers
    // busy at once instead of waiting: so the switch is retried for as
    // long as a statement would wait. A file in WAL mode already stays so.
    let until = Instant::now() + BUSY_TIMEOUT;
    loop {
        match db.pragma_update(None, "journal_mode", "WAL") {
            Err(error) if error.sqlite_error_code() == Some(ErrorCode::DatabaseBusy) && Instant::now() < until => {
                std::thread::sleep(Duration::from_millis(10));
            }
            switched => return switched.map(|()| db),
        }
    }
}
