//! The two pipes: frames out on the real stdout, lines in from stdin.
//!
//! stdout carries frames only. A stray `println!` in a handler (or in a
//! dependency) would corrupt the stream, so on Unix the SDK keeps a private
//! duplicate of the original stdout for frames and points fd 1 at stderr:
//! anything else printed lands in the extension's log instead of the wire.

use std::io::{self, BufRead, Write};
use std::sync::Mutex;

use zot_ext_protocol::ExtToHost;

/// Writes whole frames, one line each, never interleaved.
pub(crate) struct Writer {
    /// The original stdout; a lock per frame keeps lines whole across threads.
    out: Mutex<Box<dyn Write + Send>>,
}

impl Writer {
    /// Takes over stdout for frames and redirects fd 1 to stderr.
    pub(crate) fn take_stdout() -> io::Result<Self> {
        Ok(Writer {
            out: Mutex::new(frames_fd()?),
        })
    }

    /// Serialises and writes one frame, then flushes so zot sees it now.
    pub(crate) fn send(&self, frame: &ExtToHost) -> io::Result<()> {
        let mut line = serde_json::to_vec(frame).map_err(io::Error::other)?;
        line.push(b'\n');
        // A poisoned lock only means another thread panicked mid-write of a
        // whole buffer; the sink itself is still usable.
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        out.write_all(&line)?;
        out.flush()
    }
}

#[cfg(unix)]
fn frames_fd() -> io::Result<Box<dyn Write + Send>> {
    use std::fs::File;
    use std::os::fd::FromRawFd;
    // SAFETY: dup/dup2 on the process's own standard descriptors; the
    // duplicate is owned by the File from here on.
    unsafe {
        let fd = libc::dup(1);
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        if libc::dup2(2, 1) < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Box::new(File::from_raw_fd(fd)))
    }
}

#[cfg(not(unix))]
fn frames_fd() -> io::Result<Box<dyn Write + Send>> {
    // Without dup2 there is no redirect: authors must keep println! out of
    // handlers (the guide says so).
    Ok(Box::new(io::stdout()))
}

/// Reads one raw line (without the newline) into `buf`; `Ok(false)` at end
/// of stream. Raw bytes, because invalid UTF-8 is a bad frame to report, not
/// a reason to stop reading.
pub(crate) fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<bool> {
    buf.clear();
    if input.read_until(b'\n', buf)? == 0 {
        return Ok(false);
    }
    while matches!(buf.last(), Some(b'\n' | b'\r')) {
        buf.pop();
    }
    Ok(true)
}

/// Logs to stderr, which zot appends to the extension's log file.
pub(crate) fn log(name: &str, msg: impl std::fmt::Display) {
    let _ = writeln!(io::stderr().lock(), "[{name}] {msg}");
}
