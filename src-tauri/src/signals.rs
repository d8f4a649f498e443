//! SIGINT, SIGTERM and SIGHUP end zot the way a clean exit does, in every
//! mode: the front end stops serving, the backend shuts its extensions
//! down (`shutdown`, grace, SIGTERM, SIGKILL over each process group), and
//! only then does the process exit. Without this a terminal's Ctrl-C, a
//! service manager's stop or a closed terminal killed zot at once and left
//! every extension and its children running.
//!
//! The handlers are installed before the backend starts, so no signal can
//! fall into the gap where extensions run but nothing would stop them.

/// The signals zot treats as "please exit".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Ctrl-C in a terminal.
    Interrupt,
    /// `kill`, a service manager, a desktop session ending.
    Terminate,
    /// The terminal went away.
    Hangup,
}

impl Stop {
    /// The signal's number.
    pub fn signo(self) -> i32 {
        match self {
            Stop::Interrupt => libc::SIGINT,
            Stop::Terminate => libc::SIGTERM,
            Stop::Hangup => libc::SIGHUP,
        }
    }

    /// The signal's name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Stop::Interrupt => "SIGINT",
            Stop::Terminate => "SIGTERM",
            Stop::Hangup => "SIGHUP",
        }
    }

    /// The exit code a shell expects of a process ended by this signal
    /// (128 + its number), so callers can tell it from a normal exit.
    pub fn exit_code(self) -> i32 {
        128 + self.signo()
    }
}

/// Installed handlers for the three signals; dropping it does not restore
/// the default action (tokio keeps its handler for the process's life), so
/// install it only in a process that will honour the signals.
#[cfg(unix)]
pub struct Signals {
    /// SIGINT.
    int: tokio::signal::unix::Signal,
    /// SIGTERM.
    term: tokio::signal::unix::Signal,
    /// SIGHUP.
    hup: tokio::signal::unix::Signal,
}

#[cfg(unix)]
impl Signals {
    /// Installs the handlers; needs a tokio runtime with signals enabled.
    pub fn install() -> std::io::Result<Signals> {
        use tokio::signal::unix::{signal, SignalKind};
        Ok(Signals {
            int: signal(SignalKind::interrupt())?,
            term: signal(SignalKind::terminate())?,
            hup: signal(SignalKind::hangup())?,
        })
    }

    /// Waits for the next of the three signals.
    pub async fn recv(&mut self) -> Stop {
        tokio::select! {
            Some(()) = self.int.recv() => Stop::Interrupt,
            Some(()) = self.term.recv() => Stop::Terminate,
            Some(()) = self.hup.recv() => Stop::Hangup,
            // The streams never end while the runtime lives.
            else => std::future::pending().await,
        }
    }
}

/// Ctrl-C only, where there are no Unix signals.
#[cfg(not(unix))]
pub struct Signals;

#[cfg(not(unix))]
impl Signals {
    /// Installs nothing; [`Signals::recv`] listens for Ctrl-C.
    pub fn install() -> std::io::Result<Signals> {
        Ok(Signals)
    }

    /// Waits for Ctrl-C.
    pub async fn recv(&mut self) -> Stop {
        match tokio::signal::ctrl_c().await {
            Ok(()) => Stop::Interrupt,
            Err(_) => std::future::pending().await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_the_shell_convention() {
        assert_eq!(Stop::Interrupt.exit_code(), 130);
        assert_eq!(Stop::Terminate.exit_code(), 143);
        assert_eq!(Stop::Hangup.exit_code(), 129);
    }
}
