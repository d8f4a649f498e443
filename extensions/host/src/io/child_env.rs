//! What a process zot starts may inherit from zot's environment. zot holds
//! provider keys and RPC tokens; an extension (third-party code) or a shell
//! the model drives must never see them, or one `env` puts a key into a
//! transcript, a provider request and a session file. The rules live here,
//! once: the extension spawner and the `bash` tool drop the same names
//! ([`Scrub`]), a sandboxed extension receives only [`SANDBOX_ALLOW`], and
//! no manifest may set a loader variable ([`loader_var`]).

use std::ffi::{OsStr, OsString};
use std::sync::Mutex;

/// Variables holding zot's own credentials: never passed to a child.
pub const CREDENTIAL_VARS: &[&str] = &[
    "ANTHROPIC_API_KEY",
    "OPENAI_API_KEY",
    "KIMI_API_KEY",
    "MOONSHOT_API_KEY",
    "ZOT_RPC_TOKEN",
    "ZOTCORE_RPC_TOKEN",
];

/// Parts of a variable name that mark it as a secret for the `bash` tool
/// (matched case-insensitively), unless the user keeps it.
pub const SECRET_NAME_PARTS: &[&str] = &["KEY", "SECRET", "TOKEN", "PASSWORD"];

/// What a sandboxed extension receives from zot's environment (after the
/// [`Scrub`]), besides zot's SDK variables and its manifest's `env`: enough
/// for a runtime to find its programs, its home, its locale, its terminal
/// and its time zone. Never the user's tokens, the session bus, the
/// display or the SSH agent. `TMPDIR` is set to the sandbox's own `/tmp`.
pub const SANDBOX_ALLOW: &[&str] = &["PATH", "HOME", "LANG", "LANGUAGE", "TERM", "TZ"];

/// Prefixes of further names a sandboxed extension receives (`LC_ALL`,
/// `LC_CTYPE`, …).
pub const SANDBOX_ALLOW_PREFIXES: &[&str] = &["LC_"];

/// Whether a sandboxed extension may receive `name` from zot's environment.
pub fn sandbox_allows(name: &OsStr) -> bool {
    let name = name.to_string_lossy();
    SANDBOX_ALLOW.contains(&name.as_ref())
        || SANDBOX_ALLOW_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// Variables that make the dynamic loader or the C library load code or
/// data from a path of the caller's choice before `main` runs: a manifest
/// that sets one is refused, whatever its kind ([`loader_var`]). Every
/// `LD_*` name counts (glibc and musl read several: `LD_PRELOAD`,
/// `LD_LIBRARY_PATH`, `LD_AUDIT`, …), as does macOS's `DYLD_*`; the rest are
/// the names glibc itself drops for set-uid programs because they load
/// files: character-set modules (`GCONV_PATH`), locale data (`LOCPATH`,
/// `NLSPATH`), allocator tracing (`MALLOC_TRACE`), tunables
/// (`GLIBC_TUNABLES`), resolver and host files (`HOSTALIASES`,
/// `RESOLV_HOST_CONF`, `LOCALDOMAIN`, `RES_OPTIONS`, `NIS_PATH`),
/// `GETCONF_DIR` and `TZDIR`.
pub const LOADER_VARS: &[&str] = &[
    "GCONV_PATH",
    "GETCONF_DIR",
    "GLIBC_TUNABLES",
    "HOSTALIASES",
    "LOCALDOMAIN",
    "LOCPATH",
    "MALLOC_TRACE",
    "NIS_PATH",
    "NLSPATH",
    "RESOLV_HOST_CONF",
    "RES_OPTIONS",
    "TZDIR",
];

/// Prefixes of loader variables: every name starting with one is refused.
pub const LOADER_PREFIXES: &[&str] = &["LD_", "DYLD_"];

/// Whether a manifest's `env` may not set `name` (see [`LOADER_VARS`]);
/// compared case-sensitively, as the loader reads them.
pub fn loader_var(name: &str) -> bool {
    LOADER_VARS.contains(&name) || LOADER_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// Secret values zot learned at run time (`--api-key`, `auth.json`): any
/// variable holding one of them is dropped whatever its name.
static SECRET_VALUES: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Remembers a secret value for every later child (empty values are
/// ignored: they would match every empty variable).
pub fn add_secret_value(value: &str) {
    if value.is_empty() {
        return;
    }
    let mut v = SECRET_VALUES.lock().unwrap_or_else(|e| e.into_inner());
    if !v.iter().any(|s| s == value) {
        v.push(value.to_owned());
    }
}

/// The secret values remembered so far.
pub fn secret_values() -> Vec<String> {
    SECRET_VALUES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
}

/// What to drop from a child's environment.
#[derive(Debug, Clone, Default)]
pub struct Scrub {
    /// Exact names to drop besides [`CREDENTIAL_VARS`].
    pub names: Vec<String>,
    /// Values: any variable equal to one of them is dropped.
    pub values: Vec<String>,
    /// Also drop names containing a [`SECRET_NAME_PARTS`] word.
    pub by_name_part: bool,
    /// Names kept even when a name part matches (never overrides
    /// [`CREDENTIAL_VARS`] or a value match).
    pub keep: Vec<String>,
}

impl Scrub {
    /// The extension policy: the `bash` policy with no name kept, plus
    /// `names` and `values` (what the app passes in `HostConfig`). An
    /// extension that needs a token gets it as a setting (the keychain
    /// keeps it), not from zot's environment. A sandboxed extension further
    /// receives only [`SANDBOX_ALLOW`].
    pub fn for_extensions(names: &[String], values: &[String]) -> Scrub {
        let mut scrub = Scrub::for_shell(&[]);
        scrub.names = names.to_vec();
        scrub.values.extend_from_slice(values);
        scrub
    }

    /// The `bash` policy: zot's credentials, the values remembered with
    /// [`add_secret_value`], and every `*KEY*`, `*SECRET*`, `*TOKEN*` or
    /// `*PASSWORD*` variable not in `keep`.
    pub fn for_shell(keep: &[String]) -> Scrub {
        Scrub {
            names: Vec::new(),
            values: secret_values(),
            by_name_part: true,
            keep: keep.to_vec(),
        }
    }

    /// Whether a variable `name=value` must not reach the child.
    pub fn drops(&self, name: &OsStr, value: &OsStr) -> bool {
        let name = name.to_string_lossy();
        if CREDENTIAL_VARS.contains(&name.as_ref()) || self.names.iter().any(|n| *n == name) {
            return true;
        }
        if self
            .values
            .iter()
            .any(|v| !v.is_empty() && OsStr::new(v) == value)
        {
            return true;
        }
        if self.by_name_part && !self.keep.iter().any(|k| *k == name) {
            let upper = name.to_ascii_uppercase();
            return SECRET_NAME_PARTS.iter().any(|p| upper.contains(p));
        }
        false
    }

    /// The names in `vars` to remove.
    pub fn to_remove(&self, vars: impl IntoIterator<Item = (OsString, OsString)>) -> Vec<OsString> {
        vars.into_iter()
            .filter(|(n, v)| self.drops(n, v))
            .map(|(n, _)| n)
            .collect()
    }

    /// The names in zot's own environment to remove from a child's.
    pub fn to_remove_from_current(&self) -> Vec<OsString> {
        self.to_remove(std::env::vars_os())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(list: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
        list.iter()
            .map(|(n, v)| (OsString::from(n), OsString::from(v)))
            .collect()
    }

    #[test]
    fn extensions_lose_credentials_extra_names_secret_values_and_what_bash_loses() {
        let s = Scrub::for_extensions(&["MY_CRED".into()], &["sk-canary".into()]);
        let env = vars(&[
            ("ANTHROPIC_API_KEY", "a"),
            ("ZOT_RPC_TOKEN", "t"),
            ("MY_CRED", "c"),
            ("INNOCENT", "sk-canary"),
            ("GITHUB_TOKEN", "g"),
            ("npm_config__authToken", "n"),
            ("PATH", "/bin"),
        ]);
        let gone = s.to_remove(env);
        assert_eq!(
            gone,
            [
                "ANTHROPIC_API_KEY",
                "ZOT_RPC_TOKEN",
                "MY_CRED",
                "INNOCENT",
                "GITHUB_TOKEN",
                "npm_config__authToken"
            ]
            .map(OsString::from)
        );
    }

    #[test]
    fn a_sandbox_receives_only_the_allowlist_and_loader_variables_are_named() {
        for ok in ["PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TERM", "TZ"] {
            assert!(sandbox_allows(OsStr::new(ok)), "{ok}");
        }
        for no in [
            "DBUS_SESSION_BUS_ADDRESS",
            "DISPLAY",
            "WAYLAND_DISPLAY",
            "XAUTHORITY",
            "SSH_AUTH_SOCK",
            "AWS_ACCESS_KEY_ID",
            "XDG_RUNTIME_DIR",
            "LD_PRELOAD",
        ] {
            assert!(!sandbox_allows(OsStr::new(no)), "{no}");
        }
        for bad in [
            "LD_PRELOAD",
            "LD_AUDIT",
            "LD_",
            "GCONV_PATH",
            "DYLD_INSERT_LIBRARIES",
        ] {
            assert!(loader_var(bad), "{bad}");
        }
        for ok in ["PYTHONPATH", "API_KEY", "ld_preload_note", "OLD_PATH"] {
            assert!(!loader_var(ok), "{ok}");
        }
    }

    #[test]
    fn the_shell_also_loses_secret_looking_names_unless_kept() {
        let s = Scrub::for_shell(&["GITHUB_TOKEN".into(), "OPENAI_API_KEY".into()]);
        let env = vars(&[
            ("OPENAI_API_KEY", "o"),
            ("GITHUB_TOKEN", "g"),
            ("aws_secret_access_key", "s"),
            ("DB_PASSWORD", "p"),
            ("HOME", "/root"),
        ]);
        let gone = s.to_remove(env);
        assert_eq!(
            gone,
            ["OPENAI_API_KEY", "aws_secret_access_key", "DB_PASSWORD"].map(OsString::from)
        );
    }
}
