//! The project's sessions as the sidebar shows them: listed newest first
//! with a title, a date and a message count, searched by text, renamed,
//! and deleted to the OS trash. Session files are append-only JSONL
//! (`session.rs`), so a user's title cannot go in them without rewriting
//! one; titles live beside them in `titles.json`, written atomically.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use anyhow::{bail, Context};
use zot_ext_protocol::rpc::SessionInfo;

use super::session;
use super::transcript::{Message, Role};

/// The session format this zot writes and reads in full.
pub const FORMAT: u64 = 1;

/// Titles are cut here (and the first prompt's first line for a default).
const TITLE_CHARS: usize = 80;

/// What a scan of one session file found.
struct Scan {
    messages: u32,
    first_prompt: Option<String>,
    damaged: u32,
    newer: Option<u64>,
    matches: bool,
}

/// Reads one file line by line: counts messages and damaged lines, finds
/// the first prompt, notes a newer format, and whether `query` (already
/// lowercased) occurs in any message's text.
fn scan(path: &Path, query: Option<&str>) -> anyhow::Result<Scan> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut s = Scan {
        messages: 0,
        first_prompt: None,
        damaged: 0,
        newer: None,
        matches: query.is_none(),
    };
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
                if s.first_prompt.is_none() && m.role == Role::User && !text.trim().is_empty() {
                    s.first_prompt = Some(text.clone());
                }
                if let (false, Some(q)) = (s.matches, query) {
                    s.matches = text.to_lowercase().contains(q);
                }
            }
            _ => {}
        }
    }
    Ok(s)
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
    let mut out = Vec::new();
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if path.extension().is_none_or(|e| e != "jsonl") {
            continue;
        }
        let modified_ms = std::fs::metadata(&path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        let file = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let custom = names.get(&file).cloned();
        let info = match scan(&path, query.as_deref()) {
            Ok(s) => {
                let title = custom
                    .clone()
                    .or_else(|| s.first_prompt.as_deref().map(title_of))
                    .unwrap_or_else(|| "(no prompt yet)".into());
                let title_match = query
                    .as_deref()
                    .is_some_and(|q| title.to_lowercase().contains(q));
                if !(s.matches || title_match) {
                    continue;
                }
                let problem = match (s.newer, s.damaged) {
                    (Some(v), _) => Some(format!(
                        "written by a newer zot (format {v}; this one reads {FORMAT}): it opens as a copy of what can be read"
                    )),
                    (None, 0) => None,
                    (None, n) => Some(format!(
                        "{n} damaged line{} (e.g. from a crash mid-write): the rest opens",
                        if n == 1 { "" } else { "s" }
                    )),
                };
                SessionInfo {
                    path: path.display().to_string(),
                    title,
                    modified_ms,
                    messages: s.messages,
                    current: current == Some(path.as_path()),
                    problem,
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
    // Newest first; the name (a zero-padded start time) breaks ties.
    out.sort_by(|a, b| {
        b.modified_ms
            .cmp(&a.modified_ms)
            .then_with(|| b.path.cmp(&a.path))
    });
    out
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
}
