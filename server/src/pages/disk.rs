//! Rendered pages on disk (`DATA_DIR/page-cache/<build>/`): the page
//! cache's second tier, as nginx's proxy cache keeps bodies on disk and
//! keys in memory. A newsroom of tens of thousands of pages does not fit in
//! `PAGE_CACHE_MB`; on disk, within `PAGE_DISK_CACHE_MB`, every page for
//! everyone rendered once is kept, across restarts, until its own content
//! changes.
//!
//! - One file per address (route and URL, as the page cache names an
//!   address), holding the newest page rendered for it: a header line (its
//!   page cache key, with the versions of the content it was built from,
//!   and what the page cache needs to answer with it) and its brotli and
//!   gzip bodies (the plain one is inflated from gzip when read).
//! - In memory, only the index: for each address its key, the CMS models it
//!   was built from ([`Source`]) and when its content was last confirmed.
//!   It is read from the files' header lines at start (some 20,000 pages
//!   in well under a second).
//! - Written by a thread of its own, fed through a queue bounded in bytes
//!   ([`WRITES_QUEUED`]): a page is never waited for while it is written,
//!   and past the queue a write is dropped (counted), not queued. A page
//!   dropped so is rendered again when next asked for after it left memory:
//!   bounded at 256 pages, a newsroom's first crawl on a machine whose
//!   disk other builds kept busy dropped 222 pages, each rendered again in
//!   the second crawl. Written to a temporary file then renamed over the
//!   old one, never synced: a page lost in a crash is rendered again; a
//!   file that cannot be read back is deleted.
//! - Bounded: past `PAGE_DISK_CACHE_MB` the pages used longest ago go, one
//!   at a time, from an order kept beside the index (never by listing the
//!   directory).
//! - Content versions are hashes of the CMS's answers (`content::cache`), so
//!   a page's key is the same after a restart; the build is part of the
//!   directory's name, so pages rendered by another build of the app are
//!   never served (their directories are deleted at start).

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use axum::body::Bytes;
use axum::http::StatusCode;
use contract::Lang;
use contract::page::AccountControls;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::content::Source;

/// Bytes of pages waiting for the writer at most (some 500 pages); more are
/// dropped. Memory only while the disk is behind.
const WRITES_QUEUED: u64 = 8 << 20;
/// The longest header line read back (a page cache key is at most 2 KiB).
const MAX_HEADER: usize = 64 << 10;
const SUFFIX: &str = ".page";
const DIR: &str = "page-cache";

/// What the page cache keeps of a page, as it is written and read back.
#[derive(Serialize, Deserialize)]
pub struct Header {
    /// The address (route and URL) the page is for.
    pub address: String,
    /// The page cache's key: the address and the content versions.
    pub key: String,
    pub status: u16,
    pub lang: Lang,
    pub etag: String,
    pub versions: Vec<u64>,
    /// The header's account control, for signed-in visitors' own parts.
    pub controls: Option<AccountControls>,
    pub sources: Vec<Source>,
    /// When the content was last confirmed, in seconds since the epoch.
    pub confirmed: u64,
    /// The bodies' lengths, in this order after the header line.
    pub br: usize,
    pub gzip: usize,
}

/// A page read back.
pub struct Read {
    pub header: Header,
    pub br: Bytes,
    pub gzip: Bytes,
}

/// What the index knows of an address's page.
#[derive(Clone)]
pub struct IndexedPage {
    pub key: Arc<str>,
    pub sources: Arc<[Source]>,
    pub confirmed: SystemTime,
    name: Arc<str>,
    bytes: u64,
    used: u64,
}

impl IndexedPage {
    /// Whether its content was confirmed within `fresh`.
    pub fn fresh(&self, fresh: Duration) -> bool {
        self.confirmed.elapsed().is_ok_and(|age| age < fresh)
    }
}

#[derive(Default)]
struct Index {
    by_address: HashMap<Arc<str>, IndexedPage>,
    /// Addresses by when they were last used, oldest first.
    order: BTreeMap<u64, Arc<str>>,
    next: u64,
    bytes: u64,
}

impl Index {
    fn insert(&mut self, address: Arc<str>, mut kept: IndexedPage) {
        self.remove(&address);
        self.next += 1;
        kept.used = self.next;
        self.order.insert(kept.used, address.clone());
        self.bytes += kept.bytes;
        self.by_address.insert(address, kept);
    }

    fn remove(&mut self, address: &str) -> Option<IndexedPage> {
        let kept = self.by_address.remove(address)?;
        self.order.remove(&kept.used);
        self.bytes -= kept.bytes;
        Some(kept)
    }

    /// Marks `address` used now.
    fn used(&mut self, address: &str) {
        let Some((address, kept)) = self.by_address.get_key_value(address) else { return };
        let (address, used) = (address.clone(), kept.used);
        self.order.remove(&used);
        self.next += 1;
        self.order.insert(self.next, address.clone());
        if let Some(kept) = self.by_address.get_mut(&address) {
            kept.used = self.next;
        }
    }

    /// The oldest address while past `limit`, removed.
    fn over(&mut self, limit: u64) -> Option<IndexedPage> {
        if self.bytes <= limit {
            return None;
        }
        let (_, address) = self.order.pop_first()?;
        let kept = self.by_address.remove(&address)?;
        self.bytes -= kept.bytes;
        Some(kept)
    }
}

enum Job {
    Write { address: Arc<str>, kept: IndexedPage, file: Vec<u8> },
    Remove { name: Arc<str> },
}

/// The pages on disk (see the module docs). Cloning shares them.
#[derive(Clone)]
pub struct PageDisk {
    inner: Arc<Inner>,
}

struct Inner {
    dir: PathBuf,
    index: Mutex<Index>,
    writes: std::sync::mpsc::Sender<Job>,
    /// Bytes of the pages waiting in `writes`.
    queued: AtomicU64,
    dropped: AtomicU64,
    evicted: AtomicU64,
}

impl PageDisk {
    /// The pages of this `build` in `data_dir`, at most `limit` bytes: its
    /// directory created, the index read (other builds' pages deleted), and
    /// the writer started.
    pub fn open(data_dir: &Path, build: &str, limit: u64) -> std::io::Result<PageDisk> {
        let root = data_dir.join(DIR);
        let dir = root.join(build);
        std::fs::create_dir_all(&dir)?;
        let (writes, queue) = std::sync::mpsc::channel();
        let inner = Arc::new(Inner {
            dir,
            index: Mutex::default(),
            writes,
            queued: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
            evicted: AtomicU64::new(0),
        });
        inner.load(&root);
        let writer = inner.clone();
        std::thread::Builder::new().name("page-disk".into()).spawn(move || {
            for job in queue {
                let bytes = match &job {
                    Job::Write { file, .. } => file.len() as u64,
                    Job::Remove { .. } => 0,
                };
                writer.run(job, limit);
                writer.queued.fetch_sub(bytes, Ordering::AcqRel);
            }
        })?;
        Ok(PageDisk { inner })
    }

    /// What the index knows of `address`'s page.
    pub fn kept(&self, address: &str) -> Option<IndexedPage> {
        crate::infra::locks::lock(&self.inner.index).by_address.get(address).cloned()
    }

    /// The page kept for `address` if it is the one `key` names, read from
    /// disk (blocking: call it on the blocking pool). A file that cannot be
    /// read back is forgotten and deleted.
    pub fn read(&self, address: &str, key: &str) -> Option<Read> {
        let kept = self.kept(address).filter(|kept| &*kept.key == key)?;
        match read_file(&self.inner.dir.join(&*kept.name)) {
            Ok(read) if read.header.key == key => {
                crate::infra::locks::lock(&self.inner.index).used(address);
                Some(read)
            }
            Ok(_) => None,
            Err(error) => {
                tracing::warn!(%error, address, "a page kept on disk is unreadable; deleted");
                self.forget(address);
                None
            }
        }
    }

    /// The page kept for `address`, if it is the one `key` names, with its
    /// content confirmed by the CMS at `at` (read again since it was kept):
    /// as fresh as a page rendered from it. Whether it is.
    pub fn confirm(&self, address: &str, key: &str, at: SystemTime) -> bool {
        let mut index = crate::infra::locks::lock(&self.inner.index);
        match index.by_address.get_mut(address).filter(|kept| &*kept.key == key) {
            Some(kept) => {
                kept.confirmed = kept.confirmed.max(at);
                true
            }
            None => false,
        }
    }

    /// Keeps `header`'s page, written by the writer; dropped when it is
    /// behind by [`WRITES_QUEUED`] bytes.
    pub fn keep(&self, header: &Header, br: &[u8], gzip: &[u8]) {
        let Ok(mut file) = serde_json::to_vec(header) else { return };
        file.push(b'\n');
        file.extend_from_slice(br);
        file.extend_from_slice(gzip);
        let kept = IndexedPage {
            key: header.key.as_str().into(),
            sources: header.sources.clone().into(),
            confirmed: SystemTime::UNIX_EPOCH + Duration::from_secs(header.confirmed),
            name: file_name(&header.address).into(),
            bytes: file.len() as u64,
            used: 0,
        };
        let bytes = file.len() as u64;
        let room = self.inner.queued.fetch_add(bytes, Ordering::AcqRel) + bytes <= WRITES_QUEUED;
        let job = Job::Write { address: header.address.as_str().into(), kept, file };
        if !room || self.inner.writes.send(job).is_err() {
            self.inner.queued.fetch_sub(bytes, Ordering::AcqRel);
            self.inner.dropped.fetch_add(1, Ordering::Relaxed);
            metrics::counter!("cache_writes_dropped_total", "cache" => "pages_disk").increment(1);
        }
    }

    /// Forgets `address`'s page and deletes its file.
    pub fn forget(&self, address: &str) {
        if let Some(kept) = crate::infra::locks::lock(&self.inner.index).remove(address) {
            let _ = self.inner.writes.send(Job::Remove { name: kept.name });
        }
    }

    /// Bytes and pages kept (`/metrics`).
    pub fn size(&self) -> (u64, usize) {
        let index = crate::infra::locks::lock(&self.inner.index);
        (index.bytes, index.by_address.len())
    }

    /// Pages evicted past the bound, and writes dropped past the queue.
    pub fn losses(&self) -> (u64, u64) {
        (self.inner.evicted.load(Ordering::Relaxed), self.inner.dropped.load(Ordering::Relaxed))
    }
}

impl Inner {
    /// Reads the header line of every page file into the index, and deletes
    /// other builds' directories and temporary files a crash left.
    fn load(&self, root: &Path) {
        if let Ok(entries) = std::fs::read_dir(root) {
            for entry in entries.flatten() {
                if entry.path() != self.dir {
                    let _ = std::fs::remove_dir_all(entry.path());
                }
            }
        }
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return };
        let mut loaded = 0;
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let header = name.ends_with(SUFFIX).then(|| read_header(&path)).and_then(Result::ok);
            let Some((header, bytes)) = header else {
                let _ = std::fs::remove_file(&path);
                continue;
            };
            let confirmed = SystemTime::UNIX_EPOCH + Duration::from_secs(header.confirmed);
            let kept = IndexedPage {
                key: header.key.as_str().into(),
                sources: header.sources.into(),
                confirmed,
                name: name.into(),
                bytes,
                used: 0,
            };
            crate::infra::locks::lock(&self.index).insert(header.address.as_str().into(), kept);
            loaded += 1;
        }
        tracing::info!(pages = loaded, "pages on disk read");
    }

    fn run(&self, job: Job, limit: u64) {
        match job {
            Job::Write { address, kept, file } => {
                if kept.bytes > limit {
                    return;
                }
                if let Err(error) = write_file(&self.dir, &kept.name, &file) {
                    tracing::warn!(%error, %address, "a page could not be kept on disk");
                    return;
                }
                let mut index = crate::infra::locks::lock(&self.index);
                index.insert(address, kept);
                while let Some(evicted) = index.over(limit) {
                    self.evicted.fetch_add(1, Ordering::Relaxed);
                    metrics::counter!("cache_evictions_total", "cache" => "pages_disk").increment(1);
                    let _ = std::fs::remove_file(self.dir.join(&*evicted.name));
                }
            }
            Job::Remove { name } => {
                let _ = std::fs::remove_file(self.dir.join(&*name));
            }
        }
    }
}

fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = tempfile::Builder::new().prefix(".").suffix(".tmp").tempfile_in(dir)?;
    file.write_all(bytes)?;
    file.persist(dir.join(name)).map_err(|e| e.error)?;
    Ok(())
}

/// The header line of the page file at `path`, and the file's size.
fn read_header(path: &Path) -> std::io::Result<(Header, u64)> {
    use std::io::{BufRead, Read};
    let file = std::fs::File::open(path)?;
    let bytes = file.metadata()?.len();
    let mut line = Vec::new();
    std::io::BufReader::new(file.take(MAX_HEADER as u64)).read_until(b'\n', &mut line)?;
    let header: Header = serde_json::from_slice(&line).map_err(std::io::Error::other)?;
    Ok((header, bytes))
}

/// The page in the file at `path`. Each body is a copy of its own: a slice
/// of the file would keep the whole file (header and the other body)
/// allocated for as long as any holder of that body lives, such as the fast
/// path's entry for one encoding, which weighs its body alone (a second
/// crawl of a newsroom held 24 MB more than its caches counted).
fn read_file(path: &Path) -> std::io::Result<Read> {
    let bytes = std::fs::read(path)?;
    let end =
        bytes.iter().take(MAX_HEADER).position(|b| *b == b'\n').ok_or_else(|| std::io::Error::other("no header"))?;
    let header: Header = serde_json::from_slice(&bytes[..end]).map_err(std::io::Error::other)?;
    let bodies = end + 1;
    if bytes.len() != bodies + header.br + header.gzip || StatusCode::from_u16(header.status).is_err() {
        return Err(std::io::Error::other("truncated"));
    }
    let br = Bytes::copy_from_slice(&bytes[bodies..bodies + header.br]);
    let gzip = Bytes::copy_from_slice(&bytes[bodies + header.br..]);
    Ok(Read { header, br, gzip })
}

fn file_name(address: &str) -> String {
    let digest = Sha256::digest(address.as_bytes());
    let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
    format!("{hex}{SUFFIX}")
}

/// Seconds since the epoch of `time`.
pub fn epoch_secs(time: SystemTime) -> u64 {
    time.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(address: &str, key: &str, br: &[u8], gzip: &[u8]) -> Header {
        Header {
            address: address.into(),
            key: key.into(),
            status: 200,
            lang: Lang::En,
            etag: "0123".into(),
            versions: vec![7],
            controls: None,
            sources: vec![Source { model: "home".into(), lang: Lang::En, localized: true }],
            confirmed: epoch_secs(SystemTime::now()),
            br: br.len(),
            gzip: gzip.len(),
        }
    }

    /// The writer is a thread of its own: wait for it to have written.
    fn written(disk: &PageDisk, address: &str) -> bool {
        (0..200).any(|_| {
            let kept = disk.kept(address).is_some();
            if !kept {
                std::thread::sleep(Duration::from_millis(10));
            }
            kept
        })
    }

    #[test]
    fn a_page_kept_is_read_back_by_its_key_and_after_reopening() {
        let data = tempfile::tempdir().unwrap();
        let disk = PageDisk::open(data.path(), "build", 1 << 20).unwrap();
        disk.keep(&header("home /", "home /#7", b"brotli", b"gzipped"), b"brotli", b"gzipped");
        assert!(written(&disk, "home /"));
        assert!(disk.read("home /", "home /#8").is_none(), "a page for other content is not this one");
        let read = disk.read("home /", "home /#7").unwrap();
        assert_eq!(
            (&read.br[..], &read.gzip[..], read.header.versions.as_slice()),
            (&b"brotli"[..], &b"gzipped"[..], &[7][..])
        );
        let reopened = PageDisk::open(data.path(), "build", 1 << 20).unwrap();
        assert_eq!(&*reopened.kept("home /").unwrap().key, "home /#7");
        assert_eq!(&reopened.read("home /", "home /#7").unwrap().br[..], b"brotli");
        let other_build = PageDisk::open(data.path(), "other", 1 << 20).unwrap();
        assert!(other_build.kept("home /").is_none(), "another build's pages are never served");
        assert!(!data.path().join(DIR).join("build").exists(), "and deleted");
    }

    #[test]
    fn past_its_bound_the_pages_used_longest_ago_go() {
        let data = tempfile::tempdir().unwrap();
        let body = vec![b'x'; 1000];
        // Room for three pages of some 2.3 KB, not four.
        let disk = PageDisk::open(data.path(), "build", 7500).unwrap();
        for name in ["a", "b", "c"] {
            disk.keep(&header(name, &format!("{name}#1"), &body, &body), &body, &body);
            assert!(written(&disk, name));
        }
        // `a` read again, so `b` is now the one used longest ago.
        assert!(disk.read("a", "a#1").is_some());
        disk.keep(&header("d", "d#1", &body, &body), &body, &body);
        assert!(written(&disk, "d"));
        let kept: Vec<bool> = ["a", "b", "c", "d"].iter().map(|name| disk.kept(name).is_some()).collect();
        assert_eq!(kept, [true, false, true, true]);
        assert_eq!(disk.losses().0, 1);
        let files = std::fs::read_dir(data.path().join(DIR).join("build")).unwrap().count();
        assert_eq!(files, 3, "its file deleted, no temporary file left");
    }

    #[test]
    fn a_damaged_file_is_forgotten_and_deleted_not_served() {
        let data = tempfile::tempdir().unwrap();
        let disk = PageDisk::open(data.path(), "build", 1 << 20).unwrap();
        disk.keep(&header("home /", "home /#7", b"brotli", b"gzipped"), b"brotli", b"gzipped");
        assert!(written(&disk, "home /"));
        let file = data.path().join(DIR).join("build").join(file_name("home /"));
        let bytes = std::fs::read(&file).unwrap();
        std::fs::write(&file, &bytes[..bytes.len() - 3]).unwrap();
        assert!(disk.read("home /", "home /#7").is_none());
        assert!(disk.kept("home /").is_none());
    }
}
