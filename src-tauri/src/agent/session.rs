//! Sessions: one append-only JSONL file per conversation under
//! `$ZOT_HOME/sessions/<cwd key>/`. Each message is one line written as it
//! completes, so a kill at any moment loses at most the message in flight;
//! a torn last line is skipped on load.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};

use super::transcript::{self, Message};

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
/// line (a kill mid-write) is skipped, and dangling tool calls are answered.
pub fn load(path: &Path) -> anyhow::Result<Vec<Message>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read session {}", path.display()))?;
    let mut out = Vec::new();
    for line in text.lines() {
        if let Ok(Line::Message { message }) = serde_json::from_str::<Line>(line) {
            out.push(message);
        }
    }
    transcript::repair(&mut out);
    Ok(out)
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

/// Opens the chosen session: the messages to resume and where to append.
pub fn choose(
    choice: &SessionChoice,
    zot_home: &Path,
    cwd: &Path,
) -> anyhow::Result<(Vec<Message>, Option<Session>)> {
    match choice {
        SessionChoice::Disabled => Ok((Vec::new(), None)),
        SessionChoice::New => Ok((Vec::new(), Some(Session::create(zot_home, cwd)?))),
        SessionChoice::Continue => match latest(zot_home, cwd) {
            Some(p) => Ok((load(&p)?, Some(Session::open(&p)?))),
            None => Ok((Vec::new(), Some(Session::create(zot_home, cwd)?))),
        },
        SessionChoice::File(p) => {
            if p.exists() {
                Ok((load(p)?, Some(Session::open(p)?)))
            } else {
                Ok((Vec::new(), Some(Session::fresh(p.clone(), cwd))))
            }
        }
    }
}

impl Session {
    /// Starts a new session file for the project.
    pub fn create(zot_home: &Path, cwd: &Path) -> anyhow::Result<Session> {
        let d = dir(zot_home, cwd);
        std::fs::create_dir_all(&d)
            .with_context(|| format!("cannot create session directory {}", d.display()))?;
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

    fn write(&mut self, line: &Line) -> anyhow::Result<()> {
        let mut buf = serde_json::to_vec(line)?;
        buf.push(b'\n');
        let file = self.file.as_mut().expect("opened before writing");
        // One write call per line: a kill can tear only this line.
        file.write_all(&buf)
            .with_context(|| format!("cannot write session {}", self.path.display()))
    }
}

/// Opens (or creates) a session file for appending, ending a torn last line.
fn open_append(path: &Path) -> anyhow::Result<File> {
    {
        if let Some(p) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(p).with_context(|| format!("cannot create {}", p.display()))?;
        }
    }
    let mut file = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open session {}", path.display()))?;
    // A kill mid-write can leave a torn last line; end it so the next line
    // starts clean (the torn one is skipped on load).
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if len > 0 {
        let mut last = [0u8; 1];
        file.seek(SeekFrom::Start(len - 1))?;
        file.read_exact(&mut last)?;
        if last[0] != b'\n' {
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
}
