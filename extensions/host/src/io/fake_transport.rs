//! The protocol rules of the router, the panel table, interception and the
//! pending table, each tested without a process: extensions here are
//! records whose [`FrameSink`] is a channel the test reads, and whose
//! frames the test hands to the router itself. Beside the process tests in
//! `tests/`, these run in milliseconds.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::sync::mpsc;
use zot_ext_protocol::rpc::{ExtState, Scope, UiEvent};
use zot_ext_protocol::{CommandAction, LifecycleEvent, PanelKey};

use crate::api::host::Host;
use crate::api::intercept::{ToolCallVerdict, Verdict};
use crate::config::HostConfig;
use crate::error::HostError;
use crate::io::connection::{FrameSink, SendError};
use crate::owner::deadlines;
use crate::owner::events::{Bus, HostEvent};
use crate::owner::state::Shared;
use crate::records::extension::{Ext, ExtSpec, ReadyKind};
use crate::run::router::{mark_ready, route_line, Routed};

/// A sink that hands every line to the test, or refuses as told.
struct FakeSink {
    out: mpsc::UnboundedSender<Value>,
    full: AtomicBool,
    closed: AtomicBool,
}

impl FrameSink for FakeSink {
    fn send(&self, line: &[u8]) -> Result<(), SendError> {
        if self.closed.load(Ordering::SeqCst) {
            return Err(SendError::Closed);
        }
        if self.full.load(Ordering::SeqCst) {
            return Err(SendError::Full);
        }
        let _ = self.out.send(serde_json::from_slice(line).unwrap());
        Ok(())
    }
    fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
    }
}

/// One fake extension: its record, its sink, and what the host sent it.
struct Fake {
    ext: Arc<Ext>,
    sink: Arc<FakeSink>,
    sent: mpsc::UnboundedReceiver<Value>,
}

/// A host with fake extensions and the app's end of its events.
struct Rig {
    host: Host,
    events: mpsc::Receiver<HostEvent>,
    _home: tempfile::TempDir,
}

impl Rig {
    fn new() -> Rig {
        let home = tempfile::tempdir().unwrap();
        let mut cfg = HostConfig::new(home.path(), home.path());
        cfg.builtin_commands = vec!["help".into()];
        cfg.builtin_tools = vec!["bash".into()];
        cfg.intercept_timeout = Duration::from_secs(2);
        let (bus, events) = Bus::new();
        let inner = Arc::new(Shared::new(cfg, bus));
        tokio::spawn(deadlines::sweep(inner.deadlines.clone()));
        Rig {
            host: Host { inner },
            events,
            _home: home,
        }
    }

    fn inner(&self) -> &Arc<Shared> {
        &self.host.inner
    }

    /// A connected, loading extension named `name`, last in load order.
    fn add(&self, name: &str) -> Fake {
        self.add_granted(name, crate::policy::permissions::PermSet::UNRESTRICTED)
    }

    /// [`Rig::add`] with a manifest that grants `grant`.
    fn add_granted(&self, name: &str, grant: crate::policy::permissions::PermSet) -> Fake {
        let inner = self.inner();
        let spec = ExtSpec {
            name: name.into(),
            scope: Scope::Global,
            dir: self._home.path().join(name),
            manifest_path: self._home.path().join(name).join("extension.json"),
            manifest: None,
            target: None,
            grant,
            unaccepted: Vec::new(),
            widened: Vec::new(),
            setup: None,
        };
        let ext = Ext::new(
            inner.new_ext_id(),
            spec,
            self._home.path().join(format!("{name}.log")),
            ExtState::Loading,
            inner.next_id.clone(),
            inner.deadlines.clone(),
        );
        let (out, sent) = mpsc::unbounded_channel();
        let sink = Arc::new(FakeSink {
            out,
            full: AtomicBool::new(false),
            closed: AtomicBool::new(false),
        });
        ext.set_sink(Some(sink.clone()));
        inner.lock().exts.push(ext.clone());
        Fake { ext, sink, sent }
    }

    /// `ext` sends `frame`.
    fn frame(&self, f: &Fake, frame: Value) -> Routed {
        route_line(self.inner(), &f.ext, frame.to_string().as_bytes())
    }

    fn ready(&self, f: &Fake) {
        mark_ready(self.inner(), &f.ext, ReadyKind::Explicit);
    }

    /// The UI events posted so far.
    fn ui(&mut self) -> Vec<UiEvent> {
        let mut v = Vec::new();
        while let Ok(ev) = self.events.try_recv() {
            if let HostEvent::Ui(u) = ev {
                v.push(u);
            }
        }
        v
    }
}

fn tool(name: &str) -> Value {
    json!({"type":"register_tool","name":name,"schema":{"type":"object"}})
}

/// Answers the next request `f` was sent with `reply(request)` (plus its id).
async fn answer(rig: &Rig, f: &mut Fake, reply: impl FnOnce(&Value) -> Value) {
    let req = f.sent.recv().await.unwrap();
    let mut frame = reply(&req);
    frame["id"] = req["id"].clone();
    rig.frame(f, frame);
}

// --- the router ---

#[tokio::test]
async fn registrations_publish_at_ready_and_builtins_and_load_order_win() {
    let rig = Rig::new();
    let a = rig.add("a");
    let b = rig.add("b");
    assert_eq!(rig.frame(&a, tool("t")), Routed::Registration);
    rig.frame(&a, tool("bash"));
    rig.frame(&b, tool("t"));
    rig.frame(&b, tool("u"));
    assert!(rig.host.tools().is_empty(), "nothing before ready");
    rig.ready(&b);
    rig.ready(&a);
    let tools: Vec<(String, String)> = rig
        .host
        .tools()
        .into_iter()
        .map(|t| (t.name, t.extension))
        .collect();
    assert_eq!(
        tools,
        vec![("t".into(), "a".into()), ("u".into(), "b".into())],
        "a loads first; bash is built in"
    );
}

#[tokio::test]
async fn bad_registrations_and_lines_are_refused_without_effect() {
    let rig = Rig::new();
    let a = rig.add("a");
    rig.frame(
        &a,
        json!({"type":"register_tool","name":"s","schema":"nope"}),
    );
    rig.frame(&a, tool("has space"));
    assert_eq!(route_line(rig.inner(), &a.ext, b"{not json"), Routed::Other);
    assert_eq!(
        rig.frame(&a, json!({"type":"hello","name":"again"})),
        Routed::Other
    );
    rig.ready(&a);
    assert!(rig.host.tools().is_empty());
    let warnings = a.ext.lock().warnings.clone();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("JSON Schema object"), "{warnings:?}");
}

#[tokio::test(start_paused = true)]
async fn a_late_registration_joins_after_one_batched_rebuild() {
    let mut rig = Rig::new();
    let a = rig.add("a");
    rig.ready(&a);
    rig.ui();
    rig.frame(&a, tool("late1"));
    rig.frame(&a, tool("late2"));
    assert!(rig.host.tools().is_empty(), "batched, not per frame");
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(rig.host.tools().len(), 2);
    let changed = rig
        .ui()
        .into_iter()
        .filter(|e| matches!(e, UiEvent::ExtChanged {}))
        .count();
    assert_eq!(changed, 1);
}

#[tokio::test]
async fn notes_and_submits_reach_the_app_and_blank_submits_do_not() {
    let mut rig = Rig::new();
    let a = rig.add("a");
    rig.frame(
        &a,
        json!({"type":"notify","level":"warn","message":"careful"}),
    );
    rig.frame(&a, json!({"type":"submit","text":"   "}));
    rig.frame(&a, json!({"type":"submit","text":"go"}));
    let mut evs = Vec::new();
    while let Ok(ev) = rig.events.try_recv() {
        evs.push(ev);
    }
    assert!(
        matches!(&evs[0], HostEvent::Ui(UiEvent::ExtNotify { message, .. }) if message == "careful")
    );
    assert_eq!(
        evs[1],
        HostEvent::Submit {
            extension: "a".into(),
            text: "go".into()
        }
    );
    assert_eq!(evs.len(), 2);
}

// --- permissions (the router's check) ---

#[tokio::test]
async fn ungranted_frames_go_nowhere_and_are_counted() {
    use zot_ext_protocol::Permission;
    let mut rig = Rig::new();
    let a = rig.add_granted(
        "a",
        crate::policy::permissions::PermSet::only(&[Permission::Notes]),
    );
    rig.frame(&a, json!({"type":"submit","text":"go"}));
    rig.frame(&a, tool("t"));
    rig.frame(
        &a,
        json!({"type":"subscribe","events":["turn_end"],"intercept":["tool_call"]}),
    );
    rig.frame(&a, json!({"type":"notify","message":"allowed"}));
    rig.ready(&a);
    let evs: Vec<UiEvent> = rig
        .ui()
        .into_iter()
        .filter(|e| !matches!(e, UiEvent::ExtChanged { .. }))
        .collect();
    assert_eq!(evs.len(), 1, "only the note: {evs:?}");
    assert!(rig.host.tools().is_empty());
    assert!(a.ext.lock().events.is_empty() && a.ext.lock().intercepts.is_empty());
    let counts = a.ext.refusals.counts();
    for p in ["submit", "tools", "events", "intercept"] {
        assert_eq!(counts.get(p), Some(&1), "{p}: {counts:?}");
    }
}

#[tokio::test]
async fn an_ungranted_action_answers_the_command_at_once_with_why() {
    use zot_ext_protocol::Permission;
    let mut rig = Rig::new();
    let mut a = rig.add_granted(
        "a",
        crate::policy::permissions::PermSet::only(&[Permission::Commands]),
    );
    rig.frame(&a, json!({"type":"register_command","name":"c"}));
    rig.ready(&a);
    let host = rig.host.clone();
    let call = tokio::spawn(async move { host.invoke_command("c", "").await });
    answer(
        &rig,
        &mut a,
        |_| json!({"type":"command_response","action":"insert","insert":"typed"}),
    )
    .await;
    let out = call.await.unwrap().unwrap();
    assert_eq!(
        out.response.action,
        Some(zot_ext_protocol::CommandAction::Noop)
    );
    assert_eq!(out.response.insert, None);
    assert!(out
        .response
        .error
        .unwrap_or_default()
        .contains("\"insert\""));
    let leaked: Vec<UiEvent> = rig
        .ui()
        .into_iter()
        .filter(|e| !matches!(e, UiEvent::ExtChanged { .. }))
        .collect();
    assert!(leaked.is_empty(), "it reached the UI: {leaked:?}");
}

// --- the pending table ---

#[tokio::test]
async fn a_reply_reaches_its_request_and_strays_are_dropped() {
    let rig = Rig::new();
    let mut a = rig.add("a");
    rig.frame(&a, tool("t"));
    rig.ready(&a);
    // A reply to an id never sent changes nothing.
    rig.frame(&a, json!({"type":"tool_result","id":"999","content":[]}));
    let host = rig.host.clone();
    let call = tokio::spawn(async move { host.call_tool("t", json!({"x":1})).await });
    let req = a.sent.recv().await.unwrap();
    assert_eq!(req["type"], "tool_call");
    assert_eq!(req["args"], json!({"x":1}));
    rig.frame(
        &a,
        json!({"type":"tool_result","id":req["id"],"content":[{"type":"text","text":"ok"}]}),
    );
    let out = call.await.unwrap().unwrap();
    assert_eq!(out.extension, "a");
    assert!(!out.is_error);
}

#[tokio::test]
async fn a_reply_of_the_wrong_kind_fails_the_request() {
    let rig = Rig::new();
    let mut a = rig.add("a");
    rig.frame(&a, tool("t"));
    rig.ready(&a);
    let host = rig.host.clone();
    let call = tokio::spawn(async move { host.call_tool("t", json!({})).await });
    answer(&rig, &mut a, |_| json!({"type":"command_response"})).await;
    let err = call.await.unwrap().unwrap_err();
    assert!(matches!(err, HostError::WrongReply { .. }), "{err}");
}

#[tokio::test]
async fn closing_fails_what_is_pending_and_refuses_what_comes() {
    let rig = Rig::new();
    let mut a = rig.add("a");
    rig.frame(&a, tool("t"));
    rig.ready(&a);
    let host = rig.host.clone();
    let call = tokio::spawn(async move { host.call_tool("t", json!({})).await });
    a.sent.recv().await.unwrap();
    a.ext
        .close_pending(crate::records::extension::Closed::Exited("status 3".into()));
    let err = call.await.unwrap().unwrap_err();
    assert!(err.to_string().contains("exited (status 3)"), "{err}");
    let err = rig.host.call_tool("t", json!({})).await.unwrap_err();
    assert!(matches!(err, HostError::Exited { .. }), "{err}");
}

#[tokio::test(start_paused = true)]
async fn an_unanswered_request_times_out_and_a_full_queue_fails_at_once() {
    let rig = Rig::new();
    let a = rig.add("a");
    rig.frame(&a, tool("t"));
    rig.ready(&a);
    let err = rig.host.call_tool("t", json!({})).await.unwrap_err();
    assert!(matches!(err, HostError::Timeout { secs: 60, .. }), "{err}");
    a.sink.full.store(true, Ordering::SeqCst);
    let err = rig.host.call_tool("t", json!({})).await.unwrap_err();
    assert!(matches!(err, HostError::QueueFull { .. }), "{err}");
}

// --- panels ---

/// `f` answers `/open` with `open_panel` id `id`; returns the response.
async fn open(rig: &Rig, f: &mut Fake, id: &str) -> zot_ext_protocol::CommandResponse {
    let host = rig.host.clone();
    let call = tokio::spawn(async move { host.invoke_command("open", "").await });
    let id = id.to_owned();
    answer(rig, f, move |_| {
        json!({"type":"command_response","action":"open_panel",
               "open_panel":{"id":id,"title":"T","lines":["x"]}})
    })
    .await;
    call.await.unwrap().unwrap().response
}

#[tokio::test]
async fn a_panel_belongs_to_its_opener_alone() {
    let mut rig = Rig::new();
    let mut a = rig.add("a");
    let mut b = rig.add("b");
    rig.frame(&a, json!({"type":"register_command","name":"open"}));
    rig.frame(&b, json!({"type":"register_command","name":"Open2"}));
    rig.ready(&a);
    rig.ready(&b);
    rig.ui();
    let r = open(&rig, &mut a, "p").await;
    assert_eq!(r.action, Some(CommandAction::OpenPanel));
    assert_eq!(rig.host.open_panels(), vec![("p".into(), "a".into())]);
    assert!(matches!(&rig.ui()[..], [UiEvent::ExtPanelOpen { .. }]));

    // b may neither render to, close, nor re-open a's panel.
    rig.frame(
        &b,
        json!({"type":"panel_render","panel_id":"p","lines":["mine"]}),
    );
    rig.frame(&b, json!({"type":"panel_close","panel_id":"p"}));
    assert!(rig.ui().is_empty());
    let host = rig.host.clone();
    let call = tokio::spawn(async move { host.invoke_command("open2", "").await });
    answer(
        &rig,
        &mut b,
        |_| json!({"type":"command_response","action":"open_panel","open_panel":{"id":"p"}}),
    )
    .await;
    let r = call.await.unwrap().unwrap().response;
    assert_eq!(r.action, Some(CommandAction::Noop));
    assert!(r.error.unwrap().contains("in use by extension 'a'"));
    assert_eq!(rig.host.open_panels(), vec![("p".into(), "a".into())]);

    // a renders; keys go to a; the user's close goes to a.
    rig.frame(
        &a,
        json!({"type":"panel_render","panel_id":"p","lines":["y"]}),
    );
    assert!(
        matches!(&rig.ui()[..], [UiEvent::ExtPanelRender { extension, .. }] if extension == "a")
    );
    rig.host.panel_key("p", PanelKey::Enter, None).unwrap();
    assert_eq!(a.sent.recv().await.unwrap()["type"], "panel_key");
    rig.host.close_panel("p").unwrap();
    assert_eq!(a.sent.recv().await.unwrap()["type"], "panel_close");
    assert!(rig.host.open_panels().is_empty());
    assert!(matches!(
        rig.host.close_panel("p"),
        Err(HostError::UnknownPanel(_))
    ));
}

#[tokio::test]
async fn an_extension_that_goes_takes_its_panels_and_names_in_one_step() {
    let mut rig = Rig::new();
    let mut a = rig.add("a");
    rig.frame(&a, json!({"type":"register_command","name":"open"}));
    rig.frame(&a, tool("t"));
    rig.ready(&a);
    open(&rig, &mut a, "p").await;
    rig.ui();
    let panels = rig
        .inner()
        .retire(&a.ext, |m| m.state = Some(ExtState::Exited));
    assert_eq!(panels, vec!["p".to_owned()]);
    assert!(rig.host.tools().is_empty() && rig.host.commands().is_empty());
    assert!(rig.host.open_panels().is_empty());
}

// --- interception ---

#[tokio::test]
async fn interceptors_chain_rewrites_in_load_order_and_the_first_block_wins() {
    let rig = Rig::new();
    let mut a = rig.add("a");
    let mut b = rig.add("b");
    let mut c = rig.add("c");
    for f in [&a, &b, &c] {
        rig.frame(
            f,
            json!({"type":"subscribe","intercept":["tool_call","turn_start"]}),
        );
        rig.ready(f);
    }
    let host = rig.host.clone();
    let v = tokio::spawn(async move {
        host.intercept_tool_call("t1", "bash", json!({"cmd":"ls"}))
            .await
    });
    answer(&rig, &mut a, |req| {
        assert_eq!(req["tool_args"], json!({"cmd":"ls"}), "{req}");
        json!({"type":"event_intercept_response","modified_args":{"cmd":"ls -a"}})
    })
    .await;
    // b fails to answer with an object: ignored, the chain goes on.
    answer(&rig, &mut b, |req| {
        assert_eq!(req["tool_args"], json!({"cmd":"ls -a"}), "{req}");
        json!({"type":"event_intercept_response","modified_args":"rm -rf /"})
    })
    .await;
    answer(&rig, &mut c, |req| {
        assert_eq!(req["tool_args"], json!({"cmd":"ls -a"}), "{req}");
        json!({"type":"event_intercept_response"})
    })
    .await;
    assert_eq!(
        v.await.unwrap(),
        ToolCallVerdict::Allow {
            args: json!({"cmd":"ls -a"})
        }
    );

    let host = rig.host.clone();
    let v = tokio::spawn(async move { host.intercept_turn_start(1).await });
    answer(&rig, &mut a, |_| json!({"type":"event_intercept_response"})).await;
    answer(
        &rig,
        &mut b,
        |_| json!({"type":"event_intercept_response","block":true,"reason":"no"}),
    )
    .await;
    assert_eq!(
        v.await.unwrap(),
        Verdict::Block {
            extension: "b".into(),
            reason: "no".into()
        }
    );
    assert!(c.sent.try_recv().is_err(), "c is not asked after a block");
}

#[tokio::test(start_paused = true)]
async fn a_silent_or_gone_interceptor_counts_as_allow() {
    let rig = Rig::new();
    let a = rig.add("a");
    let b = rig.add("b");
    for f in [&a, &b] {
        rig.frame(f, json!({"type":"subscribe","intercept":["turn_start"]}));
        rig.ready(f);
    }
    b.sink.close();
    // a never answers (its timeout passes), b cannot be sent to.
    assert_eq!(rig.host.intercept_turn_start(1).await, Verdict::Allow);
    let asked = a.ext.lock().intercepts.contains(&LifecycleEvent::TurnStart);
    assert!(asked);
}
