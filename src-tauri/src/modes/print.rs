//! `zot -p "…"` (final text on stdout) and `zot --mode json "…"` (every
//! event as one JSON line): one prompt, then exit.

use std::io::Write;

use zot_ext_protocol::rpc::{RpcCommand, StopReason, UiEvent};

use crate::backend::{Backend, BackendOptions};
use crate::signals::{Signals, Stop};
use anyhow::Context;

/// Runs one prompt; `json` prints events instead of the final text.
/// Returns the exit code: 0 unless the prompt ended in an error; SIGINT,
/// SIGTERM or SIGHUP stop the prompt, shut down as a clean exit does, and
/// give 128 + the signal's number.
pub async fn run(opts: BackendOptions, prompt: String, json: bool) -> anyhow::Result<i32> {
    let mut signals = Signals::install().context("cannot install signal handlers")?;
    let (backend, mut rx) = Backend::start(opts).await?;
    tokio::select! {
        () = backend.wait_ready() => {}
        sig = signals.recv() => return Ok(stopped(&backend, sig).await),
    }
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string(&UiEvent::Ready {})?)?;
    }
    if let Err(e) = backend
        .handle(RpcCommand::Prompt {
            message: prompt,
            images: Vec::new(),
        })
        .await
    {
        anyhow::bail!("{e}");
    }
    let mut last_text: Option<String> = None;
    let mut failed = false;
    loop {
        let ev = tokio::select! {
            ev = rx.recv() => match ev {
                Some(ev) => ev,
                None => break,
            },
            sig = signals.recv() => {
                out.flush()?;
                drop(out);
                return Ok(stopped(&backend, sig).await);
            }
        };
        if json {
            writeln!(out, "{}", serde_json::to_string(&ev)?)?;
            out.flush()?;
        }
        match &ev {
            UiEvent::AssistantMessage { content } => last_text = Some(content.clone()),
            UiEvent::TurnEnd {
                stop: StopReason::Error,
                ..
            } => failed = true,
            UiEvent::Error { message } if !json => eprintln!("zot: {message}"),
            UiEvent::ExtError {
                extension, message, ..
            } if !json => eprintln!("zot: [{extension}] {message}"),
            UiEvent::ExtNotify {
                extension, message, ..
            } if !json => eprintln!("[{extension}] {message}"),
            UiEvent::ExtStatus {
                extension, text, ..
            } if !json => eprintln!("[{extension}] {text}"),
            UiEvent::ProjectUntrusted {
                dir, extensions, ..
            } if !json => eprintln!(
                "zot: this project's extensions did not run ({}): {dir} is not trusted; run `zot ext trust` to trust it, or pass --trust-project for one run",
                extensions.join(", ")
            ),
            _ => {}
        }
        if matches!(ev, UiEvent::Done {}) {
            break;
        }
    }
    if !json {
        if let Some(t) = last_text {
            writeln!(out, "{t}")?;
        }
    }
    out.flush()?;
    drop(out);
    backend.shutdown().await;
    Ok(if failed { 1 } else { 0 })
}

/// The clean exit's shutdown after a signal; returns the exit code.
async fn stopped(backend: &Backend, sig: Stop) -> i32 {
    eprintln!("zot: {}: stopping the prompt and shutting down", sig.name());
    backend.shutdown().await;
    sig.exit_code()
}
