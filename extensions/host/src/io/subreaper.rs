//! Nothing outlives an unsandboxed extension, even what leaves its process
//! group. An extension may start a child that calls `setpgid` or `setsid`
//! (a monitor, a language server), then exit, crash or be shut down: the
//! group kill misses that child, and once its parent is gone the kernel
//! hands it to PID 1, so nothing of zot's could find it again.
//!
//! So each unsandboxed extension gets a keeper: between `fork` and `exec`,
//! the child zot spawned marks itself a child subreaper
//! (`PR_SET_CHILD_SUBREAPER`) and forks once more. The new process goes on
//! to `exec` the extension, in the extension's process group; the first
//! stays behind as the keeper. Every orphan among the extension's
//! descendants is re-parented to the keeper instead of PID 1. The keeper
//! leaves the extension's group (it joins zot's own), so the group kills of
//! shutdown, the guard and the reaper reach the extension but not the
//! keeper; it ignores the signals a terminal or a group send. When the
//! extension has exited, however it ended, the keeper SIGKILLs every child
//! it has (its adopted orphans), reaps them, repeats until it has none
//! (their own children are orphaned to it in turn), and exits with the
//! extension's status (the same code, or the same signal), which is what
//! zot's `wait` sees.
//!
//! The four ways an extension ends are covered: shutdown and reload (the
//! group is signalled; the extension exits; the keeper sweeps), a crash
//! (the extension exits by itself; the keeper sweeps), zot SIGKILLed (the
//! reaper kills the group; the keeper sweeps). Sandboxed extensions need
//! no keeper: their pid namespace ends with bwrap, and with it everything
//! they started. The keeper reads `/proc/thread-self/children` to find its
//! children; without `/proc` it can only wait for them.
//!
//! Like the reaper (`reaper.rs`), the keeper is a fork of a multi-threaded
//! process that never `exec`s: it calls only async-signal-safe syscalls and
//! allocates nothing.

use std::io;

/// Runs in the child of a spawn between `fork` and `exec` (a `pre_exec`
/// hook): returns `Ok` in the process that goes on to become the
/// extension; the keeper never returns. `zot_pgid` is zot's own process
/// group, which the keeper joins.
///
/// # Safety
/// Only in a `pre_exec` hook, after the process group is set.
pub unsafe fn split(zot_pgid: libc::pid_t) -> io::Result<()> {
    if libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0 {
        return Err(io::Error::last_os_error());
    }
    // A raw clone, not glibc's fork: no atfork handlers run in a child of
    // a multi-threaded process. The subreaper mark is not inherited.
    let pid = libc::syscall(
        libc::SYS_clone,
        libc::c_long::from(libc::SIGCHLD),
        0 as libc::c_long,
        0 as libc::c_long,
        0 as libc::c_long,
        0 as libc::c_long,
    );
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    if pid == 0 {
        return Ok(());
    }
    keeper_main(libc::pid_t::try_from(pid).unwrap_or(-1), zot_pgid)
}

/// The keeper's whole life. Only async-signal-safe calls, no allocation.
unsafe fn keeper_main(ext: libc::pid_t, zot_pgid: libc::pid_t) -> ! {
    // Out of the extension's group: its kills must not take the keeper
    // first. (If this fails the keeper may die with the group; the
    // extension is then killed too.)
    if zot_pgid > 1 {
        libc::setpgid(0, zot_pgid);
    }
    for sig in [
        libc::SIGHUP,
        libc::SIGINT,
        libc::SIGQUIT,
        libc::SIGTERM,
        libc::SIGPIPE,
        libc::SIGTSTP,
        libc::SIGTTIN,
        libc::SIGTTOU,
        libc::SIGUSR1,
        libc::SIGUSR2,
    ] {
        libc::signal(sig, libc::SIG_IGN);
    }
    // Hold none of the extension's pipes (zot must see end-of-file when
    // the extension is gone) nor the spawn's error pipe (zot's spawn waits
    // for it to close).
    if libc::syscall(libc::SYS_close_range, 0, libc::c_uint::MAX, 0) != 0 {
        for fd in 0..4096 {
            libc::close(fd);
        }
    }
    let mut ext_status: Option<libc::c_int> = None;
    loop {
        let mut st: libc::c_int = 0;
        let r = libc::waitpid(-1, &mut st, 0);
        if r < 0 {
            if *libc::__errno_location() == libc::EINTR {
                continue;
            }
            // ECHILD: the extension and every orphan are gone.
            break;
        }
        if r == ext {
            ext_status = Some(st);
        }
        if ext_status.is_some() {
            kill_children();
        }
    }
    exit_like(ext_status.unwrap_or(1 << 8))
}

/// SIGKILLs every child the keeper has now (the orphans it adopted).
unsafe fn kill_children() {
    let path = c"/proc/thread-self/children";
    let fd = libc::open(path.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
    if fd < 0 {
        return;
    }
    let mut buf = [0u8; 4096];
    let n = libc::read(fd, buf.as_mut_ptr().cast(), buf.len());
    libc::close(fd);
    let Ok(n) = usize::try_from(n) else {
        return;
    };
    // "pid pid pid ": a number counts once the space after it is read, so
    // one cut off by a full buffer is left for the next round.
    let mut pid: libc::pid_t = 0;
    for &b in buf.iter().take(n) {
        if b.is_ascii_digit() {
            pid = pid
                .saturating_mul(10)
                .saturating_add(libc::pid_t::from(b - b'0'));
        } else {
            if pid > 1 {
                libc::kill(pid, libc::SIGKILL);
            }
            pid = 0;
        }
    }
}

/// Exits as the extension did: its exit code, or death by its signal.
unsafe fn exit_like(st: libc::c_int) -> ! {
    if libc::WIFSIGNALED(st) {
        let sig = libc::WTERMSIG(st);
        libc::signal(sig, libc::SIG_DFL);
        let no_core = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        libc::setrlimit(libc::RLIMIT_CORE, &no_core);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, sig);
        libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        libc::kill(libc::getpid(), sig);
        libc::_exit(128 + sig);
    }
    libc::_exit(libc::WEXITSTATUS(st))
}

#[cfg(test)]
mod tests {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::process::Command;

    fn kept(cmd: &mut Command) -> &mut Command {
        // SAFETY: `split` is made for a pre_exec hook.
        let pgid = unsafe { libc::getpgid(0) };
        unsafe { cmd.process_group(0).pre_exec(move || super::split(pgid)) }
    }

    #[test]
    fn the_keeper_exits_with_the_extensions_code_or_signal() {
        let st = kept(Command::new("sh").args(["-c", "exit 7"]))
            .status()
            .unwrap();
        assert_eq!(st.code(), Some(7));
        let st = kept(Command::new("sh").args(["-c", "kill -9 $$"]))
            .status()
            .unwrap();
        assert_eq!(st.signal(), Some(9));
    }

    #[test]
    fn an_exec_that_fails_is_an_error_of_the_spawn() {
        let e = kept(&mut Command::new("/nonexistent/zot-test"))
            .spawn()
            .unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
    }
}
