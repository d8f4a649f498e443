//! Asking the OS about processes a test started (through zot or not).
#![allow(dead_code)]

/// Whether a pid names a live process: a zombie (exited, waiting to be
/// reaped, perhaps by an init that never does) is dead.
pub fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !state.starts_with('Z') && !state.starts_with('X')
        }
        Err(_) => false,
    }
}
