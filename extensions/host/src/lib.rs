//! The zot extension host: finds extensions, runs each as a supervised
//! subprocess speaking `spec/extensions.md`, and routes commands, tools,
//! lifecycle events, interception and panels between them and the agent.
//! It also holds the management operations (`zot ext …`) so the CLI and the
//! desktop manager run the same code.
#![deny(missing_docs)]

pub mod ext_ops;
pub mod home;
pub mod install;
pub mod logs;
pub mod remove;
pub mod toggle;
