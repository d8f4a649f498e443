//! The session catalog's cache: `index.json` in a project's session
//! directory remembers what a scan of each session file found (message
//! count, default title, damaged lines, a newer format), keyed by the
//! file's name, size and modification time. Listing a thousand sessions
//! then reads one small file and stats the rest, instead of parsing every
//! line of every session (docs/performance.md "Desktop at scale").
//!
//! It is never trusted over the files: an entry is used only while its
//! file's size and time are the ones it was built from, anything else is
//! scanned again; entries of files that are gone are dropped; an index that
//! cannot be read, does not parse or has another version counts as empty
//! and is rewritten. Losing it costs one slow listing, nothing more.

use std::collections::{BTreeMap, HashSet};
use std::fs::Metadata;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};

/// The cache's file name, beside the sessions (`*.jsonl`) it describes.
pub const INDEX_FILE: &str = "index.json";

/// The shape this zot writes; any other version is rebuilt.
const VERSION: u32 = 1;

/// What a full scan of one session file found (everything the sidebar
/// shows except a user's own title, which lives in `titles.json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Messages that parsed.
    pub messages: u32,
    /// The title from the first prompt, when there is one.
    pub title: Option<String>,
    /// Lines that did not parse.
    pub damaged: u32,
    /// The format version, when newer than this zot's.
    pub newer: Option<u64>,
}

/// What identifies one state of a file: its size and modification time.
/// Session files only grow (append-only JSONL), so a change shows in both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    /// Bytes.
    pub size: u64,
    /// Modification time, nanoseconds since the epoch.
    pub mtime_ns: u64,
}

impl Stamp {
    /// The stamp of a file's metadata. Take it before reading the file: a
    /// write during the read then leaves an older stamp, which the next
    /// listing sees as stale, never a newer stamp over older content.
    pub fn of(meta: &Metadata) -> Stamp {
        let mtime_ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
        Stamp {
            size: meta.len(),
            mtime_ns,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Entry {
    #[serde(flatten)]
    stamp: Stamp,
    #[serde(flatten)]
    summary: Summary,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct IndexFile {
    version: u32,
    /// By file name.
    files: BTreeMap<String, Entry>,
}

/// One project's index, read once per listing and saved after it.
#[derive(Debug)]
pub struct Index {
    path: PathBuf,
    files: BTreeMap<String, Entry>,
    dirty: bool,
}

impl Index {
    /// Reads `dir/index.json`; a missing, unreadable, corrupt or foreign
    /// one is an empty index (rewritten by the next [`Index::save`]).
    pub fn open(dir: &Path) -> Index {
        let path = dir.join(INDEX_FILE);
        let read = std::fs::read(&path)
            .ok()
            .and_then(|b| serde_json::from_slice::<IndexFile>(&b).ok())
            .filter(|f| f.version == VERSION);
        let dirty = read.is_none() && path.exists();
        Index {
            path,
            files: read.map(|f| f.files).unwrap_or_default(),
            dirty,
        }
    }

    /// The summary of `name` if it was built from this very `stamp`.
    pub fn get(&self, name: &str, stamp: Stamp) -> Option<&Summary> {
        self.files
            .get(name)
            .filter(|e| e.stamp == stamp)
            .map(|e| &e.summary)
    }

    /// Records what a scan of `name` (stamped before it was read) found.
    pub fn put(&mut self, name: &str, stamp: Stamp, summary: Summary) {
        let entry = Entry { stamp, summary };
        if self.files.get(name) != Some(&entry) {
            self.files.insert(name.to_owned(), entry);
            self.dirty = true;
        }
    }

    /// Forgets files that are no longer there (deleted, moved away).
    pub fn retain(&mut self, present: &HashSet<String>) {
        let before = self.files.len();
        self.files.retain(|name, _| present.contains(name));
        self.dirty |= self.files.len() != before;
    }

    /// Writes the index when it changed, through a temp file and a rename,
    /// so a crash or a second window never leaves half of one.
    pub fn save(self) -> std::io::Result<()> {
        if !self.dirty {
            return Ok(());
        }
        let file = IndexFile {
            version: VERSION,
            files: self.files,
        };
        let tmp = self
            .path
            .with_extension(format!("json.{}.tmp", std::process::id()));
        std::fs::write(&tmp, serde_json::to_vec(&file)?)?;
        std::fs::rename(&tmp, &self.path).inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(messages: u32) -> Summary {
        Summary {
            messages,
            title: Some("fix the build".into()),
            damaged: 0,
            newer: None,
        }
    }
    const A: Stamp = Stamp {
        size: 10,
        mtime_ns: 5,
    };

    #[test]
    fn an_entry_is_used_only_for_the_stamp_it_was_built_from() {
        let dir = tempfile::tempdir().unwrap();
        let mut ix = Index::open(dir.path());
        ix.put("a.jsonl", A, summary(2));
        assert_eq!(ix.get("a.jsonl", A), Some(&summary(2)));
        for stale in [Stamp { size: 11, ..A }, Stamp { mtime_ns: 6, ..A }] {
            assert_eq!(ix.get("a.jsonl", stale), None);
        }
        assert_eq!(ix.get("b.jsonl", A), None);
    }

    #[test]
    fn it_survives_a_save_and_drops_files_that_are_gone() {
        let dir = tempfile::tempdir().unwrap();
        let mut ix = Index::open(dir.path());
        ix.put("a.jsonl", A, summary(2));
        ix.put("b.jsonl", A, summary(3));
        ix.save().unwrap();
        let mut ix = Index::open(dir.path());
        assert_eq!(ix.get("b.jsonl", A), Some(&summary(3)));
        ix.retain(&HashSet::from(["a.jsonl".to_owned()]));
        ix.save().unwrap();
        let ix = Index::open(dir.path());
        assert_eq!(ix.get("a.jsonl", A), Some(&summary(2)));
        assert_eq!(ix.get("b.jsonl", A), None);
        // No temp file is left behind.
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, [INDEX_FILE]);
    }

    #[test]
    fn a_corrupt_or_foreign_index_counts_as_empty_and_is_rewritten() {
        for bad in [
            &b"{not json"[..],
            br#"{"version":2,"files":{"a.jsonl":{"size":10,"mtime_ns":5,"messages":2,"title":null,"damaged":0,"newer":null}}}"#,
            br#"{"version":1,"files":{"a.jsonl":{"size":"ten"}}}"#,
        ] {
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join(INDEX_FILE), bad).unwrap();
            let ix = Index::open(dir.path());
            assert_eq!(ix.get("a.jsonl", A), None);
            ix.save().unwrap();
            let f: IndexFile =
                serde_json::from_slice(&std::fs::read(dir.path().join(INDEX_FILE)).unwrap())
                    .unwrap();
            assert_eq!((f.version, f.files.len()), (VERSION, 0));
        }
    }

    #[test]
    fn an_unchanged_index_is_not_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let mut ix = Index::open(dir.path());
        ix.put("a.jsonl", A, summary(2));
        ix.save().unwrap();
        let mut ix = Index::open(dir.path());
        ix.put("a.jsonl", A, summary(2));
        ix.retain(&HashSet::from(["a.jsonl".to_owned()]));
        assert!(!ix.dirty);
    }
}
