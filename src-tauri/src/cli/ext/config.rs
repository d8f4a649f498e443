//! `zot ext config NAME [KEY [VALUE]]`: show an extension's settings
//! (secrets masked), show one, or set one. A secret is never taken from
//! argv (where `ps` and shell history would keep it): with no VALUE it is
//! read from a prompt without echo on a terminal, or from stdin.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::{bail, Context, Result};
use serde_json::Value;
use zot_ext_host::ext_ops::locate;
use zot_ext_host::settings_schema::{mask, parse_word};
use zot_ext_host::{manifest, settings_store};
use zot_ext_protocol::{SettingSpec, SettingValues};

use super::ExtGlobals;

/// Runs the subcommand.
pub(super) fn run(
    global: &ExtGlobals,
    name: &str,
    key: Option<&str>,
    value: Option<&str>,
) -> Result<i32> {
    let located = locate(&global.zot_home, &global.cwd, name)?;
    let m = manifest::load(&located.manifest_path())?;
    let schema = m.config;
    // Its own settings: keyed by its folder, not shared with a same-name copy.
    let owner = settings_store::Owner::of(name, &located.dir);
    if schema.is_empty() {
        bail!("extension `{name}` declares no settings (no `config` in its extension.json)");
    }
    let Some(key) = key else {
        let r = settings_store::resolve(&global.zot_home, &owner, &schema)?;
        for w in &r.warnings {
            eprintln!("note: {w}");
        }
        for (k, spec) in &schema {
            println!("{}", line(k, spec, r.values.get(k)));
        }
        if !r.missing.is_empty() {
            eprintln!(
                "required and not set: {}; set one with `zot ext config {name} KEY VALUE`",
                r.missing.join(", ")
            );
        }
        return Ok(0);
    };
    let Some(spec) = schema.get(key) else {
        let known: Vec<&str> = schema.keys().map(String::as_str).collect();
        bail!(
            "extension `{name}` has no setting `{key}`; its settings are {}",
            known.join(", ")
        );
    };
    let word = match value {
        Some(_) if spec.sensitive => bail!(
            "`{key}` is a secret: leave VALUE out and type it at the prompt (or pipe it on stdin), so it stays out of your shell history"
        ),
        Some(v) => v.to_owned(),
        None if spec.sensitive => read_secret(key, spec)?,
        None => {
            let r = settings_store::resolve(&global.zot_home, &owner, &schema)?;
            println!("{}", line(key, spec, r.values.get(key)));
            return Ok(0);
        }
    };
    let parsed =
        parse_word(key, spec, &word).map_err(|e| anyhow::anyhow!("{e}; nothing was stored"))?;
    let mut changes = SettingValues::new();
    changes.insert(key.to_owned(), parsed);
    let r = settings_store::apply(&global.zot_home, &owner, &schema, &changes)
        .with_context(|| format!("cannot set `{key}` of `{name}`"))?;
    for w in &r.warnings {
        eprintln!("note: {w}");
    }
    let store = if spec.sensitive {
        format!(
            " (in the {})",
            if r.backend.as_str() == "keychain" {
                "OS keychain"
            } else {
                "fallback file"
            }
        )
    } else {
        String::new()
    };
    println!("{}{store}", line(key, spec, r.values.get(key)));
    eprintln!(
        "a zot that is already running uses it from its next start or /reload-ext (the app's Configure… applies it at once)"
    );
    Ok(0)
}

/// `key = value  # title`, the value masked when secret.
fn line(key: &str, spec: &SettingSpec, value: Option<&Value>) -> String {
    let shown = match value {
        None => "(not set)".to_owned(),
        Some(Value::String(s)) if spec.sensitive => mask(s),
        Some(v) => v.to_string(),
    };
    let req = if spec.required { ", required" } else { "" };
    format!(
        "{key} = {shown}    # {} ({}{req})",
        spec.title,
        spec.kind.as_str()
    )
}

/// A secret from a no-echo prompt on a terminal, else one line of stdin.
fn read_secret(key: &str, spec: &SettingSpec) -> Result<String> {
    let stdin = std::io::stdin();
    let mut line = String::new();
    if stdin.is_terminal() {
        eprint!("{} ({key}, not echoed): ", spec.title);
        let _ = std::io::stderr().flush();
        let _quiet = NoEcho::on();
        stdin.lock().read_line(&mut line)?;
        eprintln!();
    } else {
        stdin.lock().read_line(&mut line)?;
    }
    let secret = line.trim_end_matches(['\n', '\r']).to_owned();
    if secret.is_empty() {
        bail!("no value given for `{key}`; nothing was stored");
    }
    Ok(secret)
}

/// Turns the terminal's echo off until dropped.
struct NoEcho {
    #[cfg(unix)]
    saved: Option<libc::termios>,
}

impl NoEcho {
    fn on() -> Self {
        #[cfg(unix)]
        {
            // SAFETY: tcgetattr/tcsetattr on stdin with a zeroed struct that
            // tcgetattr fills; the saved state is restored on drop.
            unsafe {
                let mut t: libc::termios = std::mem::zeroed();
                if libc::tcgetattr(0, &mut t) != 0 {
                    return NoEcho { saved: None };
                }
                let saved = t;
                t.c_lflag &= !libc::ECHO;
                libc::tcsetattr(0, libc::TCSANOW, &t);
                NoEcho { saved: Some(saved) }
            }
        }
        #[cfg(not(unix))]
        NoEcho {}
    }
}

impl Drop for NoEcho {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Some(t) = self.saved {
            // SAFETY: restores the state tcgetattr returned.
            unsafe {
                libc::tcsetattr(0, libc::TCSANOW, &t);
            }
        }
    }
}
