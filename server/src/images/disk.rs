//! Resized photos on disk (`DATA_DIR/image-cache/`), as the content disk
//! cache keeps content (`content::disk`): one file per address, width and
//! format, named by the SHA-256 of that key; written by the directory's own
//! writer in the background (a request that made a photo does not wait
//! for it to be on disk), to a temporary file renamed; bounded
//! (`IMAGE_CACHE_MB`): past it, the files read longest ago are deleted.
//! Instances sharing `DATA_DIR` share the files.
//!
//! [`ImageDisk::read`] reads the file: call it on the blocking pool.

use std::io::Write;
use std::path::Path;

use axum::body::Bytes;
use sha2::{Digest, Sha256};

use crate::infra::bounded_dir::{BoundedDir, Names};
use crate::infra::cache_metrics;

const DIR: &str = "image-cache";
const SUFFIX: &str = ".img";
const NAMES: Names = Names { cache: "image_disk", setting: "IMAGE_CACHE_MB" };

#[derive(Clone)]
pub struct ImageDisk {
    dir: BoundedDir,
}

impl ImageDisk {
    /// The cache in `data_dir`, holding at most `limit` bytes: what is
    /// there already is counted, and temporary files a crash left deleted.
    pub fn open(data_dir: &Path, limit: u64) -> std::io::Result<ImageDisk> {
        Ok(ImageDisk { dir: BoundedDir::open(data_dir.join(DIR), SUFFIX, limit, NAMES)? })
    }

    /// The bytes kept for `key`, if any (another instance's too).
    pub fn read(&self, key: &str) -> Option<Vec<u8>> {
        let name = file_name(key);
        let Ok(bytes) = std::fs::read(self.dir.path(&name)) else {
            cache_metrics::miss(NAMES.cache);
            return None;
        };
        cache_metrics::hit(NAMES.cache);
        self.dir.seen(&name, bytes.len() as u64);
        Some(bytes)
    }

    /// Keeps `bytes` for `key`, in the background.
    pub fn keep(&self, key: &str, bytes: Bytes) {
        self.dir.write(file_name(key), key.to_owned(), Box::new(move |out: &mut dyn Write| out.write_all(&bytes)));
    }

    /// Bytes and files on disk, as this process counts them.
    pub fn held(&self) -> (u64, u64) {
        self.dir.held()
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
            disk.keep(key, Bytes::from_static(&[1; 1000]));
            disk.dir.flush();
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(disk.read("a").is_none(), "three files of 1000 bytes do not fit in 2500");
        assert!(disk.read("b").is_some());
        std::thread::sleep(std::time::Duration::from_millis(20));
        disk.keep("d", Bytes::from_static(&[2; 1000]));
        disk.dir.flush();
        assert!(disk.read("c").is_none(), "b was read since: c is the one read longest ago");
        assert_eq!(disk.read("d").unwrap(), vec![2; 1000]);
        assert!(disk.held().0 <= 2500);
        let reopened = ImageDisk::open(dir.path(), 2500).unwrap();
        assert!(reopened.read("b").is_some() && reopened.read("d").is_some());
        assert_eq!(std::fs::read_dir(dir.path().join(DIR)).unwrap().count(), 2, "no temporary file left behind");
    }

    /// A photo made for a request is kept without the request waiting for
    /// the disk, even while the writer is held.
    #[test]
    fn keeping_a_photo_never_waits_for_the_writer() {
        let dir = tempfile::tempdir().unwrap();
        let disk = ImageDisk::open(dir.path(), 1 << 20).unwrap();
        let release = disk.dir.stall();
        let (done, finished) = std::sync::mpsc::channel();
        let keeper = disk.clone();
        std::thread::spawn(move || {
            for n in 0..crate::infra::bounded_dir::QUEUE + 1 {
                keeper.keep(&n.to_string(), Bytes::from_static(b"photo"));
            }
            let _ = done.send(());
        });
        finished.recv_timeout(std::time::Duration::from_secs(30)).expect("keep returns while the writer is held");
        assert_eq!(disk.dir.dropped(), 1);
        drop(release);
        disk.dir.flush();
        assert_eq!(disk.read("0").unwrap(), b"photo");
    }
}
