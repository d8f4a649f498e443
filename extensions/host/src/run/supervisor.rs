//! One task per extension that owns its process: spawn and handshake
//! ([`connect`], which a restart policy can call again), then the serve
//! loop (registration window, frames, exit), then the cleanup that keeps a
//! crash from leaking into the rest of the host.

use std::path::Path;
use std::process::ExitStatus;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use tokio::process::Child;
use tokio::time::{sleep_until, Instant};
use zot_ext_protocol::rpc::{ExtState, UiEvent};
use zot_ext_protocol::{ExtToHost, HelloAck, HostToExt, RestartMode, PROTOCOL_VERSION};

use crate::config::{AUTO_READY_IDLE, MAX_LINE_BYTES, READY_GRACE};
use crate::io::child_env::Scrub;
use crate::io::codec::encode;
use crate::io::codec::{self, CodecError, LineReader};
use crate::io::connection::{fill, FrameSink, FrameSource, PipeSink};
use crate::io::process::{self, describe_status, kill_group_and_wait, signal_group, GroupGuard};
use crate::owner::events::HostEvent;
use crate::owner::state::Shared;
use crate::records::extension::{Closed, Ext, ExtMut, ExtRuntime, ReadyKind};
use crate::records::restart_policy::{self, Decision};
use crate::run::router::{mark_ready, route_line, Routed};
use crate::run::shutdown::GROUP_GONE_CAP;
use crate::run::target::Target;
use crate::{io::sandbox, run::panels, run::shutdown};

/// How long to keep reading stdout after the process exited (a grandchild
/// may hold the pipe open).
const DRAIN_AFTER_EXIT: Duration = Duration::from_millis(200);

/// A connected extension after a successful handshake.
pub(crate) struct Session {
    /// The process, when the host spawned one (not for a WebSocket or an
    /// MCP HTTP server, which live elsewhere).
    pub child: Option<Child>,
    pub guard: Option<GroupGuard>,
    pub source: Box<dyn FrameSource>,
}

/// Why an extension could not be connected or stopped running.
pub(crate) enum Failure {
    /// It failed; the message says why; `exit_status` when it exited.
    Failed {
        message: String,
        exit_status: Option<String>,
    },
    /// The host asked it to stop.
    Stopped,
}

impl Failure {
    fn msg(message: impl Into<String>) -> Self {
        Failure::Failed {
            message: message.into(),
            exit_status: None,
        }
    }
}

/// Starts the supervisor task of `ext`.
pub(crate) fn launch(inner: Arc<Shared>, ext: Arc<Ext>) {
    // This task serves this run; a later start makes another.
    let run = ext.run();
    tokio::spawn(async move {
        match connect(&inner, &ext).await {
            Ok(session) => serve(&inner, &ext, session).await,
            Err(f) => finish(&inner, &ext, f, false).await,
        }
        run.done.send_replace(true);
    });
}

/// A spawned process before the handshake.
struct Spawned {
    child: Child,
    guard: GroupGuard,
    stdin: std::os::fd::OwnedFd,
    stdout: tokio::process::ChildStdout,
}

/// Spawns `exec` for `ext` (its stderr pumped into its log), under
/// bubblewrap when its manifest declares a sandbox.
async fn spawn(
    inner: &Arc<Shared>,
    ext: &Arc<Ext>,
    exec: &Path,
    config: &zot_ext_protocol::SettingValues,
) -> Result<Spawned, Failure> {
    let m = ext.manifest.as_ref();
    // `${config:…}` placeholders in arguments too (an MCP bundle's
    // `${user_config.KEY}`: bundle/mcpb.rs).
    let args: Vec<String> = m
        .map(|m| {
            m.args
                .iter()
                .map(|a| crate::settings::mcp_secrets::fill(a, config))
                .collect()
        })
        .unwrap_or_default();
    let scrub = Scrub::for_extensions(&inner.cfg.secret_env_names, &inner.cfg.secret_env_values);
    let mut envs = sdk_env(inner, ext);
    // The manifest's own `env` (loader variables were refused at load), its
    // `${config:…}` placeholders filled from its settings (the keychain
    // holds the credentials: mcp_secrets.rs).
    if let Some(m) = m {
        envs.extend(m.env.iter().map(|(k, v)| {
            (
                k.into(),
                crate::settings::mcp_secrets::fill(v, config).into(),
            )
        }));
    }
    let sp = spawn_prepared(inner, ext, exec, &args, &scrub, &envs).await?;
    let log_of = ext.clone();
    let stderr = sp.stderr;
    let pump =
        tokio::spawn(async move { crate::io::ext_log::pump_stderr(stderr, &log_of.log).await });
    *ext.run()
        .stderr_pump
        .lock()
        .unwrap_or_else(|e| e.into_inner()) = Some(pump);
    {
        let mut m = ext.lock();
        m.pid = Some(sp.pgid);
    }
    Ok(Spawned {
        child: sp.child,
        guard: sp.guard,
        stdin: sp.stdin,
        stdout: sp.stdout,
    })
}

/// Kills what was spawned (if anything) and reaps it.
async fn kill_spawned(child: &mut Option<Child>, guard: &mut Option<GroupGuard>) {
    if let (Some(c), Some(g)) = (child.as_mut(), guard.as_mut()) {
        kill_and_reap(c, g.pgid()).await;
        g.disarm_if_gone();
    }
}

/// Starts or reaches the extension and performs the `hello` /
/// `hello_ack` handshake (an MCP server's `initialize` arrives as its
/// `hello`, see `mcp.rs`).
pub(crate) async fn connect(inner: &Arc<Shared>, ext: &Arc<Ext>) -> Result<Session, Failure> {
    let Some(target) = ext.target.clone() else {
        return Err(Failure::msg("has nothing to start"));
    };
    // A required setting without a value fails here, before anything runs.
    let config = settings_for(inner, ext).await?;
    {
        let mut m = ext.lock();
        m.spawned_at = Some(Instant::now());
        m.said_hello = false;
        m.startup = None;
    }
    let mut child: Option<Child> = None;
    let mut guard: Option<GroupGuard> = None;
    // A WebSocket endpoint proves it holds the extension's token before
    // `hello_ack` (which carries `config`): its token and this connection's
    // challenge (`ws_auth.rs`).
    let mut ws_proof: Option<(String, String)> = None;
    let (sink, mut source): (Arc<dyn FrameSink>, Box<dyn FrameSource>) = match &target {
        Target::Process(exec) => {
            let sp = spawn(inner, ext, exec, &config).await?;
            child = Some(sp.child);
            guard = Some(sp.guard);
            match PipeSink::new(sp.stdin) {
                Ok(s) => (
                    s as Arc<dyn FrameSink>,
                    Box::new(LineReader::new(sp.stdout, MAX_LINE_BYTES)) as Box<dyn FrameSource>,
                ),
                Err(e) => {
                    kill_spawned(&mut child, &mut guard).await;
                    return Err(Failure::msg(format!("could not set up its stdin: {e}")));
                }
            }
        }
        Target::McpStdio(exec) => {
            let sp = spawn(inner, ext, exec, &config).await?;
            child = Some(sp.child);
            guard = Some(sp.guard);
            crate::run::mcp::start(
                inner.clone(),
                ext.clone(),
                crate::run::mcp::McpTarget::Stdio {
                    stdin: sp.stdin,
                    stdout: sp.stdout,
                },
            )
        }
        Target::McpHttp { url, headers } => crate::run::mcp::start(
            inner.clone(),
            ext.clone(),
            crate::run::mcp::McpTarget::Http {
                url: url.clone(),
                headers: headers
                    .iter()
                    .map(|(k, v)| (k.clone(), crate::settings::mcp_secrets::fill(v, &config)))
                    .collect(),
            },
        ),
        Target::WebSocket(url) => {
            let token = ws_token(inner, ext).await?;
            let (sink, source, challenge) =
                crate::io::ws_transport::connect(url, inner.cfg.hello_timeout)
                    .await
                    .map_err(Failure::msg)?;
            ws_proof = Some((token, challenge));
            (sink, source)
        }
    };
    ext.set_sink(Some(sink.clone()));
    let greeting = if target.is_mcp() {
        Greeting::MCP
    } else {
        Greeting::HELLO
    };
    let first = first_line(
        ext,
        child.as_mut(),
        &mut source,
        inner.cfg.hello_timeout,
        greeting,
    )
    .await;
    let line = match first {
        Ok(line) => line,
        Err(f) => {
            kill_spawned(&mut child, &mut guard).await;
            return Err(f);
        }
    };
    let refusal = match codec::decode(&line) {
        Ok(ExtToHost::Hello(h)) => {
            if h.name != ext.name {
                name_mismatch(ext, &h.name);
            }
            capabilities_beyond_grant(ext, &h.capabilities);
            ext.lock().panel_caps = zot_ext_protocol::PanelCapability::declared_in(&h.capabilities);
            ws_proof.as_ref().and_then(|(token, challenge)| {
                crate::io::ws_auth::verify(token, challenge, h.auth.as_deref(), &ext.name).err()
            })
        }
        Ok(other) => Some(format!(
            "sent '{}' as its first frame instead of 'hello'; stopped",
            frame_type(&other)
        )),
        Err(e) => Some(format!(
            "sent a first line that is not a hello frame ({e}); stopped"
        )),
    };
    if let Some(message) = refusal {
        kill_spawned(&mut child, &mut guard).await;
        return Err(Failure::msg(message));
    }
    ext.lock().said_hello = true;
    let ack = HostToExt::HelloAck(HelloAck {
        protocol_version: PROTOCOL_VERSION,
        zot_version: inner.cfg.zot_version.clone(),
        provider: inner.cfg.provider.clone(),
        model: inner.cfg.model.clone(),
        cwd: inner.cfg.cwd.display().to_string(),
        extension_dir: ext.dir.display().to_string(),
        data_dir: ext.dir.display().to_string(),
        config,
        state: inner.session_state.of(&ext.name),
    });
    if sink.send(&encode(&ack)).is_err() {
        let status = match (child.as_mut(), guard.as_ref()) {
            (Some(c), Some(g)) => reap_soon(c, g.pgid(), sandboxed(ext)).await,
            _ => "connection closed".into(),
        };
        if let Some(g) = guard.as_mut() {
            g.disarm_if_gone();
        }
        return Err(Failure::Failed {
            message: format!("exited ({status}) right after hello"),
            exit_status: Some(status),
        });
    }
    Ok(Session {
        child,
        guard,
        source,
    })
}

/// The settings `ext` starts with (docs/rpc.md "Extension settings"):
/// read off the async threads (the keychain is a blocking D-Bus call).
/// A required setting without a value keeps it from starting.
async fn settings_for(
    inner: &Arc<Shared>,
    ext: &Arc<Ext>,
) -> Result<zot_ext_protocol::SettingValues, Failure> {
    let schema = match ext.manifest.as_ref() {
        Some(m) if !m.config.is_empty() => m.config.clone(),
        _ => return Ok(Default::default()),
    };
    let home = inner.cfg.zot_home.clone();
    // Keyed by its folder: a same-name copy elsewhere gets none of them.
    let owner = crate::settings::settings_store::Owner::of(&ext.name, &ext.dir);
    let schema_for_task = schema.clone();
    let resolved = tokio::task::spawn_blocking(move || {
        crate::settings::settings_store::resolve(&home, &owner, &schema_for_task)
    })
    .await
    .map_err(|e| Failure::msg(format!("could not read its settings: {e}")))?
    .map_err(|e| Failure::msg(format!("could not read its settings: {e}")))?;
    for w in &resolved.warnings {
        ext.log.line(w);
        let mut m = ext.lock();
        if !m.warnings.contains(w) {
            m.warn(w.clone());
        }
    }
    if !resolved.missing.is_empty() {
        return Err(Failure::msg(
            crate::settings::settings_store::missing_message(&ext.name, &schema, &resolved.missing),
        ));
    }
    Ok(resolved.values)
}

/// The token a WebSocket endpoint of `ext` must hold, made the first time
/// (read off the async threads: the keychain is a blocking D-Bus call).
async fn ws_token(inner: &Arc<Shared>, ext: &Arc<Ext>) -> Result<String, Failure> {
    let home = inner.cfg.zot_home.clone();
    let owner = crate::settings::settings_store::Owner::of(&ext.name, &ext.dir);
    tokio::task::spawn_blocking(move || {
        crate::io::ws_auth::token(
            &crate::settings::secret_store::SecretStore::open(&home),
            &owner,
        )
    })
    .await
    .map_err(|e| Failure::msg(format!("could not read its WebSocket token: {e}")))?
    .map_err(|e| Failure::msg(format!("could not read its WebSocket token: {e}")))
}

/// Whether `ext` runs under bwrap (its manifest declares a sandbox).
fn sandboxed(ext: &Ext) -> bool {
    ext.manifest.as_ref().is_some_and(|m| m.sandbox.is_some())
}

/// Prepares and spawns `exec` the way `launch.rs` says: plain, or under
/// bubblewrap with the view its manifest's `sandbox` grants (no sandbox,
/// no start: the failure says why and how to fix it), then gives a
/// networked sandbox its network.
async fn spawn_prepared(
    inner: &Shared,
    ext: &Ext,
    exec: &Path,
    args: &[String],
    scrub: &Scrub,
    envs: &[(std::ffi::OsString, std::ffi::OsString)],
) -> Result<process::Spawned, Failure> {
    let m = ext.manifest.as_ref();
    // An MCP stdio server names its program in `command`.
    let raw_exec = m
        .and_then(|m| m.exec.as_deref().or(m.command.as_deref()))
        .unwrap_or_default();
    let spec = m.and_then(|m| m.sandbox.as_ref());
    let bwrap = match spec {
        Some(_) => Some(
            sandbox::probe(&inner.cfg.bwrap)
                .await
                .map_err(Failure::msg)?,
        ),
        None => None,
    };
    let home = crate::io::launch::home();
    let request = crate::io::launch::Request {
        exec,
        raw_exec,
        args,
        dir: &ext.dir,
        scrub,
        envs,
        sandbox: spec
            .zip(bwrap.as_deref())
            .map(|(spec, bwrap)| crate::io::launch::Sandboxed {
                spec,
                bwrap,
                slirp4netns: &inner.cfg.slirp4netns,
                sdk: inner.sdk().ok(),
                zot_home: &inner.cfg.zot_home,
                home: home.as_deref(),
            }),
        keeper: true,
    };
    let crate::io::launch::Prepared {
        cmd,
        passed,
        net,
        notes,
        kept,
        ..
    } = crate::io::launch::prepare(&request).map_err(Failure::msg)?;
    for note in &notes {
        ext.log.line(note);
    }
    let sp = process::spawn(cmd, passed, kept).map_err(|e| {
        Failure::msg(match &bwrap {
            Some(b) => format!(
                "could not start {} under {}: {e}",
                exec.display(),
                b.display()
            ),
            None => format!("could not start {}: {e}", exec.display()),
        })
    })?;
    if let Some(net) = net {
        let r = tokio::task::spawn_blocking(move || net.finish())
            .await
            .unwrap_or_else(|e| Err(e.to_string()));
        if let Err(e) = r {
            let mut child = sp.child;
            kill_and_reap(&mut child, sp.pgid).await;
            let mut guard = sp.guard;
            guard.disarm_if_gone();
            return Err(Failure::msg(e));
        }
    }
    Ok(sp)
}

/// The reference zot trusts the manifest's name and ignores what `hello`
/// says, and extensions in the wild rely on it (docs/compat.md): accept,
/// keep the manifest's name, and tell the author through the log and the
/// doctor.
fn name_mismatch(ext: &Ext, said: &str) {
    let note = format!(
        "said hello as '{said}', but its manifest names it '{}'; zot uses the manifest's name: make them equal",
        ext.name
    );
    if crate::records::extension::tolerate(ext, note.clone()) {
        ext.log.line(&note);
    }
}

/// `hello.capabilities` is informational, but one that claims a
/// permission the manifest does not grant means frames will be refused:
/// warned once per load in the log and the doctor.
fn capabilities_beyond_grant(ext: &Ext, capabilities: &[String]) {
    for w in crate::policy::permissions::capability_warnings(ext.grant, capabilities) {
        let mut m = ext.lock();
        if !m.warnings.contains(&w) {
            m.warn(w.clone());
            drop(m);
            ext.log.line(&w);
        }
    }
}

/// The SDK environment of `ext`; its warnings go to its log and, once
/// each, to the warnings the doctor shows.
fn sdk_env(inner: &Shared, ext: &Ext) -> Vec<(std::ffi::OsString, std::ffi::OsString)> {
    let env = crate::manage::sdk::spawn_env(inner.sdk(), &ext.dir);
    for w in env.warnings {
        ext.log.line(&w);
        let mut m = ext.lock();
        if !m.warnings.contains(&w) {
            m.warn(w);
        }
    }
    env.vars
}

/// How the errors of a start that never got to `hello` name what it did
/// not do: a zot extension's hello, or an MCP server's handshake.
struct Greeting {
    /// "did not … within N s".
    timeout: &'static str,
    /// "exited (…) before …".
    exited: &'static str,
    /// "<error> before …; disconnected".
    broke: &'static str,
}

impl Greeting {
    const HELLO: Greeting = Greeting {
        timeout: "send hello",
        exited: "sending hello",
        broke: "hello",
    };
    const MCP: Greeting = Greeting {
        timeout: "complete the MCP handshake (initialize, tools/list)",
        exited: "completing the MCP handshake",
        broke: "the MCP handshake completed",
    };
}

/// Waits for the first non-blank line, the process's exit, the hello
/// timeout or a stop request. `greeting` names what it was doing, for
/// the error.
async fn first_line(
    ext: &Ext,
    child: Option<&mut Child>,
    source: &mut Box<dyn FrameSource>,
    timeout: Duration,
    greeting: Greeting,
) -> Result<Vec<u8>, Failure> {
    let deadline = Instant::now() + timeout;
    let mut stop = ext.run().stop.subscribe();
    let mut child = child;
    loop {
        while let Some(line) = source.take_line() {
            if !line.iter().all(u8::is_ascii_whitespace) {
                return Ok(line.to_vec());
            }
        }
        tokio::select! {
            r = fill(source.as_mut()) => match r {
                Ok(true) => {}
                Ok(false) => {
                    let status = match child.as_deref_mut() {
                        Some(c) => {
                            let pgid = c.id().and_then(|p| i32::try_from(p).ok()).unwrap_or(0);
                            reap_soon(c, pgid, sandboxed(ext)).await
                        }
                        None => "connection closed".into(),
                    };
                    return Err(Failure::Failed {
                        message: format!("exited ({status}) before {}", greeting.exited),
                        exit_status: Some(status),
                    });
                }
                Err(e) => return Err(Failure::msg(format!("{e} before {}; disconnected", greeting.broke))),
            },
            _ = sleep_until(deadline) => {
                return Err(Failure::msg(format!(
                    "did not {} within {} s; stopped",
                    greeting.timeout,
                    timeout.as_secs_f32()
                )))
            }
            _ = stopped(&mut stop) => return Err(Failure::Stopped),
        }
    }
}

/// How a running extension's serve loop ended.
enum End {
    /// stdout closed or the process exited.
    Gone,
    /// A protocol violation that ends the connection.
    Disconnect(String),
    /// The host stopped it; the exit status if it had one.
    Stopped,
}

/// Serves one run: routes frames until the process goes away or the host
/// stops it, then ends it.
async fn serve(inner: &Arc<Shared>, ext: &Arc<Ext>, mut session: Session) {
    let ending = route_frames(inner, ext, session.child.as_mut(), &mut session.source).await;
    conclude(inner, ext, session, ending).await;
}

/// How a run's frame loop ended.
struct Ending {
    end: End,
    /// Its exit status, if the process exited.
    exited: Option<ExitStatus>,
    /// Whether it became ready.
    ready: bool,
}

/// The frame loop: the registration window (explicit or idle ready), every
/// frame after it, the drain after an exit.
async fn route_frames(
    inner: &Arc<Shared>,
    ext: &Arc<Ext>,
    child: Option<&mut Child>,
    source: &mut Box<dyn FrameSource>,
) -> Ending {
    let start = Instant::now();
    let grace_end = start + READY_GRACE;
    let mut ready = false;
    let mut exited: Option<ExitStatus> = None;
    let mut stop = ext.run().stop.subscribe();
    let end = {
        // Long-lived futures, so the steady state (one line in, one routed)
        // builds nothing per iteration.
        // A connection that is not a process has no exit to wait for.
        let exit = async move {
            match child {
                Some(c) => c.wait().await,
                None => std::future::pending().await,
            }
        };
        tokio::pin!(exit);
        let stop_requested = stopped(&mut stop);
        tokio::pin!(stop_requested);
        // Auto-ready while registering; after an exit, the drain deadline.
        let timer = sleep_until((start + AUTO_READY_IDLE).min(grace_end));
        tokio::pin!(timer);
        let mut timer_on = true;
        let mut draining = false;
        loop {
            while let Some(line) = source.take_line() {
                match route_line(inner, ext, line) {
                    Routed::Registration if !ready && !draining => {
                        let idle_end = (Instant::now() + AUTO_READY_IDLE).min(grace_end);
                        timer.as_mut().reset(idle_end);
                    }
                    Routed::Ready if !ready => {
                        ready = true;
                        timer_on = draining;
                        mark_ready(inner, ext, ReadyKind::Explicit);
                    }
                    Routed::ShutdownAck => ext.log.line("acknowledged shutdown"),
                    _ => {}
                }
            }
            tokio::select! {
                r = fill(source.as_mut()) => match r {
                    Ok(true) => {}
                    Ok(false) => break End::Gone,
                    Err(e @ CodecError::MaxLineLengthExceeded { .. }) => {
                        break End::Disconnect(format!("{e}; disconnected"))
                    }
                    Err(e) => break End::Disconnect(e.to_string()),
                },
                st = &mut exit, if !draining => {
                    // `draining` also keeps a finished future from being
                    // polled again, even when `wait` itself failed.
                    exited = st.ok();
                    draining = true;
                    timer_on = true;
                    timer.as_mut().reset(Instant::now() + DRAIN_AFTER_EXIT);
                }
                _ = &mut timer, if timer_on => {
                    if draining {
                        break End::Gone;
                    }
                    ready = true;
                    timer_on = false;
                    mark_ready(inner, ext, ReadyKind::Auto);
                }
                _ = &mut stop_requested => break End::Stopped,
            }
        }
    };
    Ending { end, exited, ready }
}

/// Ends the run the way it ended: the shutdown sequence when stopped, the
/// reaping of what is left when it went away or broke the protocol, then
/// [`finish`].
async fn conclude(inner: &Arc<Shared>, ext: &Arc<Ext>, session: Session, ending: Ending) {
    let Session {
        child,
        guard,
        mut source,
    } = session;
    let Ending { end, exited, ready } = ending;
    let (Some(mut child), Some(mut guard)) = (child, guard) else {
        return conclude_remote(inner, ext, &mut source, end, ready).await;
    };
    let pgid = guard.pgid();
    match end {
        End::Stopped => {
            shutdown::stop_child(inner, ext, &mut child, &mut source, pgid, exited).await;
            finish(inner, ext, Failure::Stopped, true).await;
        }
        End::Gone => {
            let status = match exited {
                Some(s) => {
                    kill_group_and_wait(pgid, GROUP_GONE_CAP).await;
                    describe_status(sandbox::unwrap_status(s, sandboxed(ext)))
                }
                None => reap_soon(&mut child, pgid, sandboxed(ext)).await,
            };
            let message = format!("exited ({status})");
            finish(
                inner,
                ext,
                Failure::Failed {
                    message,
                    exit_status: Some(status),
                },
                ready,
            )
            .await;
        }
        End::Disconnect(message) => {
            ext.log.line(&message);
            kill_and_reap(&mut child, pgid).await;
            finish(
                inner,
                ext,
                Failure::Failed {
                    message,
                    exit_status: None,
                },
                ready,
            )
            .await;
        }
    }
    guard.disarm_if_gone();
}

/// Ends a run with no process of ours (a WebSocket extension, an MCP HTTP
/// server): stopping sends `shutdown` and closes the connection once the
/// peer is done (or after the shutdown grace); a connection that closed or
/// broke counts as a crash, so the restart budget is its reconnect policy.
async fn conclude_remote(
    inner: &Arc<Shared>,
    ext: &Arc<Ext>,
    source: &mut Box<dyn FrameSource>,
    end: End,
    ready: bool,
) {
    let how = match end {
        End::Stopped => {
            shutdown::stop_remote(inner, ext, source).await;
            Failure::Stopped
        }
        End::Gone => Failure::Failed {
            message: "closed the connection".into(),
            exit_status: Some("connection closed".into()),
        },
        End::Disconnect(message) => Failure::Failed {
            message,
            exit_status: Some("disconnected".into()),
        },
    };
    finish(inner, ext, how, ready).await;
}

/// Records the end of `ext`: pending calls fail, then its state, its
/// registry entries and its panels change in one step (see
/// [`Shared::retire`]), then the UI hears of it: an `ext_error` unless the
/// host stopped it on purpose, a close per panel, `ext_changed`. A crash
/// within the restart budget is followed by `ext_restarting` and a fresh
/// run after the backoff ([`restart_after`]).
pub(crate) async fn finish(inner: &Arc<Shared>, ext: &Arc<Ext>, how: Failure, was_ready: bool) {
    drain_stderr(ext).await;
    if let Some(sink) = ext.sink() {
        sink.close();
    }
    let log = ext.log.path().display().to_string();
    let mut then: Option<Decision> = None;
    let (panels, reason) = match how {
        Failure::Stopped => {
            ext.close_pending(Closed::Stopped("it was stopped".into()));
            // `idle_stop_after` ends an on_use run at rest, not exited.
            let idle = ext.run().idle_stop.load(Ordering::Acquire);
            let panels = inner.retire(ext, |m| {
                if idle {
                    m.rest(ext);
                } else {
                    m.state = Some(ExtState::Exited);
                }
            });
            (panels, None)
        }
        Failure::Failed {
            message,
            exit_status,
        } => {
            ext.log.line(&message);
            ext.close_pending(match &exit_status {
                Some(s) => Closed::Exited(s.clone()),
                None => Closed::Stopped(format!("it was disconnected: {message}")),
            });
            let decision = crash_decision(ext, &exit_status, was_ready);
            // An on_use extension is not restarted after a backoff: within
            // its budget it rests idle and its next use starts it.
            let idle_again = matches!(decision, Some(Decision::Restart { .. })) && ext.on_use();
            let mut full = format!("extension '{}' {message}; see {log}", ext.name);
            if decision == Some(Decision::GiveUp) {
                full = given_up(ext, &full, was_ready);
            }
            let panels = inner.retire(ext, |m| {
                m.ever_ready |= was_ready;
                if idle_again {
                    m.rest(ext);
                } else {
                    m.state = Some(match decision {
                        // An on_use extension may spend its budget on
                        // starts that never got to ready: it failed.
                        Some(Decision::GiveUp) if m.ever_ready => ExtState::Crashed,
                        Some(Decision::GiveUp) => ExtState::Failed,
                        _ if was_ready => ExtState::Exited,
                        _ => ExtState::Failed,
                    });
                }
                m.error = Some(full.clone());
                m.exit_status = exit_status.clone();
                if exit_status.is_some() {
                    m.last_exit = exit_status.clone();
                }
            });
            inner.post(
                HostEvent::Ui(UiEvent::ExtError {
                    extension: ext.name.clone(),
                    message: full,
                    log_path: log,
                    exit_status: exit_status.clone(),
                }),
                None,
            );
            if matches!(decision, Some(Decision::Restart { .. })) && !idle_again {
                then = decision;
            }
            let reason = if idle_again {
                format!(
                    "'{}' crashed; it starts again on its next use — reopen the panel with its command",
                    ext.name
                )
            } else {
                announce(inner, ext, decision, exit_status)
            };
            remember_crashed_panels(ext, &panels);
            (panels, Some(reason))
        }
    };
    ext.run().settled.send_replace(true);
    panels::closed_with(inner, ext, panels, reason);
    inner.changed();
    if let Some(Decision::Restart { delay, .. }) = then {
        restart_after(inner.clone(), ext.clone(), delay);
    }
}

/// Posts `ext_restarting` when the crash is followed by a restart, and
/// returns what its closed panels say about it.
fn announce(
    inner: &Shared,
    ext: &Ext,
    decision: Option<Decision>,
    exit_status: Option<String>,
) -> String {
    match decision {
        Some(Decision::Restart { attempt, delay }) => {
            inner.post(
                HostEvent::Ui(UiEvent::ExtRestarting {
                    extension: ext.name.clone(),
                    attempt,
                    delay_ms: u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
                    exit_status,
                }),
                None,
            );
            format!(
                "'{}' crashed; restarting in {} s — reopen the panel once it is back",
                ext.name,
                delay.as_secs_f32()
            )
        }
        Some(Decision::GiveUp) => format!(
            "'{}' crashed too often and was not restarted; Restart it in the extension manager",
            ext.name
        ),
        None => format!("'{}' exited", ext.name),
    }
}

/// Whether a run that ended with `exit_status` is restarted: only a process
/// that exited on its own (not a protocol violation the host cut off, which
/// would only repeat), of an extension with `restart: "on-failure"`, that is
/// or has been ready in this load (a first start that never gets there is
/// `failed` at once: see docs/host.md "Restart policy"). An `on_use`
/// extension is started again by its next use rather than after a
/// backoff, so every failure of it counts (a failed first start, a crash
/// after ready, a cut connection): the budget is what bounds the retries.
/// `None`: not a crash the policy handles.
fn crash_decision(ext: &Ext, exit_status: &Option<String>, was_ready: bool) -> Option<Decision> {
    let mode = ext.manifest.as_ref().map(|m| m.restart).unwrap_or_default();
    let on_use = ext.on_use();
    if mode == RestartMode::Never || (exit_status.is_none() && !on_use) {
        return None;
    }
    let mut m = ext.lock();
    if !(was_ready || m.ever_ready || on_use) {
        return None;
    }
    Some(m.budget.on_crash(Instant::now()))
}

/// How many of its last log lines a `crashed` extension's error quotes.
const LAST_LOG_LINES: usize = 5;

/// The error of an extension whose budget is spent: what happened, that it
/// stays down, and the last lines of its log (its own words on why). One
/// that never got to ready (an on_use extension's first uses) failed to
/// start rather than crashed.
fn given_up(ext: &Ext, message: &str, was_ready: bool) -> String {
    let lines = crate::manage::logs::tail_lines(ext.log.path(), LAST_LOG_LINES);
    let what = if was_ready || ext.lock().ever_ready {
        "crashed"
    } else {
        "failed to start"
    };
    let mut out = format!(
        "{message}; it {what} {} times in 5 minutes, so it stays down until you restart it (ext_restart, the manager's Restart, or a reload)",
        restart_policy::BACKOFF.len() + 1
    );
    if !lines.is_empty() {
        out.push_str("; last log lines:\n");
        out.push_str(&lines.join("\n"));
    }
    out
}

/// Most panel ids remembered as closed by a crash.
const MAX_CRASHED_PANELS: usize = 16;

/// Remembers `ids` as panels its crash closed, so a key for one is answered
/// with a status rather than an error.
fn remember_crashed_panels(ext: &Ext, ids: &[String]) {
    if ids.is_empty() {
        return;
    }
    let mut m = ext.lock();
    for id in ids.iter() {
        m.crashed_panels.retain(|(p, _)| p != id);
        m.crashed_panels.push((id.clone(), false));
    }
    let over = m.crashed_panels.len().saturating_sub(MAX_CRASHED_PANELS);
    m.crashed_panels.drain(..over);
}

/// After `delay`, starts `ext` again, unless meanwhile the host stopped the
/// run that crashed (shutdown, reload, a manual restart all do): those
/// never count as crashes and win over the backoff.
fn restart_after(inner: Arc<Shared>, ext: Arc<Ext>, delay: Duration) {
    let crashed = ext.run();
    tokio::spawn(async move {
        let mut stop = crashed.stop.subscribe();
        tokio::select! {
            _ = tokio::time::sleep(delay) => {}
            _ = stopped(&mut stop) => return,
        }
        // One after the other with reloads, shutdown and manual restarts.
        let _serial = inner.lifecycle.lock().await;
        let current = Arc::ptr_eq(&ext.run(), &crashed)
            && !*crashed.stop.borrow()
            && inner.lock().exts.iter().any(|e| Arc::ptr_eq(e, &ext));
        if current && ext.target.is_some() {
            ext.log.line("restarting after a crash");
            relaunch(&inner, &ext);
        }
    });
}

/// Starts a fresh run of `ext` (it must not be running): a new runtime, its
/// registrations forgotten in the same step as the registry, then its
/// supervisor task. Returns the new run.
pub(crate) fn relaunch(inner: &Arc<Shared>, ext: &Arc<Ext>) -> Arc<ExtRuntime> {
    let run = ext.begin_run();
    inner.update(ext, ExtMut::begin_run);
    inner.changed();
    launch(inner.clone(), ext.clone());
    run
}

/// The exit status of a process whose stdout closed: it normally exits at
/// once; if it lingers it is killed.
async fn reap_soon(child: &mut Child, pgid: i32, sandboxed: bool) -> String {
    let status = match tokio::time::timeout(Duration::from_millis(500), child.wait()).await {
        Ok(Ok(s)) => Some(s),
        _ => None,
    };
    signal_group(pgid, libc::SIGKILL);
    let lingered = status.is_none();
    let status = match status {
        Some(s) => Some(s),
        None => child.wait().await.ok(),
    };
    kill_group_and_wait(pgid, GROUP_GONE_CAP).await;
    let status = status.map(|s| sandbox::unwrap_status(s, sandboxed));
    match (status, lingered) {
        (Some(s), false) => describe_status(s),
        (Some(s), true) => format!("closed its stdout and was killed: {}", describe_status(s)),
        (None, _) => "unknown status".into(),
    }
}

/// Lets the stderr pump copy what the process wrote before it ended, so
/// its last words are in the log before its end is reported; a
/// grandchild holding the pipe open cannot delay this past a short cap.
async fn drain_stderr(ext: &Ext) {
    let pump = ext
        .run()
        .stderr_pump
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    if let Some(pump) = pump {
        let _ = tokio::time::timeout(Duration::from_millis(300), pump).await;
    }
}

/// Kills the whole group and reaps the leader.
pub(crate) async fn kill_and_reap(child: &mut Child, pgid: i32) {
    signal_group(pgid, libc::SIGKILL);
    let _ = child.wait().await;
    kill_group_and_wait(pgid, GROUP_GONE_CAP).await;
}

/// Resolves once the host has asked this extension to stop.
async fn stopped(rx: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = rx.wait_for(|s| *s).await;
}

fn frame_type(frame: &ExtToHost) -> String {
    serde_json::to_value(frame)
        .ok()
        .and_then(|v| v.get("type").and_then(|t| t.as_str()).map(str::to_owned))
        .unwrap_or_else(|| "?".into())
}
