//! The zot extension SDK for Rust.
//!
//! An extension is a program that speaks newline-delimited JSON with zot over
//! stdio (`docs/protocol.md`). This crate does the talking: it sends
//! `hello`, waits for `hello_ack`, runs your [`Extension::on_hello`] hook,
//! announces every registration, sends `ready`, then dispatches frames to
//! your handlers until zot sends `shutdown`.
//!
//! ```no_run
//! use zot_ext::{Extension, Response, ToolResult};
//!
//! let mut ext = Extension::new("hello", "1.0.0");
//! ext.command("hello", "say hi", |_ctx, _args| {
//!     Response::prompt("Greet me in one short sentence.")
//! });
//! ext.tool(
//!     "weather",
//!     "Current weather for a city.",
//!     serde_json::json!({"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}),
//!     |_ctx, args| ToolResult::text(format!("{}: sunny", args["city"].as_str().unwrap_or("?"))),
//! );
//! ext.run().expect("zot went away");
//! ```
//!
//! Why threads and std I/O rather than an async runtime: an extension is a
//! small process with one pipe in and one pipe out. A pool of plain threads
//! gives every handler its own stack (so a slow tool never delays a panel
//! key), costs nothing at start-up, and keeps the SDK free of a runtime the
//! author might not want. See `runtime.rs` for how a frame reaches a handler
//! without a thread hand-off on the hot path.
#![deny(missing_docs)]

mod context;
mod decision;
mod dialogs;
mod dispatch;
mod error;
mod extension;
mod response;
mod runtime;
mod session_state;
mod tool_call;
mod wire;

pub use context::{Context, HostInfo};
pub use decision::{AssistantMessageDecision, ToolCallDecision, TurnStartDecision};
pub use dialogs::DialogAnswer;
pub use error::Error;
pub use extension::Extension;
pub use response::{Response, ToolResult};
pub use session_state::{State, StateError};
pub use tool_call::{CancelToken, ToolCall};

/// The protocol crate, re-exported so authors name frames without a second
/// dependency.
pub use zot_ext_protocol as protocol;
pub use zot_ext_protocol::{
    ContentBlock, Event, EventFields, LifecycleEvent, MouseAction, NoteLevel, PanelKey,
    PanelKeyFrame, PanelMouseFrame, PanelResizeFrame, PanelSpec,
};
