//! Descriptors handed to bwrap and slirp4netns: bwrap reads its options,
//! its seccomp filters and the sandbox's `resolv.conf` from descriptors
//! (so nothing of them shows in `/proc/<bwrap>/cmdline`), and reports the
//! sandbox's pid and waits for its network through pipes. Each is made
//! close-on-exec in zot, so no other child inherits it, and is opened up
//! only in the one child that needs it, between `fork` and `exec`.

use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::time::{Duration, Instant};

/// A sealed-off in-memory file holding `bytes`, positioned at its start.
pub fn memfd(name: &str, bytes: &[u8]) -> io::Result<OwnedFd> {
    let cname = std::ffi::CString::new(name).map_err(io::Error::other)?;
    // SAFETY: `cname` is a valid C string; the flags are plain bits.
    let fd = unsafe { libc::memfd_create(cname.as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just opened and is owned by nobody else.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    let mut file = std::fs::File::from(fd);
    file.write_all(bytes)?;
    std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(0))?;
    Ok(file.into())
}

/// A close-on-exec pipe: (read end, write end).
pub fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both were just opened and are owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Lets the child inherit `fds` across `exec`. Only between `fork` and
/// `exec` (it calls nothing but `fcntl`, which is async-signal-safe).
pub fn inherit(fds: &[RawFd]) -> io::Result<()> {
    for &fd in fds {
        // SAFETY: plain fcntl on a descriptor the parent keeps open.
        if unsafe { libc::fcntl(fd, libc::F_SETFD, 0) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Everything `fd` yields until end-of-file, waiting at most `timeout` in
/// all; at most `cap` bytes are kept.
pub fn read_to_end(fd: &OwnedFd, timeout: Duration, cap: usize) -> io::Result<Vec<u8>> {
    let deadline = Instant::now() + timeout;
    let mut out = Vec::new();
    let mut file = std::fs::File::from(fd.try_clone()?);
    let mut buf = [0u8; 512];
    loop {
        wait_readable(fd.as_raw_fd(), deadline)?;
        let n = match file.read(&mut buf) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if n == 0 {
            return Ok(out);
        }
        let room = cap.saturating_sub(out.len());
        out.extend_from_slice(buf.get(..n.min(room)).unwrap_or_default());
    }
}

/// Waits until `fd` is readable (data or end-of-file) or `deadline`.
fn wait_readable(fd: RawFd, deadline: Instant) -> io::Result<()> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::new(io::ErrorKind::TimedOut, "timed out"));
        }
        let ms = libc::c_int::try_from(left.as_millis())
            .unwrap_or(libc::c_int::MAX)
            .max(1);
        let mut p = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd.
        let r = unsafe { libc::poll(&mut p, 1, ms) };
        if r > 0 {
            return Ok(());
        }
        if r < 0 {
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_memfd_reads_back_from_its_start_and_a_pipe_reads_to_its_end() {
        let fd = memfd("t", b"abc").unwrap();
        let got = read_to_end(&fd, Duration::from_secs(5), 10).unwrap();
        assert_eq!(got, b"abc");
        let (r, w) = pipe().unwrap();
        std::fs::File::from(w).write_all(b"0123456789").unwrap();
        assert_eq!(read_to_end(&r, Duration::from_secs(5), 4).unwrap(), b"0123");
    }

    #[test]
    fn a_pipe_nobody_closes_times_out() {
        let (r, _w) = pipe().unwrap();
        let e = read_to_end(&r, Duration::from_millis(20), 10).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
    }
}
