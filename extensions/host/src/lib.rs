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

// Folders by layer (docs/architecture.md draws them); most modules are
// `pub(crate)` inside their layer.
mod api;
mod io;
mod manage;
mod owner;
mod policy;
mod records;
mod run;
mod settings;

// Leaves every layer reads.
pub mod config;
pub mod error;
pub mod home;
pub mod manifest;

// The modules the app, the CLI and the tests name, at the flat paths they
// have always had (`zot_ext_host::install::…`).
pub use api::{develop, doctor, watch};
pub use io::{child_env, codec, connection, private_file, process, reaper, sandbox, ws_auth};
pub use manage::{
    bundle, catalog, conformance, ext_ops, install, logs, mcp_install, remove, rollback, scaffold,
    sdk, sources, toggle, update, update_check,
};
pub use policy::{consent, trust};
pub use records::tool_progress;
pub use run::discovery;
pub use settings::{secret_store, settings_schema, settings_store};

pub use api::host::{CommandOutcome, Host, ToolOutcome};
pub use api::intercept::{TextVerdict, ToolCallVerdict, Verdict};
pub use api::reload::ReloadReport;
pub use api::report::{Conflict, ExtReport, HostReport};
pub use config::HostConfig;
pub use error::{HostError, TimeoutLimit};
pub use manage::theme::LoadedTheme;
pub use manifest::{validate_name, ManifestError};
pub use owner::events::{HostEvent, EVENT_QUEUE};
pub use owner::state_table::SessionState;
pub use records::extension::ReadyKind;
pub use records::registry::ExtTool;
pub use records::tool_target::{ToolTarget, ToolVia};
pub use zot_ext_protocol::{EventFields, LifecycleEvent, PanelKey};
