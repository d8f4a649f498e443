//! `"net": true` means the network, not the desktop. A networked sandbox
//! still gets a network namespace of its own, so the host's abstract Unix
//! sockets (the D-Bus session bus, X11) and its loopback services are out
//! of reach; slirp4netns (Debian package `slirp4netns`) gives that
//! namespace outbound-only user-mode networking: a `tap0` at 10.0.2.100
//! behind a gateway at 10.0.2.2 that makes ordinary connections from
//! zot's side, DNS at 10.0.2.3 (the sandbox's `/etc/resolv.conf` says so),
//! no port forwarded in, and `--disable-host-loopback`, so 10.0.2.2 does
//! not lead to the host's 127.0.0.1.
//!
//! The steps of one start: bwrap writes the sandbox's pid to `--info-fd`
//! and waits on `--block-fd` before it runs the extension; once the
//! sandbox's loopback is up, zot starts slirp4netns on that pid, waits for its `--ready-fd`, then releases the
//! block. slirp4netns exits when its `--exit-fd` reports the other end
//! closed: that end is bwrap's `--sync-fd`, held by bwrap for as long as
//! the sandbox runs (not by the extension), so the network ends with the
//! sandbox however it ends. Without slirp4netns a networked sandbox does
//! not start: it never falls back to the host's network.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use super::fds;

/// Environment variable naming the slirp4netns binary (a path, or a name
/// looked up on `PATH`); `slirp4netns` when unset. Also
/// `HostConfig::slirp4netns`.
pub const SLIRP_ENV: &str = "ZOT_SLIRP4NETNS";

/// The sandbox's `/etc/resolv.conf`: slirp4netns's DNS forwarder (the
/// host's own file may name a loopback resolver the sandbox cannot reach).
pub const RESOLV_CONF: &str = "nameserver 10.0.2.3\n";

/// How long the steps of one start may take before it fails.
const STEP_TIMEOUT: Duration = Duration::from_secs(10);

/// The slirp4netns zot uses unless the host config says otherwise.
pub fn default_slirp4netns() -> PathBuf {
    std::env::var_os(SLIRP_ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("slirp4netns"))
}

/// Finds slirp4netns, or says how to install it.
pub fn find(slirp: &Path) -> Result<PathBuf, String> {
    super::find(slirp).ok_or_else(|| {
        if slirp.components().count() > 1 {
            format!(
                "its manifest asks for a sandbox with \"net\": true, and slirp4netns {} (from ${SLIRP_ENV}) does not exist; install slirp4netns (sudo apt install slirp4netns) or fix ${SLIRP_ENV}; zot never gives a sandbox the host's own network",
                slirp.display()
            )
        } else {
            format!(
                "its manifest asks for a sandbox with \"net\": true, which needs slirp4netns for the sandbox's own network, and '{}' is not on PATH; install it: sudo apt install slirp4netns (Fedora: sudo dnf install slirp4netns), or set ${SLIRP_ENV} to its path; zot never gives a sandbox the host's own network",
                slirp.display()
            )
        }
    })
}

/// The pipe ends bwrap inherits for one networked start.
pub struct Passed {
    info: OwnedFd,
    block: OwnedFd,
    sync: OwnedFd,
}

impl Passed {
    /// bwrap's options for them.
    pub fn args(&self) -> Vec<OsString> {
        let mut out = Vec::new();
        for (flag, fd) in [
            ("--info-fd", &self.info),
            ("--block-fd", &self.block),
            ("--sync-fd", &self.sync),
        ] {
            out.push(flag.into());
            out.push(fd.as_raw_fd().to_string().into());
        }
        out
    }

    /// The descriptors, for the child to inherit.
    pub fn into_fds(self) -> [OwnedFd; 3] {
        [self.info, self.block, self.sync]
    }
}

/// The ends zot keeps until the network is up.
pub struct Pending {
    slirp: PathBuf,
    info: OwnedFd,
    block: OwnedFd,
    exit: OwnedFd,
}

/// Pipes for one networked start of bwrap, whose slirp4netns is `slirp`
/// (found with [`find`]).
pub fn pipes(slirp: PathBuf) -> io::Result<(Pending, Passed)> {
    let (info_r, info_w) = fds::pipe()?;
    let (block_r, block_w) = fds::pipe()?;
    let (exit_r, sync_w) = fds::pipe()?;
    Ok((
        Pending {
            slirp,
            info: info_r,
            block: block_w,
            exit: exit_r,
        },
        Passed {
            info: info_w,
            block: block_r,
            sync: sync_w,
        },
    ))
}

impl Pending {
    /// After bwrap started (and zot closed its copies of the [`Passed`]
    /// ends): reads the sandbox's pid, starts slirp4netns in its network
    /// namespace, waits until it is up and lets the sandbox go on.
    /// Blocking, each step bounded. On an error the caller kills bwrap.
    pub fn finish(self) -> Result<(), String> {
        let info = fds::read_to_end(&self.info, STEP_TIMEOUT, 4096)
            .map_err(|e| format!("bwrap did not report the sandbox's pid: {e}"))?;
        let pid = serde_json::from_slice::<serde_json::Value>(&info)
            .ok()
            .and_then(|v| v.get("child-pid")?.as_i64())
            .filter(|p| *p > 1)
            .ok_or_else(|| {
                "bwrap ended before the sandbox existed (its log says why)".to_owned()
            })?;
        wait_for_loopback(pid)?;
        let (ready_r, ready_w) =
            fds::pipe().map_err(|e| format!("could not make a pipe for slirp4netns: {e}"))?;
        let (exit, ready) = (self.exit.as_raw_fd(), ready_w.as_raw_fd());
        let mut cmd = Command::new(&self.slirp);
        cmd.args([
            "--configure".to_owned(),
            "--mtu=65520".to_owned(),
            "--disable-host-loopback".to_owned(),
            format!("--exit-fd={exit}"),
            format!("--ready-fd={ready}"),
            pid.to_string(),
            "tap0".to_owned(),
        ])
        .env_clear()
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0);
        // SAFETY: `inherit` only calls fcntl, which is async-signal-safe.
        unsafe {
            cmd.pre_exec(move || fds::inherit(&[exit, ready]));
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("could not start {}: {e}", self.slirp.display()))?;
        drop(ready_w);
        drop(self.exit);
        let pgid = i32::try_from(child.id()).unwrap_or(0);
        let _ = crate::io::reaper::watch_group(pgid);
        let stderr = child.stderr.take();
        let said = fds::read_to_end(&ready_r, STEP_TIMEOUT, 16);
        // Its stderr is drained (a full pipe would stall it) and it is
        // reaped when it exits, by a thread of its own.
        let (tx, rx) = std::sync::mpsc::channel::<String>();
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut e) = stderr {
                let mut buf = [0u8; 1024];
                while let Ok(n) = e.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    if text.len() < 2048 {
                        text.push_str(&String::from_utf8_lossy(buf.get(..n).unwrap_or_default()));
                    }
                }
            }
            let _ = child.wait();
            let _ = crate::io::reaper::forget_group(pgid);
            let _ = tx.send(text);
        });
        match said {
            Ok(b) if b.starts_with(b"1") => {}
            other => {
                crate::io::process::signal_group(pgid, libc::SIGKILL);
                let text = rx.recv_timeout(Duration::from_secs(2)).unwrap_or_default();
                let why = match other {
                    Err(e) => e.to_string(),
                    Ok(_) => "it exited".to_owned(),
                };
                return Err(format!(
                    "slirp4netns could not give the sandbox its network ({why}): {}",
                    last_line(&text)
                ));
            }
        }
        let mut block = std::fs::File::from(self.block);
        block
            .write_all(b"1")
            .map_err(|e| format!("could not let the sandbox go on: {e}"))
    }
}

/// bwrap reports the sandbox's pid before the sandbox has set up its own
/// loopback, and slirp4netns's `--configure` brings `lo` up too: started
/// at once, the two raced and bwrap died ("loopback: Failed RTM_NEWADDR",
/// 2 starts in 12 here). The kernel adds the 127.0.0.0/8 route to the
/// namespace's local table only once `lo` has its address and is up, so
/// slirp4netns waits for that line.
fn wait_for_loopback(pid: i64) -> Result<(), String> {
    let table = PathBuf::from(format!("/proc/{pid}/net/fib_trie"));
    let until = std::time::Instant::now() + STEP_TIMEOUT;
    loop {
        match std::fs::read_to_string(&table) {
            Ok(text) if text.contains("/8 host LOCAL") => return Ok(()),
            Ok(_) => {}
            // A kernel without the table: nothing to wait on (the race stays
            // possible there, as before this wait).
            Err(_) if Path::new(&format!("/proc/{pid}")).exists() => return Ok(()),
            Err(_) => {
                return Err(
                    "bwrap ended before the sandbox's network existed (its log says why)"
                        .to_owned(),
                )
            }
        }
        if std::time::Instant::now() >= until {
            return Err(format!(
                "the sandbox did not set up its loopback within {} s",
                STEP_TIMEOUT.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn last_line(text: &str) -> String {
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("it said nothing")
        .trim()
        .to_owned()
}
