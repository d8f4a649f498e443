//! Nothing zot starts outlives it, even when zot is SIGKILLed and none of
//! its own cleanup runs. Each extension (and each `bash` command) leads its
//! own process group, so a kill of zot reaches none of them, and
//! `PR_SET_PDEATHSIG` in the child would only cover the direct child and
//! fires when the forking *thread* exits (tokio's blocking pool retires
//! threads), so it is not used for them.
//!
//! Instead, at first use zot forks one small reaper process. zot holds the
//! only write end of a pipe (close-on-exec, so no extension inherits it);
//! it writes 4-byte records: a positive pgid to watch, its negation to
//! forget. The reaper reads them into a fixed table; when the read returns
//! end-of-file, zot is gone (however it died), and the reaper SIGKILLs every
//! watched group and exits. Between `fork` and `_exit` the reaper calls only
//! async-signal-safe syscalls (`close_range`/`close`, `read`, `kill`,
//! `setsid`, `sigaction`, `prctl`, `getppid`, `_exit`) and allocates
//! nothing, as a child of a multi-threaded process must.
//!
//! It also sets `PR_SET_PDEATHSIG` on itself, to a signal with an empty
//! handler: that interrupts a blocked `read`, and the reaper then asks
//! `getppid` whether zot is really gone (a retired thread fires it too),
//! a second way to notice zot's death besides end-of-file.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::OnceLock;

/// How many groups the reaper can watch at once (extensions plus running
/// `bash` commands); more are not watched (the write still succeeds).
const TABLE: usize = 4096;

/// The write end of the reaper's pipe; `None` if it could not be started.
static REAPER: OnceLock<Option<OwnedFd>> = OnceLock::new();

/// Watches process group `pgid`: it is SIGKILLed if zot dies before
/// [`forget_group`] is called for it. Best effort: when the reaper could not
/// start, the error says so and the caller carries on.
pub fn watch_group(pgid: i32) -> io::Result<()> {
    if pgid <= 1 {
        return Ok(());
    }
    send(pgid)
}

/// Stops watching `pgid` (its group is gone, so its id may be reused).
pub fn forget_group(pgid: i32) -> io::Result<()> {
    if pgid <= 1 {
        return Ok(());
    }
    send(-pgid)
}

/// The reaper's pid, for tests that check it is gone with zot.
pub fn reaper_pid() -> Option<i32> {
    started()?;
    REAPER_PID.get().copied()
}

static REAPER_PID: OnceLock<i32> = OnceLock::new();

fn started() -> Option<&'static OwnedFd> {
    REAPER.get_or_init(|| start().ok()).as_ref()
}

fn send(record: i32) -> io::Result<()> {
    let fd = started().ok_or_else(|| io::Error::other("the process reaper is not running"))?;
    let bytes = record.to_ne_bytes();
    loop {
        // SAFETY: `fd` is open for the life of the process; 4 bytes is below
        // PIPE_BUF, so the write is atomic and records never interleave.
        let n = unsafe { libc::write(fd.as_raw_fd(), bytes.as_ptr().cast(), bytes.len()) };
        if n == 4 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if n < 0 && e.kind() == io::ErrorKind::Interrupted {
            continue;
        }
        return Err(if n < 0 {
            e
        } else {
            io::Error::other("short write to the process reaper")
        });
    }
}

/// Forks the reaper; returns the write end of its pipe.
fn start() -> io::Result<OwnedFd> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let [read_end, write_end] = fds;
    // SAFETY: getpid has no preconditions.
    let parent = unsafe { libc::getpid() };
    // SAFETY: the child runs only `reaper_main`, which uses async-signal-safe
    // syscalls and never returns.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        let e = io::Error::last_os_error();
        // SAFETY: both descriptors are ours and open.
        unsafe {
            libc::close(read_end);
            libc::close(write_end);
        }
        return Err(e);
    }
    if pid == 0 {
        // SAFETY: we are the freshly forked child.
        unsafe { reaper_main(read_end, parent) }
    }
    let _ = REAPER_PID.set(pid);
    // SAFETY: the read end is the reaper's; ours is closed once.
    unsafe {
        libc::close(read_end);
    }
    // SAFETY: `write_end` is open and owned by nobody else.
    Ok(unsafe { OwnedFd::from_raw_fd(write_end) })
}

extern "C" fn wake(_: libc::c_int) {}

/// The reaper's whole life. Only async-signal-safe calls, no allocation.
///
/// # Safety
/// Call only in the child right after `fork`.
unsafe fn reaper_main(fd: libc::c_int, parent: libc::pid_t) -> ! {
    // Out of zot's session and process group: a terminal's Ctrl-C or a
    // signal to zot's group must not take the reaper down before zot.
    libc::setsid();
    // Hold nothing of zot's but the pipe: an inherited pipe end would keep
    // an extension's stdin open after zot closed it.
    close_all_but(fd);
    let mut sa: libc::sigaction = std::mem::zeroed();
    sa.sa_sigaction = wake as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // No SA_RESTART: the signal must interrupt `read`.
    sa.sa_flags = 0;
    libc::sigemptyset(&mut sa.sa_mask);
    libc::sigaction(libc::SIGUSR1, &sa, std::ptr::null_mut());
    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGUSR1, 0, 0, 0);
    let mut table = [0 as libc::pid_t; TABLE];
    let mut buf = [0u8; 4];
    let mut have = 0usize;
    // zot may already have died between fork and prctl.
    while libc::getppid() == parent {
        let Some(room) = buf.get_mut(have..) else {
            break;
        };
        let n = libc::read(fd, room.as_mut_ptr().cast(), room.len());
        if n == 0 {
            break;
        }
        if n < 0 {
            if *libc::__errno_location() == libc::EINTR {
                continue;
            }
            break;
        }
        have = have.saturating_add(n.unsigned_abs());
        if have < 4 {
            continue;
        }
        have = 0;
        record(&mut table, libc::pid_t::from_ne_bytes(buf));
    }
    for &pgid in &table {
        if pgid > 1 {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
    libc::_exit(0)
}

/// Applies one record to the table.
fn record(table: &mut [libc::pid_t; TABLE], rec: libc::pid_t) {
    if rec > 1 {
        if let Some(slot) = table.iter_mut().find(|s| **s == 0) {
            *slot = rec;
        }
    } else if let Some(pgid) = rec.checked_neg().filter(|p| *p > 1) {
        if let Some(slot) = table.iter_mut().find(|s| **s == pgid) {
            *slot = 0;
        }
    }
}

/// Closes every descriptor but `keep`.
///
/// # Safety
/// Only in the reaper child: it closes descriptors other code may own.
unsafe fn close_all_but(keep: libc::c_int) {
    let keep = libc::c_uint::try_from(keep).unwrap_or(0);
    let ok = |r: libc::c_long| r == 0;
    let below = keep == 0 || ok(libc::syscall(libc::SYS_close_range, 0, keep - 1, 0));
    let above = ok(libc::syscall(
        libc::SYS_close_range,
        keep + 1,
        libc::c_uint::MAX,
        0,
    ));
    if !(below && above) {
        // An old kernel without close_range: close what a process
        // normally has.
        for i in 0..4096 {
            if libc::c_uint::try_from(i).ok() != Some(keep) {
                libc::close(i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_add_and_remove_groups() {
        let mut t = [0; TABLE];
        record(&mut t, 42);
        record(&mut t, 43);
        record(&mut t, -42);
        record(&mut t, -1);
        record(&mut t, 0);
        assert_eq!(t.iter().filter(|p| **p != 0).collect::<Vec<_>>(), [&43]);
    }
}
