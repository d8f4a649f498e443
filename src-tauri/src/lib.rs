//! zot: one binary that is the desktop app, the headless agent
//! (`--mode rpc|json`, `-p`) and the `zot ext` CLI. `run` parses argv and
//! hands over to the chosen front end.

pub mod cli;

/// Parses argv and runs the chosen mode; returns the process exit code.
pub fn run() -> i32 {
    0
}
