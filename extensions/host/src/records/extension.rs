//! One extension as the host sees it: what discovery found ([`ExtSpec`]),
//! what the user sees of it ([`ExtMut`]: state, registrations, warnings),
//! and one run of its process ([`ExtRuntime`]: pipe, pending requests,
//! signals), replaced whole when it is started again. The supervisor task
//! owns the process; everyone else goes through this shared record.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use std::time::Duration;

use tokio::sync::{oneshot, watch};
use tokio::time::Instant;
use zot_ext_protocol::rpc::{ExtState, Scope, Shadowing};
use zot_ext_protocol::{
    CommandResponse, EventInterceptResponse, LifecycleEvent, Manifest, Permission, RegisterCommand,
    RegisterTool, RequestId, ToolResult,
};

use crate::error::{HostError, TimeoutLimit};
use crate::io::connection::{FrameSink, SendError};
use crate::io::ext_log::{ExtLog, PerMinute, Throttle};
use crate::owner::deadlines::{Deadlines, Expiring};
use crate::policy::permissions::{PermSet, Refusals};
use crate::records::call_stats::CallStats;
use crate::records::ext_id::ExtId;
use crate::records::tool_progress::ProgressFeed;
use crate::records::uses::Uses;

/// How an extension finished its registration window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReadyKind {
    /// Not (yet) ready.
    #[default]
    Not,
    /// It sent `ready`.
    Explicit,
    /// It went quiet for 250 ms, or the 3 s grace ran out.
    Auto,
}

/// The mutable part of an extension, under one small lock.
#[derive(Debug, Default)]
pub(crate) struct ExtMut {
    pub state: Option<ExtState>,
    pub error: Option<String>,
    pub exit_status: Option<String>,
    pub ready: ReadyKind,
    pub commands: Vec<RegisterCommand>,
    pub tools: Vec<RegisterTool>,
    pub events: HashSet<LifecycleEvent>,
    pub intercepts: HashSet<LifecycleEvent>,
    pub warnings: Vec<String>,
    /// Behaviour the spec does not allow but zot tolerates for
    /// compatibility with the reference zot (docs/compat.md): an odd note
    /// level, a hello name that differs from the manifest, a slow start.
    /// The doctor shows these so authors can fix them.
    pub tolerated: Vec<String>,
    /// When the current process was spawned.
    pub spawned_at: Option<Instant>,
    /// Whether the current process has said `hello` (it then only has its
    /// registration window left, which is bounded).
    pub said_hello: bool,
    /// Spawn → ready of the current process.
    pub startup: Option<Duration>,
    /// Warnings beyond [`crate::io::limits::MAX_WARNINGS`], counted only.
    pub warnings_more: u64,
    /// Shadowings decided outside the registry (discovery, themes).
    pub shadowed: Vec<Shadowing>,
    pub themes: Vec<String>,
    pub pid: Option<i32>,
    /// Automatic restarts in the last 5 minutes (`restart_policy.rs`);
    /// kept across runs, reset by `ext_restart` and reloads.
    pub budget: crate::records::restart_policy::RestartBudget,
    /// How its last process ended on its own (`"status 3"`), kept across runs.
    pub last_exit: Option<String>,
    /// It became ready at least once in this load: from then on a crash
    /// during the handshake counts against the budget too (docs/host.md).
    pub ever_ready: bool,
    /// Panels that closed because it crashed: a key sent to one gets one
    /// clear status instead of an error per key (`Host::panel_key`); the
    /// flag: that status was given.
    pub crashed_panels: Vec<(String, bool)>,
    /// The panel input the current process declared in `hello.capabilities`
    /// (`panel_esc`); its panels' open events carry it to the UI.
    pub panel_caps: Vec<zot_ext_protocol::PanelCapability>,
}

/// Most tolerated-behaviour notes kept per extension: enough to tell an
/// author what to fix, never a memory leak for one that varies its levels.
const MAX_TOLERATED: usize = 16;

/// Records a tolerated behaviour of `ext` unless already recorded; returns
/// whether it was new (so the caller logs it once).
pub(crate) fn tolerate(ext: &Ext, note: String) -> bool {
    let mut m = ext.lock();
    if m.tolerated.len() >= MAX_TOLERATED || m.tolerated.contains(&note) {
        return false;
    }
    m.tolerated.push(note);
    true
}

impl ExtMut {
    /// Forgets what the previous run registered and how it ended: a new
    /// run starts loading with nothing registered.
    pub fn begin_run(&mut self) {
        self.state = Some(ExtState::Loading);
        self.error = None;
        self.exit_status = None;
        self.ready = ReadyKind::Not;
        self.commands.clear();
        self.tools.clear();
        self.events.clear();
        self.intercepts.clear();
        self.spawned_at = None;
        self.said_hello = false;
        self.startup = None;
        self.pid = None;
        self.panel_caps.clear();
    }

    /// Puts an `on_use` extension's declared names where the registry
    /// rebuild reads them (it is listed before it runs: `on_use.rs`).
    pub fn seed(&mut self, spec: &ExtSpec) {
        let c = spec.declared();
        self.commands = c.commands;
        self.tools = c.tools;
    }

    /// An `on_use` extension between runs: `idle`, no process, its declared
    /// names listed again. The supervisor puts it here when a run ends on
    /// `idle_stop_after`, or with a failure within its restart budget (a
    /// failed first start, a crash after ready), so its next use starts it.
    pub fn rest(&mut self, spec: &ExtSpec) {
        self.state = Some(ExtState::Idle);
        self.pid = None;
        self.seed(spec);
    }

    /// Adds a warning for report()/doctor, up to the cap.
    pub fn warn(&mut self, msg: String) {
        if self.warnings.len() < crate::io::limits::MAX_WARNINGS {
            self.warnings.push(msg);
        } else {
            self.warnings_more = self.warnings_more.saturating_add(1);
        }
    }

    /// The warnings as reported, with the count of those not kept.
    pub fn reported_warnings(&self) -> Vec<String> {
        let mut w = self.warnings.clone();
        if self.warnings_more > 0 {
            w.push(format!(
                "… and {} more warnings like these; see the log",
                self.warnings_more
            ));
        }
        w
    }
}

/// What a request is waiting for.
#[derive(Debug)]
pub(crate) enum Reply {
    Command(CommandResponse),
    Tool(ToolResult),
    Intercept(EventInterceptResponse),
}

impl Reply {
    /// The frame type this reply arrived as.
    pub fn kind(&self) -> &'static str {
        match self {
            Reply::Command(_) => "command_response",
            Reply::Tool(_) => "tool_result",
            Reply::Intercept(_) => "event_intercept_response",
        }
    }
}

/// What a request is for, spelled out only when an error or a log line
/// needs it (formatting it per request showed up in the round-trip profile).
#[derive(Debug, Clone)]
pub(crate) enum During {
    /// A `tool_call` of this tool.
    Tool(String),
    /// A `command_invoked` of this command (without its `/`).
    Command(String),
    /// An `event_intercept` of this event.
    Intercept(LifecycleEvent),
}

impl During {
    /// The reply frame type this request accepts; any other kind under its
    /// id is the extension's protocol error.
    pub fn expects(&self) -> &'static str {
        match self {
            During::Tool(_) => "tool_result",
            During::Command(_) => "command_response",
            During::Intercept(_) => "event_intercept_response",
        }
    }
}

impl fmt::Display for During {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            During::Tool(name) => write!(f, "tool '{name}'"),
            During::Command(name) => write!(f, "command '/{name}'"),
            During::Intercept(event) => write!(f, "event_intercept '{}'", event.as_str()),
        }
    }
}

/// One request in flight.
pub(crate) struct Pending {
    /// For error messages.
    pub during: During,
    pub tx: oneshot::Sender<Result<Reply, HostError>>,
    /// When the sweeper fails it (see `deadlines.rs`).
    pub deadline: Instant,
    /// The timeout it was sent with, for the error message (for a tool
    /// call, its idle timeout).
    pub timeout: Duration,
    /// A tool call's absolute cap and progress slot.
    pub tool: Option<ToolWait>,
}

/// What a pending tool call adds to a request: `tool_progress` moves its
/// deadline (never past `cap`) and lands in `feed`.
pub(crate) struct ToolWait {
    pub cap: Instant,
    pub cap_secs: u64,
    pub feed: Option<Arc<ProgressFeed>>,
}

/// How many cancelled ids a run remembers, so that their late results
/// are dropped quietly; older ones are logged as unknown ids again.
const CANCELLED_KEPT: usize = 256;

/// Why requests can no longer be sent.
#[derive(Debug, Clone)]
pub(crate) enum Closed {
    Exited(String),
    Stopped(String),
}

#[derive(Default)]
pub(crate) struct PendingMap {
    pub closed: Option<Closed>,
    /// By request id. Ids are sequential and few are in flight, so an
    /// ordered map beats hashing them.
    pub map: BTreeMap<u64, Pending>,
    /// Tool calls zot sent `tool_cancel` for, newest last.
    pub cancelled: VecDeque<u64>,
}

impl PendingMap {
    fn cancelled(&mut self, id: u64) {
        if self.cancelled.len() == CANCELLED_KEPT {
            self.cancelled.pop_front();
        }
        self.cancelled.push_back(id);
    }
}

/// What discovery found: fixed for as long as this load lasts, whichever
/// run of the process is current.
#[derive(Debug, Clone)]
pub(crate) struct ExtSpec {
    pub name: String,
    pub scope: Scope,
    pub dir: PathBuf,
    pub manifest_path: PathBuf,
    pub manifest: Option<Manifest>,
    /// How it is started or reached; `None` for one that is not
    /// (disabled, shadowed, theme-only or invalid).
    pub target: Option<crate::run::target::Target>,
    /// What its manifest grants; the router checks every frame against it.
    pub grant: PermSet,
    /// The permissions its manifest asks for beyond what the user
    /// accepted (part of `widened`).
    pub unaccepted: Vec<Permission>,
    /// Everything its manifest reaches beyond what the user accepted
    /// (`widening.rs`): it is not started while this is not empty.
    pub widened: Vec<zot_ext_protocol::Widening>,
    /// What it needs before it can run (`program::setup_needed`), checked
    /// at load: an enabled one in need is not started.
    pub setup: Option<String>,
}

impl ExtSpec {
    /// Whether it is started on first use (`"activation": "on_use"`).
    pub fn on_use(&self) -> bool {
        self.manifest
            .as_ref()
            .is_some_and(|m| m.activation == zot_ext_protocol::Activation::OnUse)
    }

    /// What its manifest declares in `contributes` (empty when nothing).
    pub fn declared(&self) -> zot_ext_protocol::Contributes {
        self.manifest
            .as_ref()
            .and_then(|m| m.contributes.clone())
            .unwrap_or_default()
    }
}

/// One run of the process: its pipe, its requests in flight, and the
/// signals its supervisor task answers to. A new connect makes a new one;
/// the old one is dropped with everything it held.
pub(crate) struct ExtRuntime {
    pub pending: Mutex<PendingMap>,
    /// The connection, once spawned.
    sink: RwLock<Option<Arc<dyn FrameSink>>>,
    /// `true` once ready, failed or exited: `wait_ready` watches it.
    pub settled: watch::Sender<bool>,
    /// Set to ask the supervisor to shut the extension down.
    pub stop: watch::Sender<bool>,
    /// The stop was `idle_stop_after`'s (`idle_stop.rs`): the run ends
    /// `idle`, not `exited`, and a use meanwhile waits and starts it again.
    pub idle_stop: AtomicBool,
    /// `true` once the supervisor has finished (process reaped).
    pub done: watch::Sender<bool>,
    /// The task copying its stderr into the log (see `ext_log.rs`).
    pub stderr_pump: Mutex<Option<tokio::task::JoinHandle<()>>>,
    pub dropped_out: Throttle,
    pub bad_lines: Throttle,
    /// `tool_progress` frames for ids not pending (counted, logged sparsely).
    pub stray_progress: Throttle,
    /// Log lines about refused `ui_request`s, capped a minute (`dialogs.rs`).
    pub refused_dialogs: PerMinute,
}

impl ExtRuntime {
    /// Its connection, once spawned.
    pub fn sink(&self) -> Option<Arc<dyn FrameSink>> {
        self.sink.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// A run about to start (`running`), or the settled, finished stand-in
    /// of an extension that is not spawned.
    fn new(running: bool) -> Self {
        ExtRuntime {
            pending: Mutex::new(PendingMap::default()),
            sink: RwLock::new(None),
            settled: watch::channel(!running).0,
            stop: watch::channel(false).0,
            idle_stop: AtomicBool::new(false),
            done: watch::channel(!running).0,
            stderr_pump: Mutex::new(None),
            dropped_out: Throttle::default(),
            bad_lines: Throttle::default(),
            stray_progress: Throttle::default(),
            refused_dialogs: PerMinute::new(crate::io::ext_log::REFUSED_LINES_PER_MINUTE),
        }
    }

    fn pending(&self) -> MutexGuard<'_, PendingMap> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A discovered extension: its spec (what `Deref` reads), what the user
/// sees of it ([`ExtMut`]), and its current run.
pub(crate) struct Ext {
    /// Its id in the host's tables.
    pub id: ExtId,
    pub spec: ExtSpec,
    pub log: ExtLog,
    pub m: Mutex<ExtMut>,
    run: RwLock<Arc<ExtRuntime>>,
    pub dropped_events: Throttle,
    /// Its tool calls and commands, across runs (`ext_list`'s `health`).
    pub stats: Mutex<CallStats>,
    /// Frames the router refused for want of a permission, across runs.
    pub refusals: Refusals,
    /// Its calls in flight, across runs (`uses.rs`).
    pub uses: Uses,
    pub next_id: Arc<AtomicU64>,
    /// The host's request timeouts.
    pub deadlines: Arc<Deadlines>,
}

impl std::ops::Deref for Ext {
    type Target = ExtSpec;

    fn deref(&self) -> &ExtSpec {
        &self.spec
    }
}

impl Ext {
    /// A record for a discovered extension, swept for request timeouts by
    /// `deadlines` for as long as it lives.
    pub fn new(
        id: ExtId,
        spec: ExtSpec,
        log_path: PathBuf,
        state: ExtState,
        next_id: Arc<AtomicU64>,
        deadlines: Arc<Deadlines>,
    ) -> Arc<Self> {
        let running = matches!(state, ExtState::Loading);
        let ext = Arc::new(Ext {
            id,
            spec,
            log: ExtLog::new(log_path),
            m: Mutex::new(ExtMut {
                state: Some(state),
                ..Default::default()
            }),
            run: RwLock::new(Arc::new(ExtRuntime::new(running))),
            dropped_events: Throttle::default(),
            stats: Mutex::new(CallStats::default()),
            refusals: Refusals::default(),
            uses: Uses::default(),
            next_id,
            deadlines,
        });
        let table: std::sync::Weak<dyn Expiring> = Arc::downgrade(&ext) as _;
        ext.deadlines.track(table);
        ext
    }

    /// The current run.
    pub fn run(&self) -> Arc<ExtRuntime> {
        self.run.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Replaces the finished run with a fresh one (pipes, pending table,
    /// signals all new) and returns it; the caller resets [`ExtMut`] with
    /// [`ExtMut::begin_run`] in the same step as the registry.
    pub fn begin_run(&self) -> Arc<ExtRuntime> {
        let run = Arc::new(ExtRuntime::new(true));
        *self.run.write().unwrap_or_else(|e| e.into_inner()) = run.clone();
        run
    }

    pub fn lock(&self) -> MutexGuard<'_, ExtMut> {
        self.m.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn state(&self) -> ExtState {
        self.lock().state.unwrap_or(ExtState::Failed)
    }

    pub fn sink(&self) -> Option<Arc<dyn FrameSink>> {
        self.run().sink()
    }

    pub fn set_sink(&self, sink: Option<Arc<dyn FrameSink>>) {
        *self.run().sink.write().unwrap_or_else(|e| e.into_inner()) = sink;
    }

    pub fn log_path(&self) -> PathBuf {
        self.log.path().to_path_buf()
    }

    /// Refuses a frame whose permission `p` its manifest does not grant:
    /// counted for `ext_list`, logged (throttled) with `what` and why.
    pub fn refuse_ungranted(&self, p: Permission, what: impl FnOnce() -> String) {
        self.refusals.refuse(&self.log, self.spec.grant, p, what);
    }

    /// Refuses something the extension sent: a log line and a warning
    /// (kept up to a cap, then counted).
    pub fn refuse(&self, msg: String) {
        self.log.line(&msg);
        self.lock().warn(msg);
    }

    /// Sends a one-way frame; when the queue is full it is dropped with a
    /// (throttled) log line.
    pub fn send_one_way(&self, line: &[u8]) {
        let run = self.run();
        let Some(sink) = run.sink() else { return };
        if let Err(SendError::Full) = sink.send(line) {
            if let Some(n) = run.dropped_out.hit() {
                self.log.line(&format!(
                    "dropped {n} one-way frame(s) so far: the extension is not reading its stdin"
                ));
            }
        }
    }

    /// Sends a request and waits for its reply, at most `timeout`. `line`
    /// writes the request (with its newline) for the id it is given. Tool
    /// calls and commands are counted in its [`CallStats`].
    pub async fn request(
        &self,
        during: During,
        timeout: Duration,
        line: impl FnOnce(&str) -> Vec<u8>,
    ) -> Result<Reply, HostError> {
        self.request_tool(during, timeout, None, line).await
    }

    /// [`Ext::request`] for a tool call: `timeout` is then its idle
    /// timeout, which each `tool_progress` restarts, and `tool` holds its
    /// absolute cap and where its progress goes.
    pub async fn request_tool(
        &self,
        during: During,
        timeout: Duration,
        tool: Option<ToolWait>,
        line: impl FnOnce(&str) -> Vec<u8>,
    ) -> Result<Reply, HostError> {
        let counted = !matches!(during, During::Intercept(_));
        let started = Instant::now();
        let r = self.send_request(during, timeout, tool, line).await;
        if counted {
            self.stats
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .record(started.elapsed(), r.is_ok());
        }
        r
    }

    /// [`Ext::request`] without the bookkeeping.
    async fn send_request(
        &self,
        during: During,
        timeout: Duration,
        tool: Option<ToolWait>,
        line: impl FnOnce(&str) -> Vec<u8>,
    ) -> Result<Reply, HostError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        let line = line(itoa::Buffer::new().format(id));
        let mut deadline = Instant::now() + timeout;
        if let Some(t) = &tool {
            deadline = deadline.min(t.cap);
        }
        let is_tool = tool.is_some();
        let run = self.run();
        {
            let mut p = run.pending();
            if let Some(closed) = &p.closed {
                return Err(self.closed_error(closed, during));
            }
            let Some(sink) = run.sink() else {
                return Err(self.not_running("it has not started", during));
            };
            match sink.send(&line) {
                Ok(()) => {}
                Err(SendError::Full) => {
                    return Err(HostError::QueueFull {
                        extension: self.name.clone(),
                        during: during.to_string(),
                        log: self.log_path(),
                    })
                }
                Err(_) => return Err(self.not_running("its stdin is closed", during)),
            }
            p.map.insert(
                id,
                Pending {
                    during,
                    tx,
                    deadline,
                    timeout,
                    tool,
                },
            );
        }
        self.deadlines.watch(deadline);
        // The agent drops this future on `abort`: the request then leaves
        // the table at once and the transport may cancel it (MCP).
        let mut abandoned = Abandoned {
            run: &run,
            id: Some(id),
            is_tool,
        };
        // Every sender is answered (reply, timeout, exit or stop) before it
        // is dropped; a bare drop means the host itself went away.
        let r = rx.await;
        abandoned.id = None;
        r.unwrap_or_else(|_| {
            Err(HostError::NotRunning {
                extension: self.name.clone(),
                reason: "the host stopped".into(),
                during: "a request".into(),
                log: self.log_path(),
            })
        })
    }

    /// Completes a pending request. Returns whether `reply` was delivered:
    /// a reply to an unknown id is logged and dropped; a reply of the wrong
    /// kind (a `command_response` to a `tool_call`, …) is logged and fails
    /// the request with [`HostError::WrongReply`], so the caller gets a
    /// clear error instead of a value it cannot use.
    pub fn complete(&self, id: &RequestId, reply: Reply) -> bool {
        let pending = id
            .as_str()
            .parse::<u64>()
            .ok()
            .and_then(|n| self.run().pending().map.remove(&n));
        match pending {
            Some(p) if p.during.expects() == reply.kind() => {
                let _ = p.tx.send(Ok(reply));
                true
            }
            Some(p) => {
                let err = self.wrong_reply(&p.during, reply.kind());
                self.log.line(&format!("{err}; that call failed"));
                let _ = p.tx.send(Err(err));
                false
            }
            None if self.was_cancelled(id) => false,
            None => {
                self.log.line(&format!(
                    "ignored a response to unknown id '{id}' (it timed out, or was never sent)"
                ));
                false
            }
        }
    }

    /// Whether zot sent `tool_cancel` for `id` (forgets it: one late
    /// result is expected, a second is an unknown id again).
    fn was_cancelled(&self, id: &RequestId) -> bool {
        let Ok(n) = id.as_str().parse::<u64>() else {
            return false;
        };
        let run = self.run();
        let mut p = run.pending();
        match p.cancelled.iter().position(|c| *c == n) {
            Some(i) => {
                p.cancelled.remove(i);
                true
            }
            None => false,
        }
    }

    /// A `tool_progress` frame: restarts its call's idle timeout (never
    /// past the cap) and feeds the waiting caller. For an id that is not
    /// a pending tool call it is dropped, counted in the log.
    pub fn progress(&self, frame: zot_ext_protocol::ToolProgress) {
        // The run borrowed, not cloned: this is the hot path of a flood,
        // and an `Arc` clone and drop are two atomic operations per frame.
        let run = self.run.read().unwrap_or_else(|e| e.into_inner());
        let n = frame.id.as_str().parse::<u64>().ok();
        let moved = {
            let mut p = run.pending();
            let found = n.and_then(|n| p.map.get_mut(&n));
            match found {
                Some(Pending {
                    tool: Some(t),
                    deadline,
                    timeout,
                    ..
                }) => {
                    *deadline = (Instant::now() + *timeout).min(t.cap);
                    if let Some(feed) = &t.feed {
                        feed.push(frame);
                    }
                    Ok(())
                }
                _ => Err(frame.id),
            }
        };
        // A later deadline needs no wake: the sweeper finds nothing due at
        // the old one and sleeps towards the new.
        if let Err(id) = moved {
            if let Some(count) = run.stray_progress.hit() {
                self.log.line(&format!(
                    "ignored tool_progress for id '{id}', which is not a pending tool call (it ended, was cancelled, or was never sent); {count} such frame(s) so far"
                ));
            }
        }
    }

    /// Completes the request `id` when one is pending; quiet otherwise (a
    /// refused reply to nothing needs no second log line).
    pub fn complete_if_pending(&self, id: &RequestId, reply: Reply) -> bool {
        let pending = id
            .as_str()
            .parse::<u64>()
            .is_ok_and(|n| self.run().pending().map.contains_key(&n));
        pending && self.complete(id, reply)
    }

    /// Before `shutdown` (the host stops, the project closes, the
    /// extension is reloaded or disabled): each pending tool call gets
    /// `tool_cancel{reason}`, so the extension can stop its work rather
    /// than finish it, and its caller fails at once as a stop fails it.
    pub fn cancel_pending_tools(&self, reason: &str) {
        let run = self.run();
        let drained: Vec<(u64, Pending)> = run
            .pending()
            .map
            .extract_if(.., |_, r| r.tool.is_some())
            .collect();
        let why = Closed::Stopped("it was stopped".into());
        for (id, p) in drained {
            cancel_tool(&run, id, reason);
            let _ = p.tx.send(Err(self.closed_error(&why, p.during)));
        }
    }

    /// Fails every pending request and refuses new ones.
    pub fn close_pending(&self, why: Closed) {
        let drained: Vec<Pending> = {
            let run = self.run();
            let mut p = run.pending();
            p.closed = Some(why.clone());
            std::mem::take(&mut p.map).into_values().collect()
        };
        for p in drained {
            let err = self.closed_error(&why, p.during);
            let _ = p.tx.send(Err(err));
        }
    }

    fn closed_error(&self, why: &Closed, during: During) -> HostError {
        match why {
            Closed::Exited(status) => HostError::Exited {
                extension: self.name.clone(),
                status: status.clone(),
                during: during.to_string(),
                log: self.log_path(),
            },
            Closed::Stopped(reason) => self.not_running(reason, during),
        }
    }

    /// The error for a reply of kind `got` to a request made `during`.
    pub fn wrong_reply(&self, during: &During, got: &str) -> HostError {
        HostError::WrongReply {
            extension: self.name.clone(),
            during: during.to_string(),
            got: got.to_owned(),
            expected: during.expects().to_owned(),
            log: self.log_path(),
        }
    }

    pub fn not_running(&self, reason: &str, during: During) -> HostError {
        HostError::NotRunning {
            extension: self.name.clone(),
            reason: reason.to_owned(),
            during: during.to_string(),
            log: self.log_path(),
        }
    }
}

/// A request whose caller may stop waiting; on drop before its answer it
/// is removed from the table and cancelled on the transport.
struct Abandoned<'a> {
    run: &'a Arc<ExtRuntime>,
    id: Option<u64>,
    is_tool: bool,
}

impl Drop for Abandoned<'_> {
    fn drop(&mut self) {
        let Some(id) = self.id else { return };
        let was_pending = self.run.pending().map.remove(&id).is_some();
        if was_pending {
            if self.is_tool {
                cancel_tool(self.run, id, "aborted");
            } else if let Some(sink) = self.run.sink() {
                sink.cancel(itoa::Buffer::new().format(id));
            }
        }
    }
}

/// Tells the extension zot no longer waits for tool call `id`: a
/// `tool_cancel` frame (an MCP server hears `notifications/cancelled`
/// through [`FrameSink::cancel`]), remembered so its late result is
/// dropped quietly.
fn cancel_tool(run: &ExtRuntime, id: u64, reason: &str) {
    run.pending().cancelled(id);
    let Some(sink) = run.sink() else { return };
    let id = itoa::Buffer::new().format(id).to_owned();
    let line = crate::io::codec::encode(&zot_ext_protocol::HostToExt::ToolCancel(
        zot_ext_protocol::ToolCancel {
            id: RequestId(id.clone()),
            reason: reason.to_owned(),
        },
    ));
    // A full queue drops it: the extension is not reading, and its late
    // result is still dropped quietly.
    let _ = sink.send(&line);
    sink.cancel(&id);
}

impl Expiring for Ext {
    /// Fails this extension's requests that are due by `now`; returns the
    /// earliest deadline left.
    fn expire(&self, now: Instant) -> Option<Instant> {
        let (due, next) = {
            let run = self.run();
            let mut p = run.pending();
            let due: Vec<_> = p.map.extract_if(.., |_, r| r.deadline <= now).collect();
            (due, p.map.values().map(|r| r.deadline).min())
        };
        for (id, r) in due {
            let (limit, secs) = match &r.tool {
                Some(t) if t.cap <= now => (Some(TimeoutLimit::Cap), t.cap_secs),
                Some(_) => (Some(TimeoutLimit::Idle), r.timeout.as_secs().max(1)),
                None => (None, r.timeout.as_secs().max(1)),
            };
            self.log.line(&format!(
                "{} timed out after {} s{}",
                r.during,
                if limit.is_some() {
                    secs as f32
                } else {
                    r.timeout.as_secs_f32()
                },
                limit.map_or("", TimeoutLimit::note)
            ));
            if let Some(l) = limit {
                let reason = match l {
                    TimeoutLimit::Idle => "idle_timeout",
                    TimeoutLimit::Cap => "timeout",
                };
                cancel_tool(&self.run(), id, reason);
            }
            let _ = r.tx.send(Err(HostError::Timeout {
                extension: self.name.clone(),
                during: r.during.to_string(),
                secs,
                limit,
                log: self.log_path(),
            }));
        }
        next
    }
}
