//! A directory of cache files bounded in bytes, shared by instances that
//! share `DATA_DIR` (the content cache's last good answers, the resized
//! photos): what is in it, which files go when it is full, and the one
//! writer that changes it.
//!
//! - The directory is listed once, when it is opened. From then on this
//!   process keeps its own index of the files, ordered by time beside the
//!   map by name, so that making room deletes the oldest files one by one,
//!   each in logarithmic time: nothing lists or sorts the directory again.
//! - Every change (a file written, its time renewed, a file deleted) is
//!   handed to one writer thread of the directory's own, through a queue of
//!   at most [`QUEUE`] changes, and the caller goes on at once. A change
//!   for a file already queued takes the queued one's place (a later answer
//!   replaces an earlier one); one for another file while the queue is full
//!   is dropped and counted (`cache_writes_dropped_total`): a cache loses
//!   only what it can fetch or make again, and a request never waits for a
//!   disk.
//! - A file is written to a temporary file in the same directory and
//!   renamed over the old one, never synced: a file a crash leaves torn is
//!   deleted by the reader that cannot read it back, and a sync for every
//!   file is what once parked hundreds of the blocking pool's threads.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use crate::infra::cache_metrics;
use crate::infra::locks::lock;
use crate::infra::sampled::Sampled;

/// A temporary file this old was left by a write that never finished.
const ABANDONED: Duration = Duration::from_secs(60);

/// Changes waiting for the writer at most: enough for a burst of first
/// answers, few enough that what they hold stays small.
pub const QUEUE: usize = 256;

/// A file the cache holds: its size, and the time that orders who goes
/// first when the directory is full (the oldest).
#[derive(Clone, Copy)]
pub struct HeldFile {
    pub bytes: u64,
    pub at: SystemTime,
}

/// What a write puts in its file, written as it is made (never whole in
/// memory); an error leaves the file as it was.
pub type Body = Box<dyn FnOnce(&mut dyn Write) -> std::io::Result<()> + Send>;

/// How a directory is named in metrics and logs.
#[derive(Clone, Copy)]
pub struct Names {
    /// The label `cache` of its metrics (`content_disk`, `image_disk`).
    pub cache: &'static str,
    /// The setting that bounds it, named when an entry is too large for it.
    pub setting: &'static str,
}

/// One bounded directory (cheap to clone: every clone is the same). Its
/// writer ends once every clone is dropped and the changes queued are done.
#[derive(Clone)]
pub struct BoundedDir {
    handle: Arc<Handle>,
}

/// Closes the queue when the last clone goes.
struct Handle {
    shared: Arc<Shared>,
}

struct Shared {
    dir: PathBuf,
    limit: u64,
    names: Names,
    index: Mutex<Index>,
    queue: Mutex<Queue>,
    /// Signalled when a change is queued, the writer goes idle, or the queue closes.
    signal: Condvar,
    /// Files whose entry was too large to keep, warned of once until one fits.
    too_large: Mutex<HashSet<String>>,
    dropped: AtomicU64,
    dropped_log: Sampled,
    evicted_log: Sampled,
}

#[derive(Default)]
struct Queue {
    order: VecDeque<String>,
    changes: HashMap<String, Change>,
    /// The writer is applying a change taken from the queue.
    busy: bool,
    closed: bool,
}

enum Change {
    Write { about: String, body: Body },
    Touch,
    Forget,
}

impl std::fmt::Debug for BoundedDir {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shared = &self.handle.shared;
        f.debug_struct("BoundedDir").field("dir", &shared.dir).field("limit", &shared.limit).finish()
    }
}

impl BoundedDir {
    /// The directory `dir` (created), holding at most `limit` bytes of
    /// files named `…suffix`: what is there already is counted (and
    /// trimmed to the bound), temporary files a crash left are deleted, and
    /// its writer started.
    pub fn open(dir: PathBuf, suffix: &str, limit: u64, names: Names) -> std::io::Result<BoundedDir> {
        std::fs::create_dir_all(&dir)?;
        let mut index = Index::default();
        for (name, kept) in list(&dir, suffix)? {
            index.insert(&name, kept);
        }
        let shared = Arc::new(Shared {
            dir,
            limit,
            names,
            index: Mutex::new(index),
            queue: Mutex::default(),
            signal: Condvar::new(),
            too_large: Mutex::default(),
            dropped: AtomicU64::new(0),
            dropped_log: Sampled::new(),
            evicted_log: Sampled::new(),
        });
        shared.trim();
        let writer = shared.clone();
        std::thread::Builder::new().name(format!("{}-writer", names.cache)).spawn(move || writer.run())?;
        Ok(BoundedDir { handle: Arc::new(Handle { shared }) })
    }

    /// Where the file `name` is.
    pub fn path(&self, name: &str) -> PathBuf {
        self.handle.shared.dir.join(name)
    }

    /// Whether this process knows `name` is on disk.
    pub fn holds(&self, name: &str) -> bool {
        lock(&self.handle.shared.index).files.contains_key(name)
    }

    /// Writes `name` with what `body` writes, in the background; `about`
    /// says what it is in the log, should it fail.
    pub fn write(&self, name: String, about: String, body: Body) {
        self.queue(name, Change::Write { about, body });
    }

    /// Renews the time of `name` (on disk and in the index), in the background.
    pub fn touch(&self, name: String) {
        self.queue(name, Change::Touch);
    }

    /// Deletes `name`, in the background.
    pub fn forget(&self, name: String) {
        self.queue(name, Change::Forget);
    }

    /// `name` was read now, `bytes` long: it goes last (another instance's
    /// file is counted from now on). In memory only: the next trim acts on it.
    pub fn seen(&self, name: &str, bytes: u64) {
        lock(&self.handle.shared.index).insert(name, HeldFile { bytes, at: SystemTime::now() });
    }

    /// Bytes and files on disk, as this process counts them.
    pub fn held(&self) -> (u64, u64) {
        let index = lock(&self.handle.shared.index);
        (index.bytes, index.files.len() as u64)
    }

    /// Changes dropped since open because the queue was full (tests; in
    /// production, `cache_writes_dropped_total`).
    #[cfg(test)]
    pub fn dropped(&self) -> u64 {
        self.handle.shared.dropped.load(Ordering::Relaxed)
    }

    /// Returns once every change queued before has been applied (tests).
    #[cfg(test)]
    pub fn flush(&self) {
        let shared = &self.handle.shared;
        let mut queue = lock(&shared.queue);
        while !queue.order.is_empty() || queue.busy {
            queue = shared.signal.wait(queue).unwrap_or_else(PoisonError::into_inner);
        }
    }

    fn queue(&self, name: String, change: Change) {
        let shared = &self.handle.shared;
        let mut queue = lock(&shared.queue);
        if let Some(queued) = queue.changes.get_mut(&name) {
            // A touch does not undo a queued write: the write renews the time too.
            if !(matches!(change, Change::Touch) && matches!(queued, Change::Write { .. })) {
                *queued = change;
            }
            return;
        }
        if queue.order.len() >= QUEUE {
            drop(queue);
            shared.dropped.fetch_add(1, Ordering::Relaxed);
            cache_metrics::write_dropped(shared.names.cache, &shared.dropped_log);
            return;
        }
        queue.order.push_back(name.clone());
        queue.changes.insert(name, change);
        shared.signal.notify_all();
    }

    /// Holds the writer until the sender returned is dropped or sent to,
    /// once it has taken every change queued before: the queue fills.
    #[cfg(test)]
    pub(crate) fn stall(&self) -> std::sync::mpsc::Sender<()> {
        let (release, released) = std::sync::mpsc::channel::<()>();
        let (started, running) = std::sync::mpsc::channel::<()>();
        let body: Body = Box::new(move |_| {
            let _ = started.send(());
            let _ = released.recv();
            Err(std::io::Error::other("a stall writes nothing"))
        });
        self.write(".stall".to_owned(), "the writer held by a test".to_owned(), body);
        running.recv().expect("the writer takes the stall");
        release
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        lock(&self.shared.queue).closed = true;
        self.shared.signal.notify_all();
    }
}

impl Shared {
    /// The writer: applies the changes queued one by one until the queue
    /// is closed and empty.
    fn run(&self) {
        loop {
            let (name, change) = {
                let mut queue = lock(&self.queue);
                queue.busy = false;
                self.signal.notify_all();
                loop {
                    if let Some(name) = queue.order.pop_front() {
                        let change = queue.changes.remove(&name).expect("every queued name has its change");
                        queue.busy = true;
                        break (name, change);
                    }
                    if queue.closed {
                        return;
                    }
                    queue = self.signal.wait(queue).unwrap_or_else(PoisonError::into_inner);
                }
            };
            self.apply(&name, change);
        }
    }

    fn apply(&self, name: &str, change: Change) {
        let cache = self.names.cache;
        match change {
            Change::Write { about, body } => {
                if let Err(error) = self.write(name, &about, body) {
                    tracing::warn!(cache, %about, %error, "not kept on disk");
                }
            }
            Change::Touch => {
                let now = SystemTime::now();
                let touched =
                    std::fs::File::options().write(true).open(self.dir.join(name)).and_then(|f| f.set_modified(now));
                match touched {
                    Ok(()) => {
                        lock(&self.index).renew(name, now);
                    }
                    // Another instance sharing the directory trimmed it.
                    Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                        lock(&self.index).remove(name);
                    }
                    Err(error) => tracing::warn!(cache, file = name, %error, "time on disk not renewed"),
                }
            }
            Change::Forget => {
                lock(&self.index).remove(name);
                let _ = std::fs::remove_file(self.dir.join(name));
            }
        }
    }

    /// Past the bound, the temporary file is deleted, and the copy kept
    /// before (if any) stays until trimmed.
    fn write(&self, name: &str, about: &str, body: Body) -> std::io::Result<()> {
        let file = tempfile::Builder::new().prefix(".").suffix(".tmp").tempfile_in(&self.dir)?;
        let mut out = Bounded { inner: std::io::BufWriter::new(file), written: 0, limit: self.limit };
        let result = body(&mut out);
        let bytes = out.written;
        if bytes > self.limit {
            if lock(&self.too_large).insert(name.to_owned()) {
                tracing::warn!(
                    cache = self.names.cache,
                    %about,
                    mb = bytes as f64 / 1e6,
                    limit_mb = self.limit as f64 / 1e6,
                    "too large to keep on disk (past {}): a restart while its source is down will not have it",
                    self.names.setting
                );
            }
            return Ok(());
        }
        result?;
        let file = out.inner.into_inner().map_err(std::io::IntoInnerError::into_error)?;
        file.persist(self.dir.join(name)).map_err(|e| e.error)?;
        lock(&self.too_large).remove(name);
        lock(&self.index).insert(name, HeldFile { bytes, at: SystemTime::now() });
        self.trim();
        Ok(())
    }

    /// Deletes the oldest files until the rest fit.
    fn trim(&self) {
        loop {
            let Some(name) = lock(&self.index).pop_oldest_past(self.limit) else { return };
            let _ = std::fs::remove_file(self.dir.join(&name));
            cache_metrics::evicted(self.names.cache, &self.evicted_log);
        }
    }
}

/// The files this process knows are on disk: by name, and by time.
#[derive(Default)]
struct Index {
    files: HashMap<String, HeldFile>,
    by_time: BTreeSet<(SystemTime, String)>,
    bytes: u64,
}

impl Index {
    fn insert(&mut self, name: &str, kept: HeldFile) {
        self.remove(name);
        self.by_time.insert((kept.at, name.to_owned()));
        self.files.insert(name.to_owned(), kept);
        self.bytes += kept.bytes;
    }

    fn remove(&mut self, name: &str) -> Option<HeldFile> {
        let kept = self.files.remove(name)?;
        self.by_time.remove(&(kept.at, name.to_owned()));
        self.bytes -= kept.bytes;
        Some(kept)
    }

    /// Gives `name` the time `at`; false if it is not held.
    fn renew(&mut self, name: &str, at: SystemTime) -> bool {
        let Some(kept) = self.remove(name) else { return false };
        self.insert(name, HeldFile { at, ..kept });
        true
    }

    /// The oldest file, taken out of the index, while the files are past `limit` bytes.
    fn pop_oldest_past(&mut self, limit: u64) -> Option<String> {
        if self.bytes <= limit {
            return None;
        }
        let (_, name) = self.by_time.pop_first()?;
        if let Some(kept) = self.files.remove(&name) {
            self.bytes -= kept.bytes;
        }
        Some(name)
    }
}

/// The files of `dir` named `…suffix`, with their size and modification
/// time. Other files are temporary ones: those a crash left are deleted
/// (not one another instance is writing now). A file another instance
/// renames or deletes between the listing and the look at it is skipped.
fn list(dir: &Path, suffix: &str) -> std::io::Result<HashMap<String, HeldFile>> {
    let mut files = HashMap::new();
    for entry in std::fs::read_dir(dir)? {
        let looked = entry.and_then(|entry| {
            let metadata = entry.metadata()?;
            Ok((entry, metadata.modified()?, metadata))
        });
        let (entry, modified, metadata) = match looked {
            Ok(looked) => looked,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => continue,
            Err(error) => return Err(error),
        };
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.ends_with(suffix) {
            let abandoned = modified.elapsed().is_ok_and(|age| age > ABANDONED);
            if metadata.is_file() && abandoned {
                let _ = std::fs::remove_file(entry.path());
            }
            continue;
        }
        files.insert(name, HeldFile { bytes: metadata.len(), at: modified });
    }
    Ok(files)
}

/// A file written up to `limit` bytes: what comes past it is counted, not
/// written, so that `written` says how large the entry is.
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

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: Names = Names { cache: "test_disk", setting: "TEST_MB" };

    fn bytes(content: &'static [u8]) -> Body {
        Box::new(move |out| out.write_all(content))
    }

    fn files(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn the_index_gives_up_its_oldest_files_first_until_the_rest_fit() {
        let at = |secs| SystemTime::UNIX_EPOCH + Duration::from_secs(secs);
        let mut index = Index::default();
        for (name, secs) in [("a", 1), ("b", 2), ("c", 3), ("d", 4)] {
            index.insert(name, HeldFile { bytes: 100, at: at(secs) });
        }
        assert!(index.renew("a", at(5)), "a used again: b is now the oldest");
        index.insert("c", HeldFile { bytes: 150, at: at(6) });
        assert_eq!(index.bytes, 450);
        let mut gone = Vec::new();
        while let Some(name) = index.pop_oldest_past(250) {
            gone.push(name);
        }
        assert_eq!(gone, ["b", "d"]);
        assert_eq!(index.bytes, 250);
        assert_eq!(index.by_time.len(), index.files.len());
        assert!(index.pop_oldest_past(250).is_none());
    }

    #[test]
    fn past_its_bound_the_oldest_files_are_deleted_and_the_rest_read_back_after_reopening() {
        let data = tempfile::tempdir().unwrap();
        let dir = data.path().join("cache");
        let cache = BoundedDir::open(dir.clone(), ".c", 250, NAMES).unwrap();
        for name in ["a.c", "b.c", "c.c"] {
            cache.write(name.to_owned(), name.to_owned(), bytes(&[1; 100]));
            cache.flush();
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(files(&dir), ["b.c", "c.c"]);
        cache.touch("b.c".to_owned());
        cache.flush();
        std::thread::sleep(Duration::from_millis(20));
        cache.write("d.c".to_owned(), "d".to_owned(), bytes(&[2; 100]));
        cache.flush();
        assert_eq!(files(&dir), ["b.c", "d.c"], "b was renewed: c went");
        assert_eq!(cache.held(), (200, 2));
        drop(cache);
        let reopened = BoundedDir::open(dir.clone(), ".c", 150, NAMES).unwrap();
        assert_eq!(reopened.held(), (100, 1), "reopened smaller: the oldest goes at once");
        assert_eq!(std::fs::read(dir.join("d.c")).unwrap(), vec![2u8; 100]);
    }

    #[test]
    fn a_full_queue_drops_what_comes_and_never_waits() {
        let data = tempfile::tempdir().unwrap();
        let dir = data.path().join("cache");
        let cache = BoundedDir::open(dir.clone(), ".c", 1 << 20, NAMES).unwrap();
        let release = cache.stall();
        let (done, finished) = std::sync::mpsc::channel();
        let writer = cache.clone();
        std::thread::spawn(move || {
            for n in 0..QUEUE + 10 {
                writer.write(format!("{n}.c"), n.to_string(), bytes(b"x"));
            }
            let _ = done.send(());
        });
        // Generous: the writes return at once, or never while the writer is held.
        finished.recv_timeout(Duration::from_secs(30)).expect("writes never wait for a held writer");
        assert_eq!(cache.dropped(), 10);
        drop(release);
        cache.flush();
        assert_eq!(files(&dir).len(), QUEUE);
    }

    #[test]
    fn a_later_write_replaces_the_one_queued_for_the_same_file() {
        let data = tempfile::tempdir().unwrap();
        let dir = data.path().join("cache");
        let cache = BoundedDir::open(dir.clone(), ".c", 1 << 20, NAMES).unwrap();
        let release = cache.stall();
        cache.write("a.c".to_owned(), "a".to_owned(), bytes(b"first"));
        cache.write("a.c".to_owned(), "a".to_owned(), bytes(b"second"));
        cache.touch("a.c".to_owned());
        cache.write("b.c".to_owned(), "b".to_owned(), bytes(b"kept"));
        cache.forget("b.c".to_owned());
        drop(release);
        cache.flush();
        assert_eq!(std::fs::read(dir.join("a.c")).unwrap(), b"second");
        assert_eq!(files(&dir), ["a.c"]);
        assert_eq!(cache.dropped(), 0);
    }

    #[test]
    fn an_entry_larger_than_the_bound_is_not_kept() {
        let data = tempfile::tempdir().unwrap();
        let dir = data.path().join("cache");
        let cache = BoundedDir::open(dir.clone(), ".c", 10, NAMES).unwrap();
        cache.write("a.c".to_owned(), "a".to_owned(), bytes(&[0; 11]));
        cache.flush();
        assert!(files(&dir).is_empty(), "no temporary file left behind either");
        assert!(!cache.holds("a.c"));
    }
}
