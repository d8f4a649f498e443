//! `zot ext test DIR`: a conformance kit for authors. It starts the
//! extension alone (with zot's SDK environment, as zot would), speaks the
//! protocol to it directly, and judges each step as a named check that
//! cites the section of `docs/extensions.md` it relies on: the handshake,
//! readiness, registrations, every command, every tool (with arguments made
//! from its schema, and with arguments that break it), a slow tool's
//! `tool_cancel`, a panel's keys and close, and shutdown with no process
//! left behind.

mod driver;
mod schema;
mod scripted_user;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{json, Value};

use crate::config::{AUTO_READY_IDLE, HELLO_TIMEOUT, READY_GRACE, SHUTDOWN_GRACE};
use crate::manifest;
use driver::{Driver, Wait};

/// How a check ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// It holds.
    Pass,
    /// It does not; `detail`, `frame` and `fix` say why and what to do.
    Fail,
    /// Not applicable (no panel opened) or not reachable (an earlier check failed).
    Skip,
}

/// One named check.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    /// `hello`, `ready`, `registrations`, `commands`, `tools`, `cancel`, `panels`, `dialogs`, `shutdown`.
    pub name: &'static str,
    /// The guide section it relies on.
    pub section: &'static str,
    /// Its outcome.
    pub status: Status,
    /// What was seen.
    pub detail: String,
    /// The frame (or line) that broke it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame: Option<String>,
    /// How to fix it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

/// The whole run.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The manifest's name (or the folder's, when the manifest is broken).
    pub extension: String,
    /// The folder tested.
    pub dir: String,
    /// The extension's stderr during the run.
    pub log: String,
    /// `false` when any check failed.
    pub ok: bool,
    /// Every check, in order.
    pub checks: Vec<Check>,
}

/// Budgets; the defaults are the spec's.
#[derive(Debug, Clone)]
pub struct Options {
    /// How long a command may take (30 s).
    pub command_timeout: Duration,
    /// How long a tool call may take (60 s).
    pub tool_timeout: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            command_timeout: Duration::from_secs(30),
            tool_timeout: Duration::from_secs(60),
        }
    }
}

const LIFECYCLE: &str = "docs/extensions.md#lifecycle-and-timeouts";
const REFERENCE: &str = "docs/extensions.md#protocol-reference";
const DIALOGS: &str = "docs/extensions.md#dialogs";
const LONG_CALLS: &str = "docs/extensions.md#long-tool-calls";

/// How long after `tool_cancel` a frame for the call still counts as in
/// flight rather than as work that went on.
const CANCEL_GRACE: Duration = Duration::from_secs(1);

/// The tool the `cancel` check uses: it sent `tool_progress` in the
/// `tools` check, answering `args` after `took`.
struct Slow {
    name: String,
    args: Value,
    took: Duration,
}

fn check(name: &'static str, section: &'static str, status: Status, detail: String) -> Check {
    Check {
        name,
        section,
        status,
        detail,
        frame: None,
        fix: None,
    }
}

fn fail(
    name: &'static str,
    section: &'static str,
    detail: String,
    frame: Option<String>,
    fix: &str,
) -> Check {
    Check {
        name,
        section,
        status: Status::Fail,
        detail,
        frame,
        fix: Some(fix.to_owned()),
    }
}

/// Runs every check against the extension in `dir`. Blocking; the log goes
/// to `$ZOT_HOME/logs/ext-<name>.test.log`.
pub fn run(dir: &Path, zot_home: &Path, opts: &Options) -> Report {
    let manifest_path = dir.join(manifest::MANIFEST_FILE);
    let folder = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut report = Report {
        extension: folder,
        dir: dir.display().to_string(),
        log: String::new(),
        ok: false,
        checks: Vec::new(),
    };
    let m = match manifest::load(&manifest_path) {
        Ok(m) => m,
        Err(e) => {
            report.checks.push(fail(
                "manifest",
                "docs/extensions.md#quick-start",
                e.to_string(),
                None,
                "fix extension.json",
            ));
            return report;
        }
    };
    report.extension = m.name.clone();
    let Some(raw_exec) = m.exec.as_deref() else {
        report.checks.push(check(
            "manifest",
            "docs/extensions.md#quick-start",
            Status::Pass,
            "theme-only: no exec, so there is no process to test".into(),
        ));
        report.ok = true;
        return report;
    };
    let exec = match manifest::resolve_exec(&manifest_path, raw_exec) {
        Ok(p) => p,
        Err(e) => {
            report.checks.push(fail(
                "manifest",
                "docs/extensions.md#quick-start",
                e.to_string(),
                None,
                "make exec point at an executable file (chmod +x)",
            ));
            return report;
        }
    };
    let log = crate::home::log_path(zot_home, &format!("{}.test", m.name));
    report.log = log.display().to_string();
    let sdk = crate::manage::sdk::ensure(zot_home).map_err(|e| e.to_string());
    let env = crate::manage::sdk::spawn_env(sdk.as_deref().map_err(String::as_str), dir);
    let mut envs = env.vars;
    let no_settings = zot_ext_protocol::SettingValues::default();
    envs.extend(m.env.iter().map(|(k, v)| {
        (
            k.into(),
            crate::settings::mcp_secrets::fill(v, &no_settings).into(),
        )
    }));
    let driver = start(
        &m,
        &exec,
        raw_exec,
        dir,
        zot_home,
        sdk.as_deref().ok(),
        &envs,
        &log,
    );
    let mut d = match driver {
        Ok(d) => d,
        Err(e) => {
            report.checks.push(fail(
                "hello",
                LIFECYCLE,
                format!("could not start {}: {e}", exec.display()),
                None,
                "check exec and its interpreter line, and its sandbox",
            ));
            return finish(report);
        }
    };
    // A scratch data_dir, so testing never touches the state an
    // extension keeps in its own folder; a sandboxed one sees nothing of
    // `$ZOT_HOME`, so it gets its own folder, as zot gives it.
    let scratch = zot_home
        .join("tmp")
        .join(format!("ext-test-{}-{}", m.name, std::process::id()));
    let data = if m.sandbox.is_some() {
        dir.to_path_buf()
    } else {
        let _ = std::fs::create_dir_all(&scratch);
        scratch.clone()
    };
    Session {
        d: &mut d,
        name: &m.name,
        dir,
        data: &data,
        opts,
        checks: &mut report.checks,
    }
    .run();
    d.kill();
    let _ = std::fs::remove_dir_all(&scratch);
    finish(report)
}

/// Starts the extension as zot would (`launch.rs`): the same environment
/// scrub, the same sandbox (with its network) when the manifest declares
/// one.
#[allow(clippy::too_many_arguments)]
fn start(
    m: &zot_ext_protocol::Manifest,
    exec: &Path,
    raw_exec: &str,
    dir: &Path,
    zot_home: &Path,
    sdk: Option<&Path>,
    envs: &[(std::ffi::OsString, std::ffi::OsString)],
    log: &Path,
) -> Result<Driver, String> {
    let bwrap = match &m.sandbox {
        Some(_) => Some(crate::io::sandbox::probe_blocking(
            &crate::io::sandbox::default_bwrap(),
        )?),
        None => None,
    };
    let slirp = crate::io::sandbox::net::default_slirp4netns();
    let home = crate::io::launch::home();
    let scrub = crate::io::child_env::Scrub::for_extensions(&[], &[]);
    let request = crate::io::launch::Request {
        exec,
        raw_exec,
        args: &m.args,
        dir,
        scrub: &scrub,
        envs,
        sandbox: m
            .sandbox
            .as_ref()
            .zip(bwrap.as_deref())
            .map(|(spec, bwrap)| crate::io::launch::Sandboxed {
                spec,
                bwrap,
                slirp4netns: &slirp,
                sdk,
                zot_home,
                home: home.as_deref(),
            }),
        // Without a keeper, so the shutdown check can tell the author what
        // their extension leaves behind (zot's keeper would sweep it).
        keeper: false,
    };
    let prepared = crate::io::launch::prepare(&request)?;
    Driver::start(prepared, log).map_err(|e| e.to_string())
}

fn finish(mut report: Report) -> Report {
    report.ok = report.checks.iter().all(|c| c.status != Status::Fail);
    report
}

struct Session<'a> {
    d: &'a mut Driver,
    name: &'a str,
    dir: &'a Path,
    data: &'a Path,
    opts: &'a Options,
    checks: &'a mut Vec<Check>,
}

/// What registration announced.
#[derive(Default)]
struct Registered {
    commands: Vec<String>,
    tools: Vec<(String, Value)>,
    frames: Vec<Value>,
}

/// The checks after `hello` that a missing `hello` skips, in the order
/// [`Session::run`] makes them; a missing `ready` skips all but the first.
const AFTER_HELLO: [&str; 7] = [
    "ready",
    "registrations",
    "commands",
    "tools",
    "cancel",
    "panels",
    "shutdown",
];

impl Session<'_> {
    fn run(mut self) {
        if !self.hello() {
            return self.skip_rest(&AFTER_HELLO, "no hello");
        }
        let Some(reg) = self.ready() else {
            return self.skip_rest(&AFTER_HELLO[1..], "not ready");
        };
        self.registrations(&reg);
        let panels = self.commands(&reg);
        let slow = self.tools(&reg);
        self.cancel(slow);
        self.panels(&panels);
        self.dialogs();
        self.shutdown();
    }

    fn skip_rest(&mut self, names: &[&'static str], why: &str) {
        for n in names {
            self.checks
                .push(check(n, LIFECYCLE, Status::Skip, format!("skipped: {why}")));
        }
    }

    fn hello(&mut self) -> bool {
        let start = Instant::now();
        let c = match self.d.next(HELLO_TIMEOUT) {
            Wait::Frame(f) if at(&f, "type") == "hello" => {
                if at(&f, "name") == self.name {
                    check(
                        "hello",
                        LIFECYCLE,
                        Status::Pass,
                        format!(
                            "hello as '{}' after {} ms",
                            self.name,
                            start.elapsed().as_millis()
                        ),
                    )
                } else {
                    fail(
                        "hello",
                        LIFECYCLE,
                        format!(
                            "said hello as {}, but extension.json names it '{}'",
                            at(&f, "name"),
                            self.name
                        ),
                        Some(f.to_string()),
                        "send the manifest's name in hello, or rename one of them",
                    )
                }
            }
            Wait::Frame(f) => fail(
                "hello",
                LIFECYCLE,
                format!(
                    "its first frame was '{}', not hello",
                    at(&f, "type").as_str().unwrap_or("?")
                ),
                Some(f.to_string()),
                "send hello before anything else",
            ),
            Wait::Garbage(line) => fail(
                "hello",
                LIFECYCLE,
                "wrote a line that is not JSON on stdout before hello".into(),
                Some(line),
                "stdout carries only protocol frames: print logs to stderr",
            ),
            Wait::Timeout => fail(
                "hello",
                LIFECYCLE,
                format!("sent no hello within {} s", HELLO_TIMEOUT.as_secs()),
                None,
                "send hello first, before any slow start-up work",
            ),
            Wait::Closed => fail(
                "hello",
                LIFECYCLE,
                "exited before sending hello".into(),
                None,
                "read its log (see below) for the error",
            ),
        };
        let ok = c.status == Status::Pass;
        self.checks.push(c);
        ok
    }

    fn ready(&mut self) -> Option<Registered> {
        let dir = self.dir.display().to_string();
        let data = self.data.display().to_string();
        self.d.send(
            &json!({"type":"hello_ack","protocol_version":crate::manage::sdk::PROTOCOL_VERSION,
            "zot_version":env!("CARGO_PKG_VERSION"),"provider":"test","model":"test",
            "cwd":data,"extension_dir":dir,"data_dir":data}),
        );
        let mut reg = Registered::default();
        let grace = Instant::now() + READY_GRACE;
        loop {
            let left = grace.saturating_duration_since(Instant::now());
            let wait = self.d.next(left.min(AUTO_READY_IDLE));
            match wait {
                Wait::Frame(f) if at(&f, "type") == "ready" => {
                    self.checks
                        .push(check("ready", LIFECYCLE, Status::Pass, "sent ready".into()));
                    return Some(reg);
                }
                Wait::Frame(f) => {
                    match at(&f, "type").as_str() {
                        Some("register_command") => reg
                            .commands
                            .push(at(&f, "name").as_str().unwrap_or("").to_owned()),
                        Some("register_tool") => reg.tools.push((
                            at(&f, "name").as_str().unwrap_or("").to_owned(),
                            at(&f, "schema").clone(),
                        )),
                        _ => {}
                    }
                    reg.frames.push(f);
                }
                Wait::Timeout => {
                    self.checks.push(check(
                        "ready",
                        LIFECYCLE,
                        Status::Pass,
                        format!(
                            "auto-ready (quiet for {} ms without sending ready); send ready once registered to start faster",
                            AUTO_READY_IDLE.as_millis()
                        ),
                    ));
                    return Some(reg);
                }
                Wait::Garbage(line) => {
                    self.checks.push(fail(
                        "ready",
                        LIFECYCLE,
                        "wrote a line that is not JSON".into(),
                        Some(line),
                        "print logs to stderr, never stdout",
                    ));
                    return None;
                }
                Wait::Closed => {
                    self.checks.push(fail(
                        "ready",
                        LIFECYCLE,
                        "exited after hello_ack, before ready".into(),
                        None,
                        "read its log (see below) for the error",
                    ));
                    return None;
                }
            }
        }
    }

    fn registrations(&mut self, reg: &Registered) {
        let mut seen = std::collections::HashSet::new();
        for f in &reg.frames {
            let ty = at(f, "type").as_str().unwrap_or("");
            if !ty.starts_with("register_") {
                continue;
            }
            let bad = |detail: String, fix: &str| {
                fail("registrations", REFERENCE, detail, Some(f.to_string()), fix)
            };
            if let Err(e) = crate::io::codec::decode(f.to_string().as_bytes()) {
                return self.checks.push(bad(
                    format!("a {ty} frame is invalid: {e}"),
                    "fix the frame's fields",
                ));
            }
            let name = at(f, "name").as_str().unwrap_or("");
            if name.is_empty() || name.starts_with('/') || name.chars().any(char::is_whitespace) {
                return self.checks.push(bad(
                    format!("{ty} name {:?} is not a usable name", name),
                    "use a name without '/', spaces or blanks",
                ));
            }
            if !seen.insert((ty.to_owned(), name.to_owned())) {
                return self.checks.push(bad(
                    format!("{ty} '{name}' is registered twice"),
                    "register each name once",
                ));
            }
            if at(f, "description")
                .as_str()
                .is_none_or(|d| d.trim().is_empty())
            {
                return self.checks.push(bad(
                    format!("{ty} '{name}' has no description"),
                    "describe it: users and the model read it",
                ));
            }
            if ty == "register_tool" {
                if name.len() > 64
                    || !name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                {
                    return self.checks.push(bad(
                        format!("tool name '{name}' is not [A-Za-z0-9_-]{{1,64}}"),
                        "model providers only accept such tool names",
                    ));
                }
                if let Some(p) = schema::problem(at(f, "schema")) {
                    return self.checks.push(bad(
                        format!("tool '{name}': {p}"),
                        r#"give it a JSON Schema object: {"type":"object","properties":{…}}"#,
                    ));
                }
            }
        }
        self.checks.push(check(
            "registrations",
            REFERENCE,
            Status::Pass,
            format!(
                "{} command(s), {} tool(s), all valid",
                reg.commands.len(),
                reg.tools.len()
            ),
        ));
    }

    /// The dialogs the extension asked while its commands and tools ran,
    /// as the scripted user saw them; nothing when it asked none.
    fn dialogs(&mut self) {
        let seen = &self.d.dialogs;
        if seen.asked == 0 {
            return;
        }
        let c = match seen.bad.first() {
            None => check(
                "dialogs",
                DIALOGS,
                Status::Pass,
                format!(
                    "{} dialog(s) asked, each valid; the scripted user accepted the defaults",
                    seen.asked
                ),
            ),
            Some((id, why)) => fail(
                "dialogs",
                DIALOGS,
                format!(
                    "{} of {} dialog(s) would be refused by zot; ui_request {id}: {why}",
                    seen.bad.len(),
                    seen.asked
                ),
                None,
                "fix the field named (docs/protocol.md, \"Dialogs\" lists what a request may carry)",
            ),
        };
        self.checks.push(c);
    }

    /// Invokes every command; returns the panels they opened.
    fn commands(&mut self, reg: &Registered) -> Vec<String> {
        let mut panels = Vec::new();
        for (i, name) in reg.commands.iter().enumerate() {
            let id = format!("ct{i}");
            self.d
                .send(&json!({"type":"command_invoked","id":id,"name":name,"args":""}));
            let t = self.opts.command_timeout;
            match self.d.until(t, |f| at(f, "id") == id.as_str()) {
                Wait::Frame(f) if at(&f, "type") == "command_response" => {
                    if let Err(e) = crate::io::codec::decode(f.to_string().as_bytes()) {
                        self.checks.push(fail(
                            "commands",
                            REFERENCE,
                            format!("/{name} answered with an invalid command_response: {e}"),
                            Some(f.to_string()),
                            "return one of the documented actions",
                        ));
                        return panels;
                    }
                    if let Some(p) = at(at(&f, "open_panel"), "id").as_str() {
                        panels.push(p.to_owned());
                    }
                }
                Wait::Frame(f) => {
                    self.checks.push(fail(
                        "commands",
                        REFERENCE,
                        format!(
                            "/{name} answered with '{}' instead of command_response",
                            at(&f, "type").as_str().unwrap_or("?")
                        ),
                        Some(f.to_string()),
                        "answer command_invoked with command_response and the same id",
                    ));
                    return panels;
                }
                Wait::Timeout => {
                    self.checks.push(fail(
                        "commands",
                        LIFECYCLE,
                        format!("/{name} did not answer within {} s", t.as_secs_f32()),
                        None,
                        "answer every command_invoked, even with action noop",
                    ));
                    return panels;
                }
                Wait::Garbage(line) => {
                    self.checks.push(fail(
                        "commands",
                        REFERENCE,
                        format!("/{name}: wrote a line that is not JSON"),
                        Some(line),
                        "print logs to stderr, never stdout",
                    ));
                    return panels;
                }
                Wait::Closed => {
                    self.checks.push(fail(
                        "commands",
                        LIFECYCLE,
                        format!("exited while running /{name}"),
                        None,
                        "read its log (see below) for the error",
                    ));
                    return panels;
                }
            }
        }
        let detail = if reg.commands.is_empty() {
            "no commands".to_string()
        } else {
            format!("{} command(s) answered", reg.commands.len())
        };
        self.checks
            .push(check("commands", REFERENCE, Status::Pass, detail));
        panels
    }

    /// Waits for call `id`'s answer, past its `tool_progress` frames;
    /// says whether any came.
    fn result_of(&mut self, id: &str, t: Duration) -> (Wait, bool) {
        let deadline = Instant::now() + t;
        let mut progressed = false;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.d.until(left, |f| at(f, "id") == id) {
                Wait::Frame(f) if at(&f, "type") == "tool_progress" => progressed = true,
                other => return (other, progressed),
            }
        }
    }

    /// Calls every tool; returns the first that sent `tool_progress` while
    /// answering a valid call (the one the `cancel` check uses).
    fn tools(&mut self, reg: &Registered) -> Option<Slow> {
        let t = self.opts.tool_timeout;
        let mut slow = None;
        for (i, (name, schema)) in reg.tools.iter().enumerate() {
            let mut calls = vec![(format!("tt{i}"), schema::valid_args(schema), None)];
            if let Some((args, how)) = schema::invalid_args(schema) {
                calls.push((format!("tx{i}"), args, Some(how)));
            }
            for (id, args, violation) in calls {
                self.d
                    .send(&json!({"type":"tool_call","id":id,"name":name,"args":args}));
                let started = Instant::now();
                let (got, progressed) = self.result_of(&id, t);
                if progressed && violation.is_none() && slow.is_none() {
                    slow = Some(Slow {
                        name: name.clone(),
                        args: args.clone(),
                        took: started.elapsed(),
                    });
                }
                let what = match &violation {
                    None => format!("'{name}' called with {args}"),
                    Some(how) => format!(
                        "'{name}' called with arguments that violate its schema ({how}: {args})"
                    ),
                };
                let c = match got {
                    Wait::Frame(f) if at(&f, "type") != "tool_result" => Some(fail("tools", REFERENCE, format!("{what} answered '{}'", at(&f, "type").as_str().unwrap_or("?")), Some(f.to_string()), "answer tool_call with tool_result and the same id")),
                    Wait::Frame(f) if !at(&f, "content").is_array() || crate::io::codec::decode(f.to_string().as_bytes()).is_err() => Some(fail("tools", REFERENCE, format!("{what} answered an invalid tool_result"), Some(f.to_string()), "send content as an array of content blocks")),
                    Wait::Frame(f) if violation.is_some() && at(&f, "is_error") != true => Some(fail("tools", REFERENCE, format!("{what} answered without is_error"), Some(f.to_string()), "check arguments and answer bad ones with is_error: true and a message the model can act on")),
                    Wait::Frame(_) => None,
                    Wait::Timeout => Some(fail("tools", LIFECYCLE, format!("{what}: no answer within {} s", t.as_secs_f32()), None, "answer every tool_call, with is_error: true when it fails")),
                    Wait::Garbage(line) => Some(fail("tools", REFERENCE, format!("{what}: wrote a line that is not JSON"), Some(line), "print logs to stderr, never stdout")),
                    Wait::Closed => Some(fail("tools", LIFECYCLE, format!("{what}: it exited"), None, "catch errors in the handler and answer is_error instead of crashing")),
                };
                if let Some(c) = c {
                    self.checks.push(c);
                    return None;
                }
            }
        }
        let detail = if reg.tools.is_empty() {
            "no tools".to_string()
        } else {
            format!(
                "{} tool(s) answered valid and invalid calls",
                reg.tools.len()
            )
        };
        self.checks
            .push(check("tools", REFERENCE, Status::Pass, detail));
        slow
    }

    /// `tool_cancel` stops a slow tool: the tool that sent `tool_progress`
    /// in the `tools` check is called again with the same arguments and
    /// cancelled at its first progress frame. What arrives for that id
    /// within [`CANCEL_GRACE`] was in flight and is fine; anything later,
    /// until the uncancelled call had ended (plus the grace), fails.
    fn cancel(&mut self, slow: Option<Slow>) {
        let Some(Slow { name, args, took }) = slow else {
            return self.checks.push(check(
                "cancel",
                LONG_CALLS,
                Status::Skip,
                "no tool sent tool_progress, so none is slow enough to cancel".into(),
            ));
        };
        let id = "tcancel";
        let t = self.opts.tool_timeout;
        let started = Instant::now();
        self.d
            .send(&json!({"type":"tool_call","id":id,"name":name,"args":args}));
        let first = self.d.until(t, |f| at(f, "id") == id);
        let c = match first {
            Wait::Frame(f) if at(&f, "type") == "tool_progress" => None,
            Wait::Frame(_) => Some(check(
                "cancel",
                LONG_CALLS,
                Status::Skip,
                format!("'{name}' answered before its first tool_progress this time, so there was nothing to cancel"),
            )),
            Wait::Timeout => Some(fail("cancel", LONG_CALLS, format!("'{name}' called again with {args}: neither progress nor an answer within {} s", t.as_secs_f32()), None, "answer every tool_call")),
            Wait::Garbage(line) => Some(fail("cancel", LONG_CALLS, format!("'{name}': wrote a line that is not JSON"), Some(line), "print logs to stderr, never stdout")),
            Wait::Closed => Some(fail("cancel", LONG_CALLS, format!("'{name}' called again: it exited"), None, "read its log (see below) for the error")),
        };
        if let Some(c) = c {
            return self.checks.push(c);
        }
        self.d
            .send(&json!({"type":"tool_cancel","id":id,"reason":"aborted"}));
        let cancelled = Instant::now();
        let grace_end = cancelled + CANCEL_GRACE;
        // A tool that ignores the cancel would go on until about when the
        // uncancelled call ended; watch at least one more grace.
        let end = (started + took + CANCEL_GRACE)
            .max(grace_end + CANCEL_GRACE)
            .min(cancelled + t);
        // Frames already on their way when the cancel arrived.
        let _ = self
            .d
            .until(grace_end.saturating_duration_since(Instant::now()), |_| {
                false
            });
        let late = self
            .d
            .until(end.saturating_duration_since(Instant::now()), |f| {
                at(f, "id") == id
            });
        let grace = CANCEL_GRACE.as_secs_f32();
        let c = match late {
            Wait::Frame(f) => fail(
                "cancel",
                LONG_CALLS,
                format!(
                    "'{name}' sent {} for call {id} {:.1} s after tool_cancel (a {grace} s grace allowed)",
                    at(&f, "type").as_str().unwrap_or("?"),
                    cancelled.elapsed().as_secs_f32()
                ),
                Some(f.to_string()),
                "stop the work on tool_cancel and send nothing more for its id (the SDKs' cancellation signal: call.cancelled, call.signal, call.token())",
            ),
            Wait::Garbage(line) => fail("cancel", LONG_CALLS, format!("'{name}': wrote a line that is not JSON after tool_cancel"), Some(line), "print logs to stderr, never stdout"),
            Wait::Closed => fail("cancel", LONG_CALLS, format!("'{name}': it exited after tool_cancel"), None, "stop the call's work on tool_cancel, not the process"),
            Wait::Timeout => check(
                "cancel",
                LONG_CALLS,
                Status::Pass,
                format!(
                    "'{name}' stopped on tool_cancel: nothing for its id in the {:.1} s after a {grace} s grace",
                    end.saturating_duration_since(grace_end).as_secs_f32()
                ),
            ),
        };
        self.checks.push(c);
    }

    fn panels(&mut self, panels: &[String]) {
        let Some(id) = panels.first() else {
            return self.checks.push(check(
                "panels",
                REFERENCE,
                Status::Skip,
                "no command opened a panel".into(),
            ));
        };
        for key in ["down", "up", "enter"] {
            self.d
                .send(&json!({"type":"panel_key","panel_id":id,"key":key}));
        }
        self.d.send(&json!({"type":"panel_close","panel_id":id}));
        // Give it a second to react (a crash ends the wait at once);
        // whatever it renders is fine.
        let _ = self.d.until(Duration::from_secs(1), |_| false);
        let c = if self.d.alive() {
            check(
                "panels",
                REFERENCE,
                Status::Pass,
                format!("panel '{id}' took keys and a close"),
            )
        } else {
            fail(
                "panels",
                REFERENCE,
                format!("exited while panel '{id}' took keys or closed"),
                None,
                "handle every key (ignore the ones you do not use) and panel_close",
            )
        };
        self.checks.push(c);
    }

    fn shutdown(&mut self) {
        if !self.d.alive() {
            return self.checks.push(check(
                "shutdown",
                LIFECYCLE,
                Status::Skip,
                "skipped: it already exited".into(),
            ));
        }
        self.d.send(&json!({"type":"shutdown"}));
        let acked = matches!(
            self.d
                .until(SHUTDOWN_GRACE, |f| at(f, "type") == "shutdown_ack"),
            Wait::Frame(_)
        );
        if !acked {
            return self.checks.push(fail(
                "shutdown",
                LIFECYCLE,
                format!("no shutdown_ack within {} s", SHUTDOWN_GRACE.as_secs()),
                None,
                "answer shutdown with shutdown_ack, then exit",
            ));
        }
        let deadline = Instant::now() + SHUTDOWN_GRACE;
        while (self.d.running() || self.d.group_alive()) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let c = if self.d.running() {
            fail(
                "shutdown",
                LIFECYCLE,
                format!(
                    "acknowledged but did not exit within {} s",
                    SHUTDOWN_GRACE.as_secs()
                ),
                None,
                "exit after sending shutdown_ack",
            )
        } else if self.d.group_alive() {
            fail(
                "shutdown",
                LIFECYCLE,
                format!(
                    "exited but left processes behind in its group ({})",
                    self.d.pgid
                ),
                None,
                "stop the processes you started before exiting",
            )
        } else {
            check(
                "shutdown",
                LIFECYCLE,
                Status::Pass,
                "shutdown_ack, then exited with nothing left".into(),
            )
        };
        self.checks.push(c);
    }
}

/// The report as text: one line per check, then the frame and fix of each
/// failure, then the log's path.
pub fn render(r: &Report) -> String {
    let mut out = format!("zot ext test {} ({})\n", r.extension, r.dir);
    for c in &r.checks {
        let mark = match c.status {
            Status::Pass => "✓",
            Status::Fail => "✗",
            Status::Skip => "-",
        };
        out.push_str(&format!("  {mark} {:<14} {}\n", c.name, c.detail));
        if c.status == Status::Fail {
            if let Some(f) = &c.frame {
                out.push_str(&format!("      frame: {f}\n"));
            }
            if let Some(fix) = &c.fix {
                out.push_str(&format!("      fix:   {fix}  (see {})\n", c.section));
            }
        }
    }
    if !r.log.is_empty() {
        out.push_str(&format!("  log: {}\n", r.log));
    }
    out.push_str(if r.ok {
        "all checks passed\n"
    } else {
        "some checks failed\n"
    });
    out
}

/// `PathBuf` of the folder argument, resolved against `cwd`.
pub fn resolve_dir(cwd: &Path, dir: &Path) -> PathBuf {
    if dir.is_absolute() {
        dir.to_path_buf()
    } else {
        cwd.join(dir)
    }
}

/// `v[key]` without the panic-free-indexing lint's complaint: a missing key
/// (or a `v` that is not an object) reads as null, as serde_json's own
/// indexing does for reads.
fn at<'a>(v: &'a Value, key: &str) -> &'a Value {
    v.get(key).unwrap_or(&Value::Null)
}
