//! Resized photos on disk (`DATA_DIR/image-cache/`), as the content disk
//! cache keeps content (`content::disk`): one file per address, width and
//! format, named by the SHA-256 of that key; written to a temporary file and
//! renamed; bounded (`IMAGE_CACHE_MB`): past it, the files read longest ago
//! are deleted. Instances sharing `DATA_DIR` share the files.
//!
//! Every method does blocking file work: call it on the blocking pool.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use sha2::{Digest, Sha256};

use crate::bounded_dir::{self, Kept};

const DIR: &str = "image-cache";
const SUFFIX: &str = ".img";

#[derive(Clone)]
pub struct ImageDisk {
    inner: Arc<Inner>,
}

struct Inner {
    dir: PathBuf,
    limit: u64,
    /// What this process knows is on disk: file name → size and last read.
    files: Mutex<HashMap<String, Kept>>,
}

impl ImageDisk {
    /// The cache in `data_dir`, holding at most `limit` bytes: what is
    /// there already is counted, and temporary files a crash left deleted.
    pub fn open(data_dir: &Path, limit: u64) -> std::io::Result<ImageDisk> {
        let dir = data_dir.join(DIR);
        std::fs::create_dir_all(&dir)?;
        let files = bounded_dir::list(&dir, SUFFIX)?;
        let disk = ImageDisk { inner: Arc::new(Inner { dir, limit, files: Mutex::new(files) }) };
        disk.inner.trim();
        Ok(disk)
    }

    /// The bytes kept for `key`, if any (another instance's too).
    pub fn read(&self, key: &str) -> Option<Vec<u8>> {
        let name = file_name(key);
        let bytes = std::fs::read(self.inner.dir.join(&name)).ok()?;
        let mut files = self.inner.files();
        files.insert(name, Kept { bytes: bytes.len() as u64, at: SystemTime::now() });
        let over = files.values().map(|k| k.bytes).sum::<u64>() > self.inner.limit;
        drop(files);
        if over {
            self.inner.trim();
        }
        Some(bytes)
    }

    pub fn keep(&self, key: &str, bytes: &[u8]) {
        if let Err(error) = self.inner.write(&file_name(key), bytes) {
            tracing::warn!(key, %error, "resized photo not kept on disk");
        }
    }

    /// Bytes on disk, as this process counts them.
    pub fn size(&self) -> u64 {
        self.inner.files().values().map(|k| k.bytes).sum()
    }
}

impl Inner {
    fn files(&self) -> std::sync::MutexGuard<'_, HashMap<String, Kept>> {
        crate::locks::lock(&self.files)
    }

    fn write(&self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        if bytes.len() as u64 > self.limit {
            return Ok(());
        }
        let mut file = tempfile::Builder::new().prefix(".").suffix(".tmp").tempfile_in(&self.dir)?;
        file.write_all(bytes)?;
        file.persist(self.dir.join(name)).map_err(|e| e.error)?;
        self.files().insert(name.to_owned(), Kept { bytes: bytes.len() as u64, at: SystemTime::now() });
        self.trim();
        Ok(())
    }

    /// Deletes the files read longest ago until the rest fit.
    fn trim(&self) {
        bounded_dir::trim(&self.dir, &mut self.files(), self.limit);
    }
}

fn file_name(key: &str) -> String {
    let digest = Sha256::digest(key.as_bytes());
    let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
    format!("{hex}{SUFFIX}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn past_its_size_the_files_read_longest_ago_go_and_the_rest_survive_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let disk = ImageDisk::open(dir.path(), 2500).unwrap();
        for key in ["a", "b", "c"] {
            disk.keep(key, &[1; 1000]);
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(disk.read("a").is_none(), "three files of 1000 bytes do not fit in 2500");
        assert!(disk.read("b").is_some());
        std::thread::sleep(std::time::Duration::from_millis(20));
        disk.keep("d", &[2; 1000]);
        assert!(disk.read("c").is_none(), "b was read since: c is the one read longest ago");
        assert_eq!(disk.read("d").unwrap(), vec![2; 1000]);
        assert!(disk.size() <= 2500);
        let reopened = ImageDisk::open(dir.path(), 2500).unwrap();
        assert!(reopened.read("b").is_some() && reopened.read("d").is_some());
        assert_eq!(std::fs::read_dir(dir.path().join(DIR)).unwrap().count(), 2, "no temporary file left behind");
    }
}
