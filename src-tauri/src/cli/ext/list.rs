//! `zot ext list [--json]`: every extension a zot start would see, with the
//! state that start reaches. JSON is the same data as `ext_list` in RPC
//! mode (`ExtensionSummary`).

use anyhow::Result;
use zot_ext_host::doctor::{started, Wait};
use zot_ext_protocol::rpc::ExtensionSummary;

use super::output::{stdout, table, word};
use super::ExtGlobals;

/// Runs the subcommand.
pub(super) fn run(global: &ExtGlobals, json: bool) -> Result<i32> {
    let list = super::block_on(started(global.host_config(), Wait::Startup, |host| {
        host.list()
    }))?;
    if json {
        stdout(&format!("{}\n", serde_json::to_string_pretty(&list)?));
        return Ok(0);
    }
    if list.is_empty() {
        eprintln!(
            "no extensions in {} or {}; install one with `zot ext install <path|git-url>`",
            zot_ext_host::home::extensions_dir(&global.zot_home).display(),
            zot_ext_host::home::project_extensions_dir(&global.cwd).display()
        );
        return Ok(0);
    }
    stdout(&render(&list));
    Ok(0)
}

fn render(list: &[ExtensionSummary]) -> String {
    let header = [
        "SCOPE",
        "NAME",
        "VERSION",
        "ENABLED",
        "STATE",
        "LANGUAGE",
        "DESCRIPTION",
        "SOURCE",
        "DIRECTORY",
    ];
    let rows = list.iter().map(|e| {
        vec![
            word(&e.scope),
            e.name.clone(),
            e.version.clone().unwrap_or_else(|| "-".into()),
            if e.enabled { "yes" } else { "no" }.to_string(),
            word(&e.state),
            // An MCP server has no language of its own worth a column;
            // what it is matters more (docs/mcp.md).
            match e.kind {
                zot_ext_protocol::ExtKind::Mcp => "mcp".into(),
                _ => e.language.clone().unwrap_or_else(|| "-".into()),
            },
            e.description.clone().unwrap_or_else(|| "-".into()),
            source_words(e.source.as_ref()),
            e.dir.clone(),
        ]
    });
    table(&header, rows)
}

/// `git URL @ COMMIT`, `folder PATH`, `catalog NAME`, `bundle FILE @
/// DIGEST`; `-` when nothing was recorded.
fn source_words(s: Option<&zot_ext_protocol::ExtSource>) -> String {
    let Some(s) = s else {
        return "-".into();
    };
    let rev = match (s.kind, &s.revision) {
        (zot_ext_protocol::SourceKind::Git | zot_ext_protocol::SourceKind::Bundle, Some(r)) => {
            format!(" @ {}", zot_ext_host::sources::short(r))
        }
        _ => String::new(),
    };
    format!("{} {}{rev}", word(&s.kind), s.location)
}
