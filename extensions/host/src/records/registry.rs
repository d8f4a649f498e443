//! Who owns which command and tool name. Rebuilt from scratch (it is tiny)
//! whenever an extension becomes ready, registers late or goes away, so the
//! answer depends only on the load order, never on which process happened
//! to answer first. Every loser is recorded with the reason it lost.

use std::collections::{HashMap, HashSet};

use serde_json::Value;
use zot_ext_protocol::rpc::{ShadowKind, Shadowing};
use zot_ext_protocol::{RegisterCommand, RegisterTool};

use crate::records::ext_id::ExtId;

/// A tool an extension provides, as the agent needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtTool {
    /// The tool name.
    pub name: String,
    /// What the model reads.
    pub description: Option<String>,
    /// The JSON Schema object for the args.
    pub schema: Value,
    /// The owning extension.
    pub extension: String,
    /// Registered as deferred.
    pub deferred: bool,
    /// It only reads (MCP `readOnlyHint`); approvals may use it.
    pub read_only: bool,
    /// It may destroy data (MCP `destructiveHint`).
    pub destructive: bool,
}

/// What one extension offers, as input to [`Registry::build`].
pub(crate) struct Offer<'a, E> {
    pub owner: E,
    pub name: &'a str,
    pub label: String,
    pub commands: &'a [RegisterCommand],
    pub tools: &'a [RegisterTool],
}

/// The winners and losers of every name.
pub(crate) struct Registry<E> {
    /// Lower-cased name → (canonical registration, owner).
    pub commands: HashMap<String, (RegisterCommand, E)>,
    /// Command keys in load order, for listing.
    pub command_order: Vec<String>,
    /// Tool name → (registration, owner).
    pub tools: HashMap<String, (RegisterTool, E)>,
    /// Tool names in load order.
    pub tool_order: Vec<String>,
    /// Extension name → what of it lost, and why.
    pub shadowed: HashMap<String, Vec<Shadowing>>,
}

impl<E> Default for Registry<E> {
    fn default() -> Self {
        Registry {
            commands: HashMap::new(),
            command_order: Vec::new(),
            tools: HashMap::new(),
            tool_order: Vec::new(),
            shadowed: HashMap::new(),
        }
    }
}

/// The registry the host keeps.
pub(crate) type ExtRegistry = Registry<ExtId>;

impl<E: Clone> Registry<E> {
    /// Decides every name: built-ins first, then offers in load order; within
    /// an extension, its first registration of a name wins.
    pub fn build(
        builtin_commands: &[String],
        builtin_tools: &[String],
        offers: &[Offer<'_, E>],
    ) -> Self {
        let mut r = Registry::default();
        let builtin_cmds: HashSet<String> =
            builtin_commands.iter().map(|c| c.to_lowercase()).collect();
        // Reserved whatever the case: a `Bash` or `READ` beside the real
        // one would let an extension pose as a built-in to the model and
        // to approval rules that match by name.
        let builtin_tools: HashSet<String> =
            builtin_tools.iter().map(|t| t.to_lowercase()).collect();
        // Who holds a lower-cased command name, for the reason text.
        let mut cmd_holder: HashMap<String, (String, String)> = HashMap::new();
        let mut tool_holder: HashMap<String, String> = HashMap::new();
        for offer in offers {
            let lost = r.shadowed.entry(offer.name.to_owned()).or_default();
            for c in offer.commands {
                let key = c.name.to_lowercase();
                if builtin_cmds.contains(&key) {
                    lost.push(shadow(
                        ShadowKind::Command,
                        &c.name,
                        "built-in",
                        format!("'/{}' is a built-in command", c.name),
                    ));
                } else if let Some((owner, canonical)) = cmd_holder.get(&key) {
                    let reason = if owner == offer.name {
                        format!("this extension already registered '/{canonical}'")
                    } else if *canonical != c.name {
                        format!(
                            "'/{canonical}' of '{owner}' differs only by case and loads earlier"
                        )
                    } else {
                        format!("'{owner}' registered '/{canonical}' first (it loads earlier)")
                    };
                    lost.push(shadow(
                        ShadowKind::Command,
                        &c.name,
                        &r_label(owner, offers),
                        reason,
                    ));
                } else {
                    cmd_holder.insert(key.clone(), (offer.name.to_owned(), c.name.clone()));
                    r.command_order.push(key.clone());
                    r.commands.insert(key, (c.clone(), offer.owner.clone()));
                }
            }
            for t in offer.tools {
                if builtin_tools.contains(&t.name.to_lowercase()) {
                    lost.push(shadow(
                        ShadowKind::Tool,
                        &t.name,
                        "built-in",
                        format!(
                            "'{}' is a built-in tool (their names are reserved in any case)",
                            t.name
                        ),
                    ));
                } else if let Some(owner) = tool_holder.get(&t.name) {
                    let reason = if owner == offer.name {
                        "this extension already registered it".to_owned()
                    } else {
                        format!("'{owner}' registered it first (it loads earlier)")
                    };
                    lost.push(shadow(
                        ShadowKind::Tool,
                        &t.name,
                        &r_label(owner, offers),
                        reason,
                    ));
                } else {
                    tool_holder.insert(t.name.clone(), offer.name.to_owned());
                    r.tool_order.push(t.name.clone());
                    r.tools
                        .insert(t.name.clone(), (t.clone(), offer.owner.clone()));
                }
            }
        }
        r.shadowed.retain(|_, v| !v.is_empty());
        r
    }
}

fn r_label<E>(owner: &str, offers: &[Offer<'_, E>]) -> String {
    offers
        .iter()
        .find(|o| o.name == owner)
        .map(|o| o.label.clone())
        .unwrap_or_else(|| owner.to_owned())
}

fn shadow(kind: ShadowKind, name: &str, by: &str, reason: String) -> Shadowing {
    Shadowing {
        kind,
        name: name.to_owned(),
        by: by.to_owned(),
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(n: &str) -> RegisterCommand {
        RegisterCommand {
            name: n.into(),
            description: None,
        }
    }
    fn tool(n: &str) -> RegisterTool {
        RegisterTool {
            name: n.into(),
            schema: serde_json::json!({"type":"object"}),
            ..Default::default()
        }
    }

    #[test]
    fn builtins_win_then_load_order_case_insensitively() {
        let a_cmds = [cmd("Todo"), cmd("clear"), cmd("todo")];
        let b_cmds = [cmd("TODO"), cmd("other")];
        let a_tools = [tool("bash"), tool("t"), tool("Bash"), tool("READ")];
        let b_tools = [tool("t"), tool("u")];
        let offers = [
            Offer {
                owner: 1,
                name: "a",
                label: "a (explicit)".into(),
                commands: &a_cmds,
                tools: &a_tools,
            },
            Offer {
                owner: 2,
                name: "b",
                label: "b (global)".into(),
                commands: &b_cmds,
                tools: &b_tools,
            },
        ];
        let r = Registry::build(&["clear".into()], &["bash".into(), "read".into()], &offers);
        assert_eq!(r.commands["todo"].0.name, "Todo");
        assert_eq!(r.commands["todo"].1, 1);
        assert_eq!(r.commands["other"].1, 2);
        assert_eq!(r.command_order, vec!["todo", "other"]);
        assert_eq!(r.tools["t"].1, 1);
        assert_eq!(r.tools["u"].1, 2);
        assert!(!r.tools.contains_key("bash"));
        assert!(!r.tools.contains_key("Bash") && !r.tools.contains_key("READ"));
        let a = &r.shadowed["a"];
        assert_eq!(a.len(), 5, "{a:?}");
        assert!(a.iter().any(|s| s.name == "READ" && s.by == "built-in"));
        assert!(a.iter().any(|s| s.name == "clear" && s.by == "built-in"));
        assert!(a
            .iter()
            .any(|s| s.name == "todo" && s.reason.contains("already registered")));
        let b = &r.shadowed["b"];
        assert!(b
            .iter()
            .any(|s| s.name == "TODO" && s.by == "a (explicit)" && s.reason.contains("case")));
        assert!(b
            .iter()
            .any(|s| s.kind == ShadowKind::Tool && s.name == "t"));
    }
}
