//! What one extension may register, so a buggy or hostile one cannot grow
//! the host's memory, the model's tool list or the provider request without
//! bound, nor offer a name a provider rejects (which would fail every
//! request while it is enabled). Refusals are warnings in `report()` and
//! doctor, and a line in the extension's log.

/// A tool call's absolute cap without a manifest `tool_timeout_s`, in
/// seconds (docs/protocol.md "Long tool calls").
pub const TOOL_TIMEOUT_S_DEFAULT: u64 = 600;
/// The most a manifest's `tool_timeout_s` may ask for.
pub const TOOL_TIMEOUT_S_MAX: u64 = 3600;

/// The absolute cap on one tool call of the extension with `manifest`.
pub fn tool_timeout_s(manifest: Option<&zot_ext_protocol::Manifest>) -> u64 {
    manifest
        .and_then(|m| m.tool_timeout_s)
        .unwrap_or(TOOL_TIMEOUT_S_DEFAULT)
        .clamp(1, TOOL_TIMEOUT_S_MAX)
}

/// Commands one extension may register.
pub const MAX_COMMANDS: usize = 256;
/// Tools one extension may register.
pub const MAX_TOOLS: usize = 256;
/// Largest tool schema, as compact JSON.
pub const MAX_SCHEMA_BYTES: usize = 64 * 1024;
/// Longest command or tool name.
pub const MAX_NAME_LEN: usize = 64;
/// Warnings kept per extension; beyond, only a count.
pub const MAX_WARNINGS: usize = 50;

/// Why a command name is refused: as [`name_problem`], except that `:`
/// may separate a server from its prompt (`/github:review`, docs/mcp.md);
/// commands never reach a provider, so its rule need not hold.
pub fn command_name_problem(name: &str) -> Option<String> {
    if name.starts_with(':') || name.ends_with(':') {
        return Some("the name starts or ends with ':'".into());
    }
    name_problem(&name.replace(':', "_"))
}

/// Why a command or tool name is refused, if it is: every provider accepts
/// `^[A-Za-z0-9_-]{1,64}$`, nothing else.
pub fn name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("the name is empty".into());
    }
    if name.len() > MAX_NAME_LEN {
        return Some(format!(
            "the name is {} bytes long (at most {MAX_NAME_LEN})",
            name.len()
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Some(format!(
            "the name contains {c:?}; use only letters, digits, '_' and '-'"
        ));
    }
    None
}

/// The size of `v` as compact JSON, without building the text.
pub fn json_size(v: &serde_json::Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 = self.0.saturating_add(buf.len());
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Count(0);
    match serde_json::to_writer(&mut c, v) {
        Ok(()) => c.0,
        Err(_) => usize::MAX,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_provider_rule() {
        for ok in ["a", "my_tool", "Todo-2", &"x".repeat(64)] {
            assert_eq!(name_problem(ok), None, "{ok}");
        }
        for bad in ["", "my tool", "/x", "é", "a.b", "a:b", &"x".repeat(65)] {
            assert!(name_problem(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn json_size_is_the_compact_length() {
        let v = serde_json::json!({"type":"object","properties":{"a":{"type":"string"}}});
        assert_eq!(json_size(&v), v.to_string().len());
    }
}
