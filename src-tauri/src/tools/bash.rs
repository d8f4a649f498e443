//! `bash`: runs a command in the project directory, in its own process
//! group so a timeout or an abort kills everything it started, with the
//! output capped so a noisy command cannot flood the model's context.

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use zot_ext_host::tool_progress::ProgressFeed;

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
    live: Option<Arc<ProgressFeed>>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut chunk = [0u8; 8192];
        // A character split across two reads waits for its other half.
        let mut held: Vec<u8> = Vec::new();
        while let Ok(n) = r.read(&mut chunk).await {
            if n == 0 {
                break;
            }
            // Live in the card as it comes (the feed caps what one update
            // carries); the result still holds the capped whole.
            if let Some(feed) = &live {
                held.extend_from_slice(chunk.get(..n).unwrap_or_default());
                let whole = complete_utf8(&held);
                feed.push_partial(&String::from_utf8_lossy(
                    held.get(..whole).unwrap_or_default(),
                ));
                held.drain(..whole);
            }
            let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
            let room = cap.saturating_sub(o.buf.len()).min(n);
            o.buf
                .extend_from_slice(chunk.get(..room).unwrap_or_default());
            o.dropped = o.dropped.saturating_add(n.saturating_sub(room));
        }
    })
}

/// How much of `bytes` can be shown now: all of it, except an incomplete
/// UTF-8 sequence at its end (at most 3 bytes), which waits for the next
/// read. Invalid bytes are not held: the lossy conversion marks them.
fn complete_utf8(bytes: &[u8]) -> usize {
    match std::str::from_utf8(bytes) {
        Err(e) if e.error_len().is_none() => e.valid_up_to(),
        _ => bytes.len(),
    }
}

/// The longest `timeout` a call may ask for, in seconds.
pub const MAX_TIMEOUT_SECS: f64 = 3600.0;

/// Kills the command's whole process group when dropped: after it ends, on
/// a timeout, and also when the call itself is dropped (the agent races
/// every tool against abort), so nothing it started outlives the call.
struct GroupGuard {
    /// The group id (the child's pid); 0 when the spawn gave none.
    pgid: libc::pid_t,
}

impl GroupGuard {
    /// Guards the group led by `pid`, and has the reaper watch it.
    fn watch(pid: Option<u32>) -> Self {
        let pgid = pid.and_then(|p| libc::pid_t::try_from(p).ok()).unwrap_or(0);
        let _ = zot_ext_host::reaper::watch_group(pgid);
        GroupGuard { pgid }
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if self.pgid > 0 {
            // SAFETY: killpg only sends a signal; a stale group id fails
            // harmlessly.
            unsafe {
                libc::killpg(self.pgid, libc::SIGKILL);
            }
            // SIGKILL cannot be caught: the group is on its way out, and its
            // id must not be killed by the reaper once reused.
            let _ = zot_ext_host::reaper::forget_group(self.pgid);
        }
    }
}

/// The call's timeout: absent (or null) is the default; anything but a
/// finite number of seconds in (0, 3600] is an error that states the range.
fn timeout(args: &Value, default: Duration) -> Result<Duration, String> {
    let v = match args.get("timeout") {
        None | Some(Value::Null) => return Ok(default),
        Some(v) => v,
    };
    v.as_f64()
        .filter(|t| t.is_finite() && *t > 0.0 && *t <= MAX_TIMEOUT_SECS)
        .and_then(|t| Duration::try_from_secs_f64(t).ok())
        .ok_or_else(|| {
            format!(
                "timeout must be a number of seconds more than 0 and at most {MAX_TIMEOUT_SECS} (got {v}); leave it out for the default of {} s",
                default.as_secs()
            )
        })
}

/// What the shell must not inherit: zot's credentials, remembered secret
/// values, and every `*KEY*`/`*SECRET*`/`*TOKEN*`/`*PASSWORD*` variable
/// except those the user keeps in `$ZOT_HOME/config.json`
/// (`"shell_env": {"keep": ["NAME", …]}`); see docs/security.md.
fn shell_env_scrub() -> zot_ext_host::child_env::Scrub {
    let keep = zot_ext_host::home::zot_home()
        .map(|home| crate::config::Config::read(&home).shell_env_keep())
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
            description: "Run a bash command in the project directory. stdout and stderr are returned together (capped); timeout is in seconds, more than 0 and at most 3600 (default 120).".into(),
            schema: json!({"type":"object","properties":{
                "command":{"type":"string"},
                "timeout":{"type":"number","description":"seconds, more than 0 and at most 3600; default 120"}},
                "required":["command"]}),
        }
    }

    async fn run(&self, args: Value, ctx: &ToolCtx) -> ToolOutput {
        let command = str_arg(&args, "command");
        let timeout = match timeout(&args, self.default_timeout) {
            Ok(t) => t,
            Err(e) => return ToolOutput::err(e),
        };
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
        // Armed before anything can fail, so every path kills the group; the
        // reaper kills it too if zot is SIGKILLed mid-command.
        let group = GroupGuard::watch(child.id());
        let out = Arc::new(Mutex::new(Capped::default()));
        let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
            return ToolOutput::err("cannot start bash: its output pipes were not set up");
        };
        let r1 = spawn_reader(stdout, out.clone(), self.max_output, ctx.progress.clone());
        let r2 = spawn_reader(stderr, out.clone(), self.max_output, ctx.progress.clone());
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
        drop(group);
        let _ = child.wait().await;
        for r in [r1, r2] {
            let _ = tokio::time::timeout(Duration::from_secs(2), r).await;
        }
        let o = out.lock().unwrap_or_else(|e| e.into_inner());
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

#[cfg(test)]
mod tests {
    use super::complete_utf8;

    #[test]
    fn a_character_split_across_reads_waits_for_its_other_half() {
        let e = "é".as_bytes();
        assert_eq!(complete_utf8(&[b'a', e[0]]), 1);
        assert_eq!(complete_utf8(&[b'a', e[0], e[1]]), 3);
        assert_eq!(
            complete_utf8(&[b'a', 0xff, b'b']),
            3,
            "invalid bytes are not held"
        );
    }
}
