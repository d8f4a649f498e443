//! The zot extension protocol as plain data.
//!
//! Extensions speak newline-delimited JSON over stdio (`docs/protocol.md`).
//! This crate holds every frame in both directions, the manifest and the
//! theme file as serde types, and exports them to TypeScript with ts-rs so the
//! UI and the SDKs share one definition. It does no I/O: reading and writing
//! lines belongs to the host and the SDKs.
//!
//! Unknown fields are tolerated everywhere, so an extension built against a
//! newer protocol still talks to an older host.
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

pub mod approvals;
pub mod apps;
pub mod builtins;
pub mod catalog;
pub mod checkpoints;
pub mod consent;
pub mod content;
pub mod desktop;
pub mod dialogs;
pub mod doctor;
pub mod ext_to_host;
pub mod host_to_ext;
pub mod ids;
pub mod manifest;
pub mod panel;
pub mod prompt_images;
pub mod rpc;
pub mod rpc_commands;
pub mod rpc_error;
pub mod rpc_results;
pub mod settings;
pub mod theme;
pub mod updates;

pub use apps::{AppCsp, AppToolResult, ToolApp, MCP_APPS_EXTENSION, MCP_APP_MIME};
pub use builtins::{BuiltinCommand, BUILTIN_COMMANDS};
pub use catalog::{CatalogEntry, CatalogRegisters};
pub use checkpoints::{ExtSessionState, StateRestored, StateSet};
pub use consent::Widening;
pub use content::ContentBlock;
pub use dialogs::{DialogAction, DialogKind, UiRequest, UiRequestEvent, UiResponse};
pub use ext_to_host::*;
pub use host_to_ext::*;
pub use ids::{EventName, LifecycleEvent, RequestId};
pub use manifest::{
    Activation, Contributes, ExtKind, Manifest, Permission, PermissionGrant, RestartMode, Sandbox,
    Transport, Unrestricted,
};
pub use panel::{
    MouseAction, PanelCapability, PanelKey, PanelMessage, PanelPlacement, PanelSpec,
    MAX_PANEL_HTML, MAX_PANEL_MESSAGE,
};
pub use rpc_error::{ErrorCode, RpcError};
pub use settings::{SettingSpec, SettingType, SettingValues, SettingsSchema, SECRET_MASK};
pub use theme::{Appearance, ThemeFile};
pub use updates::{ExtRollbackResult, ExtSource, ExtUpdateResult, SourceKind, UpdateInfo};

/// The protocol version the host announces in `hello_ack`.
pub const PROTOCOL_VERSION: u32 = 1;
