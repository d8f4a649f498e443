//! `zot ext test DIR [--json] [--timeout SECS]`: the conformance kit
//! (`zot_ext_host::conformance`) as a report, exiting 1 when a check fails.

use std::path::Path;
use std::time::Duration;

use anyhow::Result;
use zot_ext_host::conformance::{self, Options};

use super::output::stdout;
use super::ExtGlobals;

/// Runs the subcommand.
pub(super) fn run(
    global: &ExtGlobals,
    dir: &Path,
    json: bool,
    timeout: Option<f64>,
) -> Result<i32> {
    let dir = conformance::resolve_dir(&global.cwd, dir);
    let mut opts = Options::default();
    if let Some(secs) = timeout.filter(|s| s.is_finite() && *s > 0.0) {
        opts.command_timeout = Duration::from_secs_f64(secs);
        opts.tool_timeout = Duration::from_secs_f64(secs);
    }
    let report = conformance::run(&dir, &global.zot_home, &opts);
    if json {
        stdout(&format!("{}\n", serde_json::to_string_pretty(&report)?));
    } else {
        stdout(&conformance::render(&report));
    }
    Ok(if report.ok { 0 } else { 1 })
}
