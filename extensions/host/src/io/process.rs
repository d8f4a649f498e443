//! Starting an extension process and ending it for good. Each child leads
//! its own process group, so signals reach whatever it started too
//! (`npx tsx …`, shell pipelines); a guard kills the group if the host
//! forgets or panics. What leaves the group is swept by the extension's
//! keeper (`subreaper.rs`) or ends with its sandbox's pid namespace.

use std::io;
use std::os::fd::OwnedFd;
use std::process::{ExitStatus, Stdio};

use tokio::process::{Child, ChildStderr, ChildStdout, Command};

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
    /// Read end of its stderr, for the log pump (`ext_log::pump_stderr`).
    pub stderr: ChildStderr,
    /// Kills the group on drop unless disarmed.
    pub guard: GroupGuard,
}

/// Spawns `cmd` (what `launch::prepare` built), with its standard streams
/// piped (the host copies stderr into the rotating log), and registers its
/// group with the reaper before anything can fail. `passed` are the
/// descriptors the child inherits, closed here right after the spawn;
/// `kept` says zot's child is the extension's keeper (`subreaper.rs`).
pub fn spawn(
    cmd: std::process::Command,
    passed: Vec<std::os::fd::OwnedFd>,
    kept: bool,
) -> io::Result<Spawned> {
    let mut cmd = Command::from(cmd);
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // A keeper (subreaper.rs) must outlive the extension to sweep what
        // it left, so it is never killed directly; the guard kills the
        // extension's group.
        .kill_on_drop(!kept);
    let spawned = cmd.spawn();
    drop(passed);
    let mut child = spawned?;
    let pgid = child.id().and_then(|p| i32::try_from(p).ok()).unwrap_or(0);
    // Registered before anything can fail, so even a zot SIGKILLed right
    // now takes this group with it (see `reaper.rs`).
    let _ = crate::io::reaper::watch_group(pgid);
    let guard = GroupGuard { pgid, armed: true };
    let stdin = child
        .stdin
        .take()
        .ok_or_else(|| io::Error::other("no stdin pipe"))?
        .into_owned_fd()?;
    let stdout = child
        .stdout
        .take()
        .ok_or_else(|| io::Error::other("no stdout pipe"))?;
    let stderr = child
        .stderr
        .take()
        .ok_or_else(|| io::Error::other("no stderr pipe"))?;
    Ok(Spawned {
        child,
        pgid,
        stdin,
        stdout,
        stderr,
        guard,
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

/// Whether any process of the group is still running. A zombie does not
/// count: it has exited and holds nothing but its pid until its parent
/// reaps it, and that parent may never do so. A sandboxed extension's inner
/// `bwrap` is orphaned when the extension exits and adopted by PID 1,
/// which in a container or a microVM is often not an init that reaps:
/// counted, that zombie made every stop of a sandboxed extension wait out
/// the whole cap (1 s per project switch here). Without /proc, any
/// member counts, as `kill(-pgid, 0)` says.
pub fn group_alive(pgid: i32) -> bool {
    // SAFETY: signal 0 only checks for existence.
    if pgid <= 1 || unsafe { libc::kill(-pgid, 0) } != 0 {
        return false;
    }
    match crate::io::proc_stat::processes() {
        Some(mut all) => all.any(|p| p.pgrp == pgid && !p.exited()),
        None => true,
    }
}

/// Kills what is left of the group and waits (at most `cap`) until nothing
/// of it runs, so "shut down" means gone, not merely signalled. The wait
/// doubles from 2 ms to at most 32 ms: each look at a group with members
/// left reads the process table.
pub async fn kill_group_and_wait(pgid: i32, cap: std::time::Duration) {
    signal_group(pgid, libc::SIGKILL);
    let deadline = tokio::time::Instant::now() + cap;
    let mut wait = std::time::Duration::from_millis(2);
    while group_alive(pgid) && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(std::time::Duration::from_millis(32));
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
        if self.armed && !group_alive(self.pgid) {
            self.armed = false;
            let _ = crate::io::reaper::forget_group(self.pgid);
        }
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if self.armed {
            signal_group(self.pgid, libc::SIGKILL);
            // SIGKILL cannot be caught: the group is on its way out, and
            // its id must not be killed again once reused.
            let _ = crate::io::reaper::forget_group(self.pgid);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::time::Duration;

    /// A child of this test leading a group of its own, and its pid.
    fn child_in_own_group(secs: &str) -> (std::process::Child, i32) {
        let child = std::process::Command::new("sleep")
            .arg(secs)
            .process_group(0)
            .spawn()
            .expect("sleep");
        let pid = i32::try_from(child.id()).expect("pid");
        (child, pid)
    }

    /// Waits (boundedly) until `pid` has exited but is not yet reaped.
    fn until_zombie(pid: i32) -> bool {
        (0..1000).any(|_| {
            let zombie = crate::io::proc_stat::processes()
                .is_some_and(|mut all| all.any(|p| p.pid == pid && p.exited()));
            if !zombie {
                std::thread::sleep(Duration::from_millis(5));
            }
            zombie
        })
    }

    #[test]
    fn a_group_with_a_running_member_is_alive_and_a_reaped_one_is_not() {
        let (mut child, pgid) = child_in_own_group("30");
        assert!(group_alive(pgid));
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(!group_alive(pgid));
    }

    #[test]
    fn a_group_left_with_only_a_zombie_is_not_alive() {
        if crate::io::proc_stat::processes().is_none() {
            return; // no /proc: zombies count, as kill(2) says
        }
        // Not reaped until the end: the zombie an init that never reaps
        // leaves behind. kill(2) still finds its group.
        let (mut child, pgid) = child_in_own_group("0");
        assert!(until_zombie(pgid), "sleep 0 did not exit");
        // SAFETY: signal 0 only checks for existence.
        assert_eq!(unsafe { libc::kill(-pgid, 0) }, 0);
        assert!(!group_alive(pgid));
        child.wait().unwrap();
    }

    /// Paused time: a wait that ran to its cap would end a full `cap` of
    /// virtual time later, whatever the machine's speed.
    #[tokio::test(start_paused = true)]
    async fn killing_a_group_left_with_only_a_zombie_does_not_wait_out_the_cap() {
        if crate::io::proc_stat::processes().is_none() {
            return;
        }
        let (mut child, pgid) = child_in_own_group("0");
        assert!(until_zombie(pgid), "sleep 0 did not exit");
        let cap = Duration::from_secs(1);
        let t0 = tokio::time::Instant::now();
        kill_group_and_wait(pgid, cap).await;
        assert!(t0.elapsed() < cap, "waited {:?}", t0.elapsed());
        child.wait().unwrap();
    }
}
