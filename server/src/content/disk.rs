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
//! - Written by the directory's own writer ([`BoundedDir`]), in the
//!   background: [`DiskCache::keep`] and [`DiskCache::forget`] queue the
//!   change and return, so no request waits for the disk; a change the
//!   full queue cannot take is dropped and counted. A file is written to a
//!   temporary file in the same directory and renamed over the old one, not
//!   synced: a file that cannot be read back (torn by a crash) is deleted.
//! - Its modification time is when the CMS last gave that answer (an
//!   unchanged answer only touches it), so its age counts against
//!   `CONTENT_STALE_IF_ERROR_SECS` as in memory.
//! - Bounded (`CONTENT_DISK_CACHE_MB`): past it, the files the CMS confirmed
//!   longest ago are deleted, one by one; an answer larger than the whole
//!   bound is not kept, and a warning says so (once, until one fits again).
//!
//! [`DiskCache::read`] reads the file: call it on the blocking pool.

use std::path::Path;
use std::time::{Duration, SystemTime};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::Key;
use crate::infra::bounded_dir::{BoundedDir, Names};

#[derive(Clone, Debug)]
pub struct DiskCache {
    dir: BoundedDir,
}

/// A file's content.
#[derive(Serialize, Deserialize)]
struct Saved<T> {
    key: Key,
    answer: T,
}

const SUFFIX: &str = ".json";
const DIR: &str = "content-cache";
const NAMES: Names = Names { cache: "content_disk", setting: "CONTENT_DISK_CACHE_MB" };

impl DiskCache {
    /// The cache in `data_dir` (its directory created), holding at most
    /// `limit` bytes: what is there already is counted, and temporary files
    /// a crash left are deleted (not one another instance sharing the
    /// directory is writing now).
    pub fn open(data_dir: &Path, limit: u64) -> std::io::Result<DiskCache> {
        Ok(DiskCache { dir: BoundedDir::open(data_dir.join(DIR), SUFFIX, limit, NAMES)? })
    }

    /// Keeps `answer` as the last good one for `key`, in the background.
    /// When it is the answer kept already (`changed` false) only its time
    /// is renewed.
    pub fn keep<T: Serialize + Send + 'static>(&self, key: &Key, answer: T, changed: bool) {
        let name = file_name(key);
        if !changed && self.dir.holds(&name) {
            return self.dir.touch(name);
        }
        let saved = key.clone();
        let body = Box::new(move |out: &mut dyn std::io::Write| {
            serde_json::to_writer(out, &Saved { key: saved, answer }).map_err(std::io::Error::from)
        });
        self.dir.write(name, format!("{} ({})", key.0, key.1.code()), body);
    }

    /// The answer kept for `key` is the CMS's still: only its time is renewed.
    pub fn touch(&self, key: &Key) {
        let name = file_name(key);
        if self.dir.holds(&name) {
            self.dir.touch(name);
        }
    }

    /// The CMS has no such content any more: nothing is kept for it.
    pub fn forget(&self, key: &Key) {
        self.dir.forget(file_name(key));
    }

    /// The answer kept for `key` and how long ago the CMS gave it.
    pub fn read<T: DeserializeOwned>(&self, key: &Key) -> Option<(T, Duration)> {
        let path = self.dir.path(&file_name(key));
        let read = || -> Result<(Saved<T>, SystemTime), String> {
            let bytes = std::fs::read(&path).map_err(|e| e.to_string())?;
            let modified = std::fs::metadata(&path).and_then(|m| m.modified()).map_err(|e| e.to_string())?;
            Ok((serde_json::from_slice(&bytes).map_err(|e| e.to_string())?, modified))
        };
        let found = match read() {
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
        };
        if found.is_some() {
            crate::infra::cache_metrics::hit(NAMES.cache)
        } else {
            crate::infra::cache_metrics::miss(NAMES.cache)
        }
        found
    }

    /// Bytes and files on disk, as this process counts them.
    pub fn held(&self) -> (u64, u64) {
        self.dir.held()
    }

    /// Returns once every answer kept or forgotten before is on disk (tests).
    #[cfg(test)]
    pub(crate) fn flush(&self) {
        self.dir.flush();
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
    use std::sync::Arc;

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
        disk.keep(&key("home"), json!({ "title": "Home" }), true);
        disk.flush();
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
        reopened.flush();
        assert!(reopened.read::<serde_json::Value>(&key("home")).is_none());
    }

    #[test]
    fn past_its_size_the_longest_unconfirmed_files_go() {
        let dir = tempfile::tempdir().unwrap();
        let answer = json!({ "body": "x".repeat(400) });
        let disk = DiskCache::open(dir.path(), 1500).unwrap();
        for name in ["a", "b", "c"] {
            disk.keep(&key(name), answer.clone(), true);
            disk.flush();
            std::thread::sleep(Duration::from_millis(20));
        }
        // `a` confirmed again (unchanged), so `b` is now the oldest.
        disk.keep(&key("a"), answer.clone(), false);
        disk.flush();
        std::thread::sleep(Duration::from_millis(20));
        disk.keep(&key("d"), answer, true);
        disk.flush();
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
        disk.keep(&key("home"), json!({ "title": "Home" }), true);
        disk.flush();
        std::fs::write(dir.path().join(DIR).join(file_name(&key("home"))), b"{\"key\": [").unwrap();
        assert!(disk.read::<serde_json::Value>(&key("home")).is_none());
        disk.flush();
        assert_eq!(std::fs::read_dir(dir.path().join(DIR)).unwrap().count(), 0);
    }

    /// The 10,000 stories: a writer behind (held here on purpose)
    /// never makes a request wait; what its queue cannot take is dropped,
    /// and the answers it took are on disk once it goes on.
    #[test]
    fn keeping_never_waits_for_a_writer_behind() {
        let dir = tempfile::tempdir().unwrap();
        let disk = DiskCache::open(dir.path(), 1 << 20).unwrap();
        let release = disk.dir.stall();
        let (done, finished) = std::sync::mpsc::channel();
        let keeper = disk.clone();
        std::thread::spawn(move || {
            for n in 0..crate::infra::bounded_dir::QUEUE + 5 {
                keeper.keep(&key(&format!("story-{n}")), json!({ "n": n }), true);
            }
            let _ = done.send(());
        });
        finished.recv_timeout(Duration::from_secs(30)).expect("keep returns while the writer is held");
        assert_eq!(disk.dir.dropped(), 5);
        drop(release);
        disk.flush();
        let (answer, _) = disk.read::<serde_json::Value>(&key("story-0")).unwrap();
        assert_eq!(answer, json!({ "n": 0 }));
        assert_eq!(disk.held().1, crate::infra::bounded_dir::QUEUE as u64);
    }
}
