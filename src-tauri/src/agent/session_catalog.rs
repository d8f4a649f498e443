//! The project's sessions as the sidebar shows them: listed newest first
//! with a title, a date and a message count, searched by text, renamed,
//! and deleted to the OS trash. Session files are append-only JSONL
//! (`session.rs`), so a user's title cannot go in them without rewriting
//! one; titles live beside them in `titles.json`, written atomically.
//! What a scan of each file found is cached in `index.json`
//! (`session_index.rs`), so a listing reads only the files that changed;
//! a search still reads every file's text.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use zot_ext_protocol::rpc::SessionInfo;

use super::session;
use super::session_index::{Index, Stamp, Summary};
use crate::providers::transcript::{Message, Role};

/// The session format this zot writes and reads in full.
pub const FORMAT: u64 = 1;

/// Titles are cut here (and the first prompt's first line for a default).
const TITLE_CHARS: usize = 80;

/// What a scan of one session file found: the summary the index keeps,
/// and whether the query occurs in its text.
struct Scan {
    summary: Summary,
    matches: bool,
}

/// Reads one file line by line: counts messages and damaged lines, finds
/// the first prompt, notes a newer format, and whether `query` (already
/// lowercased) occurs in any message's text.
fn scan(path: &Path, query: Option<&str>) -> anyhow::Result<Scan> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut s = Summary {
        messages: 0,
        title: None,
        damaged: 0,
        newer: None,
    };
    let mut matches = query.is_none();
    for raw in bytes.split(|b| *b == b'\n') {
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(raw) else {
            s.damaged = s.damaged.saturating_add(1);
            continue;
        };
        match v.get("type").and_then(serde_json::Value::as_str) {
            Some("session") => {
                let version = v
                    .get("version")
                    .and_then(serde_json::Value::as_u64)
                    .unwrap_or(FORMAT);
                if version > FORMAT {
                    s.newer = Some(version);
                }
            }
            Some("message") => {
                let Some(m) = v
                    .get("message")
                    .and_then(|m| serde_json::from_value::<Message>(m.clone()).ok())
                else {
                    s.damaged = s.damaged.saturating_add(1);
                    continue;
                };
                s.messages = s.messages.saturating_add(1);
                let text = m.text();
                if s.title.is_none() && m.role == Role::User && !text.trim().is_empty() {
                    s.title = Some(title_of(&text));
                }
                if let (false, Some(q)) = (matches, query) {
                    matches = text.to_lowercase().contains(q);
                }
            }
            _ => {}
        }
    }
    Ok(Scan {
        summary: s,
        matches,
    })
}

/// A title from a prompt: its first non-empty line, cut at a word.
fn title_of(prompt: &str) -> String {
    let line = prompt
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if line.chars().count() <= TITLE_CHARS {
        return line.to_owned();
    }
    let cut: String = line.chars().take(TITLE_CHARS).collect();
    let at = cut
        .rfind(' ')
        .filter(|&i| i > TITLE_CHARS / 2)
        .unwrap_or(cut.len());
    format!("{}…", cut.get(..at).unwrap_or(&cut).trim_end())
}

fn titles_path(zot_home: &Path, cwd: &Path) -> PathBuf {
    session::dir(zot_home, cwd).join("titles.json")
}

/// The user's titles by file name; an unreadable file counts as none (the
/// default titles still show, and the next rename rewrites it).
fn titles(zot_home: &Path, cwd: &Path) -> BTreeMap<String, String> {
    std::fs::read(titles_path(zot_home, cwd))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// The project's sessions, newest first; with `query`, only those whose
/// title or text contains it (case-insensitive). `current` is marked.
/// Without a query, files whose size and time match their `index.json`
/// entry are not read; every other file is scanned and its entry updated.
pub fn list(
    zot_home: &Path,
    cwd: &Path,
    current: Option<&Path>,
    query: Option<&str>,
) -> Vec<SessionInfo> {
    let dir = session::dir(zot_home, cwd);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let names = titles(zot_home, cwd);
    let query = query
        .map(str::trim)
        .filter(|q| !q.is_empty())
        .map(str::to_lowercase);
    let mut index = Index::open(&dir);
    let mut present = HashSet::new();
    let mut out = Vec::new();
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if path.extension().is_none_or(|e| e != "jsonl") {
            continue;
        }
        let file = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        present.insert(file.clone());
        // Stamped before the read (see `Stamp::of`).
        let stamp = std::fs::metadata(&path).ok().map(|m| Stamp::of(&m));
        let modified_ms = stamp.map_or(0, |s| s.mtime_ns / 1_000_000);
        let custom = names.get(&file).cloned();
        let cached = match (&query, stamp) {
            (None, Some(st)) => index.get(&file, st).cloned().map(|summary| Scan {
                summary,
                matches: true,
            }),
            _ => None,
        };
        let scanned = match cached {
            Some(hit) => Ok(hit),
            None => scan(&path, query.as_deref()).inspect(|s| {
                // A file that could not be read is not cached: it is
                // tried again next time.
                if let Some(st) = stamp {
                    index.put(&file, st, s.summary.clone());
                }
            }),
        };
        let info = match scanned {
            Ok(Scan {
                summary: s,
                matches,
            }) => {
                let title = custom
                    .clone()
                    .or(s.title)
                    .unwrap_or_else(|| "(no prompt yet)".into());
                let title_match = query
                    .as_deref()
                    .is_some_and(|q| title.to_lowercase().contains(q));
                if !(matches || title_match) {
                    continue;
                }
                SessionInfo {
                    path: path.display().to_string(),
                    title,
                    modified_ms,
                    messages: s.messages,
                    current: current == Some(path.as_path()),
                    problem: problem(s.newer, s.damaged),
                }
            }
            Err(e) => SessionInfo {
                path: path.display().to_string(),
                title: custom.unwrap_or_else(|| file.clone()),
                modified_ms,
                messages: 0,
                current: current == Some(path.as_path()),
                problem: Some(format!("{e:#}")),
            },
        };
        out.push(info);
    }
    index.retain(&present);
    // The index is a cache: failing to write it (a read-only directory)
    // only means the next listing scans again.
    let _ = index.save();
    // Newest first; the name (a zero-padded start time) breaks ties.
    out.sort_by(|a, b| {
        b.modified_ms
            .cmp(&a.modified_ms)
            .then_with(|| b.path.cmp(&a.path))
    });
    out
}

/// The warning badge's text: a newer format, or damaged lines.
fn problem(newer: Option<u64>, damaged: u32) -> Option<String> {
    match (newer, damaged) {
        (Some(v), _) => Some(format!(
            "written by a newer zot (format {v}; this one reads {FORMAT}): it opens as a copy of what can be read"
        )),
        (None, 0) => None,
        (None, n) => Some(format!(
            "{n} damaged line{} (e.g. from a crash mid-write): the rest opens",
            if n == 1 { "" } else { "s" }
        )),
    }
}

/// Whether the session written at `path` is in a newer format than this
/// zot's: its header, the first line, says so (only that line is read; the
/// opener loads the whole file next anyway).
pub fn newer_format(path: &Path) -> Option<u64> {
    use std::io::BufRead;
    let mut first = String::new();
    std::io::BufReader::new(std::fs::File::open(path).ok()?)
        .read_line(&mut first)
        .ok()?;
    let v: serde_json::Value = serde_json::from_str(&first).ok()?;
    let version = v
        .get("type")
        .filter(|t| *t == "session")
        .and_then(|_| v.get("version"))
        .and_then(serde_json::Value::as_u64)?;
    (version > FORMAT).then_some(version)
}

/// `path` as a session file of this project, or an error saying why not:
/// the sidebar's commands never reach outside the project's directory.
pub fn own(zot_home: &Path, cwd: &Path, path: &str) -> anyhow::Result<PathBuf> {
    let dir = session::dir(zot_home, cwd);
    let p = PathBuf::from(path);
    let inside = p.parent() == Some(dir.as_path()) && p.extension().is_some_and(|e| e == "jsonl");
    if !inside {
        bail!(
            "{path} is not a session of this project (they live in {})",
            dir.display()
        );
    }
    if !p.is_file() {
        bail!("session {path} does not exist (deleted, or moved by another zot?)");
    }
    Ok(p)
}

/// Sets (or, with an empty title, clears) a session's title.
pub fn rename(zot_home: &Path, cwd: &Path, path: &Path, title: &str) -> anyhow::Result<()> {
    let file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .context("a session path has a file name")?;
    let mut names = titles(zot_home, cwd);
    let title = title.trim();
    if title.is_empty() {
        names.remove(&file);
    } else {
        names.insert(file, title.chars().take(200).collect());
    }
    let target = titles_path(zot_home, cwd);
    let tmp = target.with_extension("json.tmp");
    std::fs::write(&tmp, serde_json::to_vec_pretty(&names)?)
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, &target)
        .with_context(|| format!("cannot replace {}", target.display()))?;
    Ok(())
}

/// Moves a session to the OS trash; where there is none (no desktop trash
/// on this volume), deletes it. Answers whether it went to the trash.
pub fn delete(zot_home: &Path, cwd: &Path, path: &Path) -> anyhow::Result<bool> {
    let trashed = match trash::delete(path) {
        Ok(()) => true,
        Err(_) => {
            std::fs::remove_file(path)
                .with_context(|| format!("cannot delete {}", path.display()))?;
            false
        }
    };
    // Its title goes with it.
    let _ = rename(zot_home, cwd, path, "");
    Ok(trashed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_the_first_line_cut_at_a_word() {
        assert_eq!(title_of("\n  fix the build\nplease"), "fix the build");
        let long = "word ".repeat(40);
        let t = title_of(&long);
        assert!(
            t.ends_with('…') && t.chars().count() <= TITLE_CHARS + 1,
            "{t}"
        );
        assert!(!t.contains("wor…"), "cut at a word: {t}");
    }

    use crate::agent::session_index::INDEX_FILE;

    fn line(v: serde_json::Value) -> String {
        format!("{v}\n")
    }
    fn msg(role: &str, text: &str) -> String {
        line(
            serde_json::json!({"type":"message","message":{"role":role,"content":[{"type":"text","text":text}]}}),
        )
    }
    /// A project's session dir with `(file, version, body)` sessions.
    fn project(files: &[(&str, u64, String)]) -> (tempfile::TempDir, PathBuf, PathBuf) {
        let home = tempfile::tempdir().unwrap();
        let cwd = home.path().join("proj");
        std::fs::create_dir_all(&cwd).unwrap();
        let dir = session::dir(home.path(), &cwd);
        std::fs::create_dir_all(&dir).unwrap();
        for (name, version, body) in files {
            let head = line(serde_json::json!({"type":"session","version":version,"cwd":"/x"}));
            std::fs::write(dir.join(name), head + body).unwrap();
        }
        (home, cwd, dir)
    }
    fn shown(home: &Path, cwd: &Path) -> Vec<(String, u32, bool)> {
        list(home, cwd, None, None)
            .into_iter()
            .map(|s| (s.title, s.messages, s.problem.is_some()))
            .collect::<Vec<_>>()
    }
    fn sorted(mut v: Vec<(String, u32, bool)>) -> Vec<(String, u32, bool)> {
        v.sort();
        v
    }
    fn index_json(dir: &Path) -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(dir.join(INDEX_FILE)).unwrap()).unwrap()
    }

    #[test]
    fn a_listing_reads_the_index_for_unchanged_files_and_rescans_changed_ones() {
        let (home, cwd, dir) = project(&[(
            "a.jsonl",
            1,
            msg("user", "fix the build") + &msg("assistant", "done"),
        )]);
        assert_eq!(
            shown(home.path(), &cwd),
            [("fix the build".into(), 2, false)]
        );
        // The entry is what the next listing shows while the file is
        // unchanged: doctor it and see it come back.
        let mut ix = index_json(&dir);
        ix["files"]["a.jsonl"]["messages"] = 99.into();
        std::fs::write(dir.join(INDEX_FILE), ix.to_string()).unwrap();
        assert_eq!(
            shown(home.path(), &cwd),
            [("fix the build".into(), 99, false)]
        );
        // A file that grew is scanned again, whatever the index says.
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(dir.join("a.jsonl"))
            .unwrap();
        std::io::Write::write_all(&mut f, msg("user", "and the tests").as_bytes()).unwrap();
        assert_eq!(
            shown(home.path(), &cwd),
            [("fix the build".into(), 3, false)]
        );
        assert_eq!(index_json(&dir)["files"]["a.jsonl"]["messages"], 3);
    }

    #[test]
    fn damaged_and_newer_sessions_keep_their_badge_when_listed_from_the_index() {
        let (home, cwd, dir) = project(&[
            ("ok.jsonl", 1, msg("user", "fine")),
            ("bad.jsonl", 1, msg("user", "damaged") + "{not json\n"),
            ("new.jsonl", 2, msg("user", "from the future")),
        ]);
        let want = vec![
            ("damaged".to_owned(), 1, true),
            ("fine".to_owned(), 1, false),
            ("from the future".to_owned(), 1, true),
        ];
        let first = list(home.path(), &cwd, None, None);
        assert_eq!(sorted(shown(home.path(), &cwd)), want);
        assert_eq!(index_json(&dir)["files"].as_object().unwrap().len(), 3);
        // The second listing comes from the index, with the same problems.
        assert_eq!(list(home.path(), &cwd, None, None), first);
        assert!(first.iter().any(|s| s
            .problem
            .as_deref()
            .is_some_and(|p| p.contains("newer zot (format 2"))));
        assert!(first.iter().any(|s| s
            .problem
            .as_deref()
            .is_some_and(|p| p.contains("1 damaged line"))));
    }

    #[test]
    fn a_corrupt_index_is_ignored_and_rebuilt_and_gone_files_leave_it() {
        let (home, cwd, dir) = project(&[
            ("a.jsonl", 1, msg("user", "one")),
            ("b.jsonl", 1, msg("user", "two") + &msg("user", "three")),
        ]);
        std::fs::write(dir.join(INDEX_FILE), "{half an ind").unwrap();
        let want = vec![("one".to_owned(), 1, false), ("two".to_owned(), 2, false)];
        assert_eq!(sorted(shown(home.path(), &cwd)), want);
        assert_eq!(index_json(&dir)["files"].as_object().unwrap().len(), 2);
        std::fs::remove_file(dir.join("b.jsonl")).unwrap();
        assert_eq!(shown(home.path(), &cwd), [("one".into(), 1, false)]);
        let files = index_json(&dir)["files"].as_object().unwrap().clone();
        assert_eq!(files.keys().collect::<Vec<_>>(), ["a.jsonl"]);
    }

    #[test]
    fn a_search_reads_the_text_even_with_a_fresh_index() {
        let (home, cwd, _dir) = project(&[
            (
                "a.jsonl",
                1,
                msg("user", "one") + &msg("assistant", "the parser"),
            ),
            ("b.jsonl", 1, msg("user", "two")),
        ]);
        shown(home.path(), &cwd);
        let hits = list(home.path(), &cwd, None, Some("PARSER"));
        assert_eq!(
            hits.iter().map(|s| s.title.as_str()).collect::<Vec<_>>(),
            ["one"]
        );
    }
}
