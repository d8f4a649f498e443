//! The one place every frame from an extension passes through, with the
//! extension (and its manifest) at hand, and so the one place that refuses
//! what its manifest's `permissions` do not grant (docs/protocol.md
//! "Permissions"; the map of frame to permission is [`permission_of`]).
//! A refused frame goes no further: nothing of it reaches the agent or
//! the UI. A refused reply still completes its request, so nobody waits
//! for a timeout: a command gets a `noop` with the refusal as its error,
//! an interception gets "allow, unchanged" (what a missing reply means).

use std::sync::Arc;

use serde_json::Value;
use zot_ext_protocol::rpc::{ExtState, UiEvent};
use zot_ext_protocol::{
    CommandAction, CommandResponse, EventInterceptResponse, ExtToHost, LevelName, Notify,
    Permission, RegisterCommand, RegisterTool, Subscribe,
};

use crate::config::SLOW_START;
use crate::io::codec;
use crate::io::ext_log::excerpt;
use crate::io::limits;
use crate::owner::events::HostEvent;
use crate::owner::state::Shared;
use crate::records::extension::{Ext, ReadyKind, Reply};

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

/// Acts on one frame from `ext`, if its manifest grants it.
pub(crate) fn route(inner: &Arc<Shared>, ext: &Arc<Ext>, frame: ExtToHost) -> Routed {
    let frame = match check(ext, frame) {
        Ok(frame) => frame,
        Err(refused) => return refused,
    };
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
        ExtToHost::ToolProgress(p) => {
            ext.progress(p);
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
            crate::run::panels::render_from(inner, ext, p);
            Routed::Other
        }
        ExtToHost::PanelClose(p) => {
            crate::run::panels::close_from(inner, ext, &p.panel_id);
            Routed::Other
        }
        ExtToHost::PanelMessage(m) => {
            crate::run::panel_messages::to_page(inner, ext, m);
            Routed::Other
        }
        ExtToHost::ShutdownAck(_) => Routed::ShutdownAck,
        ExtToHost::UiRequest(r) => {
            crate::run::dialogs::raise(inner, ext, r);
            Routed::Other
        }
        ExtToHost::StateSet(s) => {
            crate::run::session_state::set(inner, ext, s);
            Routed::Other
        }
    }
}

/// The permission a frame needs, if any (`hello`, `ready` and
/// `shutdown_ack` need none). A `command_response` needs `commands` and,
/// for its action, the permission [`action_permission`] names.
fn permission_of(frame: &ExtToHost) -> Option<Permission> {
    Some(match frame {
        // Its own state in the session: nothing another extension or
        // the user sees, so no permission.
        ExtToHost::Hello(_)
        | ExtToHost::Ready(_)
        | ExtToHost::ShutdownAck(_)
        | ExtToHost::StateSet(_) => return None,
        ExtToHost::RegisterCommand(_) | ExtToHost::CommandResponse(_) => Permission::Commands,
        ExtToHost::RegisterTool(_) | ExtToHost::ToolResult(_) | ExtToHost::ToolProgress(_) => {
            Permission::Tools
        }
        // Checked per half in `check`.
        ExtToHost::Subscribe(_) => return None,
        ExtToHost::EventInterceptResponse(_) => Permission::Intercept,
        ExtToHost::Submit(_) => Permission::Submit,
        ExtToHost::Notify(_) | ExtToHost::ClearNotes(_) => Permission::Notes,
        ExtToHost::PanelRender(_) | ExtToHost::PanelClose(_) | ExtToHost::PanelMessage(_) => {
            Permission::Panels
        }
        ExtToHost::UiRequest(_) => Permission::Dialogs,
    })
}

/// The permission a `command_response`'s action needs beyond `commands`.
fn action_permission(action: Option<CommandAction>) -> Option<Permission> {
    match action? {
        CommandAction::Prompt => Some(Permission::Prompt),
        CommandAction::Insert => Some(Permission::Insert),
        CommandAction::Display => Some(Permission::Notes),
        CommandAction::OpenPanel => Some(Permission::Panels),
        CommandAction::Noop | CommandAction::Unknown => None,
    }
}

/// Checks `frame` against `ext`'s grant: one bit test for a granted
/// frame, so an unrestricted or a granted extension pays nothing more.
/// `Ok`: the frame to route, possibly trimmed (a `subscribe` loses an
/// ungranted half, a `command_response` an ungranted action). `Err`:
/// refused whole; what `route` returns.
fn check(ext: &Ext, frame: ExtToHost) -> Result<ExtToHost, Routed> {
    let grant = ext.spec.grant;
    let need = permission_of(&frame);
    if let Some(p) = need.filter(|p| !grant.allows(*p)) {
        return refuse_whole(ext, p, frame);
    }
    match frame {
        ExtToHost::Subscribe(mut s) => {
            for (p, names) in [
                (Permission::Events, &mut s.events),
                (Permission::Intercept, &mut s.intercept),
            ] {
                if !names.is_empty() && !grant.allows(p) {
                    let list: Vec<&str> = names.iter().map(|n| n.0.as_str()).collect();
                    let half = if p == Permission::Events {
                        "events"
                    } else {
                        "intercept"
                    };
                    ext.refuse_ungranted(p, || format!("subscribe.{half} [{}]", list.join(", ")));
                    names.clear();
                }
            }
            Ok(ExtToHost::Subscribe(s))
        }
        ExtToHost::CommandResponse(mut r) => {
            if let Some(p) = action_permission(r.action).filter(|p| !grant.allows(*p)) {
                let action = action_word(r.action);
                ext.refuse_ungranted(p, || format!("command_response action '{action}'"));
                r = refused_response(&ext.name, r.id, action, p);
            }
            Ok(ExtToHost::CommandResponse(r))
        }
        other => Ok(other),
    }
}

/// Refuses a frame whose permission is not granted at all. A reply
/// still completes its request (see the module's comment).
fn refuse_whole(ext: &Ext, p: Permission, frame: ExtToHost) -> Result<ExtToHost, Routed> {
    let routed = match &frame {
        ExtToHost::RegisterCommand(_) | ExtToHost::RegisterTool(_) => Routed::Registration,
        _ => Routed::Other,
    };
    ext.refuse_ungranted(p, || describe(&frame));
    match frame {
        ExtToHost::EventInterceptResponse(r) => {
            let allow = EventInterceptResponse {
                id: r.id.clone(),
                ..Default::default()
            };
            let _ = ext.complete_if_pending(&r.id, Reply::Intercept(allow));
        }
        ExtToHost::CommandResponse(r) => {
            let action = action_word(r.action);
            let reply = refused_response(&ext.name, r.id.clone(), action, p);
            let _ = ext.complete_if_pending(&r.id, Reply::Command(reply));
        }
        // Answered, so the extension does not wait for its timeout.
        ExtToHost::UiRequest(r) => crate::run::dialogs::reply(
            ext,
            r.id,
            zot_ext_protocol::DialogAction::Cancel,
            None,
            Some(format!(
                "not granted: the manifest's permissions do not include \"{}\"",
                p.as_str()
            )),
        ),
        _ => {}
    }
    Err(routed)
}

/// The action's wire name, for messages.
fn action_word(action: Option<CommandAction>) -> &'static str {
    match action {
        None => "no action",
        Some(CommandAction::Prompt) => "prompt",
        Some(CommandAction::Insert) => "insert",
        Some(CommandAction::Display) => "display",
        Some(CommandAction::OpenPanel) => "open_panel",
        Some(CommandAction::Noop) => "noop",
        Some(CommandAction::Unknown) => "an unknown action",
    }
}

/// The `noop` a refused command answer becomes: the user sees why.
fn refused_response(
    extension: &str,
    id: zot_ext_protocol::RequestId,
    action: &str,
    p: Permission,
) -> CommandResponse {
    CommandResponse {
        id,
        action: Some(CommandAction::Noop),
        error: Some(format!(
            "extension '{extension}' answered with '{action}', which its manifest does not grant (\"{}\"); nothing was done",
            p.as_str()
        )),
        ..Default::default()
    }
}

/// A refused frame in a few words for the log.
fn describe(frame: &ExtToHost) -> String {
    match frame {
        ExtToHost::RegisterCommand(c) => format!("register_command '{}'", c.name),
        ExtToHost::RegisterTool(t) => format!("register_tool '{}'", t.name),
        ExtToHost::ToolResult(r) => format!("tool_result for id '{}'", r.id),
        ExtToHost::ToolProgress(p) => format!("tool_progress for id '{}'", p.id),
        ExtToHost::CommandResponse(r) => format!("command_response for id '{}'", r.id),
        ExtToHost::EventInterceptResponse(r) => {
            format!(
                "event_intercept_response for id '{}' (treated as allow)",
                r.id
            )
        }
        ExtToHost::Submit(_) => "submit".to_owned(),
        ExtToHost::Notify(_) => "notify".to_owned(),
        ExtToHost::ClearNotes(_) => "clear_notes".to_owned(),
        ExtToHost::PanelRender(p) => format!("panel_render '{}'", p.panel_id),
        ExtToHost::PanelClose(p) => format!("panel_close '{}'", p.panel_id),
        ExtToHost::PanelMessage(p) => format!("panel_message '{}'", p.panel_id),
        ExtToHost::Hello(_) | ExtToHost::Ready(_) | ExtToHost::ShutdownAck(_) => "frame".to_owned(),
        ExtToHost::Subscribe(_) => "subscribe".to_owned(),
        ExtToHost::UiRequest(r) => format!("ui_request '{}' (answered cancel)", r.id),
        ExtToHost::StateSet(s) => format!("state_set '{}'", s.key),
    }
}

/// `subscribe`: the events to observe and to intercept; unknown names, and
/// events that cannot be intercepted, are logged and ignored.
fn subscribe(ext: &Ext, s: &Subscribe) {
    let mut m = ext.lock();
    if ext.on_use() && !(s.events.is_empty() && s.intercept.is_empty()) {
        // Honoured, but an on_use extension sees nothing from before its
        // first use: a guard must be eager (docs/host.md).
        let w = "subscribe from an on_use extension: it sees events and interceptions only while it runs, not before its first use; make it eager (remove \"activation\") if it must see every one".to_owned();
        ext.log.line(&w);
        m.warn(w);
    }
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
    crate::run::panels::refuse_foreign_open(inner, ext, &mut r);
    crate::run::panels::refuse_oversize_html(ext, &mut r);
    let shown = crate::run::actions::ui_event(ext, &r);
    if ext.complete(&r.id.clone(), Reply::Command(r)) {
        if let Some(ev) = shown {
            crate::run::actions::show(inner, ext, ev);
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
    if crate::records::extension::tolerate(ext, note.clone()) {
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
    if crate::records::extension::tolerate(ext, msg.clone()) {
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
    let count = ext.lock().tools.len();
    if let Some(p) = tool_problem(&t, count) {
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

/// Replaces all of `ext`'s tools with `tools` in one step with the
/// registry (an MCP server's `tools/list_changed`): a call made meanwhile
/// finds the old list or the new one, never neither. Each tool is checked
/// as `register_tool` checks it.
pub(crate) fn replace_tools(inner: &Arc<Shared>, ext: &Arc<Ext>, tools: Vec<RegisterTool>) {
    let mut accepted: Vec<RegisterTool> = Vec::with_capacity(tools.len());
    for t in tools {
        match tool_problem(&t, accepted.len()) {
            Some(p) => ext.refuse(format!("register_tool '{}' refused: {p}", t.name)),
            None => accepted.push(t),
        }
    }
    inner.update(ext, |m| m.tools = accepted);
    // Announces the change (the registry itself is already rebuilt).
    inner.rebuild_soon();
}

/// Why `t` cannot be registered next to `count` tools of its extension.
fn tool_problem(t: &RegisterTool, count: usize) -> Option<String> {
    if let Some(p) = limits::name_problem(&t.name) {
        Some(p)
    } else if !matches!(t.schema, Value::Object(_)) {
        Some(format!(
            "its schema must be a JSON Schema object, not {}",
            kind_of(&t.schema)
        ))
    } else if count >= limits::MAX_TOOLS {
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
    crate::run::idle_stop::watch(inner, ext);
}
