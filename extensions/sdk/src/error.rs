//! What can end [`crate::Extension::run`] early.

/// Why an extension stopped before a clean `shutdown`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// stdin or stdout failed (zot closed the pipes, or the OS refused).
    #[error("extension i/o failed: {0}")]
    Io(#[from] std::io::Error),
    /// stdin closed before zot answered `hello` with `hello_ack`.
    #[error("zot closed stdin before sending hello_ack; is this being run outside zot?")]
    NoHelloAck,
}
