//! The command vocabulary in one table: each command's `type`, the name of
//! the result type it answers (`rpc_results::RpcResult`), and whether it
//! may take time. RPC mode reads it for its "known" list and for what runs
//! beside its loop; `Backend::call` checks every answer against it (debug
//! builds, so every test does); and the UI's `RpcResultOf`
//! (`ui/src/lib/bindings/RpcResultOf.ts`) is generated from it, so no one
//! restates the pairing by hand.

use crate::rpc::RpcCommand;

/// One command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandSpec {
    /// Its `type` on the wire.
    pub name: &'static str,
    /// The result type its successful response's `data` is.
    pub result: &'static str,
    /// It may take time (a provider, an extension, the disk): RPC mode runs
    /// it beside its command loop, so `abort` is still answered at once.
    pub slow: bool,
}

/// Every command, in docs/rpc.md's order.
pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "hello",
        result: "HelloResult",
        slow: false,
    },
    CommandSpec {
        name: "prompt",
        result: "StartedResult",
        slow: false,
    },
    CommandSpec {
        name: "command",
        result: "CommandResult",
        slow: true,
    },
    CommandSpec {
        name: "abort",
        result: "AbortedResult",
        slow: false,
    },
    CommandSpec {
        name: "panel_key",
        result: "DoneResult",
        slow: false,
    },
    CommandSpec {
        name: "panel_close",
        result: "DoneResult",
        slow: false,
    },
    CommandSpec {
        name: "panel_mouse",
        result: "DeliveredResult",
        slow: false,
    },
    CommandSpec {
        name: "panel_resize",
        result: "DeliveredResult",
        slow: false,
    },
    CommandSpec {
        name: "panel_message",
        result: "DeliveredResult",
        slow: false,
    },
    // An app's tool call may wait for `approve_tool`, which must still be
    // read.
    CommandSpec {
        name: "app_tool_call",
        result: "AppToolResult",
        slow: true,
    },
    CommandSpec {
        name: "app_message",
        result: "StartedResult",
        slow: false,
    },
    CommandSpec {
        name: "ext_list",
        result: "ExtListResult",
        slow: false,
    },
    CommandSpec {
        name: "get_state",
        result: "StateResult",
        slow: false,
    },
    CommandSpec {
        name: "get_messages",
        result: "MessagesResult",
        slow: false,
    },
    CommandSpec {
        name: "clear",
        result: "ClearedResult",
        slow: true,
    },
    CommandSpec {
        name: "set_model",
        result: "ModelResult",
        slow: false,
    },
    CommandSpec {
        name: "get_models",
        result: "ModelsResult",
        slow: true,
    },
    CommandSpec {
        name: "ping",
        result: "PongResult",
        slow: false,
    },
    CommandSpec {
        name: "trust_project",
        result: "TrustedResult",
        slow: true,
    },
    CommandSpec {
        name: "untrust_project",
        result: "UntrustedResult",
        slow: true,
    },
    CommandSpec {
        name: "trust_status",
        result: "TrustStatus",
        slow: false,
    },
    CommandSpec {
        name: "ext_restart",
        result: "ExtRestartResult",
        slow: true,
    },
    CommandSpec {
        name: "session_list",
        result: "SessionsResult",
        slow: false,
    },
    CommandSpec {
        name: "session_open",
        result: "SessionOpenResult",
        slow: true,
    },
    CommandSpec {
        name: "session_rename",
        result: "DoneResult",
        slow: false,
    },
    CommandSpec {
        name: "session_delete",
        result: "SessionDeletedResult",
        slow: false,
    },
    CommandSpec {
        name: "compact",
        result: "CompactResult",
        slow: true,
    },
    CommandSpec {
        name: "approve_tool",
        result: "ApproveToolResult",
        slow: false,
    },
    CommandSpec {
        name: "approval_rules",
        result: "ApprovalRulesResult",
        slow: false,
    },
    CommandSpec {
        name: "approval_rule_forget",
        result: "ApprovalRulesResult",
        slow: false,
    },
    CommandSpec {
        name: "ext_config_get",
        result: "ExtConfigResult",
        slow: true,
    },
    CommandSpec {
        name: "ext_config_set",
        result: "ExtConfigResult",
        slow: true,
    },
    CommandSpec {
        name: "ui_respond",
        result: "UiRespondResult",
        slow: false,
    },
    CommandSpec {
        name: "checkpoints",
        result: "CheckpointsResult",
        slow: true,
    },
    CommandSpec {
        name: "checkpoint_preview",
        result: "CheckpointPreviewResult",
        slow: true,
    },
    CommandSpec {
        name: "rewind",
        result: "RewindResult",
        slow: true,
    },
    CommandSpec {
        name: "fork",
        result: "ForkResult",
        slow: true,
    },
    CommandSpec {
        name: "ext_update",
        result: "ExtUpdateResult",
        slow: true,
    },
    CommandSpec {
        name: "ext_rollback",
        result: "ExtRollbackResult",
        slow: true,
    },
];

impl RpcCommand {
    /// Its `type` on the wire.
    pub fn name(&self) -> &'static str {
        match self {
            RpcCommand::Hello { .. } => "hello",
            RpcCommand::Prompt { .. } => "prompt",
            RpcCommand::Command { .. } => "command",
            RpcCommand::Abort {} => "abort",
            RpcCommand::PanelKey { .. } => "panel_key",
            RpcCommand::PanelClose { .. } => "panel_close",
            RpcCommand::PanelMouse { .. } => "panel_mouse",
            RpcCommand::PanelResize { .. } => "panel_resize",
            RpcCommand::PanelMessage { .. } => "panel_message",
            RpcCommand::AppToolCall { .. } => "app_tool_call",
            RpcCommand::AppMessage { .. } => "app_message",
            RpcCommand::ExtList {} => "ext_list",
            RpcCommand::GetState {} => "get_state",
            RpcCommand::GetMessages {} => "get_messages",
            RpcCommand::Clear {} => "clear",
            RpcCommand::SetModel { .. } => "set_model",
            RpcCommand::GetModels {} => "get_models",
            RpcCommand::Ping {} => "ping",
            RpcCommand::TrustProject { .. } => "trust_project",
            RpcCommand::UntrustProject { .. } => "untrust_project",
            RpcCommand::TrustStatus {} => "trust_status",
            RpcCommand::ExtRestart { .. } => "ext_restart",
            RpcCommand::SessionList { .. } => "session_list",
            RpcCommand::SessionOpen { .. } => "session_open",
            RpcCommand::SessionRename { .. } => "session_rename",
            RpcCommand::SessionDelete { .. } => "session_delete",
            RpcCommand::Compact { .. } => "compact",
            RpcCommand::ApproveTool { .. } => "approve_tool",
            RpcCommand::ApprovalRules {} => "approval_rules",
            RpcCommand::ApprovalRuleForget { .. } => "approval_rule_forget",
            RpcCommand::ExtConfigGet { .. } => "ext_config_get",
            RpcCommand::ExtConfigSet { .. } => "ext_config_set",
            RpcCommand::UiRespond { .. } => "ui_respond",
            RpcCommand::Checkpoints {} => "checkpoints",
            RpcCommand::CheckpointPreview { .. } => "checkpoint_preview",
            RpcCommand::Rewind { .. } => "rewind",
            RpcCommand::Fork { .. } => "fork",
            RpcCommand::ExtUpdate { .. } => "ext_update",
            RpcCommand::ExtRollback { .. } => "ext_rollback",
        }
    }

    /// Its row of [`COMMANDS`].
    pub fn spec(&self) -> &'static CommandSpec {
        let name = self.name();
        COMMANDS
            .iter()
            .find(|c| c.name == name)
            .unwrap_or(&UNLISTED)
    }
}

/// What [`RpcCommand::spec`] answers for a command missing from
/// [`COMMANDS`]; the tests below keep that from happening.
const UNLISTED: CommandSpec = CommandSpec {
    name: "unlisted",
    result: "unlisted",
    slow: false,
};

/// Every command's `type`, comma-separated, for error messages.
pub fn known_names() -> String {
    COMMANDS
        .iter()
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use std::path::Path;

    fn bindings() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/lib/bindings")
    }

    /// The command types ts-rs wrote for `RpcCommand`: what the enum has.
    fn command_types() -> BTreeSet<String> {
        let ts = std::fs::read_to_string(bindings().join("RpcCommand.ts")).unwrap();
        ts.split("\"type\": \"")
            .skip(1)
            .filter_map(|s| s.split('"').next())
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn every_command_has_one_row_and_every_row_a_command() {
        let rows: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
        let unique: BTreeSet<String> = rows.iter().map(|s| (*s).to_owned()).collect();
        assert_eq!(unique.len(), rows.len(), "a command is listed twice");
        assert_eq!(unique, command_types(), "COMMANDS and RpcCommand differ");
    }

    #[test]
    fn every_result_is_a_generated_type() {
        for c in COMMANDS {
            assert!(
                bindings().join(format!("{}.ts", c.result)).exists(),
                "{}: no binding {}.ts",
                c.name,
                c.result
            );
        }
    }

    /// Writes `RpcResultOf.ts` beside the other bindings (`make test`
    /// fails when it is stale, as for every binding).
    #[test]
    fn export_rpc_result_of() {
        let mut types: Vec<&str> = COMMANDS.iter().map(|c| c.result).collect();
        types.sort_unstable();
        types.dedup();
        let mut ts = String::from(
            "// Generated from extensions/protocol/src/rpc_commands.rs. Do not edit.\n",
        );
        for t in &types {
            ts.push_str(&format!("import type {{ {t} }} from \"./{t}\";\n"));
        }
        ts.push_str("\n/** What each command's successful response carries as `data`. */\n");
        ts.push_str("export type RpcResultOf = {\n");
        for c in COMMANDS {
            ts.push_str(&format!("  {}: {};\n", c.name, c.result));
        }
        ts.push_str("};\n");
        let path = bindings().join("RpcResultOf.ts");
        if std::fs::read_to_string(&path).ok().as_deref() != Some(ts.as_str()) {
            std::fs::write(&path, ts).unwrap();
        }
    }
}
