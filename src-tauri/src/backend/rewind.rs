//! `checkpoints`, `checkpoint_preview`, `rewind` and `fork` (docs/rpc.md
//! "Checkpoints and rewind"): glue between the agent's transcript (which
//! prompt has which checkpoint), the project's checkpoints (the files)
//! and the host (the extensions' state follows the conversation). All
//! four are refused while a prompt runs: its tools could be writing the
//! very files a rewind restores (abort it first).

use std::sync::atomic::Ordering;
use zot_ext_protocol::RpcError;

use zot_ext_host::SessionState;
use zot_ext_protocol::checkpoints::{
    CheckpointPreviewResult, CheckpointsResult, ForkResult, RewindResult, RewindScope,
};

use super::Backend;
use crate::agent::session::{Session, SessionChoice};

/// Refuses `what` while a prompt (or a compaction) runs.
fn idle_or_refuse(b: &Backend, what: &str) -> Result<(), String> {
    if b.busy() {
        return Err(format!(
            "{what}: a prompt is running and may still be changing files; wait for its done (or abort it), then {what} again"
        ));
    }
    Ok(())
}

/// Runs blocking checkpoint work off the async threads.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> anyhow::Result<T> + Send + 'static,
) -> Result<T, String> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| format!("checkpoint task failed: {e}"))?
        .map_err(|e| format!("{e:#}"))
}

pub(super) async fn list(b: &Backend) -> Result<CheckpointsResult, RpcError> {
    let marks = b.inner.agent.checkpoint_marks();
    let cps = b.inner.checkpoints.clone();
    let checkpoints = blocking(move || cps.list(&marks))
        .await
        .map_err(|e| format!("checkpoints: {e}"))?;
    Ok(CheckpointsResult { checkpoints })
}

pub(super) async fn preview(
    b: &Backend,
    checkpoint: String,
) -> Result<CheckpointPreviewResult, RpcError> {
    idle_or_refuse(b, "checkpoint_preview")?;
    let marks = b.inner.agent.checkpoint_marks();
    let at = marks
        .iter()
        .position(|(_, id)| *id == checkpoint)
        .ok_or_else(|| not_in_transcript("checkpoint_preview", &checkpoint))?;
    let index = marks.get(at).map(|(i, _)| *i).unwrap_or_default();
    let later: Vec<String> = marks
        .iter()
        .skip(at + 1)
        .map(|(_, id)| id.clone())
        .collect();
    let cps = b.inner.checkpoints.clone();
    let id = checkpoint.clone();
    let files = blocking(move || cps.preview(&id, &later))
        .await
        .map_err(|e| format!("checkpoint_preview: {e}"))?;
    let outside = files.iter().filter(|f| f.outside).count();
    Ok(CheckpointPreviewResult {
        checkpoint,
        message_index: u32::try_from(index).unwrap_or(u32::MAX),
        files,
        outside: u32::try_from(outside).unwrap_or(u32::MAX),
    })
}

pub(super) async fn rewind(
    b: &Backend,
    checkpoint: String,
    scope: RewindScope,
) -> Result<RewindResult, RpcError> {
    idle_or_refuse(b, "rewind")?;
    let agent = b.inner.agent.clone();
    let _turn = agent.wait_turn().await;
    let (_held, _token) = b.inner.prompts.hold();
    if scope.conversation()
        && !agent
            .checkpoint_marks()
            .iter()
            .any(|(_, id)| *id == checkpoint)
    {
        return Err(not_in_transcript("rewind", &checkpoint));
    }
    let (undo, files) = if scope.code() {
        let cps = b.inner.checkpoints.clone();
        let id = checkpoint.clone();
        let (undo, files) = blocking(move || cps.restore(&id))
            .await
            .map_err(|e| format!("rewind: {e}"))?;
        (Some(undo), files)
    } else {
        (None, Vec::new())
    };
    if scope.conversation() {
        let (_, state) = agent.rewind_conversation(&checkpoint, undo.as_deref())?;
        b.inner.host.restore_state(state);
    }
    let messages = agent.status().message_count;
    Ok(RewindResult {
        files,
        undo,
        messages: u32::try_from(messages).unwrap_or(u32::MAX),
    })
}

pub(super) async fn fork(
    b: &Backend,
    checkpoint: String,
    code: bool,
) -> Result<ForkResult, RpcError> {
    idle_or_refuse(b, "fork")?;
    let agent = b.inner.agent.clone();
    let _turn = agent.wait_turn().await;
    let (_held, _token) = b.inner.prompts.hold();
    let before = agent.before(&checkpoint)?;
    let session = match &b.inner.opts.session {
        SessionChoice::Disabled => None,
        _ => Some(write_fork(b, &before).map_err(|e| format!("fork: {e:#}"))?),
    };
    let (undo, files) = if code {
        let cps = b.inner.checkpoints.clone();
        let id = checkpoint.clone();
        let (undo, files) = blocking(move || cps.restore(&id)).await.map_err(|e| {
            format!("fork: the new session was written, but the files were not restored: {e}")
        })?;
        (Some(undo), files)
    } else {
        (None, Vec::new())
    };
    let path = session
        .as_ref()
        .map(|s| s.path().display().to_string())
        .unwrap_or_default();
    let messages = before.messages.len();
    let state = before.state.clone();
    agent.continue_fork(before, session);
    b.inner.host.restore_state(state);
    b.inner.started.store(false, Ordering::SeqCst);
    b.announce_session();
    Ok(ForkResult {
        path,
        messages: u32::try_from(messages).unwrap_or(u32::MAX),
        files,
        undo,
    })
}

/// A new session file holding `before`: each message, with the state
/// lines that bring the extensions' state to what it was before each
/// checkpointed prompt (so a rewind inside the fork finds it), then the
/// state at the fork.
fn write_fork(b: &Backend, before: &crate::agent::rewind::Before) -> anyhow::Result<Session> {
    let mut s = Session::create(&b.inner.opts.zot_home, &b.inner.opts.cwd)?;
    let mut written = SessionState::new();
    for m in &before.messages {
        if let Some(at) = m.checkpoint.as_ref().and_then(|c| before.state_at.get(c)) {
            write_state_diff(&mut s, &written, at)?;
            written = at.clone();
        }
        s.append(m)?;
    }
    write_state_diff(&mut s, &written, &before.state)?;
    Ok(s)
}

/// Appends the `state_set` lines that turn `from` into `to`.
fn write_state_diff(s: &mut Session, from: &SessionState, to: &SessionState) -> anyhow::Result<()> {
    for (ext, keys) in from {
        for key in keys.keys() {
            if to.get(ext).is_none_or(|t| !t.contains_key(key)) {
                s.append_state(ext, key, &serde_json::Value::Null)?;
            }
        }
    }
    for (ext, keys) in to {
        for (key, v) in keys {
            if from.get(ext).and_then(|f| f.get(key)) != Some(v) {
                s.append_state(ext, key, v)?;
            }
        }
    }
    Ok(())
}

fn not_in_transcript(what: &str, checkpoint: &str) -> RpcError {
    RpcError::not_found(format!(
        "{what}: no prompt in this conversation has checkpoint {checkpoint}; list them with `checkpoints`"
    ))
}
