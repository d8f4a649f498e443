//! Every JSON example of the reference zot's protocol document (the origin of
//! docs/protocol.md; docs/compat.md) parses to the right variant and
//! serialises back to equivalent JSON. If the examples and the types
//! disagree, one of these fails and names the example.

use serde_json::{json, Value};
use zot_ext_protocol::*;

/// Parses `line` as `T`, checks the variant with `is`, and checks that the
/// value serialises back to JSON equal to the original.
fn round_trip<T>(line: &str, is: impl Fn(&T) -> bool)
where
    T: serde::de::DeserializeOwned + serde::Serialize + std::fmt::Debug,
{
    let parsed: T = serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    assert!(
        is(&parsed),
        "{line} parsed to the wrong variant: {parsed:?}"
    );
    let back = serde_json::to_value(&parsed).unwrap();
    let original: Value = serde_json::from_str(line).unwrap();
    assert_eq!(back, original, "{line} did not round-trip");
}

fn ext(line: &str, is: impl Fn(&ExtToHost) -> bool) {
    round_trip::<ExtToHost>(line, is)
}

fn host(line: &str, is: impl Fn(&HostToExt) -> bool) {
    round_trip::<HostToExt>(line, is)
}

#[test]
fn hello() {
    ext(
        r#"{"type":"hello","name":"weather","version":"1.0.0","capabilities":["commands","tools","panels"]}"#,
        |f| matches!(f, ExtToHost::Hello(h) if h.name == "weather" && h.capabilities.len() == 3),
    );
    ext(
        r#"{"type":"hello","name":"hello-py","version":"1.0.0","capabilities":["commands"]}"#,
        |f| matches!(f, ExtToHost::Hello(_)),
    );
}

#[test]
fn register_command() {
    ext(
        r#"{"type":"register_command","name":"weather","description":"current weather for a city"}"#,
        |f| matches!(f, ExtToHost::RegisterCommand(c) if c.name == "weather"),
    );
    ext(
        r#"{"type":"register_command","name":"hellopy","description":"say hi (python)"}"#,
        |f| matches!(f, ExtToHost::RegisterCommand(_)),
    );
}

#[test]
fn register_tool() {
    ext(
        r#"{"type":"register_tool","name":"weather","description":"Get the current weather for a city.","schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}"#,
        |f| matches!(f, ExtToHost::RegisterTool(t) if !t.deferred && t.schema["required"][0] == "city"),
    );
    ext(
        r#"{"type":"register_tool","name":"weather","schema":{"type":"object"},"deferred":true}"#,
        |f| matches!(f, ExtToHost::RegisterTool(t) if t.deferred),
    );
}

#[test]
fn ready() {
    ext(r#"{"type":"ready"}"#, |f| matches!(f, ExtToHost::Ready(_)));
}

#[test]
fn tool_result() {
    ext(
        r#"{"type":"tool_result","id":"...","content":[{"type":"text","text":"Enabled weather lookup"}],"activate_tools":["weather"]}"#,
        |f| matches!(f, ExtToHost::ToolResult(r) if r.activate_tools == ["weather"]),
    );
    ext(
        r#"{"type":"tool_result","id":"...","content":[{"type":"text","text":"Berlin: 16°C, fog"}]}"#,
        |f| matches!(f, ExtToHost::ToolResult(r) if !r.is_error && r.content == [ContentBlock::text("Berlin: 16°C, fog")]),
    );
    ext(
        r#"{"type":"tool_result","id":"7","content":[{"type":"image","mime_type":"image/png","data":"iVBORw0KGgo="}],"is_error":true}"#,
        |f| matches!(f, ExtToHost::ToolResult(r) if r.is_error && matches!(r.content[0], ContentBlock::Image { .. })),
    );
}

#[test]
fn subscribe() {
    ext(
        r#"{"type":"subscribe","events":["session_start","turn_start","tool_call","turn_end","assistant_message"],"intercept":["tool_call","turn_start","assistant_message"]}"#,
        |f| {
            matches!(f, ExtToHost::Subscribe(s)
                if s.events.iter().all(|e| e.kind().is_some()) && s.intercept.len() == 3)
        },
    );
}

#[test]
fn event_intercept_response() {
    ext(
        r#"{"type":"event_intercept_response","id":"...","block":true,"reason":"refused: matches danger pattern \"rm -rf\""}"#,
        |f| matches!(f, ExtToHost::EventInterceptResponse(r) if r.block),
    );
    ext(
        r#"{"type":"event_intercept_response","id":"...","modified_args":{"command":"echo GUARDED: ls"}}"#,
        |f| matches!(f, ExtToHost::EventInterceptResponse(r) if r.modified_args == Some(json!({"command":"echo GUARDED: ls"}))),
    );
    ext(
        r#"{"type":"event_intercept_response","id":"...","replace_text":"[redacted]"}"#,
        |f| matches!(f, ExtToHost::EventInterceptResponse(r) if r.replace_text.as_deref() == Some("[redacted]")),
    );
}

#[test]
fn command_response() {
    ext(
        r#"{"type":"command_response","id":"...","action":"prompt","prompt":"Show today's weather for Berlin in one line."}"#,
        |f| matches!(f, ExtToHost::CommandResponse(r) if r.action == Some(CommandAction::Prompt)),
    );
    ext(
        r#"{"type":"command_response","id":"...","action":"open_panel","open_panel":{"id":"todos-main","title":"Todos","lines":["□ ship panel api","✓ persist state"],"footer":"↑/↓ navigate - a add - x complete - esc close"}}"#,
        |f| {
            matches!(f, ExtToHost::CommandResponse(r)
                if r.action == Some(CommandAction::OpenPanel)
                && r.open_panel.as_ref().is_some_and(|p| p.id == "todos-main" && p.lines.len() == 2))
        },
    );
    ext(
        r#"{"type":"command_response","id":"1","action":"noop","error":"no such city"}"#,
        |f| matches!(f, ExtToHost::CommandResponse(r) if r.error.is_some()),
    );
}

#[test]
fn command_response_with_an_unknown_action_still_parses() {
    let f: ExtToHost =
        serde_json::from_str(r#"{"type":"command_response","id":"1","action":"teleport"}"#)
            .unwrap();
    assert!(matches!(f, ExtToHost::CommandResponse(r) if r.action == Some(CommandAction::Unknown)));
}

#[test]
fn submit() {
    ext(
        r#"{"type":"submit","text":"Summarize the selected workspace."}"#,
        |f| matches!(f, ExtToHost::Submit(s) if s.text.starts_with("Summarize")),
    );
}

#[test]
fn panel_render_and_close() {
    ext(
        r#"{"type":"panel_render","panel_id":"todos-main","title":"Todos","lines":["□ ship panel api","✓ persist state"],"footer":"↑/↓ navigate - a add - x complete - esc close"}"#,
        |f| matches!(f, ExtToHost::PanelRender(p) if p.panel_id == "todos-main"),
    );
    ext(
        r#"{"type":"panel_close","panel_id":"todos-main"}"#,
        |f| matches!(f, ExtToHost::PanelClose(p) if p.panel_id == "todos-main"),
    );
    host(
        r#"{"type":"panel_close","panel_id":"todos-main"}"#,
        |f| matches!(f, HostToExt::PanelClose(p) if p.panel_id == "todos-main"),
    );
}

#[test]
fn notify_and_clear_notes() {
    ext(
        r#"{"type":"notify","level":"info","message":"refreshed cache (12 entries)"}"#,
        |f| matches!(f, ExtToHost::Notify(n) if n.level.style() == NoteLevel::Info && n.level.is_spec()),
    );
    for level in ["success", "warn", "error"] {
        let line = format!(r#"{{"type":"notify","level":"{level}","message":"m"}}"#);
        ext(&line, |f| matches!(f, ExtToHost::Notify(_)));
    }
    ext(r#"{"type":"clear_notes"}"#, |f| {
        matches!(f, ExtToHost::ClearNotes(_))
    });
}

#[test]
fn shutdown_and_ack() {
    ext(r#"{"type":"shutdown_ack"}"#, |f| {
        matches!(f, ExtToHost::ShutdownAck(_))
    });
    host(r#"{"type":"shutdown"}"#, |f| {
        matches!(f, HostToExt::Shutdown(_))
    });
}

#[test]
fn hello_ack() {
    host(
        r#"{"type":"hello_ack","protocol_version":1,"zot_version":"0.0.7","provider":"anthropic","model":"claude-opus-4-7","cwd":"/Users/pat/Developer/zot","extension_dir":"/Users/pat/Developer/zot/.zot/extensions/todos","data_dir":"/Users/pat/Developer/zot/.zot/extensions/todos","state":{}}"#,
        |f| matches!(f, HostToExt::HelloAck(a) if a.protocol_version == PROTOCOL_VERSION && a.model == "claude-opus-4-7"),
    );
    // The reference zot's hello_ack has no `state`: it reads as none.
    let old: HostToExt = serde_json::from_str(
        r#"{"type":"hello_ack","protocol_version":1,"zot_version":"0.0.7","provider":"anthropic","model":"m","cwd":"/p","extension_dir":"/e","data_dir":"/e"}"#,
    )
    .unwrap();
    assert!(matches!(old, HostToExt::HelloAck(a) if a.state.is_empty()));
}

#[test]
fn state_set_and_state_restored() {
    ext(
        r#"{"type":"state_set","key":"plan","value":["a",{"done":true}]}"#,
        |f| matches!(f, ExtToHost::StateSet(s) if s.key == "plan"),
    );
    host(
        r#"{"type":"state_restored","state":{"plan":["a"]}}"#,
        |f| matches!(f, HostToExt::StateRestored(s) if s.state.len() == 1),
    );
}

#[test]
fn command_invoked_and_tool_call() {
    host(
        r#"{"type":"command_invoked","id":"...","name":"weather","args":"berlin"}"#,
        |f| matches!(f, HostToExt::CommandInvoked(c) if c.args == "berlin"),
    );
    host(
        r#"{"type":"tool_call","id":"...","name":"weather","args":{"city":"Berlin"}}"#,
        |f| matches!(f, HostToExt::ToolCall(c) if c.args["city"] == "Berlin"),
    );
}

#[test]
fn events() {
    host(
        r#"{"type":"event","event":"turn_start","step":1}"#,
        |f| matches!(f, HostToExt::Event(e) if e.event.kind() == Some(LifecycleEvent::TurnStart) && e.fields.step == Some(1)),
    );
    host(
        r#"{"type":"event","event":"tool_call","tool_id":"...","tool_name":"read","tool_args":{"path":"foo.go"}}"#,
        |f| matches!(f, HostToExt::Event(e) if e.fields.tool_name.as_deref() == Some("read")),
    );
    host(
        r#"{"type":"event","event":"turn_end","stop":"end_turn"}"#,
        |f| matches!(f, HostToExt::Event(e) if e.fields.stop.as_deref() == Some("end_turn")),
    );
}

#[test]
fn event_intercepts() {
    host(
        r#"{"type":"event_intercept","id":"...","event":"tool_call","tool_id":"...","tool_name":"bash","tool_args":{"command":"rm -rf /tmp/foo"}}"#,
        |f| matches!(f, HostToExt::EventIntercept(e) if e.fields.tool_args.as_ref().is_some_and(|a| a["command"] == "rm -rf /tmp/foo")),
    );
    host(
        r#"{"type":"event_intercept","id":"...","event":"turn_start","step":3}"#,
        |f| matches!(f, HostToExt::EventIntercept(e) if e.fields.step == Some(3)),
    );
    host(
        r#"{"type":"event_intercept","id":"...","event":"assistant_message","text":"here is your api key: sk-ant-..."}"#,
        |f| matches!(f, HostToExt::EventIntercept(e) if e.event.kind() == Some(LifecycleEvent::AssistantMessage)),
    );
}

#[test]
fn panel_keys() {
    host(
        r#"{"type":"panel_key","panel_id":"todos-main","key":"down"}"#,
        |f| matches!(f, HostToExt::PanelKey(k) if k.key == PanelKey::Down),
    );
    host(
        r#"{"type":"panel_key","panel_id":"todos-main","key":"rune","text":"x"}"#,
        |f| matches!(f, HostToExt::PanelKey(k) if k.key == PanelKey::Rune && k.text.as_deref() == Some("x")),
    );
    for name in [
        "up",
        "down",
        "left",
        "right",
        "enter",
        "esc",
        "tab",
        "pageup",
        "pagedown",
        "home",
        "end",
        "backspace",
        "delete",
        "rune",
    ] {
        assert!(PanelKey::parse(name).is_some(), "{name}");
    }
    assert!(PanelKey::parse("escape").is_none());
}

#[test]
fn panel_mouse_and_resize() {
    host(
        r#"{"type":"panel_mouse","panel_id":"todos-main","action":"click","row":2,"col":2}"#,
        |f| matches!(f, HostToExt::PanelMouse(m) if m.action == MouseAction::Click && m.row == Some(2) && m.col == Some(2) && m.delta.is_none()),
    );
    host(
        r#"{"type":"panel_mouse","panel_id":"todos-main","action":"wheel","delta":-3}"#,
        |f| matches!(f, HostToExt::PanelMouse(m) if m.action == MouseAction::Wheel && m.delta == Some(-3) && m.row.is_none()),
    );
    host(
        r#"{"type":"panel_mouse","panel_id":"p","action":"double_click","row":0,"col":9}"#,
        |f| matches!(f, HostToExt::PanelMouse(m) if m.action == MouseAction::DoubleClick),
    );
    host(
        r#"{"type":"panel_mouse","panel_id":"p","action":"context","row":0,"col":0}"#,
        |f| matches!(f, HostToExt::PanelMouse(m) if m.action == MouseAction::Context),
    );
    host(
        r#"{"type":"panel_resize","panel_id":"todos-main","cols":80,"rows":12}"#,
        |f| matches!(f, HostToExt::PanelResize(r) if r.cols == 80 && r.rows == 12),
    );
    // A placement the host does not know still parses: it is logged, not refused.
    ext(
        r#"{"type":"panel_render","panel_id":"p","lines":[],"placement":"floating"}"#,
        |f| matches!(f, ExtToHost::PanelRender(r) if r.placement.as_deref() == Some("floating")),
    );
    // The frame's own checks, as the RPC command applies them.
    let ok = |a, r, c, d| PanelMouseFrame::checked("p".into(), a, r, c, d);
    assert!(ok(MouseAction::Click, Some(0), Some(0), None).is_ok());
    assert!(ok(MouseAction::Wheel, None, None, Some(1)).is_ok());
    assert!(ok(MouseAction::Click, Some(0), None, None).is_err());
    assert!(ok(MouseAction::Click, Some(0), Some(0), Some(1)).is_err());
    assert!(ok(MouseAction::Wheel, None, None, Some(0)).is_err());
    assert!(ok(MouseAction::Wheel, Some(1), None, Some(1)).is_err());
}

#[test]
fn manifests() {
    for text in [
        r#"{"name":"hello-py","version":"1.0.0","exec":"./hello.py","language":"python","enabled":true}"#,
        r#"{"name":"weather","version":"1.0.0","exec":"./weather","args":["--mode","daemon"],"language":"go","description":"current weather for any city","enabled":true}"#,
    ] {
        round_trip::<Manifest>(text, |m| m.exec.is_some());
    }
    let m: Manifest = serde_json::from_str(r#"{"name":"t"}"#).unwrap();
    assert!(m.enabled, "enabled defaults to true");
}

#[test]
fn theme_file() {
    let text = r##"{"name":"solarized-dark","appearance":"dark","colors":{"background":"#002b36","surface":"#073642","fg":"#eee8d5","muted":"#93a1a1","accent":"#268bd2","user_bubble_bg":"#073642","user_bubble_fg":"#eee8d5","assistant":"#2aa198","tool":"#859900","tool_out":"#93a1a1","error":"#dc322f","warning":"#b58900","success":"#859900","selection_bg":"#268bd2","selection_fg":"#fdf6e3"}}"##;
    let t: ThemeFile = serde_json::from_str(text).unwrap();
    assert_eq!(t.appearance, Appearance::Dark);
    assert_eq!(t.colors.len(), theme::COLOR_NAMES.len());
    assert!(t
        .colors
        .keys()
        .all(|k| theme::COLOR_NAMES.contains(&k.as_str())));
    let back = serde_json::to_value(&t).unwrap();
    assert_eq!(back, serde_json::from_str::<Value>(text).unwrap());
}

#[test]
fn unknown_fields_are_tolerated_everywhere() {
    let f: ExtToHost =
        serde_json::from_str(r#"{"type":"ready","future":1,"nested":{"x":[1]}}"#).unwrap();
    assert!(matches!(f, ExtToHost::Ready(_)));
    let f: HostToExt =
        serde_json::from_str(r#"{"type":"tool_call","id":"1","name":"w","args":{},"trace":"abc"}"#)
            .unwrap();
    assert!(matches!(f, HostToExt::ToolCall(_)));
    let m: Manifest =
        serde_json::from_str(r#"{"name":"x","exec":"./x","future":["net"],"settings":{}}"#)
            .unwrap();
    assert_eq!(m.name, "x");
    // `permissions` is a known field now (docs/protocol.md "Permissions"): an
    // unknown value in it is an error (the host names it), not tolerated.
    assert!(serde_json::from_str::<Manifest>(r#"{"name":"x","permissions":["net"]}"#).is_err());
}

#[test]
fn unknown_frame_types_are_an_error_the_host_can_log() {
    let err = serde_json::from_str::<ExtToHost>(r#"{"type":"teleport"}"#).unwrap_err();
    assert!(err.to_string().contains("teleport"), "{err}");
}
