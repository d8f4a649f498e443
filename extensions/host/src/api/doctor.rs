//! `zot ext doctor`: start every extension through the real discovery and
//! startup path, then turn the host's report into a verdict. Where a normal
//! start fails soft (a broken extension is skipped and the rest keep
//! working), the doctor lists every problem with its subject and what to do,
//! and says whether anything is broken. The CLI prints it as text or JSON;
//! the desktop manager shows the same data.

pub use zot_ext_protocol::doctor::{
    DoctorConflict, DoctorExtension, DoctorReport, InterceptionChain, ManifestProblem, Readiness,
};
use zot_ext_protocol::rpc::ExtState;

use crate::{Host, HostConfig, HostReport, ReadyKind};

/// The one check behind "needs setup" (in `program.rs`, below the host,
/// which runs it at load): the doctor reports what it finds.
pub use crate::io::program::setup_needed;

impl From<ReadyKind> for Readiness {
    fn from(kind: ReadyKind) -> Self {
        match kind {
            ReadyKind::Explicit => Readiness::Ready,
            ReadyKind::Auto => Readiness::AutoReady,
            ReadyKind::Not => Readiness::NotReady,
        }
    }
}

/// How many log lines a failed extension's entry shows.
pub const LOG_TAIL_LINES: usize = 5;

/// Starts a host with `cfg`, waits until every extension is ready, failed
/// or out of time, takes the report, shuts everything down and judges it.
/// Must run inside a tokio runtime.
pub async fn diagnose(cfg: HostConfig) -> DoctorReport {
    judge(&started(cfg, Wait::Settled, Host::report).await)
}

/// How long [`started`] waits before it looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wait {
    /// As the app does ([`Host::wait_ready`]): a slow starter is still
    /// `loading` when it looks. For `zot ext list`, which must be quick.
    Startup,
    /// Until every extension is ready, failed or exited
    /// ([`Host::wait_settled`]). For the doctor and the install preview,
    /// which must say how a slow starter ends.
    Settled,
}

/// Starts a host with `cfg` exactly as zot does, waits as `wait` says, lets
/// `look` read it, then shuts every extension down. `zot ext list` and the
/// doctor both use it, so neither reports a state the real startup would
/// not reach.
pub async fn started<T>(cfg: HostConfig, wait: Wait, look: impl FnOnce(&Host) -> T) -> T {
    let (host, mut events) = Host::start(cfg);
    // Nobody shows these events; drain them so the queue never fills.
    let drain = tokio::spawn(async move { while events.recv().await.is_some() {} });
    match wait {
        Wait::Startup => host.wait_ready().await,
        Wait::Settled => host.wait_settled().await,
    }
    let seen = look(&host);
    host.shutdown().await;
    drain.abort();
    seen
}

/// Turns the host's report into the doctor's verdict.
pub fn judge(report: &HostReport) -> DoctorReport {
    let manifest_errors: Vec<ManifestProblem> = report
        .manifest_errors
        .iter()
        .map(|e| ManifestProblem {
            file: e.path.display().to_string(),
            field: e.field.clone(),
            message: e.message.clone(),
        })
        .collect();
    let mut problems: Vec<String> = report
        .manifest_errors
        .iter()
        .map(|e| format!("{e}; fix the manifest, then run `zot ext doctor` again"))
        .collect();
    let extensions: Vec<DoctorExtension> = report
        .extensions
        .iter()
        .map(|r| DoctorExtension {
            summary: r.summary.clone(),
            readiness: r.ready.into(),
            warnings: r.warnings.clone(),
            tolerated: r.tolerated.clone(),
            manifest_path: r.manifest_path.display().to_string(),
            log_tail: match r.summary.state {
                ExtState::Failed | ExtState::Exited => {
                    crate::manage::logs::tail_lines(&r.log_path, LOG_TAIL_LINES)
                }
                _ => Vec::new(),
            },
        })
        .collect();
    for (r, ext) in report.extensions.iter().zip(&extensions) {
        // A broken manifest is already listed above with its file and field.
        let manifest_broken = report
            .manifest_errors
            .iter()
            .any(|e| e.path == r.manifest_path);
        if let Some(problem) = problem_of(ext, manifest_broken) {
            problems.push(problem);
        }
    }
    let interception = report
        .interception
        .iter()
        .map(|(event, chain)| InterceptionChain {
            event: *event,
            chain: chain.clone(),
        })
        .collect();
    let conflicts = report
        .conflicts
        .iter()
        .map(|c| DoctorConflict {
            extension: c.extension.clone(),
            shadowing: c.shadowing.clone(),
        })
        .collect();
    DoctorReport {
        ok: problems.is_empty(),
        problems,
        manifest_errors,
        extensions,
        interception,
        conflicts,
    }
}

/// What is broken about one extension, if anything.
fn problem_of(ext: &DoctorExtension, manifest_broken: bool) -> Option<String> {
    let s = &ext.summary;
    if let Some(step) = &s.setup {
        return Some(format!("{} needs setup: {step}", s.name));
    }
    let error = s.error.as_deref().unwrap_or("no error was recorded");
    // Host errors usually name the log already; add it only when missing.
    let log = if error.contains(&s.log_path) {
        String::new()
    } else {
        format!(" (log: {})", s.log_path)
    };
    match s.state {
        ExtState::Failed if manifest_broken => None,
        ExtState::Failed => Some(format!(
            "{} failed to load: {error}{log}; read its log, fix it, then run `zot ext doctor` again",
            s.name
        )),
        ExtState::Exited => Some(format!(
            "{} exited after it became ready: {error}{log}",
            s.name
        )),
        ExtState::Crashed => Some(format!(
            "{} crashed repeatedly and was not restarted again: {error}{log}; fix it, then restart it (`ext_restart` or the manager's Restart)",
            s.name
        )),
        ExtState::Loading => Some(format!(
            "{} did not finish its handshake in time; it must send `hello` first{log}",
            s.name
        )),
        // An on_use extension rests idle after a failure within its
        // restart budget: the next use tries again, but the author should
        // know it failed.
        ExtState::Idle if s.error.is_some() => Some(format!(
            "{} failed on its last use and starts again on its next one (a 4th failure within 5 minutes leaves it down): {error}{log}",
            s.name
        )),
        // Waiting for the user's trust is a decision, not a fault.
        // Idle (on_use, not yet used) is its normal resting state.
        ExtState::Ready
        | ExtState::Disabled
        | ExtState::Theme
        | ExtState::Untrusted
        | ExtState::Idle => None,
    }
}
