//! Last-known-good content on disk (`DATA_DIR/content-cache/`): the last
//! answer the CMS gave for each query and language, so that a restart, a
//! new instance or content dropped from memory is served stale while the
//! CMS cannot be reached, as content in memory is (`cache`).
//!
//! - One file per query and language, named by the SHA-256 of the key and
//!   holding the key and the answer as the source gave it (normalised, not
//!   parsed: the parser of whichever version reads it decides what it means);
//!   the locations' as the compact entries their index is built from
//!   ([`PlaceList`](crate::places::PlaceList), some 80 bytes a place).
//! - Written atomically: a temporary file in the same directory, synced,
//!   renamed over the old one; a file that cannot be read back is deleted.
//! - Its modification time is when the CMS last gave that answer (an
//!   unchanged answer only touches it), so its age counts against
//!   `CONTENT_STALE_IF_ERROR_SECS` as in memory.
//! - Bounded (`CONTENT_DISK_CACHE_MB`): past it, the files the CMS confirmed
//!   longest ago are deleted; an answer larger than the whole bound is not
//!   kept, and a warning says so (once, until one fits again).
//!
//! Every method does blocking file work: call it on the blocking pool.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::Key;
use crate::bounded_dir::{self, Kept};

#[derive(Clone)]
pub struct DiskCache {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for DiskCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DiskCache").field("dir", &self.inner.dir).field("limit", &self.inner.limit).finish()
    }
}

struct Inner {
    dir: PathBuf,
    limit: u64,
    /// What this process knows is on disk: file name → size and time.
    files: Mutex<HashMap<String, Kept>>,
    /// Files whose answer was too large to keep, warned of once.
    too_large: Mutex<std::collections::HashSet<String>>,
}

/// A file's content.
#[derive(Serialize, Deserialize)]
struct Saved<T> {
    key: Key,
    answer: T,
}

const SUFFIX: &str = ".json";
const DIR: &str = "content-cache";

impl DiskCache {
    /// The cache in `data_dir` (its directory created), holding at most
    /// `limit` bytes: what is there already is counted, and temporary files
    /// a crash left are deleted (not one another instance sharing the
    /// directory is writing now).
    pub fn open(data_dir: &Path, limit: u64) -> std::io::Result<DiskCache> {
        let dir = data_dir.join(DIR);
        std::fs::create_dir_all(&dir)?;
        let files = bounded_dir::list(&dir, SUFFIX)?;
        let cache =
            DiskCache { inner: Arc::new(Inner { dir, limit, files: Mutex::new(files), too_large: Mutex::default() }) };
        cache.inner.trim();
        Ok(cache)
    }

    /// Keeps `answer` as the last good one for `key`. When it is the answer
    /// kept already (`changed` false) only its time is renewed.
    pub fn keep<T: Serialize>(&self, key: &Key, answer: &T, changed: bool) {
        let name = file_name(key);
        let known = self.inner.files().contains_key(&name);
        let result = if known && !changed { self.inner.touch(&name) } else { self.inner.write(&name, key, answer) };
        if let Err(error) = result {
            tracing::warn!(query = %key.0, lang = key.1.code(), %error, "content not kept on disk");
        }
    }

    /// The CMS has no such content any more: nothing is kept for it.
    pub fn forget(&self, key: &Key) {
        let name = file_name(key);
        if self.inner.files().remove(&name).is_some() {
            let _ = std::fs::remove_file(self.inner.dir.join(&name));
        }
    }

    /// The answer kept for `key` and how long ago the CMS gave it.
    pub fn read<T: DeserializeOwned>(&self, key: &Key) -> Option<(T, Duration)> {
        let name = file_name(key);
        let path = self.inner.dir.join(&name);
        let read = || -> Result<(Saved<T>, SystemTime), String> {
            let bytes = std::fs::read(&path).map_err(|e| e.to_string())?;
            let modified = std::fs::metadata(&path).and_then(|m| m.modified()).map_err(|e| e.to_string())?;
            Ok((serde_json::from_slice(&bytes).map_err(|e| e.to_string())?, modified))
        };
        match read() {
            Ok((saved, modified)) if saved.key == *key => {
                Some((saved.answer, SystemTime::now().duration_since(modified).unwrap_or_default()))
            }
            Ok(_) => None,
            Err(_) if !path.exists() => None,
            Err(error) => {
                tracing::warn!(query = %key.0, lang = key.1.code(), %error, file = %path.display(), "kept content unreadable; deleted");
                self.forget(key);
                None
            }
        }
    }
}

impl Inner {
    fn files(&self) -> std::sync::MutexGuard<'_, HashMap<String, Kept>> {
        crate::locks::lock(&self.files)
    }

    /// Written as it is serialised, never whole in memory; past the bound,
    /// the temporary file is deleted, and the copy kept before (if any)
    /// stays until trimmed.
    fn write<T: Serialize>(&self, name: &str, key: &Key, answer: &T) -> std::io::Result<()> {
        let file = tempfile::Builder::new().prefix(".").suffix(".tmp").tempfile_in(&self.dir)?;
        let mut out = Bounded { inner: std::io::BufWriter::new(file), written: 0, limit: self.limit };
        let result = serde_json::to_writer(&mut out, &Saved { key: key.clone(), answer });
        let bytes = out.written;
        if bytes > self.limit {
            if crate::locks::lock(&self.too_large).insert(name.to_owned()) {
                tracing::warn!(
                    query = %key.0,
                    lang = key.1.code(),
                    mb = bytes as f64 / 1e6,
                    limit_mb = self.limit as f64 / 1e6,
                    "content too large to keep on disk (past CONTENT_DISK_CACHE_MB): a restart while the CMS is down will not have it"
                );
            }
            return Ok(());
        }
        result?;
        let file = out.inner.into_inner().map_err(std::io::IntoInnerError::into_error)?;
        file.as_file().sync_data()?;
        file.persist(self.dir.join(name)).map_err(|e| e.error)?;
        crate::locks::lock(&self.too_large).remove(name);
        self.files().insert(name.to_owned(), Kept { bytes, at: SystemTime::now() });
        self.trim();
        Ok(())
    }

    fn touch(&self, name: &str) -> std::io::Result<()> {
        let now = SystemTime::now();
        std::fs::File::options().write(true).open(self.dir.join(name))?.set_modified(now)?;
        if let Some(kept) = self.files().get_mut(name) {
            kept.at = now;
        }
        Ok(())
    }

    /// Deletes the files confirmed longest ago until the rest fit.
    fn trim(&self) {
        bounded_dir::trim(&self.dir, &mut self.files(), self.limit);
    }
}

/// A file written up to `limit` bytes: what comes past it is counted, not
/// written, so that `written` says how large the answer is.
struct Bounded<W> {
    inner: W,
    written: u64,
    limit: u64,
}

impl<W: Write> Write for Bounded<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.written += buf.len() as u64;
        if self.written <= self.limit {
            self.inner.write_all(buf)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

fn file_name(key: &Key) -> String {
    let digest = Sha256::digest(serde_json::to_vec(key).expect("a content key serialises"));
    let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
    format!("{hex}{SUFFIX}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::ContentQuery;
    use contract::Lang;
    use serde_json::json;

    fn key(name: &str) -> Key {
        (ContentQuery::single(name), Lang::En)
    }

    /// An instance starting while another sharing `DATA_DIR` renames and
    /// trims files (the soak saw a restarted instance refuse to start with
    /// "No such file or directory"): files gone between the listing and the
    /// look at them are skipped.
    #[test]
    fn opening_while_another_instance_renames_and_deletes_files_succeeds() {
        let data = tempfile::tempdir().unwrap();
        let dir = data.path().join(DIR);
        std::fs::create_dir_all(&dir).unwrap();
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let churn = {
            let (dir, stop) = (dir.clone(), stop.clone());
            std::thread::spawn(move || {
                let mut n = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    for i in 0..50 {
                        let temporary = dir.join(format!("{i}.tmp-{n}"));
                        let _ = std::fs::write(&temporary, b"{}");
                        let _ = std::fs::rename(&temporary, dir.join(format!("{i}{SUFFIX}")));
                    }
                    for i in 0..50 {
                        let _ = std::fs::remove_file(dir.join(format!("{i}{SUFFIX}")));
                    }
                    n += 1;
                }
            })
        };
        let opened = (0..300).map(|_| DiskCache::open(data.path(), 1 << 20)).filter(Result::is_ok).count();
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        churn.join().unwrap();
        assert_eq!(opened, 300);
    }

    #[test]
    fn an_answer_kept_is_read_back_with_its_age_and_survives_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let disk = DiskCache::open(dir.path(), 1 << 20).unwrap();
        assert!(disk.read::<serde_json::Value>(&key("home")).is_none());
        disk.keep(&key("home"), &json!({ "title": "Home" }), true);
        let (answer, age) = disk.read::<serde_json::Value>(&key("home")).unwrap();
        assert_eq!(answer, json!({ "title": "Home" }));
        assert!(age < Duration::from_secs(60));
        let reopened = DiskCache::open(dir.path(), 1 << 20).unwrap();
        assert_eq!(reopened.read::<serde_json::Value>(&key("home")).unwrap().0, json!({ "title": "Home" }));
        assert!(
            reopened.read::<serde_json::Value>(&(ContentQuery::single("home"), Lang::Sw)).is_none(),
            "each language apart"
        );
        reopened.forget(&key("home"));
        assert!(reopened.read::<serde_json::Value>(&key("home")).is_none());
    }

    #[test]
    fn past_its_size_the_longest_unconfirmed_files_go() {
        let dir = tempfile::tempdir().unwrap();
        let answer = json!({ "body": "x".repeat(400) });
        let disk = DiskCache::open(dir.path(), 1500).unwrap();
        for name in ["a", "b", "c"] {
            disk.keep(&key(name), &answer, true);
            std::thread::sleep(Duration::from_millis(20));
        }
        // `a` confirmed again (unchanged), so `b` is now the oldest.
        disk.keep(&key("a"), &answer, false);
        disk.keep(&key("d"), &answer, true);
        let kept: Vec<bool> =
            ["a", "b", "c", "d"].iter().map(|name| disk.read::<serde_json::Value>(&key(name)).is_some()).collect();
        assert_eq!(kept, [true, false, true, true]);
        let files = std::fs::read_dir(dir.path().join(DIR)).unwrap().count();
        assert_eq!(files, 3, "no temporary file left behind");
    }

    #[test]
    fn a_damaged_file_is_deleted_not_served() {
        let dir = tempfile::tempdir().unwrap();
        let disk = DiskCache::open(dir.path(), 1 << 20).unwrap();
        disk.keep(&key("home"), &json!({ "title": "Home" }), true);
        std::fs::write(dir.path().join(DIR).join(file_name(&key("home"))), b"{\"key\": [").unwrap();
        assert!(disk.read::<serde_json::Value>(&key("home")).is_none());
        assert_eq!(std::fs::read_dir(dir.path().join(DIR)).unwrap().count(), 0);
    }
}
