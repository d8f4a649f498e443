//! One file per extension, `$ZOT_HOME/logs/ext-<name>.log`, holding both
//! the extension's stderr and the host's own lines about it (`[zot] …`), so
//! everything about one extension is in one place.
//!
//! Neither can fill the disk: the file rotates at [`ROTATE_BYTES`] (the old
//! one kept as `ext-<name>.log.1`, one generation). The child's stderr is a
//! pipe the host drains ([`pump_stderr`]), not the file itself, so a
//! rotation never leaves the child writing into a renamed file; host lines
//! are cut at [`MAX_LINE`] bytes and at most [`LINES_PER_SEC`] per second
//! are written, then one `suppressed K lines` line says what was dropped.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt};

/// A log file is rotated before it would pass this size.
pub const ROTATE_BYTES: u64 = 5 * 1024 * 1024;
/// Longest host line; longer ones are cut, on a character boundary.
pub const MAX_LINE: usize = 1024;
/// Host lines per second per extension before they are suppressed.
pub const LINES_PER_SEC: u32 = 50;

/// Appends host lines and stderr bytes to one extension's log.
#[derive(Debug)]
pub struct ExtLog {
    /// The log file.
    path: PathBuf,
    /// The open file and the throttle, under one lock so lines never
    /// interleave mid-line with each other.
    state: Mutex<LogState>,
}

#[derive(Debug, Default)]
struct LogState {
    /// Opened on first use, in append mode.
    file: Option<File>,
    /// Its size, to know when to rotate.
    size: u64,
    /// Start of the current one-second window of host lines.
    window: Option<Instant>,
    /// Host lines written in that window.
    in_window: u32,
    /// Host lines dropped since the last one written.
    suppressed: u64,
}

impl ExtLog {
    /// A log at `path`; nothing is created until the first write.
    pub fn new(path: PathBuf) -> Self {
        ExtLog {
            path,
            state: Mutex::new(LogState::default()),
        }
    }

    /// The log file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `[zot] msg` (cut and throttled). Failing to log is not worth
    /// failing anything else.
    pub fn line(&self, msg: &str) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let fresh = st
            .window
            .is_none_or(|w| now.duration_since(w) >= Duration::from_secs(1));
        if fresh {
            st.window = Some(now);
            st.in_window = 0;
        }
        if st.in_window >= LINES_PER_SEC {
            st.suppressed = st.suppressed.saturating_add(1);
            return;
        }
        st.in_window = st.in_window.saturating_add(1);
        if st.suppressed > 0 {
            let note = format!(
                "[zot] suppressed {} lines (more than {LINES_PER_SEC} a second)\n",
                st.suppressed
            );
            st.suppressed = 0;
            self.write(&mut st, note.as_bytes());
        }
        let text = format!("[zot] {}\n", cut(msg, MAX_LINE));
        self.write(&mut st, text.as_bytes());
    }

    /// Appends raw bytes (the extension's stderr) as they are.
    pub fn raw(&self, bytes: &[u8]) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        self.write(&mut st, bytes);
    }

    fn write(&self, st: &mut LogState, bytes: &[u8]) {
        let len = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        if st.file.is_some() && st.size.saturating_add(len) > ROTATE_BYTES {
            st.file = None;
            let _ = std::fs::rename(&self.path, rotated(&self.path));
        }
        if st.file.is_none() {
            if let Some(dir) = self.path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            st.file = private_append(&self.path).ok();
            st.size = st
                .file
                .as_ref()
                .and_then(|f| f.metadata().ok())
                .map_or(0, |m| m.len());
            // A file already over the cap (an older zot, another writer)
            // rotates now rather than after growing further.
            if st.size.saturating_add(len) > ROTATE_BYTES && st.size > 0 {
                st.file = None;
                let _ = std::fs::rename(&self.path, rotated(&self.path));
                st.file = private_append(&self.path).ok();
                st.size = 0;
            }
        }
        if let Some(f) = st.file.as_mut() {
            if f.write_all(bytes).is_ok() {
                st.size = st.size.saturating_add(len);
            }
        }
    }
}

/// `ext-<name>.log.1`, the one old generation kept.
pub fn rotated(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".1");
    PathBuf::from(s)
}

/// Copies an extension's stderr into its log until the pipe closes, a
/// bounded chunk at a time (a flood costs disk bandwidth, never memory).
pub async fn pump_stderr<R: AsyncRead + Unpin>(mut from: R, log: &ExtLog) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        match from.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => log.raw(buf.get(..n).unwrap_or_default()),
        }
    }
}

/// `msg` cut to at most `max` bytes on a character boundary, saying how
/// long it was.
fn cut(msg: &str, max: usize) -> std::borrow::Cow<'_, str> {
    if msg.len() <= max {
        return msg.into();
    }
    let mut end = max;
    while !msg.is_char_boundary(end) {
        end = end.saturating_sub(1);
    }
    let head = msg.get(..end).unwrap_or_default();
    format!("{head}… (cut; {} bytes)", msg.len()).into()
}

/// Opens a log for appending, creating it at mode 0600: logs quote
/// prompts and tool output, which are nobody else's business.
pub(crate) fn private_append(path: &Path) -> std::io::Result<File> {
    let mut o = OpenOptions::new();
    o.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    o.open(path)
}

/// Counts repeated trouble and says when it is worth a log line: the first
/// time, then at every power of ten.
#[derive(Debug, Default)]
pub struct Throttle(AtomicU64);

impl Throttle {
    /// Counts one more; `Some(total)` when this one should be logged.
    pub fn hit(&self) -> Option<u64> {
        let n = self.0.fetch_add(1, Ordering::Relaxed) + 1;
        let mut p = 1;
        while p < n {
            p *= 10;
        }
        (p == n).then_some(n)
    }

    /// Like [`Throttle::hit`], but the first `first` are all logged.
    pub fn hit_after(&self, first: u64) -> Option<u64> {
        let n = self.0.load(Ordering::Relaxed) + 1;
        if n <= first {
            self.0.fetch_add(1, Ordering::Relaxed);
            return Some(n);
        }
        self.hit()
    }
}

/// Log lines about refused `ui_request`s per extension per minute
/// (`dialogs.rs`); a flood of bad requests costs one more line, not one
/// each. Here, beside [`PerMinute`], so the extension record that holds the
/// cap does not import the dialogs it serves.
pub const REFUSED_LINES_PER_MINUTE: u32 = 10;

/// Caps one kind of host line per extension per minute: the first
/// `per_minute` in a minute are written, the next one says that more are
/// only counted, and the first one of a later minute says how many were.
/// Unlike [`Throttle`], a line an hour after a flood is logged again: the
/// cap is for floods, not for the author's next mistake.
#[derive(Debug)]
pub struct PerMinute {
    per_minute: u32,
    state: Mutex<MinuteState>,
}

#[derive(Debug, Default)]
struct MinuteState {
    /// Start of the current one-minute window.
    window: Option<Instant>,
    /// Lines let through in it.
    written: u32,
    /// Lines held back since the last one written.
    held: u64,
}

/// What [`PerMinute::admit`] says about one line.
#[derive(Debug, PartialEq, Eq)]
pub enum Admit {
    /// Write it; `held` lines before it were only counted.
    Write { held: u64 },
    /// Write it and say that the rest of this minute's are only counted.
    Last,
    /// Count it, write nothing.
    Hold,
}

impl PerMinute {
    /// At most `per_minute` lines a minute.
    pub const fn new(per_minute: u32) -> Self {
        PerMinute {
            per_minute,
            state: Mutex::new(MinuteState {
                window: None,
                written: 0,
                held: 0,
            }),
        }
    }

    /// One more line at `now` (a parameter so tests need no clock).
    pub fn admit(&self, now: Instant) -> Admit {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if st
            .window
            .is_none_or(|w| now.duration_since(w) >= Duration::from_secs(60))
        {
            st.window = Some(now);
            st.written = 0;
        }
        if st.written > self.per_minute {
            st.held = st.held.saturating_add(1);
            return Admit::Hold;
        }
        st.written += 1;
        if st.written > self.per_minute {
            return Admit::Last;
        }
        Admit::Write {
            held: std::mem::take(&mut st.held),
        }
    }
}

/// Shortens a line for a log message, on a character boundary.
pub fn excerpt(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes.get(..200).unwrap_or(bytes));
    if bytes.len() > 200 {
        format!("{text}… ({} bytes)", bytes.len())
    } else {
        text.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_on_a_character_boundary() {
        let s = "é".repeat(600);
        let c = cut(&s, MAX_LINE);
        assert!(c.starts_with(&"é".repeat(512)) && c.ends_with("(cut; 1200 bytes)"));
        assert_eq!(cut("short", MAX_LINE), "short");
    }

    #[test]
    fn per_minute_writes_the_first_says_so_once_then_counts_until_the_next_minute() {
        let cap = PerMinute::new(3);
        let t0 = Instant::now();
        let got: Vec<Admit> = (0..6).map(|_| cap.admit(t0)).collect();
        assert_eq!(
            got,
            [
                Admit::Write { held: 0 },
                Admit::Write { held: 0 },
                Admit::Write { held: 0 },
                Admit::Last,
                Admit::Hold,
                Admit::Hold
            ]
        );
        // Still the same minute.
        assert_eq!(cap.admit(t0 + Duration::from_secs(59)), Admit::Hold);
        // A new minute: written again, saying how many were only counted.
        let t1 = t0 + Duration::from_secs(60);
        assert_eq!(cap.admit(t1), Admit::Write { held: 3 });
        assert_eq!(cap.admit(t1), Admit::Write { held: 0 });
    }

    #[test]
    fn throttle_logs_first_and_powers_of_ten() {
        let t = Throttle::default();
        let logged: Vec<u64> = (0..1000).filter_map(|_| t.hit()).collect();
        assert_eq!(logged, vec![1, 10, 100, 1000]);
    }
}
