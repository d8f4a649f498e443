//! The sidebar's commands (`session_list`, `session_open`,
//! `session_rename`, `session_delete`; docs/rpc.md "Sessions"): thin
//! glue from the backend's state to `agent::session_catalog`.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use zot_ext_protocol::RpcError;

use zot_ext_protocol::rpc_results::{
    DoneResult, SessionDeletedResult, SessionOpenResult, SessionsResult,
};

use super::Backend;
use crate::agent::session::{self, Session, SessionChoice};
use crate::agent::session_catalog as catalog;

fn current(b: &Backend) -> Option<PathBuf> {
    b.inner.agent.session_path()
}

fn own(b: &Backend, path: &str) -> Result<PathBuf, String> {
    catalog::own(&b.inner.opts.zot_home, &b.inner.opts.cwd, path).map_err(|e| format!("{e:#}"))
}

pub(super) fn list(b: &Backend, query: Option<String>) -> SessionsResult {
    let cur = current(b);
    SessionsResult {
        sessions: catalog::list(
            &b.inner.opts.zot_home,
            &b.inner.opts.cwd,
            cur.as_deref(),
            query.as_deref(),
        ),
    }
}

/// Stops what runs, then makes `path` the session this window continues.
pub(super) async fn open(
    b: &Backend,
    path: String,
    readable_part: bool,
) -> Result<SessionOpenResult, RpcError> {
    if b.inner.opts.session == SessionChoice::Disabled {
        return Err(
            "sessions are off in this run (--no-session): start zot without it to open one".into(),
        );
    }
    let p = own(b, &path)?;
    if current(b).as_deref() == Some(p.as_path()) {
        let n = b.inner.agent.status().message_count;
        return Ok(SessionOpenResult {
            path,
            messages: u32::try_from(n).unwrap_or(u32::MAX),
            warning: None,
        });
    }
    let newer = catalog::newer_format(&p);
    if let (Some(v), false) = (newer, readable_part) {
        return Err(RpcError::invalid(format!(
            "session {path} was written by a newer zot (format {v}; this one reads {}): continuing it here could damage it. Open the readable part as a copy instead (readable_part: true)",
            catalog::FORMAT
        )));
    }
    if b.abort() {
        b.idle().await;
    }
    let loaded = session::load_full(&p).map_err(|e| format!("{e:#}"))?;
    let (messages, skipped) = (&loaded.messages, loaded.skipped);
    let (sess, warning) = if newer.is_some() {
        // A copy: the newer file is left exactly as it was.
        let mut copy = Session::create(&b.inner.opts.zot_home, &b.inner.opts.cwd)
            .map_err(|e| format!("{e:#}"))?;
        for m in messages {
            copy.append(m).map_err(|e| format!("{e:#}"))?;
        }
        for (ext, keys) in &loaded.state {
            for (k, v) in keys {
                copy.append_state(ext, k, v).map_err(|e| format!("{e:#}"))?;
            }
        }
        let note = format!(
            "opened a copy of what this zot could read of {path} ({} messages); the original is unchanged",
            messages.len()
        );
        (copy, Some(note))
    } else {
        let s = Session::open(&p).map_err(|e| format!("{e:#}"))?;
        let note = (skipped > 0).then(|| {
            format!("session {path}: skipped {skipped} damaged line(s); the rest was loaded and continues")
        });
        (s, note)
    };
    let now = sess.path().display().to_string();
    let n = messages.len();
    let state = loaded.state.clone();
    b.inner.agent.open_transcript(loaded, sess);
    // The extensions now live in this session's state.
    b.inner.host.restore_state(state);
    b.inner.started.store(false, Ordering::SeqCst);
    b.announce_session();
    Ok(SessionOpenResult {
        path: now,
        messages: u32::try_from(n).unwrap_or(u32::MAX),
        warning,
    })
}

pub(super) fn rename(b: &Backend, path: String, title: String) -> Result<DoneResult, RpcError> {
    let p = own(b, &path)?;
    catalog::rename(&b.inner.opts.zot_home, &b.inner.opts.cwd, &p, &title)
        .map_err(|e| format!("{e:#}"))?;
    Ok(DoneResult {})
}

pub(super) fn delete(b: &Backend, path: String) -> Result<SessionDeletedResult, RpcError> {
    let p = own(b, &path)?;
    if current(b).as_deref() == Some(p.as_path()) {
        return Err("this is the session you are in: start a new one (or open another) first, then delete it".into());
    }
    let trashed = catalog::delete(&b.inner.opts.zot_home, &b.inner.opts.cwd, &p)
        .map_err(|e| format!("{e:#}"))?;
    Ok(SessionDeletedResult { trashed })
}
