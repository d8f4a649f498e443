//! `zot ext add-mcp` and `zot ext import-mcp`: parse, call
//! `zot_ext_host::mcp_install`, say what was written and what was not.

use std::path::Path;

use anyhow::{anyhow, bail, Result};
use zot_ext_host::mcp_install::{self, McpServer};

use super::ExtGlobals;

/// `zot ext add-mcp NAME (-- COMMAND ARGS… | --url URL [--header K:V]…)`.
pub(super) fn add(
    global: &ExtGlobals,
    name: &str,
    url: Option<String>,
    headers: &[String],
    env: &[String],
    command: &[String],
    force: bool,
) -> Result<i32> {
    let mut server = McpServer {
        url,
        ..Default::default()
    };
    if let Some((program, args)) = command.split_first() {
        server.command = Some(program.clone());
        server.args = args.to_vec();
    }
    for h in headers {
        let (k, v) = h
            .split_once(':')
            .ok_or_else(|| anyhow!("--header '{h}' is not `Name: value`"))?;
        server
            .headers
            .insert(k.trim().to_owned(), v.trim().to_owned());
    }
    for e in env {
        let (k, v) = e
            .split_once('=')
            .ok_or_else(|| anyhow!("--env '{e}' is not `KEY=value`"))?;
        server.env.insert(k.to_owned(), v.to_owned());
    }
    if server.command.is_none() && server.url.is_none() {
        bail!("give the server's command after `--` (zot ext add-mcp {name} -- npx -y server) or --url URL");
    }
    let dir = mcp_install::add(&global.zot_home, name, &server, force).map_err(|e| anyhow!(e))?;
    println!("added MCP server {name} in {}", dir.display());
    eprintln!(
        "it loads the next time zot starts (or after /reload-ext); check it with `zot ext doctor`"
    );
    Ok(0)
}

/// `zot ext import-mcp FILE`: exit 0 when every entry was imported, 1 when
/// some could not be (each is listed with its reason).
pub(super) fn import(global: &ExtGlobals, file: &Path, force: bool) -> Result<i32> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| anyhow!("cannot read {}: {e}", file.display()))?;
    let report = mcp_install::import(&global.zot_home, &text, force)
        .map_err(|e| anyhow!("{}: {e}", file.display()))?;
    for (name, dir) in &report.imported {
        println!("imported {name} in {}", dir.display());
    }
    for (key, name) in &report.renamed {
        eprintln!("note: '{key}' was imported as '{name}' (names are lower-case letters, digits, '_' and '-')");
    }
    for (key, why) in &report.skipped {
        eprintln!("skipped '{key}': {why}");
    }
    eprintln!(
        "{} imported, {} skipped; they load the next time zot starts (or after /reload-ext)",
        report.imported.len(),
        report.skipped.len()
    );
    Ok(if report.skipped.is_empty() { 0 } else { 1 })
}
