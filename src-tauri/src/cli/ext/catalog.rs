//! `zot ext catalog [--json]`: the extensions zot ships, each with what it
//! registers, what it touches and whether it can be installed here; and the
//! lookup that lets `zot ext install <catalog-name>` install one.

use anyhow::Result;
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

fn render(entries: &[CatalogEntry]) -> String {
    let header = [
        "NAME",
        "VERSION",
        "STATUS",
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
