//! What a process zot starts may inherit from zot's environment. zot holds
//! provider keys and RPC tokens; an extension (third-party code) or a shell
//! the model drives must never see them, or one `env` puts a key into a
//! transcript, a provider request and a session file. The list lives here,
//! once, so the extension spawner and the `bash` tool drop the same names.

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
    /// The extension policy: zot's credentials, `names`, `values` and the
    /// values remembered with [`add_secret_value`].
    pub fn for_extensions(names: &[String], values: &[String]) -> Scrub {
        let mut all = values.to_vec();
        all.extend(secret_values());
        Scrub {
            names: names.to_vec(),
            values: all,
            by_name_part: false,
            keep: Vec::new(),
        }
    }

    /// The `bash` policy: the extension policy plus every `*KEY*`,
    /// `*SECRET*`, `*TOKEN*` or `*PASSWORD*` variable not in `keep`.
    pub fn for_shell(keep: &[String]) -> Scrub {
        Scrub {
            by_name_part: true,
            keep: keep.to_vec(),
            ..Scrub::for_extensions(&[], &[])
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
    fn extensions_lose_credentials_extra_names_and_secret_values() {
        let s = Scrub::for_extensions(&["MY_CRED".into()], &["sk-canary".into()]);
        let env = vars(&[
            ("ANTHROPIC_API_KEY", "a"),
            ("ZOT_RPC_TOKEN", "t"),
            ("MY_CRED", "c"),
            ("INNOCENT", "sk-canary"),
            ("GITHUB_TOKEN", "g"),
            ("PATH", "/bin"),
        ]);
        let gone = s.to_remove(env);
        assert_eq!(
            gone,
            ["ANTHROPIC_API_KEY", "ZOT_RPC_TOKEN", "MY_CRED", "INNOCENT"].map(OsString::from)
        );
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
