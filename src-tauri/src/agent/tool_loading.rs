//! Deferred extension tools, placed the way each provider loads them
//! (`ToolLoading`): the generic path (activated tools join the tool list),
//! Anthropic's tool search (deferred tools sent with `defer_loading`), or
//! Kimi's dynamic tools (`select_tools`, announcements and loaded schemas as
//! system messages in the transcript). What Kimi's model was told and what
//! it loaded is read back from the transcript, so a reloaded session goes
//! on exactly where it stopped.

use std::collections::BTreeSet;

use serde_json::{json, Value};
use zot_ext_protocol::ContentBlock;

use crate::providers::transcript::{Block, Message, Role};
use crate::providers::ToolDef;
use crate::tools::ToolOutput;

/// The tool Kimi's model loads deferred tools with.
pub const SELECT_TOOLS: &str = "select_tools";

/// Longest description shown beside a name in an announcement.
const BRIEF_CHARS: usize = 100;

/// `select_tools` as the model sees it.
pub fn select_tools_def() -> ToolDef {
    ToolDef {
        name: SELECT_TOOLS.into(),
        description: "Load tools by exact name so you can call them. The loadable tools are listed in the <tools_added> / <tools_removed> system messages of this conversation (read them in order). Loaded tools can be called from your next step on.".into(),
        schema: json!({
            "type": "object",
            "properties": {
                "names": {
                    "type": "array",
                    "items": {"type": "string"},
                    "minItems": 1,
                    "description": "Exact tool names from the latest announcements."
                }
            },
            "required": ["names"],
            "additionalProperties": false
        }),
    }
}

/// Names whose schemas the transcript already loaded.
pub fn loaded(messages: &[Message]) -> BTreeSet<String> {
    messages
        .iter()
        .filter(|m| m.role == Role::System)
        .flat_map(Message::loaded_tools)
        .map(|t| t.name.clone())
        .collect()
}

/// The loadable names the transcript's announcements add up to.
fn announced(messages: &[Message]) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    for b in messages
        .iter()
        .filter(|m| m.role == Role::System)
        .flat_map(|m| m.content.iter())
    {
        if let Block::ToolsAnnounced { added, removed } = b {
            set.extend(added.iter().map(|(n, _)| n.clone()));
            for r in removed {
                set.remove(r);
            }
        }
    }
    set
}

/// The announcement to add before the next request, when the loadable
/// tools differ from what the transcript announced.
pub fn announcement(messages: &[Message], loadable: &[ToolDef]) -> Option<Message> {
    let before = announced(messages);
    let now: BTreeSet<&str> = loadable.iter().map(|t| t.name.as_str()).collect();
    let mut added: Vec<(String, String)> = loadable
        .iter()
        .filter(|t| !before.contains(&t.name))
        .map(|t| (t.name.clone(), brief(&t.description)))
        .collect();
    added.sort();
    added.dedup_by(|a, b| a.0 == b.0);
    let removed: Vec<String> = before
        .iter()
        .filter(|n| !now.contains(n.as_str()))
        .cloned()
        .collect();
    if added.is_empty() && removed.is_empty() {
        return None;
    }
    Some(Message {
        checkpoint: None,
        role: Role::System,
        content: vec![Block::ToolsAnnounced { added, removed }],
    })
}

/// The first sentence of a description, at most [`BRIEF_CHARS`] characters.
fn brief(d: &str) -> String {
    let first = d.split_inclusive(". ").next().unwrap_or(d).trim();
    let mut s: String = first.chars().take(BRIEF_CHARS).collect();
    if first.chars().count() > BRIEF_CHARS {
        s.push('…');
    }
    s
}

/// Runs `select_tools`: the names to load (in the order asked) and the
/// answer for the model. `loaded` holds what the transcript or this step
/// already loaded.
pub fn select(
    args: &Value,
    loadable: &[ToolDef],
    loaded: &BTreeSet<String>,
) -> (Vec<String>, ToolOutput) {
    let Some(names) = args.get("names").and_then(Value::as_array) else {
        return (
            Vec::new(),
            ToolOutput::err("select_tools needs \"names\": an array of exact tool names from the <tools_added> announcements"),
        );
    };
    let (mut load, mut have, mut unknown) = (Vec::new(), Vec::new(), Vec::new());
    let mut seen = BTreeSet::new();
    for n in names {
        let Some(n) = n.as_str() else {
            unknown.push(n.to_string());
            continue;
        };
        if !seen.insert(n.to_owned()) {
            continue;
        }
        if loaded.contains(n) {
            have.push(n.to_owned());
        } else if loadable.iter().any(|t| t.name == n) {
            load.push(n.to_owned());
        } else {
            unknown.push(n.to_owned());
        }
    }
    let mut lines = Vec::new();
    if !load.is_empty() {
        lines.push(format!("Loaded: {}", load.join(", ")));
    }
    if !have.is_empty() {
        lines.push(format!("Already loaded: {}", have.join(", ")));
    }
    for u in &unknown {
        lines.push(format!(
            "Unknown tool: {u}; pick a name from the latest <tools_added> announcement"
        ));
    }
    let is_error = load.is_empty() && have.is_empty();
    if lines.is_empty() {
        lines.push("select_tools: \"names\" is empty; give at least one tool name".into());
    }
    (
        load,
        ToolOutput {
            content: vec![ContentBlock::text(lines.join("\n"))],
            is_error,
        },
    )
}

/// The system message that loads `tools` (Kimi: `role:"system"`, a `tools`
/// field, no content).
pub fn schemas(tools: Vec<ToolDef>) -> Message {
    Message {
        checkpoint: None,
        role: Role::System,
        content: vec![Block::ToolSchemas { tools }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(n: &str) -> ToolDef {
        ToolDef {
            name: n.into(),
            description: format!("Does {n}. More words."),
            schema: json!({"type":"object"}),
        }
    }

    #[test]
    fn announcements_fold_in_order_and_only_changes_are_announced() {
        let mut t = vec![Message::user_text("hi")];
        let a = announcement(&t, &[def("b"), def("a")]).unwrap();
        assert_eq!(
            a.content,
            vec![Block::ToolsAnnounced {
                added: vec![
                    ("a".into(), "Does a.".into()),
                    ("b".into(), "Does b.".into())
                ],
                removed: vec![]
            }]
        );
        t.push(a);
        assert_eq!(announcement(&t, &[def("a"), def("b")]), None);
        let r = announcement(&t, &[def("a")]).unwrap();
        assert_eq!(
            r.content,
            vec![Block::ToolsAnnounced {
                added: vec![],
                removed: vec!["b".into()]
            }]
        );
    }

    #[test]
    fn select_loads_known_names_and_reports_the_rest() {
        let loadable = [def("a"), def("b")];
        let have: BTreeSet<String> = ["b".to_owned()].into();
        let (load, out) = select(&json!({"names":["a","b","zz","a"]}), &loadable, &have);
        assert_eq!(load, vec!["a"]);
        assert!(!out.is_error);
        let (load, out) = select(&json!({"names":["zz"]}), &loadable, &have);
        assert!(load.is_empty() && out.is_error);
        let (_, out) = select(&json!({"names":"a"}), &loadable, &have);
        assert!(out.is_error);
    }
}
