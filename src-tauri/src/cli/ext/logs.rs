//! `zot ext logs <name> [-f]`: print an extension's stderr log, or follow it
//! with the host crate's follower (no `tail`).

use std::io::Write;
use std::ops::ControlFlow;

use anyhow::{Context, Result};
use zot_ext_host::ext_ops::OpsError;
use zot_ext_host::logs::{follow, log_file, LogEvent};

use super::ExtGlobals;

/// Runs the subcommand.
pub(super) fn run(global: &ExtGlobals, name: &str, follow_it: bool) -> Result<i32> {
    let path = match log_file(&global.zot_home, &global.cwd, name) {
        Ok(path) => path,
        // `-f` on an extension that has not started yet waits for its log.
        Err(OpsError::NoLog { path, .. }) if follow_it => {
            eprintln!("waiting for {} to appear…", path.display());
            path
        }
        Err(e) => return Err(e.into()),
    };
    if !follow_it {
        let mut file = std::fs::File::open(&path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        let mut out = std::io::stdout().lock();
        return match std::io::copy(&mut file, &mut out) {
            Ok(_) => Ok(0),
            // `zot ext logs x | head` closes the pipe early; that is fine.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(0),
            Err(e) => Err(e).with_context(|| format!("cannot print {}", path.display())),
        };
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .context("cannot start the log follower")?;
    let mut out = std::io::stdout();
    runtime.block_on(follow(&path, 0, |event| {
        let written = match event {
            LogEvent::Data(bytes) => out.write_all(&bytes).and_then(|()| out.flush()),
            LogEvent::Truncated => {
                eprintln!(
                    "zot ext logs: {} was truncated; reading from its start",
                    path.display()
                );
                Ok(())
            }
            LogEvent::Recreated => {
                eprintln!(
                    "zot ext logs: {} was re-created; reading the new file",
                    path.display()
                );
                Ok(())
            }
        };
        // A closed stdout (a pipe whose reader went away) ends the follow.
        match written {
            Ok(()) => ControlFlow::Continue(()),
            Err(_) => ControlFlow::Break(()),
        }
    }))?;
    Ok(0)
}
