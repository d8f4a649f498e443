//! The transcript as the model sees it: user and assistant messages made of
//! text, image, tool-use and tool-result blocks. Providers translate it to
//! their wire format; sessions store it line by line.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use zot_ext_protocol::ContentBlock;

use crate::providers::ToolDef;

/// Who said it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The user, or tool results going back to the model.
    User,
    /// The model.
    Assistant,
    /// Context zot adds for one provider's native tool loading (Kimi's
    /// `<tools_added>` announcements and loaded tool schemas); only the
    /// Kimi wire format sends these, every other provider skips them.
    System,
}

/// One block of a message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Block {
    /// Plain text.
    Text {
        /// The text.
        text: String,
    },
    /// A base64 image.
    Image {
        /// For example `image/png`.
        mime_type: String,
        /// Base64 bytes.
        data: String,
    },
    /// The model called a tool.
    ToolUse {
        /// Call id.
        id: String,
        /// Tool name.
        name: String,
        /// Args as the model wrote them.
        input: Value,
    },
    /// A tool's answer.
    ToolResult {
        /// The call it answers.
        tool_use_id: String,
        /// What the tool returned.
        content: Vec<ContentBlock>,
        /// Whether it failed.
        #[serde(default)]
        is_error: bool,
    },
    /// Anthropic ran a server tool (the tool search) inside the answer;
    /// kept as sent and sent back unchanged.
    ServerToolUse {
        /// Call id (`srvtoolu_…`).
        id: String,
        /// The server tool, e.g. `tool_search_tool_regex`.
        name: String,
        /// Its input (the search pattern).
        input: Value,
    },
    /// The tool search's answer: `tool_reference` blocks naming the
    /// deferred tools that became callable (or an error), kept verbatim.
    ToolSearchToolResult {
        /// The `server_tool_use` it answers.
        tool_use_id: String,
        /// The API's `content` object, unchanged.
        content: Value,
    },
    /// Loadable tools announced to the model (Kimi's `<tools_added>` /
    /// `<tools_removed>` system message); in a [`Role::System`] message.
    ToolsAnnounced {
        /// Newly loadable: name and a one-line description.
        #[serde(default)]
        added: Vec<(String, String)>,
        /// No longer loadable.
        #[serde(default)]
        removed: Vec<String>,
    },
    /// Full schemas of tools loaded mid-conversation (Kimi's `role:system`
    /// message with a `tools` field and no content); in a
    /// [`Role::System`] message.
    ToolSchemas {
        /// The loaded tools.
        tools: Vec<ToolDef>,
    },
}

impl Block {
    /// A text block.
    pub fn text(t: impl Into<String>) -> Self {
        Block::Text { text: t.into() }
    }
}

/// One message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// Who said it.
    pub role: Role,
    /// What was said.
    pub content: Vec<Block>,
    /// On a prompt's user message: the checkpoint of the project's files
    /// taken just before it ran (`checkpoints`), so a rewind finds it by
    /// id, never by counting messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<String>,
}

impl Message {
    /// A user message with plain text.
    pub fn user_text(t: impl Into<String>) -> Self {
        Message {
            checkpoint: None,
            role: Role::User,
            content: vec![Block::text(t)],
        }
    }

    /// All text blocks joined.
    pub fn text(&self) -> String {
        let mut s = String::new();
        for b in &self.content {
            if let Block::Text { text } = b {
                s.push_str(text);
            }
        }
        s
    }

    /// Names of the tools whose schemas this message loads.
    pub fn loaded_tools(&self) -> impl Iterator<Item = &ToolDef> {
        self.content.iter().flat_map(|b| match b {
            Block::ToolSchemas { tools } => tools.as_slice(),
            _ => &[],
        })
    }

    /// The tool calls in this message.
    pub fn tool_uses(&self) -> impl Iterator<Item = (&str, &str, &Value)> {
        self.content.iter().filter_map(|b| match b {
            Block::ToolUse { id, name, input } => Some((id.as_str(), name.as_str(), input)),
            _ => None,
        })
    }
}

/// Makes a transcript safe to send: every tool use gets a result right
/// after it (a crash or abort may have left one unanswered), so the next
/// request is never rejected for a dangling call.
pub fn repair(messages: &mut Vec<Message>) {
    let mut i = 0;
    while let Some(m) = messages.get(i) {
        if m.role == Role::Assistant {
            let ids: Vec<String> = m.tool_uses().map(|(id, _, _)| id.to_owned()).collect();
            if !ids.is_empty() {
                let answered: Vec<String> = messages
                    .get(i.saturating_add(1))
                    .filter(|m| m.role == Role::User)
                    .map(|m| {
                        m.content
                            .iter()
                            .filter_map(|b| match b {
                                Block::ToolResult { tool_use_id, .. } => Some(tool_use_id.clone()),
                                _ => None,
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                let missing: Vec<Block> = ids
                    .into_iter()
                    .filter(|id| !answered.contains(id))
                    .map(|id| Block::ToolResult {
                        tool_use_id: id,
                        content: vec![ContentBlock::text(
                            "the tool call was interrupted before it finished",
                        )],
                        is_error: true,
                    })
                    .collect();
                if !missing.is_empty() {
                    match messages.get_mut(i.saturating_add(1)) {
                        Some(next) if !answered.is_empty() => next.content.extend(missing),
                        _ => messages.insert(
                            i.saturating_add(1),
                            Message {
                                checkpoint: None,
                                role: Role::User,
                                content: missing,
                            },
                        ),
                    }
                }
            }
        }
        i = i.saturating_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repair_answers_a_dangling_tool_call() {
        let mut m = vec![
            Message::user_text("hi"),
            Message {
                checkpoint: None,
                role: Role::Assistant,
                content: vec![Block::ToolUse {
                    id: "t1".into(),
                    name: "bash".into(),
                    input: serde_json::json!({}),
                }],
            },
        ];
        repair(&mut m);
        assert_eq!(m.len(), 3);
        assert!(
            matches!(&m[2].content[0], Block::ToolResult { tool_use_id, is_error: true, .. } if tool_use_id == "t1")
        );
    }
}
