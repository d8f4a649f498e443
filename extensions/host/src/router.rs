//! The one place every frame from an extension passes through, with the
//! extension (and its manifest) at hand. Permission checks will live here
//! when manifests start declaring them.

use std::sync::Arc;

use serde_json::Value;
use zot_ext_protocol::rpc::{ExtState, UiEvent};
use zot_ext_protocol::{
    CommandResponse, ExtToHost, LevelName, Notify, RegisterCommand, RegisterTool, Subscribe,
};

use crate::codec;
use crate::config::SLOW_START;
use crate::events::HostEvent;
use crate::ext_log::excerpt;
use crate::extension::{Ext, ReadyKind, Reply};
use crate::limits;
use crate::state::Shared;

/// What a routed line meant for the registration window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Routed {
    /// A registration frame: restart the 250 ms idle timer.
    Registration,
    /// `ready`.
    Ready,
    /// `shutdown_ack`.
    ShutdownAck,
    /// Anything else (or nothing).
    Other,
}

/// Decodes one line from `ext` and acts on it. Bad lines are logged.
pub(crate) fn route_line(inner: &Arc<Shared>, ext: &Arc<Ext>, line: &[u8]) -> Routed {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Routed::Other;
    }
    match codec::decode(line) {
        Ok(frame) => route(inner, ext, frame),
        Err(e) => {
            if let Some(n) = ext.run().bad_lines.hit_after(100) {
                ext.log
                    .line(&format!("{e}; ignored (bad line #{n}): {}", excerpt(line)));
            }
            Routed::Other
        }
    }
}

/// Acts on one frame from `ext`.
pub(crate) fn route(inner: &Arc<Shared>, ext: &Arc<Ext>, frame: ExtToHost) -> Routed {
    match frame {
        ExtToHost::Hello(h) => {
            ext.log
                .line(&format!("ignored a second hello (name '{}')", h.name));
            Routed::Other
        }
        ExtToHost::RegisterCommand(c) => {
            register_command(inner, ext, c);
            Routed::Registration
        }
        ExtToHost::RegisterTool(t) => {
            register_tool(inner, ext, t);
            Routed::Registration
        }
        ExtToHost::Subscribe(s) => {
            subscribe(ext, &s);
            Routed::Registration
        }
        ExtToHost::Ready(_) => Routed::Ready,
        ExtToHost::ToolResult(r) => {
            let _ = ext.complete(&r.id.clone(), Reply::Tool(r));
            Routed::Other
        }
        ExtToHost::CommandResponse(r) => {
            command_response(inner, ext, r);
            Routed::Other
        }
        ExtToHost::EventInterceptResponse(r) => {
            let _ = ext.complete(&r.id.clone(), Reply::Intercept(r));
            Routed::Other
        }
        ExtToHost::Submit(s) => {
            if !s.text.trim().is_empty() {
                inner.post(
                    HostEvent::Submit {
                        extension: ext.name.clone(),
                        text: s.text,
                    },
                    Some(ext),
                );
            }
            Routed::Other
        }
        ExtToHost::Notify(n) => {
            notify(inner, ext, n);
            Routed::Other
        }
        ExtToHost::ClearNotes(_) => {
            inner.post(
                HostEvent::Ui(UiEvent::ExtClearNotes {
                    extension: ext.name.clone(),
                }),
                Some(ext),
            );
            Routed::Other
        }
        ExtToHost::PanelRender(p) => {
            crate::panels::render_from(inner, ext, p);
            Routed::Other
        }
        ExtToHost::PanelClose(p) => {
            crate::panels::close_from(inner, ext, &p.panel_id);
            Routed::Other
        }
        ExtToHost::ShutdownAck(_) => Routed::ShutdownAck,
    }
}

/// `subscribe`: the events to observe and to intercept; unknown names, and
/// events that cannot be intercepted, are logged and ignored.
fn subscribe(ext: &Ext, s: &Subscribe) {
    let mut m = ext.lock();
    for name in &s.events {
        match name.kind() {
            Some(ev) => {
                m.events.insert(ev);
            }
            None => ext
                .log
                .line(&format!("subscribe: unknown event '{}' ignored", name.0)),
        }
    }
    for name in &s.intercept {
        match name.kind() {
            Some(ev) if ev.interceptable() => {
                m.intercepts.insert(ev);
            }
            _ => ext.log.line(&format!(
                "subscribe: '{}' cannot be intercepted (only tool_call, turn_start, assistant_message); ignored",
                name.0
            )),
        }
    }
}

/// `command_response`: a foreign panel id is refused, the request is
/// completed, and the action's UI event is posted here, in frame order, so
/// a `panel_render` sent right after `open_panel` finds its panel.
fn command_response(inner: &Arc<Shared>, ext: &Arc<Ext>, mut r: CommandResponse) {
    crate::panels::refuse_foreign_open(inner, ext, &mut r);
    let shown = crate::actions::ui_event(&ext.name, &r);
    if ext.complete(&r.id.clone(), Reply::Command(r)) {
        if let Some(ev) = shown {
            crate::actions::show(inner, ext, ev);
        }
    }
}

/// `notify`: shown as a note; a level the spec does not name is shown
/// anyway and noted for the doctor.
fn notify(inner: &Shared, ext: &Ext, n: Notify) {
    if !n.level.is_spec() {
        note_odd_level(ext, &n.level);
    }
    let style = n.level.style();
    inner.post(
        HostEvent::Ui(UiEvent::ExtNotify {
            extension: ext.name.clone(),
            level: n.level,
            style,
            message: n.message,
        }),
        Some(ext),
    );
}

/// Points out a start slower than [`SLOW_START`]: zot waits for it, but the
/// user waits too, so the doctor tells the author.
fn note_slow_start(ext: &Ext) {
    let Some(took) = ext.lock().startup else {
        return;
    };
    if took < SLOW_START {
        return;
    }
    let note = format!(
        "took {:.1} s from spawn to ready; ship a built program rather than building on start (e.g. `go run .`)",
        took.as_secs_f32()
    );
    if crate::extension::tolerate(ext, note.clone()) {
        ext.log.line(&note);
    }
}

/// Records, once per level, that the extension used a `notify` level the
/// spec does not name: it is shown anyway (as the reference zot does), and
/// the doctor tells the author.
fn note_odd_level(ext: &Ext, level: &LevelName) {
    let msg = format!(
        "notify level '{}' is not one of info, success, warn, error; shown as {}",
        level.0,
        level.style().as_str()
    );
    if crate::extension::tolerate(ext, msg.clone()) {
        ext.log.line(&msg);
    }
}

fn register_command(inner: &Arc<Shared>, ext: &Arc<Ext>, c: RegisterCommand) {
    let problem = if let Some(p) = limits::command_name_problem(&c.name) {
        Some(p)
    } else if ext.lock().commands.len() >= limits::MAX_COMMANDS {
        Some(format!(
            "this extension already has {} commands, the most one may register",
            limits::MAX_COMMANDS
        ))
    } else {
        None
    };
    if let Some(p) = problem {
        ext.refuse(format!("register_command '{}' refused: {p}", c.name));
        return;
    }
    let ready = {
        let mut m = ext.lock();
        m.commands.push(c);
        m.state == Some(ExtState::Ready)
    };
    if ready {
        inner.rebuild_soon();
    }
}

fn register_tool(inner: &Arc<Shared>, ext: &Arc<Ext>, t: RegisterTool) {
    let problem = if let Some(p) = limits::name_problem(&t.name) {
        Some(p)
    } else if !matches!(t.schema, Value::Object(_)) {
        Some(format!(
            "its schema must be a JSON Schema object, not {}",
            kind_of(&t.schema)
        ))
    } else if ext.lock().tools.len() >= limits::MAX_TOOLS {
        Some(format!(
            "this extension already has {} tools, the most one may register",
            limits::MAX_TOOLS
        ))
    } else {
        let size = limits::json_size(&t.schema);
        (size > limits::MAX_SCHEMA_BYTES).then(|| {
            format!(
                "its schema is {size} bytes (at most {} KiB)",
                limits::MAX_SCHEMA_BYTES / 1024
            )
        })
    };
    if let Some(p) = problem {
        ext.refuse(format!("register_tool '{}' refused: {p}", t.name));
        return;
    }
    let ready = {
        let mut m = ext.lock();
        m.tools.push(t);
        m.state == Some(ExtState::Ready)
    };
    if ready {
        inner.rebuild_soon();
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null (missing)",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Marks `ext` ready (explicitly or by the idle rule) and publishes its names.
pub(crate) fn mark_ready(inner: &Arc<Shared>, ext: &Arc<Ext>, kind: ReadyKind) {
    // The state and the registry that lists its names change in one step.
    let became_ready = inner.update(ext, |m| {
        if m.state != Some(ExtState::Loading) {
            return false;
        }
        m.state = Some(ExtState::Ready);
        m.ready = kind;
        m.startup = m.spawned_at.map(|t| t.elapsed());
        true
    });
    if !became_ready {
        return;
    }
    note_slow_start(ext);
    if kind == ReadyKind::Auto {
        ext.log
            .line("no 'ready' frame: treated as ready after registrations went quiet");
    }
    ext.run().settled.send_replace(true);
    inner.changed();
}
