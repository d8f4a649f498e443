//! An extension's `ui_request` on its way to the user and its one
//! `ui_response` on the way back (docs/protocol.md "Dialogs"). A request
//! is checked with `dialog_rules`; a bad one, a fifth one, or one in a
//! mode with no user is answered `cancel` at once with the reason and
//! never shown. An accepted one joins the [`DialogQueue`] and becomes a
//! `ui_request` UI event; it ends by an answer ([`answer`]), its timeout,
//! an abort of the prompt that raised it ([`cancel_turn`]), or its
//! extension stopping (`Shared::retire`), whichever takes it out of the
//! queue first.
//!
//! Each refused request is one log line, up to [`REFUSED_LINES_PER_MINUTE`]
//! a minute per run of an extension; past that one line says the rest are
//! only counted, and the next minute's first line says how many were. The
//! answers themselves are never held back.
//!
//! [`DialogQueue`]: crate::records::dialog_queue::DialogQueue

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use zot_ext_protocol::rpc::UiEvent;
use zot_ext_protocol::{
    DialogAction, HostToExt, RequestId, RpcError, UiRequest, UiRequestEvent, UiResponse,
};

use crate::io::codec::encode;
use crate::io::ext_log::{Admit, REFUSED_LINES_PER_MINUTE};
use crate::owner::events::HostEvent;
use crate::owner::state::Shared;
use crate::policy::dialog_rules::{check_answer, check_request_from};
use crate::records::dialog_queue::{Waiting, PER_EXTENSION};
use crate::records::extension::Ext;

/// How long a dialog waits when the request does not say.
pub const DEFAULT_TIMEOUT_MS: u64 = 120_000;
/// The longest a dialog may wait.
pub const MAX_TIMEOUT_MS: u64 = 600_000;

/// The reason sent when the user aborts the prompt that raised a dialog.
pub const ABORTED: &str = "aborted";

/// `ui_request` from `ext`.
pub(crate) fn raise(inner: &Arc<Shared>, ext: &Arc<Ext>, req: UiRequest) {
    let mcp = ext
        .spec
        .manifest
        .as_ref()
        .is_some_and(|m| m.kind == zot_ext_protocol::ExtKind::Mcp);
    let kind = match check_request_from(&req, mcp) {
        Ok(kind) => kind,
        Err(p) => {
            log_refused(
                ext,
                &format!("ui_request '{}' refused: {p}; answered cancel", req.id),
            );
            return reply(ext, req.id, DialogAction::Cancel, None, Some(p.to_string()));
        }
    };
    if !inner.cfg.dialogs_have_user {
        return reply(
            ext,
            req.id,
            DialogAction::Cancel,
            None,
            Some("no user".into()),
        );
    }
    let timeout_ms = req
        .timeout_ms
        .unwrap_or(DEFAULT_TIMEOUT_MS)
        .clamp(1, MAX_TIMEOUT_MS);
    let request_id = format!(
        "ui-{}",
        inner
            .next_id
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    let waiting = Waiting {
        request_id: request_id.clone(),
        ext: ext.id,
        ext_name: ext.name.clone(),
        ext_request: req.id.clone(),
        kind,
        options: req.options.clone().unwrap_or_default(),
        schema: req.schema.clone(),
        url: req.url.clone(),
        turn: None,
    };
    if !inner.lock().dialogs.push(waiting) {
        log_refused(ext, &format!(
            "ui_request '{}' refused: {PER_EXTENSION} dialogs already wait for an answer; answered cancel (too many)",
            req.id
        ));
        return reply(
            ext,
            req.id,
            DialogAction::Cancel,
            None,
            Some("too many".into()),
        );
    }
    inner.post(
        HostEvent::Ui(UiEvent::UiRequest(Box::new(UiRequestEvent {
            request_id: request_id.clone(),
            extension: ext.name.clone(),
            kind,
            title: req.title,
            message: req.message,
            options: req.options,
            default: req.default,
            placeholder: req.placeholder,
            schema: req.schema,
            timeout_ms,
            url: req.url,
        }))),
        Some(ext),
    );
    let weak = Arc::downgrade(inner);
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(timeout_ms)).await;
        if let Some(inner) = weak.upgrade() {
            end(&inner, &request_id, "timeout");
        }
    });
}

/// Answers `request_id` for the user (the window or an RPC client). A
/// value that does not fit is refused with the field and the reason, and
/// the dialog stays open.
pub(crate) fn answer(
    inner: &Shared,
    request_id: &str,
    action: DialogAction,
    value: Option<Value>,
) -> Result<(), RpcError> {
    let (waiting, owner) = {
        let mut st = inner.lock();
        let Some(w) = st.dialogs.get(request_id) else {
            return Err(RpcError::not_found(format!(
                "ui_respond: no dialog waits with request_id {request_id:?} (it was answered, timed out or its extension stopped); use the request_id of a ui_request event"
            )));
        };
        if action == DialogAction::Accept {
            check_answer(w.kind, &w.options, w.schema.as_ref(), value.as_ref()).map_err(|p| {
                RpcError::invalid(format!("ui_respond: {p}; the dialog stays open"))
            })?;
        }
        let Some(w) = st.dialogs.take(request_id) else {
            return Err(RpcError::not_found(format!(
                "ui_respond: {request_id:?} was just answered"
            )));
        };
        let owner = st.ext(w.ext).cloned();
        (w, owner)
    };
    let value = match action {
        DialogAction::Accept => Some(value.unwrap_or(Value::Bool(true))),
        _ => None,
    };
    if let Some(ext) = owner {
        reply(&ext, waiting.ext_request, action, value, None);
    }
    Ok(())
}

/// Cancels every dialog raised during the prompt running now (it is
/// being aborted), telling each extension and the client.
pub(crate) fn cancel_turn(inner: &Shared) {
    let taken = inner.lock().dialogs.take_turn();
    for w in taken {
        cancel_taken(inner, w, ABORTED);
    }
}

/// Ends `request_id` with `cancel` and `reason` if it still waits.
pub(crate) fn end(inner: &Shared, request_id: &str, reason: &str) {
    let taken = inner.lock().dialogs.take(request_id);
    if let Some(w) = taken {
        cancel_taken(inner, w, reason);
    }
}

/// Tells the asker and the client that `w` (already out of the queue)
/// ended with `cancel`.
fn cancel_taken(inner: &Shared, w: Waiting, reason: &str) {
    let owner = inner.lock().ext(w.ext).cloned();
    if let Some(ext) = owner {
        reply(
            &ext,
            w.ext_request,
            DialogAction::Cancel,
            None,
            Some(reason.to_owned()),
        );
    }
    inner.post(
        HostEvent::Ui(UiEvent::UiRequestDone {
            request_id: w.request_id,
            action: DialogAction::Cancel,
            reason: Some(reason.to_owned()),
        }),
        None,
    );
}

/// Writes `line` about a refused request unless this minute's share is
/// spent (see the module's doc).
fn log_refused(ext: &Ext, line: &str) {
    match ext.run().refused_dialogs.admit(std::time::Instant::now()) {
        Admit::Write { held } => {
            if held > 0 {
                ext.log.line(&format!(
                    "{held} more refused ui_request(s) were counted, not logged (more than {REFUSED_LINES_PER_MINUTE} a minute)"
                ));
            }
            ext.log.line(line);
        }
        Admit::Last => ext.log.line(&format!(
            "{line} (more than {REFUSED_LINES_PER_MINUTE} refused this minute: the rest are counted, not logged)"
        )),
        Admit::Hold => {}
    }
}

/// Writes the one `ui_response` for `id`.
pub(crate) fn reply(
    ext: &Ext,
    id: RequestId,
    action: DialogAction,
    value: Option<Value>,
    reason: Option<String>,
) {
    ext.send_one_way(&encode(&HostToExt::UiResponse(UiResponse {
        id,
        action,
        value,
        reason,
    })));
}

/// The address of the `url` dialog `request_id` while it waits, for the
/// window to open when the user accepts it (nothing else may be opened).
pub(crate) fn url_of(inner: &Shared, request_id: &str) -> Option<String> {
    inner.lock().dialogs.get(request_id)?.url.clone()
}
