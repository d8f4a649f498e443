//! Sessions: one append-only JSONL file per conversation under
//! `$ZOT_HOME/sessions/<cwd key>/`. Each message is one line written as it
//! completes, so a kill at any moment loses at most the message in flight;
//! a torn last line is skipped on load.
//!
//! Sessions survive anything: loading skips every line that is not UTF-8 or
//! not JSON, wherever it is, with one warning; appends are fsync'd at each
//! turn end; a file has one writer at a time (an OS advisory lock, so a
//! second zot is refused with a clear error); files are created 0600 in
//! 0700 directories, since they hold everything the user and tools said.

use std::fs::{DirBuilder, File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};

use std::collections::HashMap;

use zot_ext_host::SessionState;

use crate::providers::transcript::{self, Message};

/// One line of a session file.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Line {
    /// The first line: what this file is.
    Session {
        /// Format version.
        version: u32,
        /// The project directory.
        cwd: String,
    },
    /// A completed message.
    Message {
        /// The message.
        message: Message,
    },
    /// A compaction: every message before the last `kept` ones is replaced
    /// by `summary` (older zots skip this line and load everything).
    Compaction {
        /// The model's summary, as one message.
        summary: Message,
        /// Messages kept verbatim after the summary.
        kept: usize,
    },
    /// An extension's `state_set` (a `null` value removed the key). Older
    /// zots skip this line.
    State {
        /// Whose state.
        extension: String,
        /// The key.
        key: String,
        /// The value.
        value: serde_json::Value,
    },
    /// A rewind of the conversation: the user message carrying
    /// `checkpoint` and everything after it are dropped, and the
    /// extensions' state goes back to what it was when that message was
    /// written. Older zots skip this line (and load everything).
    Rewind {
        /// The checkpoint of the first message dropped.
        checkpoint: String,
        /// The undo checkpoint of a rewind of code done with it (kept so
        /// pruning keeps it while this session lives).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        undo: Option<String>,
    },
}

/// A session file read whole: the messages, the extensions' state, and
/// that state as it was at each prompt with a checkpoint.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The messages to resume.
    pub messages: Vec<Message>,
    /// Lines skipped as damaged.
    pub skipped: usize,
    /// Every extension's session state now.
    pub state: SessionState,
    /// The state just before each prompt, by its checkpoint id.
    pub state_at: HashMap<String, SessionState>,
}

/// An open session file, appended to as messages complete.
pub struct Session {
    /// Where it lives.
    path: PathBuf,
    /// Opened for append; `None` until the first message, so a run that
    /// never prompts leaves no empty file for `--continue` to pick.
    file: Option<File>,
    /// The header line, written just before the first message.
    header: Option<Line>,
}

/// The directory name for a project: its path with separators made safe.
pub fn cwd_key(cwd: &Path) -> String {
    let s = cwd.to_string_lossy();
    let key: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let key = key.trim_matches('-').to_owned();
    if key.is_empty() {
        "root".into()
    } else {
        key
    }
}

/// `$ZOT_HOME/sessions/<cwd key>/`.
pub fn dir(zot_home: &Path, cwd: &Path) -> PathBuf {
    zot_home.join("sessions").join(cwd_key(cwd))
}

/// The newest session of a project, if any.
pub fn latest(zot_home: &Path, cwd: &Path) -> Option<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir(zot_home, cwd))
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    // Names start with a zero-padded timestamp, so name order is age order.
    files.sort();
    files.pop()
}

/// Reads every complete message of a session file; a torn or unreadable
/// line (a kill mid-write, a bad byte) is skipped, and dangling tool calls
/// are answered.
pub fn load(path: &Path) -> anyhow::Result<Vec<Message>> {
    Ok(load_counted(path)?.0)
}

/// Like [`load`], also counting the lines skipped because they were not
/// UTF-8, not JSON, or a message line that does not parse.
pub fn load_counted(path: &Path) -> anyhow::Result<(Vec<Message>, usize)> {
    let l = load_full(path)?;
    Ok((l.messages, l.skipped))
}

/// Reads a session file whole: messages (as [`load_counted`]), the
/// extensions' state, and that state at each checkpointed prompt.
pub fn load_full(path: &Path) -> anyhow::Result<Loaded> {
    let bytes =
        std::fs::read(path).with_context(|| format!("cannot read session {}", path.display()))?;
    let mut out: Vec<Message> = Vec::new();
    let mut skipped = 0usize;
    let mut state = SessionState::new();
    let mut state_at: HashMap<String, SessionState> = HashMap::new();
    for raw in bytes.split(|b| *b == b'\n') {
        let Ok(line) = std::str::from_utf8(raw) else {
            skipped = skipped.saturating_add(1);
            continue;
        };
        if line.trim().is_empty() {
            continue;
        }
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            skipped = skipped.saturating_add(1);
            continue;
        };
        match serde_json::from_value::<Line>(v.clone()) {
            Ok(Line::Message { message }) => {
                if let Some(cp) = &message.checkpoint {
                    state_at.insert(cp.clone(), state.clone());
                }
                out.push(message)
            }
            Ok(Line::State {
                extension,
                key,
                value,
            }) => apply_state(&mut state, extension, key, value),
            Ok(Line::Rewind { checkpoint, .. }) => {
                // A rewind to a prompt no longer in the transcript (a
                // compaction summarised it) changes nothing.
                let at = out
                    .iter()
                    .position(|m| m.checkpoint.as_deref() == Some(checkpoint.as_str()));
                if let Some(at) = at {
                    out.truncate(at);
                    state = state_at.get(&checkpoint).cloned().unwrap_or_default();
                }
            }
            Ok(Line::Compaction { summary, kept }) => {
                let rest = out.split_off(out.len().saturating_sub(kept));
                out = std::iter::once(summary).chain(rest).collect();
            }
            Ok(Line::Session { .. }) => {}
            // A message that does not parse is lost data; any other line
            // type (from a newer zot) is simply not ours to read.
            Err(_) if v.get("type").and_then(serde_json::Value::as_str) == Some("message") => {
                skipped = skipped.saturating_add(1);
            }
            Err(_) => {}
        }
    }
    transcript::repair(&mut out);
    Ok(Loaded {
        messages: out,
        skipped,
        state,
        state_at,
    })
}

/// Applies one `state_set` to `state` (`null` removes the key).
pub fn apply_state(
    state: &mut SessionState,
    extension: String,
    key: String,
    value: serde_json::Value,
) {
    if value.is_null() {
        if let Some(mine) = state.get_mut(&extension) {
            mine.remove(&key);
            if mine.is_empty() {
                state.remove(&extension);
            }
        }
    } else {
        state.entry(extension).or_default().insert(key, value);
    }
}

/// The one warning for a session with skipped lines.
fn skipped_warning(path: &Path, skipped: usize) -> Option<String> {
    (skipped > 0).then(|| {
        format!(
            "session {}: skipped {skipped} damaged line{} (not UTF-8 or not JSON, e.g. from a crash mid-write); the rest of the conversation was loaded and continues",
            path.display(),
            if skipped == 1 { "" } else { "s" }
        )
    })
}

/// Which session a backend uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionChoice {
    /// A new file (the default).
    New,
    /// The newest file of this project (`--continue`), else a new one.
    Continue,
    /// This file (`--session FILE`), created if missing.
    File(PathBuf),
    /// Nothing written (`--no-session`).
    Disabled,
}

/// An opened session: the messages to resume, where to append, and a
/// warning for the user when damaged lines were skipped.
pub struct Opened {
    /// The messages to resume.
    pub messages: Vec<Message>,
    /// Where to append, unless `--no-session`.
    pub session: Option<Session>,
    /// Said once to the user (damaged lines skipped).
    pub warning: Option<String>,
    /// The extensions' state in it.
    pub state: SessionState,
    /// Their state at each checkpointed prompt.
    pub state_at: HashMap<String, SessionState>,
}

/// Opens the chosen session: an existing file is locked for writing first
/// (a second zot on it gets an error naming it), then loaded.
pub fn choose(choice: &SessionChoice, zot_home: &Path, cwd: &Path) -> anyhow::Result<Opened> {
    let fresh = |session| Opened {
        messages: Vec::new(),
        session: Some(session),
        warning: None,
        state: SessionState::new(),
        state_at: HashMap::new(),
    };
    let existing = |p: &Path| -> anyhow::Result<Opened> {
        let session = Session::open(p)?;
        let l = load_full(p)?;
        Ok(Opened {
            messages: l.messages,
            session: Some(session),
            warning: skipped_warning(p, l.skipped),
            state: l.state,
            state_at: l.state_at,
        })
    };
    match choice {
        SessionChoice::Disabled => Ok(Opened {
            messages: Vec::new(),
            session: None,
            warning: None,
            state: SessionState::new(),
            state_at: HashMap::new(),
        }),
        SessionChoice::New => Ok(fresh(Session::create(zot_home, cwd)?)),
        SessionChoice::Continue => match latest(zot_home, cwd) {
            Some(p) => existing(&p),
            None => Ok(fresh(Session::create(zot_home, cwd)?)),
        },
        SessionChoice::File(p) => {
            if p.exists() {
                existing(p)
            } else {
                // Created (empty) and locked now, so two zots given the same
                // new file cannot both write it; the header comes with the
                // first message.
                let mut s = Session::fresh(p.clone(), cwd);
                s.file = Some(open_append(p)?);
                Ok(fresh(s))
            }
        }
    }
}

/// Creates missing directories as 0700 (sessions hold the whole
/// conversation).
fn create_private_dirs(d: &Path) -> anyhow::Result<()> {
    DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(d)
        .with_context(|| format!("cannot create session directory {}", d.display()))
}

impl Session {
    /// Starts a new session file for the project.
    pub fn create(zot_home: &Path, cwd: &Path) -> anyhow::Result<Session> {
        let d = dir(zot_home, cwd);
        create_private_dirs(&d)?;
        // Directories made 0755 by an older zot are tightened too.
        for p in [zot_home.join("sessions"), d.clone()] {
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o700))
                .with_context(|| format!("cannot make {} private", p.display()))?;
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        let path = d.join(format!(
            "{:020}-{}.jsonl",
            now.as_micros(),
            std::process::id()
        ));
        Ok(Session::fresh(path, cwd))
    }

    /// A session not yet on disk: the file and its header appear with the
    /// first message.
    pub fn fresh(path: PathBuf, cwd: &Path) -> Session {
        Session {
            path,
            file: None,
            header: Some(Line::Session {
                version: 1,
                cwd: cwd.to_string_lossy().into_owned(),
            }),
        }
    }

    /// Opens (or creates) a session file for appending.
    pub fn open(path: &Path) -> anyhow::Result<Session> {
        Ok(Session {
            path: path.to_path_buf(),
            file: Some(open_append(path)?),
            header: None,
        })
    }

    /// Where the file is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A second handle on the open file, for an fsync outside any lock;
    /// `None` before the first message.
    pub fn sync_handle(&self) -> Option<File> {
        self.file.as_ref().and_then(|f| f.try_clone().ok())
    }

    /// Appends one completed message.
    pub fn append(&mut self, message: &Message) -> anyhow::Result<()> {
        if self.file.is_none() {
            self.file = Some(open_append(&self.path)?);
        }
        if let Some(h) = self.header.take() {
            self.write(&h)?;
        }
        self.write(&Line::Message {
            message: message.clone(),
        })
    }

    /// Records a compaction: `summary` replaces every message but the last
    /// `kept`.
    pub fn append_compaction(&mut self, summary: &Message, kept: usize) -> anyhow::Result<()> {
        if self.file.is_none() {
            self.file = Some(open_append(&self.path)?);
        }
        if let Some(h) = self.header.take() {
            self.write(&h)?;
        }
        self.write(&Line::Compaction {
            summary: summary.clone(),
            kept,
        })
    }

    /// Records an extension's `state_set`.
    pub fn append_state(
        &mut self,
        extension: &str,
        key: &str,
        value: &serde_json::Value,
    ) -> anyhow::Result<()> {
        self.append_line(&Line::State {
            extension: extension.to_owned(),
            key: key.to_owned(),
            value: value.clone(),
        })
    }

    /// Records a rewind of the conversation to before `checkpoint`'s prompt.
    pub fn append_rewind(&mut self, checkpoint: &str, undo: Option<&str>) -> anyhow::Result<()> {
        self.append_line(&Line::Rewind {
            checkpoint: checkpoint.to_owned(),
            undo: undo.map(str::to_owned),
        })
    }

    /// Writes the header if this is the first line, then `line`.
    fn append_line(&mut self, line: &Line) -> anyhow::Result<()> {
        if self.file.is_none() {
            self.file = Some(open_append(&self.path)?);
        }
        if let Some(h) = self.header.take() {
            self.write(&h)?;
        }
        self.write(line)
    }

    fn write(&mut self, line: &Line) -> anyhow::Result<()> {
        let mut buf = serde_json::to_vec(line)?;
        buf.push(b'\n');
        let path = &self.path;
        let file = self
            .file
            .as_mut()
            .with_context(|| format!("session {} is not open for writing", path.display()))?;
        // One write call per line: a kill can tear only this line.
        file.write_all(&buf)
            .and_then(|()| file.flush())
            .with_context(|| format!("cannot write session {}", path.display()))
    }
}

/// Opens (or creates, 0600) a session file for appending, takes its
/// writer lock, and ends a torn last line.
fn open_append(path: &Path) -> anyhow::Result<File> {
    if let Some(p) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        create_private_dirs(p)?;
    }
    let mut file = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("cannot open session {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => anyhow::bail!(
            "session {} is already open in another zot, and a session has one writer at a time; close that zot, or start this one with --session NEW_FILE for a new conversation or --no-session to save nothing",
            path.display()
        ),
        Err(TryLockError::Error(e)) => {
            return Err(e).with_context(|| format!("cannot lock session {}", path.display()))
        }
    }
    // A kill mid-write can leave a torn last line; end it so the next line
    // starts clean (the torn one is skipped on load).
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if let Some(last_at) = len.checked_sub(1) {
        let mut last = [0u8; 1];
        file.seek(SeekFrom::Start(last_at))?;
        file.read_exact(&mut last)?;
        if last != [b'\n'] {
            file.write_all(b"\n")?;
        }
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_torn_last_line_is_skipped_and_appending_continues_cleanly() {
        let home = tempfile::tempdir().unwrap();
        let mut s = Session::create(home.path(), Path::new("/proj")).unwrap();
        s.append(&Message::user_text("one")).unwrap();
        let path = s.path().to_path_buf();
        drop(s);
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(br#"{"type":"message","message":{"role":"user","cont"#)
            .unwrap();
        drop(f);
        assert_eq!(load(&path).unwrap(), vec![Message::user_text("one")]);
        let mut s = Session::open(&path).unwrap();
        s.append(&Message::user_text("two")).unwrap();
        assert_eq!(
            load(&path).unwrap(),
            vec![Message::user_text("one"), Message::user_text("two")]
        );
        assert_eq!(latest(home.path(), Path::new("/proj")), Some(path));
    }

    #[test]
    fn a_compaction_line_replaces_the_older_messages_on_load() {
        let home = tempfile::tempdir().unwrap();
        let mut s = Session::create(home.path(), Path::new("/proj")).unwrap();
        for t in ["one", "two", "three"] {
            s.append(&Message::user_text(t)).unwrap();
        }
        s.append_compaction(&Message::user_text("sum"), 1).unwrap();
        s.append(&Message::user_text("four")).unwrap();
        let path = s.path().to_path_buf();
        assert_eq!(
            load(&path).unwrap(),
            vec![
                Message::user_text("sum"),
                Message::user_text("three"),
                Message::user_text("four")
            ]
        );
    }
}
