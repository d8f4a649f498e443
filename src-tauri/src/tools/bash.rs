//! `bash`: runs a command in the project directory, in its own process
//! group so a timeout or an abort kills everything it started, with the
//! output capped so a noisy command cannot flood the model's context.

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use serde_json::{json, Value};
use tokio::io::AsyncReadExt;

use super::{str_arg, Tool, ToolCtx, ToolOutput};
use crate::providers::ToolDef;

/// The `bash` tool.
pub struct Bash {
    /// Output kept, in bytes; the rest is dropped with a note.
    pub max_output: usize,
    /// Timeout when the call gives none.
    pub default_timeout: Duration,
}

impl Default for Bash {
    fn default() -> Self {
        Bash {
            max_output: 50_000,
            default_timeout: Duration::from_secs(120),
        }
    }
}

/// Collected output, capped.
#[derive(Default)]
struct Capped {
    buf: Vec<u8>,
    dropped: usize,
}

fn spawn_reader<R: tokio::io::AsyncRead + Unpin + Send + 'static>(
    mut r: R,
    out: Arc<Mutex<Capped>>,
    cap: usize,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut chunk = [0u8; 8192];
        while let Ok(n) = r.read(&mut chunk).await {
            if n == 0 {
                break;
            }
            let mut o = out.lock().expect("output lock");
            let room = cap.saturating_sub(o.buf.len()).min(n);
            o.buf.extend_from_slice(&chunk[..room]);
            o.dropped += n - room;
        }
    })
}

/// Kills a whole process group.
fn kill_group(pid: u32) {
    // SAFETY: killpg only sends a signal; a stale group id fails harmlessly.
    unsafe {
        libc::killpg(pid as libc::pid_t, libc::SIGKILL);
    }
}

/// What the shell must not inherit: zot's credentials, remembered secret
/// values, and every `*KEY*`/`*SECRET*`/`*TOKEN*`/`*PASSWORD*` variable
/// except those the user keeps in `$ZOT_HOME/config.json`
/// (`"shell_env": {"keep": ["NAME", …]}`); see docs/security.md.
fn shell_env_scrub() -> zot_ext_host::child_env::Scrub {
    let keep: Vec<String> = zot_ext_host::home::zot_home()
        .map(|home| crate::settings::read_config(&home))
        .and_then(|c| {
            c.get("shell_env")?.get("keep")?.as_array().map(|names| {
                names
                    .iter()
                    .filter_map(|n| n.as_str().map(str::to_owned))
                    .collect()
            })
        })
        .unwrap_or_default();
    zot_ext_host::child_env::Scrub::for_shell(&keep)
}

/// How the command ended.
enum End {
    Exited(std::process::ExitStatus),
    TimedOut,
    Aborted,
}

#[async_trait]
impl Tool for Bash {
    fn def(&self) -> ToolDef {
        ToolDef {
            name: "bash".into(),
            description: "Run a bash command in the project directory. stdout and stderr are returned together (capped); timeout is in seconds (default 120).".into(),
            schema: json!({"type":"object","properties":{
                "command":{"type":"string"},
                "timeout":{"type":"number","description":"seconds"}},
                "required":["command"]}),
        }
    }

    async fn run(&self, args: Value, ctx: &ToolCtx) -> ToolOutput {
        let command = str_arg(&args, "command");
        let timeout = args
            .get("timeout")
            .and_then(Value::as_f64)
            .filter(|t| *t > 0.0)
            .map(Duration::from_secs_f64)
            .unwrap_or(self.default_timeout);
        let mut cmd = tokio::process::Command::new("bash");
        cmd.arg("-c")
            .arg(command)
            .current_dir(&ctx.cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        for name in shell_env_scrub().to_remove_from_current() {
            cmd.env_remove(name);
        }
        let mut child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => {
                return ToolOutput::err(format!("cannot start bash in {}: {e}", ctx.cwd.display()))
            }
        };
        let pid = child.id().unwrap_or(0);
        // If zot is SIGKILLed mid-command, the reaper kills the group.
        let pgid = i32::try_from(pid).unwrap_or(0);
        let _ = zot_ext_host::reaper::watch_group(pgid);
        let out = Arc::new(Mutex::new(Capped::default()));
        let r1 = spawn_reader(
            child.stdout.take().expect("piped"),
            out.clone(),
            self.max_output,
        );
        let r2 = spawn_reader(
            child.stderr.take().expect("piped"),
            out.clone(),
            self.max_output,
        );
        let end = tokio::select! {
            s = child.wait() => match s {
                Ok(s) => End::Exited(s),
                Err(e) => return ToolOutput::err(format!("waiting for bash failed: {e}")),
            },
            _ = tokio::time::sleep(timeout) => End::TimedOut,
            _ = ctx.cancel.cancelled() => End::Aborted,
        };
        // Whatever the command left running in its group goes too, so no
        // background job outlives the call or keeps the pipes open.
        if pid != 0 {
            kill_group(pid);
        }
        let _ = child.wait().await;
        let _ = zot_ext_host::reaper::forget_group(pgid);
        for r in [r1, r2] {
            let _ = tokio::time::timeout(Duration::from_secs(2), r).await;
        }
        let o = out.lock().expect("output lock");
        let mut text = String::from_utf8_lossy(&o.buf).into_owned();
        if o.dropped > 0 {
            text.push_str(&format!(
                "\n[output capped: {} more bytes dropped]",
                o.dropped
            ));
        }
        match end {
            End::Exited(s) if s.success() => ToolOutput::ok(if text.is_empty() {
                "(no output)".into()
            } else {
                text
            }),
            End::Exited(s) => ToolOutput::err(format!(
                "{text}\n[exit status: {}]",
                s.code()
                    .map_or_else(|| "killed by a signal".to_owned(), |c| c.to_string())
            )),
            End::TimedOut => ToolOutput::err(format!(
                "{text}\n[timed out after {:.0} s; the command and its children were killed]",
                timeout.as_secs_f64()
            )),
            End::Aborted => ToolOutput::err(format!(
                "{text}\n[aborted; the command and its children were killed]"
            )),
        }
    }
}
