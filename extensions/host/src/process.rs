//! Starting an extension process and ending it for good. Each child leads
//! its own process group, so signals reach whatever it started too
//! (`npx tsx …`, shell pipelines); a guard kills the group if the host
//! forgets or panics.

use std::ffi::OsString;
use std::fs::OpenOptions;
use std::io;
use std::os::fd::OwnedFd;
use std::path::Path;
use std::process::{ExitStatus, Stdio};

use tokio::process::{Child, ChildStdout, Command};

/// A running extension process and its pipes.
pub struct Spawned {
    /// The child, for `wait`.
    pub child: Child,
    /// Its pid, which is also its process group id.
    pub pgid: i32,
    /// Write end of its stdin.
    pub stdin: OwnedFd,
    /// Read end of its stdout.
    pub stdout: ChildStdout,
    /// Kills the group on drop unless disarmed.
    pub guard: GroupGuard,
}

/// Spawns `exec args…` in `dir`, in a new process group, with stderr
/// appended to `log` and `envs` added to the inherited environment.
pub fn spawn(
    exec: &Path,
    args: &[String],
    dir: &Path,
    log: &Path,
    envs: &[(OsString, OsString)],
) -> io::Result<Spawned> {
    if let Some(parent) = log.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let stderr = OpenOptions::new().create(true).append(true).open(log)?;
    let mut child = Command::new(exec)
        .args(args)
        .envs(envs.iter().map(|(k, v)| (k, v)))
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(stderr))
        .process_group(0)
        .kill_on_drop(true)
        .spawn()?;
    let pgid = child.id().map(|p| p as i32).unwrap_or(0);
    let stdin = child
        .stdin
        .take()
        .ok_or_else(|| io::Error::other("no stdin pipe"))?
        .into_owned_fd()?;
    let stdout = child
        .stdout
        .take()
        .ok_or_else(|| io::Error::other("no stdout pipe"))?;
    Ok(Spawned {
        child,
        pgid,
        stdin,
        stdout,
        guard: GroupGuard { pgid, armed: true },
    })
}

/// Sends `sig` to every process in the group; errors (already gone) are
/// ignored because that is the outcome we want anyway.
pub fn signal_group(pgid: i32, sig: i32) {
    if pgid > 1 {
        // SAFETY: plain syscall; pgid > 1 so it never targets "all" or init.
        unsafe {
            libc::kill(-pgid, sig);
        }
    }
}

/// Whether any process of the group still exists (zombies included).
pub fn group_alive(pgid: i32) -> bool {
    // SAFETY: signal 0 only checks for existence.
    pgid > 1 && unsafe { libc::kill(-pgid, 0) } == 0
}

/// Kills what is left of the group and waits (at most `cap`) until the OS
/// reports it empty, so "shut down" means gone, not merely signalled.
pub async fn kill_group_and_wait(pgid: i32, cap: std::time::Duration) {
    signal_group(pgid, libc::SIGKILL);
    let deadline = tokio::time::Instant::now() + cap;
    while group_alive(pgid) && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
}

/// `status 3`, or `signal 9 (SIGKILL)`.
pub fn describe_status(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    if let Some(code) = status.code() {
        return format!("status {code}");
    }
    match status.signal() {
        Some(sig) => format!("signal {sig} ({})", signal_name(sig)),
        None => "unknown status".into(),
    }
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGTERM => "SIGTERM",
        _ => "signal",
    }
}

/// Kills the whole process group when dropped, so a dropped host or a
/// panicking supervisor leaves nothing running.
pub struct GroupGuard {
    /// The group.
    pgid: i32,
    /// Cleared once the group is known to be gone, so a recycled pgid is
    /// never signalled.
    armed: bool,
}

impl GroupGuard {
    /// The group it guards.
    pub fn pgid(&self) -> i32 {
        self.pgid
    }

    /// Stops guarding if the OS reports the group empty.
    pub fn disarm_if_gone(&mut self) {
        if !group_alive(self.pgid) {
            self.armed = false;
        }
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if self.armed {
            signal_group(self.pgid, libc::SIGKILL);
        }
    }
}
