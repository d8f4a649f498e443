//! How the host reaches one extension, decided once per load from its
//! manifest: spawn a zot extension, connect to one over a WebSocket, or
//! run / reach an MCP server (docs/mcp.md). A leaf: plain data.

use std::path::PathBuf;

/// What the supervisor starts for an extension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    /// Spawn `exec` and speak zot frames over its stdio.
    Process(PathBuf),
    /// Connect to a zot extension at this `ws://` URL.
    WebSocket(String),
    /// Spawn an MCP stdio server (`command`, with the manifest's `args`
    /// and `env`).
    McpStdio(PathBuf),
    /// Reach an MCP streamable-HTTP server.
    McpHttp {
        /// Its endpoint.
        url: String,
        /// Headers for every request.
        headers: Vec<(String, String)>,
    },
}

impl Target {
    /// Whether it is an MCP server.
    pub fn is_mcp(&self) -> bool {
        matches!(self, Target::McpStdio(_) | Target::McpHttp { .. })
    }
}
