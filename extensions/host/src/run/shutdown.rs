//! Ending extensions: `shutdown`, 2 s, SIGTERM, 1 s, SIGKILL, over each
//! child's whole process group, for every extension at once. Output keeps
//! being read meanwhile so a chatty extension cannot block on a full pipe.

use std::process::ExitStatus;
use std::sync::Arc;
use std::time::Duration;

use tokio::process::Child;
use tokio::time::{sleep_until, Instant};
use zot_ext_protocol::{HostToExt, Shutdown};

use crate::config::{SHUTDOWN_GRACE, TERM_GRACE};
use crate::io::codec::encode;
use crate::io::connection::{fill, FrameSource};
use crate::io::process::{kill_group_and_wait, signal_group};
use crate::owner::state::Shared;
use crate::records::extension::Ext;

/// The `tool_cancel` reason for calls still pending when an extension is
/// stopped (docs/protocol.md "Long tool calls").
pub(crate) const SHUTDOWN_REASON: &str = "shutdown";

/// How long to wait for the OS to report a killed group empty.
pub(crate) const GROUP_GONE_CAP: Duration = Duration::from_secs(1);
use crate::run::router::{route_line, Routed};

/// Runs the shutdown sequence on one child; returns its exit status.
pub(crate) async fn stop_child(
    inner: &Arc<Shared>,
    ext: &Arc<Ext>,
    child: &mut Child,
    source: &mut Box<dyn FrameSource>,
    pgid: i32,
    exited: Option<ExitStatus>,
) -> Option<ExitStatus> {
    if let Some(s) = exited {
        kill_group_and_wait(pgid, GROUP_GONE_CAP).await;
        return Some(s);
    }
    ext.cancel_pending_tools(SHUTDOWN_REASON);
    ext.send_one_way(&encode(&HostToExt::Shutdown(Shutdown {})));
    // Then end its input, as the reference zot and the MCP stdio lifecycle
    // do: an extension that exits at end of input (rather than on the
    // frame) is gone at once instead of after 2 s and a SIGTERM.
    if let Some(sink) = ext.sink() {
        sink.finish();
    }
    let steps = [
        (
            SHUTDOWN_GRACE,
            Some((
                libc::SIGTERM,
                "did not exit within 2 s of shutdown; sent SIGTERM",
            )),
        ),
        (
            TERM_GRACE,
            Some((
                libc::SIGKILL,
                "did not exit within 1 s of SIGTERM; sent SIGKILL",
            )),
        ),
        (Duration::from_secs(5), None),
    ];
    for (wait, next) in steps {
        if let Some(status) = wait_draining(inner, ext, child, source, wait).await {
            // Whatever it started goes with it.
            kill_group_and_wait(pgid, GROUP_GONE_CAP).await;
            return Some(status);
        }
        if let Some((sig, why)) = next {
            ext.log.line(why);
            signal_group(pgid, sig);
        }
    }
    None
}

/// Waits up to `wait` for the child to exit, routing its output meanwhile.
async fn wait_draining(
    inner: &Arc<Shared>,
    ext: &Arc<Ext>,
    child: &mut Child,
    source: &mut Box<dyn FrameSource>,
    wait: Duration,
) -> Option<ExitStatus> {
    let deadline = Instant::now() + wait;
    let mut open = true;
    loop {
        while let Some(line) = source.take_line() {
            if route_line(inner, ext, line) == Routed::ShutdownAck {
                ext.log.line("acknowledged shutdown");
            }
        }
        tokio::select! {
            st = child.wait() => return st.ok(),
            r = fill(source.as_mut()), if open => open = matches!(r, Ok(true)),
            _ = sleep_until(deadline) => return None,
        }
    }
}

/// The shutdown sequence of an extension with no process of ours: the
/// `shutdown` frame, the end of its input, then up to the shutdown grace
/// for it to close its side (its frames are routed meanwhile).
pub(crate) async fn stop_remote(
    inner: &Arc<Shared>,
    ext: &Arc<Ext>,
    source: &mut Box<dyn FrameSource>,
) {
    ext.cancel_pending_tools(SHUTDOWN_REASON);
    ext.send_one_way(&encode(&HostToExt::Shutdown(Shutdown {})));
    if let Some(sink) = ext.sink() {
        sink.finish();
    }
    let deadline = Instant::now() + SHUTDOWN_GRACE;
    loop {
        while let Some(line) = source.take_line() {
            if route_line(inner, ext, line) == Routed::ShutdownAck {
                ext.log.line("acknowledged shutdown");
            }
        }
        tokio::select! {
            r = fill(source.as_mut()) => if !matches!(r, Ok(true)) { return },
            _ = sleep_until(deadline) => {
                ext.log.line("did not close the connection within 2 s of shutdown; closed it");
                return;
            }
        }
    }
}

/// Asks every supervisor to stop and waits for all of them.
pub(crate) async fn stop_all(exts: &[Arc<Ext>]) {
    for e in exts {
        e.run().stop.send_replace(true);
    }
    for e in exts {
        let mut done = e.run().done.subscribe();
        let _ = done.wait_for(|d| *d).await;
    }
}
