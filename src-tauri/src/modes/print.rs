//! `zot -p "…"` (final text on stdout) and `zot --mode json "…"` (every
//! event as one JSON line): one prompt, then exit.

use std::io::Write;

use zot_ext_protocol::rpc::{RpcCommand, StopReason, UiEvent};

use crate::backend::{Backend, BackendOptions};

/// Runs one prompt; `json` prints events instead of the final text.
/// Returns the exit code: 0 unless the prompt ended in an error.
pub async fn run(opts: BackendOptions, prompt: String, json: bool) -> anyhow::Result<i32> {
    let (backend, mut rx) = Backend::start(opts).await?;
    backend.wait_ready().await;
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
    while let Some(ev) = rx.recv().await {
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
