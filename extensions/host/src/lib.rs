//! The zot extension host: finds extensions, runs each as a supervised
//! subprocess speaking `docs/protocol.md`, and routes commands, tools,
//! lifecycle events, interception and panels between them and the agent.
//! It also holds the management operations (`zot ext …`) so the CLI and the
//! desktop manager run the same code.
#![deny(missing_docs)]
// Frames, manifests and files come from outside: a bad value must be an
// error for its sender, never a panic. Tests may unwrap freely.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::unreachable,
        clippy::todo,
        clippy::unimplemented,
        clippy::indexing_slicing,
        clippy::string_slice,
        clippy::cast_possible_truncation,
        clippy::cast_possible_wrap,
        clippy::cast_sign_loss
    )
)]

pub mod bundle;
pub mod catalog;
pub mod consent;
pub mod ext_ops;
mod fs_swap;
pub mod home;
pub mod install;
pub mod install_notes;
pub mod logs;
pub mod program;
pub mod remove;
pub mod rollback;
pub mod scaffold;
pub mod sdk;
pub mod secret_store;
pub mod settings_owner;
pub mod settings_schema;
pub mod settings_store;
pub mod sources;
pub mod toggle;
pub mod unpack;
pub mod update;
pub mod update_check;
pub mod watch;
pub mod widening;

// The runtime (host engineer).
mod actions;
mod activation_check;
mod call_stats;
mod channel_transport;
pub mod child_env;
pub mod codec;
pub mod config;
pub mod conformance;
pub mod connection;
mod deadlines;
pub mod develop;
mod dialog_queue;
pub mod dialog_rules;
mod dialogs;
pub mod discovery;
pub mod error;
mod events;
mod ext_id;
mod ext_log;
mod extension;
#[cfg(test)]
mod fake_transport;
mod host;
mod idle_stop;
pub mod intercept;
pub mod launch;
pub mod limits;
mod load;
pub mod manifest;
pub mod mcp;
pub mod mcp_install;
mod mcp_secrets;
mod on_use;
mod panel_input;
mod panel_messages;
mod panel_table;
mod panels;
pub mod permission_words;
mod permissions;
pub mod private_file;
mod proc_stat;
mod proc_usage;
pub mod process;
pub mod reaper;
pub mod registry;
pub mod reload;
pub mod report;
mod restart;
mod restart_policy;
mod router;
mod run_trust;
pub mod sandbox;
mod session_state;
mod settings_ops;
mod shutdown;
mod state;
mod state_ops;
mod state_table;
mod subreaper;
mod supervisor;
mod target;
pub mod theme;
pub mod tool_progress;
pub mod trust;
mod trust_ops;
mod uses;
pub mod ws_auth;
mod ws_transport;

pub use config::HostConfig;
pub use error::{HostError, TimeoutLimit};
pub use events::{HostEvent, EVENT_QUEUE};
pub use extension::ReadyKind;
pub use host::{CommandOutcome, Host, ToolOutcome};
pub use intercept::{TextVerdict, ToolCallVerdict, Verdict};
pub use manifest::{validate_name, ManifestError};
pub use registry::ExtTool;
pub use reload::ReloadReport;
pub use report::{Conflict, ExtReport, HostReport};
pub use state_table::SessionState;
pub use theme::LoadedTheme;
pub use zot_ext_protocol::{EventFields, LifecycleEvent, PanelKey};
pub mod doctor;
pub mod preview;
