//! Why a command failed, as one type with a stable code: RPC mode writes
//! it as the response's `error` and `code`, the window's IPC answers it as
//! `{code, message}`, and the UI reads `code` to tell, say, "not allowed"
//! from "went wrong" without parsing the words.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A failure's kind: stable names a client may branch on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum ErrorCode {
    /// The command or its fields are malformed or out of range.
    Invalid,
    /// What it names (extension, panel, session, checkpoint, request)
    /// does not exist (any more).
    NotFound,
    /// Not allowed: a wrong token, an untrusted project, a refused
    /// permission.
    Denied,
    /// Something else is running that this must wait for.
    Busy,
    /// It was understood and allowed, and then went wrong (I/O, an
    /// extension's error, a provider's).
    Failed,
}

impl ErrorCode {
    /// The code as written on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Invalid => "invalid",
            ErrorCode::NotFound => "not_found",
            ErrorCode::Denied => "denied",
            ErrorCode::Busy => "busy",
            ErrorCode::Failed => "failed",
        }
    }
}

/// A command's failure: its kind and what happened, in words that say
/// what to do next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct RpcError {
    /// The kind.
    pub code: ErrorCode,
    /// For the user.
    pub message: String,
}

impl RpcError {
    /// A failure of kind `code`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        RpcError {
            code,
            message: message.into(),
        }
    }

    /// [`ErrorCode::Invalid`].
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Invalid, message)
    }

    /// [`ErrorCode::NotFound`].
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::NotFound, message)
    }

    /// [`ErrorCode::Denied`].
    pub fn denied(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Denied, message)
    }

    /// [`ErrorCode::Busy`].
    pub fn busy(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Busy, message)
    }
}

/// A message alone is a failure of the work itself; the places that know
/// better (a lookup, a check) say their code.
impl From<String> for RpcError {
    fn from(message: String) -> Self {
        Self::new(ErrorCode::Failed, message)
    }
}

impl From<&str> for RpcError {
    fn from(message: &str) -> Self {
        Self::new(ErrorCode::Failed, message)
    }
}

impl std::fmt::Display for RpcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RpcError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_written_as_their_wire_names() {
        for code in [
            ErrorCode::Invalid,
            ErrorCode::NotFound,
            ErrorCode::Denied,
            ErrorCode::Busy,
            ErrorCode::Failed,
        ] {
            assert_eq!(
                serde_json::to_value(code).unwrap(),
                serde_json::json!(code.as_str())
            );
        }
        let e = RpcError::from("disk full".to_owned());
        assert_eq!(
            serde_json::to_value(&e).unwrap(),
            serde_json::json!({"code": "failed", "message": "disk full"})
        );
    }
}
