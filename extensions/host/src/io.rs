//! Bytes, files and processes: frame codec, transports, child processes, the sandbox, private files.
pub(crate) mod channel_transport;
pub mod child_env;
pub mod codec;
pub mod connection;
pub(crate) mod ext_log;
#[cfg(test)]
pub(crate) mod fake_transport;
pub(crate) mod fs_swap;
pub(crate) mod launch;
pub(crate) mod limits;
pub mod private_file;
pub(crate) mod proc_stat;
pub(crate) mod proc_usage;
pub mod process;
pub(crate) mod program;
pub mod reaper;
pub mod sandbox;
pub(crate) mod subreaper;
pub mod ws_auth;
pub(crate) mod ws_transport;
