//! What can go wrong when the agent or the UI asks the host for something.
//! Every message names the extension and, where it helps, its exit status
//! and the log file to read next.

use std::path::PathBuf;

use zot_ext_protocol::{ErrorCode, RpcError};

/// An error from a [`crate::Host`] call.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum HostError {
    /// No active extension command has this name.
    #[error("no extension command '/{0}'; type /help to list the commands")]
    UnknownCommand(String),
    /// No extension tool has this name.
    #[error("no extension tool '{0}'")]
    UnknownTool(String),
    /// No open panel has this id.
    #[error("no open panel '{0}'")]
    UnknownPanel(String),
    /// A `panel_message` that cannot go: to a line panel, or too big.
    #[error("{0}")]
    PanelMessage(String),
    /// No extension of the current load has this name.
    #[error("no extension '{0}'; `zot ext list` shows the installed ones")]
    UnknownExtension(String),
    /// Its settings could not be read, or a value was refused (nothing
    /// was stored). The message names the setting and the rule, never a
    /// secret's value.
    #[error("extension '{extension}': {message}")]
    Settings {
        /// The extension's name.
        extension: String,
        /// What went wrong.
        message: String,
    },
    /// The extension has no process to start (disabled, shadowed,
    /// theme-only or with an invalid manifest).
    #[error("extension '{extension}' cannot be started: {reason}")]
    NotStartable {
        /// The extension's name.
        extension: String,
        /// Why, e.g. `it is disabled`.
        reason: String,
    },
    /// The extension exited while the call was pending (or before it).
    #[error("extension '{extension}' exited ({status}) while handling {during}; see {}", log.display())]
    Exited {
        /// The extension's name.
        extension: String,
        /// `status N` or `signal N (SIGX)`.
        status: String,
        /// What the host was waiting for, e.g. `tool 'todo_manage'`.
        during: String,
        /// Its stderr log.
        log: PathBuf,
    },
    /// The extension did not answer in time.
    #[error("extension '{extension}' did not answer {during} within {secs} s{}; see {}", limit.map_or("", TimeoutLimit::note), log.display())]
    Timeout {
        /// The extension's name.
        extension: String,
        /// What the host was waiting for.
        during: String,
        /// The timeout that passed, in seconds.
        secs: u64,
        /// For a tool call: which of its two limits ended it.
        limit: Option<TimeoutLimit>,
        /// Its stderr log.
        log: PathBuf,
    },
    /// The extension is not reading its stdin and its queue is full.
    #[error("extension '{extension}' is not reading its input, so {during} was not sent; see {}", log.display())]
    QueueFull {
        /// The extension's name.
        extension: String,
        /// What could not be sent.
        during: String,
        /// Its stderr log.
        log: PathBuf,
    },
    /// The extension is not running (failed, exited, stopped, or not ready).
    #[error("extension '{extension}' is not running ({reason}), so {during} failed; see {}", log.display())]
    NotRunning {
        /// The extension's name.
        extension: String,
        /// Why, e.g. `it was stopped for a reload`.
        reason: String,
        /// What the caller asked for.
        during: String,
        /// Its stderr log.
        log: PathBuf,
    },
    /// The extension answered a request with the wrong kind of frame (a
    /// `command_response` to a `tool_call`, …): its protocol error.
    #[error("extension '{extension}' answered {during} with a {got} frame instead of a {expected}; this is a bug in the extension; see {}", log.display())]
    WrongReply {
        /// The extension's name.
        extension: String,
        /// What the host was waiting for.
        during: String,
        /// The frame type it sent.
        got: String,
        /// The frame type the request needed.
        expected: String,
        /// Its log.
        log: PathBuf,
    },
}

/// Which limit ended a tool call (docs/protocol.md "Long tool calls").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeoutLimit {
    /// Nothing (no `tool_progress`, no `tool_result`) for the idle timeout.
    Idle,
    /// The absolute cap, the manifest's `tool_timeout_s`, however busy.
    Cap,
}

impl TimeoutLimit {
    /// What the error message adds, so the model and the user know which.
    pub fn note(self) -> &'static str {
        match self {
            TimeoutLimit::Idle => " (its idle timeout: it sent no tool_progress in that time, so zot cancelled the call)",
            TimeoutLimit::Cap => " (its absolute cap, the manifest's tool_timeout_s, ended the call although it was still reporting progress; zot cancelled it)",
        }
    }
}

impl HostError {
    /// The kind of failure a client sees (docs/rpc.md "Commands"): a name
    /// that is not there is `not_found`, a full queue `busy`, a bad
    /// setting or panel message `invalid`, anything an extension did
    /// `failed`.
    pub fn code(&self) -> ErrorCode {
        match self {
            HostError::UnknownCommand(_)
            | HostError::UnknownTool(_)
            | HostError::UnknownPanel(_)
            | HostError::UnknownExtension(_) => ErrorCode::NotFound,
            HostError::PanelMessage(_) | HostError::Settings { .. } => ErrorCode::Invalid,
            HostError::QueueFull { .. } => ErrorCode::Busy,
            _ => ErrorCode::Failed,
        }
    }
}

impl From<HostError> for RpcError {
    fn from(e: HostError) -> Self {
        RpcError::new(e.code(), e.to_string())
    }
}
