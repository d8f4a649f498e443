//! Every integration test of this crate that can share a process, in one
//! binary: one link instead of one per file (the cold build and its disk
//! were mostly those links). Files that measure or change the whole
//! process stay their own binaries (Cargo.toml lists them).

#[path = "support/support.rs"]
mod support;

mod commands;
mod compat;
mod crash;
mod develop;
mod discovery;
mod doctor;
mod escaped;
mod events;
mod ext_test_sandbox;
mod handshake;
mod idle_stop;
mod install;
mod interception;
mod log_limits;
mod logs;
mod mcp;
mod mcp_apps;
mod module_graph;
mod on_use;
mod panels;
mod permissions;
mod preview;
mod reaper;
mod registration;
mod registration_limits;
mod reload;
mod restart;
mod rust_program;
mod sdk;
mod settings_keychain;
mod shutdown;
mod supervision;
mod toggle;
mod tools;
mod trust;
mod watch_restart;
mod wrong_reply;
