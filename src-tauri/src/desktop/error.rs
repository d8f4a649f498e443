//! The one error shape every zot IPC command returns: `{code, message}`. The
//! UI decodes it in one place (`ui/src/lib/backend/errors.ts`).

use serde::Serialize;

/// An IPC failure as the page sees it.
#[derive(Debug, Clone, Serialize)]
pub struct IpcError {
    /// A stable, machine-readable kind: a command's `ErrorCode`, or the
    /// desktop operation's own (`install`, `io`, …).
    pub code: &'static str,
    /// What happened and what to do, for the user.
    pub message: String,
}

impl IpcError {
    /// An error of kind `code`.
    pub fn new(code: &'static str, message: impl std::fmt::Display) -> Self {
        IpcError {
            code,
            message: message.to_string(),
        }
    }
}

/// A command's failure keeps its code (`invalid`, `not_found`, `denied`,
/// `busy`, `failed`: zot_ext_protocol::ErrorCode), so the page can tell a
/// refusal from a failure.
impl From<zot_ext_protocol::RpcError> for IpcError {
    fn from(e: zot_ext_protocol::RpcError) -> Self {
        IpcError {
            code: e.code.as_str(),
            message: e.message,
        }
    }
}

/// The result type of every command.
pub type IpcResult<T> = Result<T, IpcError>;
