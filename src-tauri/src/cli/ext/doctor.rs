//! `zot ext doctor [--json]`: run the real startup through the host crate's
//! doctor and print what it found. Exits 1 when anything is broken, so it
//! can gate a script or CI job.

use std::fmt::Write as _;

use anyhow::Result;
use zot_ext_host::doctor::{diagnose, DoctorExtension, DoctorReport, Readiness};
use zot_ext_protocol::rpc::{ExtState, ExtensionSummary};

use super::output::{stdout, word};
use super::ExtGlobals;

/// Runs the subcommand.
pub(super) fn run(global: &ExtGlobals, json: bool) -> Result<i32> {
    let report = super::block_on(diagnose(global.host_config()))?;
    if json {
        stdout(&format!("{}\n", serde_json::to_string_pretty(&report)?));
    } else {
        stdout(&render(&report, global));
    }
    Ok(if report.ok { 0 } else { 1 })
}

fn render(r: &DoctorReport, global: &ExtGlobals) -> String {
    let mut out = String::new();
    let o = &mut out;
    if r.extensions.is_empty() {
        let _ = writeln!(
            o,
            "no extensions found (looked in {} and {}{})",
            zot_ext_host::home::extensions_dir(&global.zot_home).display(),
            zot_ext_host::home::project_extensions_dir(&global.cwd).display(),
            if global.no_ext {
                "; --no-ext skipped both"
            } else {
                ""
            }
        );
    } else {
        let _ = writeln!(o, "extensions (in load order):");
        for e in &r.extensions {
            extension(o, e);
        }
    }
    if !r.manifest_errors.is_empty() {
        let _ = writeln!(o, "\nmanifest errors:");
        for m in &r.manifest_errors {
            let field = m
                .field
                .as_deref()
                .map(|f| format!("field '{f}': "))
                .unwrap_or_default();
            let _ = writeln!(o, "  {}: {field}{}", m.file, m.message);
        }
    }
    if !r.conflicts.is_empty() {
        let _ = writeln!(
            o,
            "\nconflicts (first registration wins; built-ins always win):"
        );
        for c in &r.conflicts {
            let s = &c.shadowing;
            let _ = writeln!(
                o,
                "  {} `{}` of {} is shadowed by {}: {}",
                word(&s.kind),
                s.name,
                c.extension,
                s.by,
                s.reason
            );
        }
    }
    let _ = writeln!(
        o,
        "\ninterception order (a call passes through these, first to last):"
    );
    for chain in &r.interception {
        let names = if chain.chain.is_empty() {
            "(none)".to_string()
        } else {
            chain.chain.join(" -> ")
        };
        let _ = writeln!(o, "  {}: {names}", chain.event.as_str());
    }
    if r.ok {
        let _ = writeln!(o, "\nok: nothing is broken");
    } else {
        let _ = writeln!(o, "\nbroken ({}):", r.problems.len());
        for p in &r.problems {
            let _ = writeln!(o, "  - {p}");
        }
    }
    out
}

fn extension(o: &mut String, e: &DoctorExtension) {
    let s = &e.summary;
    let version = s
        .version
        .as_deref()
        .map(|v| format!(" {v}"))
        .unwrap_or_default();
    let state = match (s.state, e.readiness) {
        (ExtState::Ready, Readiness::AutoReady) => {
            "auto-ready (registered, never sent `ready`)".to_string()
        }
        (ExtState::Ready, _) => "ready".to_string(),
        (state, _) => word(&state),
    };
    let _ = writeln!(o, "  {}{version} [{}] {state}", s.name, word(&s.scope));
    if s.kind == zot_ext_protocol::ExtKind::Mcp {
        let _ = writeln!(o, "    kind: MCP server (docs/mcp.md)");
    }
    let _ = writeln!(o, "    dir: {}", s.dir);
    let _ = writeln!(
        o,
        "    sandbox: {}",
        if s.sandboxed {
            "yes (bubblewrap: its own dir, the grants in its manifest)"
        } else {
            "no (runs with your full rights)"
        }
    );
    if let Some(error) = &s.error {
        let _ = writeln!(o, "    error: {error}");
    }
    if !s.commands.is_empty() {
        let names: Vec<String> = s.commands.iter().map(|c| format!("/{}", c.name)).collect();
        let _ = writeln!(o, "    commands: {}", names.join(", "));
    }
    if !s.tools.is_empty() {
        let names: Vec<String> = s
            .tools
            .iter()
            .map(|t| {
                let mut n = t.name.clone();
                for (on, mark) in [
                    (t.deferred, " (deferred)"),
                    (t.read_only, " (read-only)"),
                    (t.destructive, " (destructive)"),
                ] {
                    if on {
                        n.push_str(mark);
                    }
                }
                n
            })
            .collect();
        let _ = writeln!(o, "    tools: {}", names.join(", "));
    }
    if !s.themes.is_empty() {
        let _ = writeln!(o, "    themes: {}", s.themes.join(", "));
    }
    let _ = writeln!(o, "    permissions: {}", permissions_line(&s.permissions));
    if !s.refused.is_empty() {
        let counts: Vec<String> = s.refused.iter().map(|(p, n)| format!("{p} {n}")).collect();
        let _ = writeln!(
            o,
            "    refused (not granted by its manifest): {}",
            counts.join(", ")
        );
    }
    if !s.unaccepted.is_empty() {
        let names: Vec<&str> = s.unaccepted.iter().map(|p| p.as_str()).collect();
        let _ = writeln!(
            o,
            "    asks for, not accepted: {} (accept with `zot ext accept {}`)",
            names.join(", "),
            s.name
        );
    }
    let other: Vec<&str> = s
        .widened
        .iter()
        .filter(|w| w.field != "permissions")
        .map(|w| w.words.as_str())
        .collect();
    if !other.is_empty() {
        let _ = writeln!(
            o,
            "    changed since you accepted it: {} (accept with `zot ext accept {}`)",
            other.join("; "),
            s.name
        );
    }
    for w in &e.warnings {
        let _ = writeln!(o, "    warning: {w}");
    }
    for t in &e.tolerated {
        let _ = writeln!(
            o,
            "    tolerated (works here, but fix it; see docs/compat.md): {t}"
        );
    }
    if let Some(line) = health_line(s) {
        let _ = writeln!(o, "    health: {line}");
    }
    let _ = writeln!(o, "    log: {}", s.log_path);
    if !e.log_tail.is_empty() {
        let _ = writeln!(o, "    last log lines:");
        for line in &e.log_tail {
            let _ = writeln!(o, "      | {line}");
        }
    }
}

/// The grant as the doctor prints it: the names, or "unrestricted".
fn permissions_line(grant: &zot_ext_protocol::PermissionGrant) -> String {
    match grant {
        zot_ext_protocol::PermissionGrant::Unrestricted(_) => {
            "unrestricted (its manifest has no \"permissions\")".to_owned()
        }
        zot_ext_protocol::PermissionGrant::List(l) if l.is_empty() => "none".to_owned(),
        zot_ext_protocol::PermissionGrant::List(l) => {
            l.iter().map(|p| p.as_str()).collect::<Vec<_>>().join(", ")
        }
    }
}

/// How a started extension is doing (issue #13's health): its start time,
/// calls and failures with latency, restarts, last exit and log size. `None`
/// for one that never ran (disabled, theme-only, untrusted).
fn health_line(s: &ExtensionSummary) -> Option<String> {
    if !matches!(
        s.state,
        ExtState::Ready
            | ExtState::Loading
            | ExtState::Exited
            | ExtState::Failed
            | ExtState::Crashed
    ) {
        return None;
    }
    let h = &s.health;
    let mut parts = Vec::new();
    if let Some(ms) = s.startup_ms {
        parts.push(format!("ready in {ms} ms"));
    }
    parts.push(format!("{} call(s), {} failed", h.calls, h.errors));
    if let (Some(p50), Some(p99)) = (h.p50_ms, h.p99_ms) {
        parts.push(format!("p50 {p50} ms, p99 {p99} ms"));
    }
    if s.restarts > 0 {
        parts.push(format!("{} automatic restart(s) in 5 min", s.restarts));
    }
    if let Some(exit) = &s.last_exit {
        parts.push(format!("last exit {exit}"));
    }
    parts.push(format!("log {} KiB", h.log_bytes.div_ceil(1024)));
    Some(parts.join("; "))
}
