//! From one host frame to the handler that answers it, with every failure
//! (bad JSON, unknown frame, unknown tool, a panicking handler) turned into
//! an error reply or a log line, never a dead extension.

use std::any::Any;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use serde_json::Value;
use zot_ext_protocol::{
    EventInterceptResponse, ExtToHost, HostToExt, LifecycleEvent, RequestId, ShutdownAck,
};

use crate::context::Context;
use crate::decision::{AssistantMessageDecision, ToolCallDecision, TurnStartDecision};
use crate::extension::{
    AssistantFn, CommandFn, ConfigFn, EventFn, Extension, PanelCloseFn, PanelKeyFn, PanelMessageFn,
    PanelMouseFn, PanelResizeFn, ShutdownFn, ToolCallFn, ToolFn, TurnStartFn,
};
use crate::response::{Response, ToolResult};

/// Every handler, indexed for lookup; frozen once `ready` is sent.
pub(crate) struct Handlers {
    /// Keyed by lowercase name: zot matches commands case-insensitively.
    commands: HashMap<String, CommandFn>,
    tools: HashMap<String, ToolFn>,
    events: HashMap<LifecycleEvent, Vec<EventFn>>,
    on_tool_call: Option<ToolCallFn>,
    on_turn_start: Option<TurnStartFn>,
    on_assistant_message: Option<AssistantFn>,
    on_panel_key: Option<PanelKeyFn>,
    on_panel_close: Option<PanelCloseFn>,
    on_panel_mouse: Option<PanelMouseFn>,
    on_panel_resize: Option<PanelResizeFn>,
    on_panel_message: Option<PanelMessageFn>,
    on_shutdown: Option<ShutdownFn>,
    on_config_change: Option<ConfigFn>,
    on_state_restored: Option<crate::extension::StateFn>,
}

impl Handlers {
    pub(crate) fn from_extension(ext: &Extension) -> Self {
        let mut events: HashMap<LifecycleEvent, Vec<EventFn>> = HashMap::new();
        for (e, f) in &ext.events {
            events.entry(*e).or_default().push(f.clone());
        }
        Handlers {
            // First registration wins, as it does in the host.
            commands: ext
                .commands
                .iter()
                .rev()
                .map(|c| (c.name.to_lowercase(), c.handler.clone()))
                .collect(),
            tools: ext
                .tools
                .iter()
                .rev()
                .map(|t| (t.name.clone(), t.handler.clone()))
                .collect(),
            events,
            on_tool_call: ext.on_tool_call.clone(),
            on_turn_start: ext.on_turn_start.clone(),
            on_assistant_message: ext.on_assistant_message.clone(),
            on_panel_key: ext.on_panel_key.clone(),
            on_panel_close: ext.on_panel_close.clone(),
            on_panel_mouse: ext.on_panel_mouse.clone(),
            on_panel_resize: ext.on_panel_resize.clone(),
            on_panel_message: ext.on_panel_message.clone(),
            on_shutdown: ext.on_shutdown.clone(),
            on_config_change: ext.on_config_change.clone(),
            on_state_restored: ext.on_state_restored.clone(),
        }
    }
}

/// A parsed line, or what to say about a line that did not parse.
pub(crate) enum Parsed {
    /// A frame to dispatch.
    Frame(HostToExt),
    /// Not dispatchable; the reply (if the line had a request id) and the
    /// log line explaining why.
    Bad(Option<ExtToHost>, String),
}

/// Parses a line, diagnosing failures precisely enough to fix the sender.
pub(crate) fn parse(line: &[u8]) -> Parsed {
    let err = match serde_json::from_slice::<HostToExt>(line) {
        Ok(f) => return Parsed::Frame(f),
        Err(e) => e,
    };
    let preview = String::from_utf8_lossy(&line[..line.len().min(200)]).into_owned();
    let value: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => {
            return Parsed::Bad(
                None,
                format!("ignoring a line from zot that is not JSON ({e}): {preview}"),
            )
        }
    };
    let ty = value.get("type").and_then(Value::as_str).unwrap_or("");
    let id = value.get("id").and_then(Value::as_str).map(RequestId::from);
    let msg = format!("could not read a {ty:?} frame from zot ({err})");
    // A request we cannot read still gets an answer, so zot does not wait
    // out its timeout.
    let reply = id.map(|id| match ty {
        "command_invoked" => {
            ExtToHost::CommandResponse(Response::error(msg.clone()).into_frame(id))
        }
        "tool_call" => ExtToHost::ToolResult(ToolResult::error(msg.clone()).into_frame(id)),
        _ => ExtToHost::EventInterceptResponse(EventInterceptResponse {
            id,
            ..Default::default()
        }),
    });
    match ty {
        "command_invoked" | "tool_call" | "event_intercept" | "event" | "panel_key"
        | "panel_close" | "hello_ack" | "shutdown" | "config_changed" | "panel_mouse"
        | "panel_resize" | "state_restored" | "panel_message" => {
            Parsed::Bad(reply, format!("{msg}: {preview}"))
        }
        _ => Parsed::Bad(
            None,
            format!("ignoring unknown frame type {ty:?} from zot: {preview}"),
        ),
    }
}

/// Whether a frame's handlers must run in arrival order (one-way frames
/// whose meaning depends on the previous one, like keys).
pub(crate) fn is_ordered(frame: &HostToExt) -> bool {
    matches!(
        frame,
        HostToExt::Event(_)
            | HostToExt::PanelKey(_)
            | HostToExt::PanelClose(_)
            | HostToExt::ConfigChanged(_)
            | HostToExt::StateRestored(_)
            | HostToExt::PanelMouse(_)
            | HostToExt::PanelResize(_)
            | HostToExt::PanelMessage(_)
    )
}

/// Runs the handler for one frame and sends its reply, if it has one.
pub(crate) fn dispatch(h: &Handlers, ctx: &Context, frame: HostToExt) {
    match frame {
        HostToExt::CommandInvoked(c) => {
            let reply = match h.commands.get(&c.name.to_lowercase()) {
                Some(f) => guarded(ctx, "command", &c.name, || f(ctx, &c.args))
                    .unwrap_or_else(Response::error),
                None => Response::error(format!("{} has no command /{}", ctx.name(), c.name)),
            };
            ctx.send(ExtToHost::CommandResponse(reply.into_frame(c.id)));
        }
        HostToExt::ToolCall(t) => {
            let reply = match h.tools.get(&t.name) {
                Some(f) => {
                    let (r, cancelled) = crate::tool_call::run(ctx, &t.id, || {
                        guarded(ctx, "tool", &t.name, || f(ctx, t.args))
                    });
                    if cancelled {
                        // zot no longer waits: nothing more for this id.
                        return;
                    }
                    r.unwrap_or_else(ToolResult::error)
                }
                None => ToolResult::error(format!("{} has no tool named {:?}", ctx.name(), t.name)),
            };
            ctx.send(ExtToHost::ToolResult(reply.into_frame(t.id)));
        }
        HostToExt::EventIntercept(i) => {
            let id = i.id;
            let f = &i.fields;
            let reply = match i.event.kind() {
                Some(LifecycleEvent::ToolCall) if h.on_tool_call.is_some() => {
                    let cb = h.on_tool_call.as_ref().expect("checked");
                    let tool = f.tool_name.as_deref().unwrap_or("");
                    let args = f.tool_args.clone().unwrap_or(Value::Null);
                    guarded(ctx, "tool_call interceptor", tool, || cb(ctx, tool, &args))
                        .unwrap_or_else(|m| ToolCallDecision {
                            reason: Some(m),
                            ..Default::default()
                        })
                        .into_frame(id)
                }
                Some(LifecycleEvent::TurnStart) if h.on_turn_start.is_some() => {
                    let cb = h.on_turn_start.as_ref().expect("checked");
                    guarded(ctx, "turn_start interceptor", "", || {
                        cb(ctx, f.step.unwrap_or(0))
                    })
                    .unwrap_or_else(|m| TurnStartDecision {
                        reason: Some(m),
                        ..Default::default()
                    })
                    .into_frame(id)
                }
                Some(LifecycleEvent::AssistantMessage) if h.on_assistant_message.is_some() => {
                    let cb = h.on_assistant_message.as_ref().expect("checked");
                    let text = f.text.as_deref().unwrap_or("");
                    guarded(ctx, "assistant_message interceptor", "", || cb(ctx, text))
                        .unwrap_or_else(|m| AssistantMessageDecision {
                            reason: Some(m),
                            ..Default::default()
                        })
                        .into_frame(id)
                }
                _ => {
                    ctx.log(format!("no interceptor for {:?}; allowing it", i.event.0));
                    EventInterceptResponse {
                        id,
                        ..Default::default()
                    }
                }
            };
            ctx.send(ExtToHost::EventInterceptResponse(reply));
        }
        HostToExt::Event(e) => {
            let handlers = e.event.kind().and_then(|k| h.events.get(&k));
            match handlers {
                Some(list) => {
                    for f in list {
                        let _ = guarded(ctx, "event handler", &e.event.0, || f(ctx, &e));
                    }
                }
                None => ctx.log(format!("ignoring event {:?}: no handler for it", e.event.0)),
            }
        }
        HostToExt::PanelKey(k) => match &h.on_panel_key {
            Some(f) => {
                let _ = guarded(ctx, "panel key handler", &k.panel_id, || f(ctx, &k));
            }
            None => ctx.log(format!(
                "ignoring a key for panel {:?}: no on_panel_key handler",
                k.panel_id
            )),
        },
        HostToExt::PanelClose(p) => {
            if let Some(f) = &h.on_panel_close {
                let _ = guarded(ctx, "panel close handler", &p.panel_id, || {
                    f(ctx, &p.panel_id)
                });
            }
        }
        HostToExt::PanelMouse(m) => {
            if let Some(f) = &h.on_panel_mouse {
                let _ = guarded(ctx, "panel mouse handler", &m.panel_id, || f(ctx, &m));
            }
        }
        HostToExt::PanelResize(r) => {
            if let Some(f) = &h.on_panel_resize {
                let _ = guarded(ctx, "panel resize handler", &r.panel_id, || f(ctx, &r));
            }
        }
        HostToExt::PanelMessage(m) => match &h.on_panel_message {
            Some(f) => {
                let _ = guarded(ctx, "panel message handler", &m.panel_id, || {
                    f(ctx, &m.panel_id, &m.data)
                });
            }
            None => ctx.log(format!(
                "ignoring a message from panel {:?}: no on_panel_message handler",
                m.panel_id
            )),
        },
        HostToExt::Shutdown(_) => {
            if let Some(f) = &h.on_shutdown {
                let _ = guarded(ctx, "shutdown handler", "", || f(ctx));
            }
            ctx.send(ExtToHost::ShutdownAck(ShutdownAck {}));
        }
        // A handler that never looks at its token runs to completion; its
        // answer is then not sent (zot would drop it anyway).
        HostToExt::ToolCancel(c) => {
            crate::tool_call::cancel(&c.id, &c.reason);
        }
        HostToExt::HelloAck(_) => ctx.log("ignoring a second hello_ack"),
        HostToExt::UiResponse(r) => {
            let id = r.id.0.clone();
            if !ctx.dialogs.answer(r) {
                ctx.log(format!(
                    "ignoring a ui_response for {id:?}: no dialog waits for it"
                ));
            }
        }
        HostToExt::StateRestored(r) => {
            ctx.state().replace(r.state.clone());
            if let Some(f) = &h.on_state_restored {
                let _ = guarded(ctx, "state_restored handler", "", || f(ctx, &r.state));
            }
        }
        HostToExt::ConfigChanged(c) => {
            ctx.set_config(c.config.clone());
            if let Some(f) = &h.on_config_change {
                let _ = guarded(ctx, "config change handler", "", || f(ctx, &c.config));
            }
        }
    }
}

/// Runs a handler, turning a panic into `Err(message)` naming the handler.
fn guarded<T>(ctx: &Context, what: &str, name: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let msg = format!("{what} {name} panicked: {}", panic_message(&*payload));
        ctx.log(&msg);
        msg
    })
}

/// The text of a panic payload (`panic!("…")` gives a `&str` or `String`).
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".to_owned()
    }
}
