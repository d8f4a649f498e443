//! A real Secret Service for a test: a private `dbus-run-session` with a
//! `gnome-keyring-daemon` unlocked in it and a temp `XDG_DATA_HOME` for its
//! keyring files (packages dbus-daemon, gnome-keyring, libsecret-tools;
//! `make deps`), so tests exercise the OS keychain without touching the
//! machine's own.

use std::path::Path;
use std::process::Command;

/// The shell that starts the daemon and then runs `then`. The daemon
/// returns before it owns `org.freedesktop.secrets` on the bus; a request
/// in that gap makes D-Bus start a second daemon, which reads the first
/// one's half-written login keyring ("invalid or unrecognized format") and
/// answers nothing (seen under CI's load), so the script waits for the
/// name first (exit 91 after 10 s).
fn script(then: &str) -> String {
    format!(
        "printf %s zot-test-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit 90; \
         i=0; until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
         org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'; do \
         i=$((i+1)); [ $i -gt 200 ] && exit 91; sleep 0.05; done; {then}"
    )
}

/// `sh -c THEN` inside a fresh session with an unlocked keyring whose files
/// live in `data`; `ZOT_KEYCHAIN` is removed so zot uses it. Positional
/// arguments after the script are `args` (`"$@"` in `then`).
pub fn session(data: &Path, then: &str, args: &[&std::ffi::OsStr]) -> Command {
    let mut c = Command::new("dbus-run-session");
    c.args(["--", "sh", "-c", &script(then), "sh"])
        .args(args)
        .env("XDG_DATA_HOME", data)
        .env_remove("ZOT_KEYCHAIN");
    c
}
