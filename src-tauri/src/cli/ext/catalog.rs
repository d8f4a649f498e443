//! `zot ext catalog [--json]`: the extensions zot ships, each with what it
//! registers, what it touches, who signed it and whether it can be
//! installed here; and `zot ext catalog-sign` (hidden), which signs an
//! index (docs/extensions.md "The catalog's signatures").

use std::path::Path;

use anyhow::Result;
use zot_ext_host::bundle::keys;
use zot_ext_host::catalog;
use zot_ext_protocol::CatalogEntry;

use super::output::{stdout, table};
use super::ExtGlobals;

/// Runs the subcommand.
pub(super) fn run(global: &ExtGlobals, json: bool) -> Result<i32> {
    let entries = catalog::list(&global.zot_home)?;
    if json {
        stdout(&format!("{}\n", serde_json::to_string_pretty(&entries)?));
        return Ok(0);
    }
    stdout(&render(&entries));
    eprintln!("install one with `zot ext install <name>`");
    Ok(0)
}

/// `zot ext catalog-sign --key KEYFILE INDEX`: one line per signed entry.
pub(super) fn sign(key: &Path, index: &Path) -> Result<i32> {
    let key = keys::read_signing_key(key)?;
    let signed = catalog::signature::sign_index(index, &key)?;
    for e in &signed {
        println!("signed {} (digest {})", e.name, e.digest);
    }
    let public = keys::encode_public(&key.verifying_key());
    let whose = if public == keys::ZOT_KEY {
        "zot's catalog key".to_owned()
    } else {
        format!("the key {public} (not zot's: this zot shows them as \"signed by an unknown key\" unless trusted_keys names it)")
    };
    eprintln!(
        "{} entries of {} signed with {whose}",
        signed.len(),
        index.display()
    );
    Ok(0)
}

fn render(entries: &[CatalogEntry]) -> String {
    let header = [
        "NAME",
        "VERSION",
        "STATUS",
        "SIGNED",
        "REGISTERS",
        "PERMISSIONS",
        "DESCRIPTION",
    ];
    let rows = entries.iter().map(|e| {
        let status = match (&e.unavailable_reason, e.installed) {
            (Some(reason), _) => format!("unavailable: {reason}"),
            (None, true) => "installed".to_string(),
            (None, false) => "available".to_string(),
        };
        vec![
            e.name.clone(),
            e.version.clone().unwrap_or_else(|| "-".into()),
            status,
            e.signer.clone().unwrap_or_else(|| "-".into()),
            registers(e),
            if e.permissions.is_empty() {
                "-".into()
            } else {
                e.permissions.join("; ")
            },
            e.description.clone(),
        ]
    });
    table(&header, rows)
}

/// `/todo, tool todo_manage, panel todos-main`.
fn registers(e: &CatalogEntry) -> String {
    let r = &e.registers;
    let parts: Vec<String> = r
        .commands
        .iter()
        .map(|c| format!("/{c}"))
        .chain(r.tools.iter().map(|t| format!("tool {t}")))
        .chain(r.panels.iter().map(|p| format!("panel {p}")))
        .chain(r.themes.iter().map(|t| format!("theme {t}")))
        .collect();
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(", ")
    }
}
