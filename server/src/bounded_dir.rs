//! A directory of cache files bounded in bytes, shared by instances that
//! share `DATA_DIR` (the content cache's last good answers, the resized
//! photos): what is in it at start, and which files go when it is full.

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// A temporary file this old was left by a write that never finished.
const ABANDONED: Duration = Duration::from_secs(60);

/// A file the cache holds: its size, and the time that orders who goes
/// first when the directory is full (the oldest).
#[derive(Clone, Copy)]
pub struct Kept {
    pub bytes: u64,
    pub at: SystemTime,
}

/// The files of `dir` named `…suffix`, with their size and modification
/// time. Other files are temporary ones: those a crash left are deleted
/// (not one another instance is writing now). A file another instance
/// renames or deletes between the listing and the look at it is skipped.
pub fn list(dir: &Path, suffix: &str) -> std::io::Result<HashMap<String, Kept>> {
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
        files.insert(name, Kept { bytes: metadata.len(), at: modified });
    }
    Ok(files)
}

/// Deletes from `dir` the files of `files` with the oldest time until the
/// rest fit in `limit` bytes.
pub fn trim(dir: &Path, files: &mut HashMap<String, Kept>, limit: u64) {
    let mut total: u64 = files.values().map(|k| k.bytes).sum();
    if total <= limit {
        return;
    }
    let mut oldest: Vec<(String, Kept)> = files.iter().map(|(name, kept)| (name.clone(), *kept)).collect();
    oldest.sort_by_key(|(_, kept)| kept.at);
    for (name, kept) in oldest {
        if total <= limit {
            break;
        }
        files.remove(&name);
        total -= kept.bytes;
        let _ = std::fs::remove_file(dir.join(&name));
    }
}
