//! MCP elicitation (docs/mcp.md "Elicitation"): a server's
//! `elicitation/create` in form mode becomes the server entry's own
//! `ui_request` of kind `form`, framed into the host exactly as a native
//! extension would send it, so it takes the one dialog path: the same
//! checks of the schema (a schema outside the subset is answered `cancel`),
//! the same queue and limit, timeout, headless `no user`, and the same
//! validation of the answer. A URL-mode request becomes a `url` dialog
//! (the address shown, opened in the browser only when the user accepts:
//! the window does that, an RPC client decides). The `ui_response` that
//! comes back becomes the MCP result.

use std::sync::atomic::{AtomicU64, Ordering};

use rmcp::model::{ElicitRequestParams, ElicitResult, ElicitationAction};
use serde_json::Value;
use tokio::sync::oneshot;
use zot_ext_protocol::{DialogAction, ExtToHost, RequestId, UiRequest, UiResponse};

use super::Bridge;

/// Ids for the requests this bridge makes (its own namespace, like an
/// extension's ids).
static NEXT: AtomicU64 = AtomicU64::new(1);

/// Asks the user for what `request` wants; the answer as MCP's result.
pub(super) async fn ask(b: &Bridge, request: ElicitRequestParams) -> ElicitResult {
    let (kind, message, schema, url) = match request {
        ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } => (
            "form",
            message,
            serde_json::to_value(requested_schema).ok(),
            None,
        ),
        ElicitRequestParams::UrlElicitationParams { message, url, .. } => {
            ("url", message, None, Some(url))
        }
        _ => {
            b.log("MCP: an elicitation of an unknown mode was declined");
            return result(ElicitationAction::Decline, None);
        }
    };
    let id = format!("mcp-elicit-{}", NEXT.fetch_add(1, Ordering::Relaxed));
    let (tx, rx) = oneshot::channel();
    b.elicits
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(id.clone(), tx);
    // The title is the message's first line; the rest, if any, is shown
    // under it.
    let (title, rest) = match message.split_once('\n') {
        Some((t, r)) => (t.trim().to_owned(), Some(r.trim().to_owned())),
        None => (message.trim().to_owned(), None),
    };
    b.frame(&ExtToHost::UiRequest(UiRequest {
        id: RequestId(id.clone()),
        kind: kind.into(),
        title: if title.is_empty() {
            "The server asks".into()
        } else {
            title
        },
        message: rest.filter(|r| !r.is_empty()),
        schema,
        url,
        ..Default::default()
    }));
    // zot answers every request once; a dropped sender means the run ended.
    let Ok(r) = rx.await else {
        return result(ElicitationAction::Cancel, None);
    };
    match r.action {
        // A form's content is its object; a URL's accept carries none
        // (zot's answer to a url dialog is `true`, which MCP has no room for).
        DialogAction::Accept => result(ElicitationAction::Accept, r.value.filter(Value::is_object)),
        DialogAction::Decline => result(ElicitationAction::Decline, None),
        DialogAction::Cancel => result(ElicitationAction::Cancel, None),
    }
}

/// zot's `ui_response` to one of this bridge's requests.
pub(super) fn answered(b: &Bridge, r: UiResponse) {
    let tx = b
        .elicits
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&r.id.0);
    match tx {
        Some(tx) => {
            let _ = tx.send(r);
        }
        None => b.log(&format!(
            "MCP: a ui_response for {:?}, which nothing waits for",
            r.id.0
        )),
    }
}

fn result(action: ElicitationAction, content: Option<Value>) -> ElicitResult {
    let mut r = ElicitResult::new(action);
    r.content = content;
    r
}
