//! The headless front ends over [`crate::backend::Backend`]: print (final
//! text), JSON (every event as NDJSON) and RPC (`docs/rpc.md`). None needs a
//! display; stdout carries only their output, logs go to stderr.

pub mod print;
pub mod rpc;

use std::io::{IsTerminal, Read};

use anyhow::Context;

/// The prompt from argv, else stdin when it is not a terminal.
pub fn prompt_text(words: &[String]) -> anyhow::Result<String> {
    let p = words.join(" ");
    if !p.trim().is_empty() {
        return Ok(p);
    }
    let mut stdin = std::io::stdin();
    if stdin.is_terminal() {
        anyhow::bail!("no prompt: give it as an argument (zot -p \"…\") or on stdin");
    }
    let mut s = String::new();
    stdin
        .read_to_string(&mut s)
        .context("cannot read the prompt from stdin")?;
    if s.trim().is_empty() {
        anyhow::bail!("no prompt: give it as an argument (zot -p \"…\") or on stdin");
    }
    Ok(s)
}
