//! The shallow `git clone` behind installing from a URL. git runs in its own
//! process group so a cancel can kill it together with its helpers
//! (`git-remote-https`, `index-pack`), and its `--progress` output is passed
//! on line by line.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use super::{Cancel, Progress};
use crate::manage::ext_ops::{OpsError, OpsResult};

/// How many of git's last stderr lines are kept for an error message.
const KEPT_LINES: usize = 20;

/// Clones `url` into the existing empty directory `into`.
pub(crate) fn shallow_clone(
    url: &str,
    into: &Path,
    cancel: &Cancel,
    progress: &mut dyn FnMut(Progress),
) -> OpsResult<()> {
    let mut command = Command::new("git");
    command
        // The `ext::` transport runs arbitrary commands; never allow it.
        .args(["-c", "protocol.ext.allow=never", "clone", "--depth", "1"])
        .args(["--progress", "--"])
        .arg(url)
        .arg(into)
        // A URL that needs credentials must fail, not wait on a prompt.
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command.spawn().map_err(|source| OpsError::GitMissing {
        url: url.to_string(),
        source,
    })?;
    let Some(stderr) = child.stderr.take() else {
        kill_group(&mut child);
        let _ = child.wait();
        return Err(OpsError::GitMissing {
            url: url.to_string(),
            source: std::io::Error::other("git's stderr was not piped"),
        });
    };
    let (lines_tx, lines_rx) = mpsc::channel();
    let reader = std::thread::spawn(move || split_lines(stderr, lines_tx));

    let mut kept: Vec<String> = Vec::new();
    let status = loop {
        match lines_rx.recv_timeout(Duration::from_millis(100)) {
            Ok(line) => {
                progress(Progress::Git(line.clone()));
                kept.push(line);
                if kept.len() > KEPT_LINES {
                    kept.remove(0);
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                // stderr closed; git is exiting. Wait below.
                if !cancel.is_cancelled() {
                    break child
                        .wait()
                        .map_err(OpsError::io("wait for git cloning", into))?;
                }
            }
        }
        if cancel.is_cancelled() {
            kill_group(&mut child);
            let _ = child.wait();
            let _ = reader.join();
            return Err(OpsError::Cancelled);
        }
        if let Some(status) = child
            .try_wait()
            .map_err(OpsError::io("wait for git cloning", into))?
        {
            break status;
        }
    };
    let _ = reader.join();
    // Lines that arrived between the last poll and the exit.
    kept.extend(lines_rx.try_iter());
    if status.success() {
        return Ok(());
    }
    Err(OpsError::CloneFailed {
        url: url.to_string(),
        status: crate::io::process::describe_status(status),
        detail: kept.join("\n"),
    })
}

fn kill_group(child: &mut std::process::Child) {
    // The group id is the child's pid (process_group(0)).
    #[cfg(unix)]
    if let Ok(pgid) = i32::try_from(child.id()) {
        crate::io::process::signal_group(pgid, libc::SIGKILL);
    }
    let _ = child.kill();
}

/// Splits git's stderr on `\n` and `\r` (progress redraws with `\r`).
fn split_lines(mut from: impl Read, to: mpsc::Sender<String>) {
    let mut buf = [0u8; 4096];
    let mut line = Vec::new();
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        for &byte in buf.get(..n).unwrap_or_default() {
            if byte == b'\n' || byte == b'\r' {
                if !line.is_empty() {
                    let text = String::from_utf8_lossy(&line).trim_end().to_string();
                    line.clear();
                    if to.send(text).is_err() {
                        return;
                    }
                }
            } else {
                line.push(byte);
            }
        }
    }
    if !line.is_empty() {
        let _ = to.send(String::from_utf8_lossy(&line).into_owned());
    }
}
