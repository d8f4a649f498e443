//! Compaction: the older part of the transcript is summarised by the model
//! into one message, so a long session fits its context window again. It
//! runs on request (`compact` / `/compact [instructions]`) and by itself
//! when the next request would pass a share of the model's window
//! ([`Compaction::share`], 80 % unless `config.json` says otherwise).
//!
//! The cut is at the start of the latest turn (a user prompt), so a tool
//! call and its result are never split and the turn in progress stays
//! verbatim. The session file gets one `compaction` line naming the summary
//! and how many messages were kept after it; a reload applies it and gives
//! the same transcript.

use serde_json::Value;
use tokio_util::sync::CancellationToken;
use zot_ext_protocol::rpc::UiEvent;
use zot_ext_protocol::{ContentBlock, EventFields, LifecycleEvent};

use super::Agent;
use crate::providers::transcript::{Block, Message, Role};
use crate::providers::{catalog, ChatRequest, Provider, ToolLoading};

/// When compaction runs by itself.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Compaction {
    /// The model's context window in tokens, when `config.json` sets one
    /// (`context_window`); otherwise the catalogue's.
    pub window: Option<u64>,
    /// The share of the window a request may fill before the older part is
    /// summarised (`compact_at` in `config.json`, 0 < share ≤ 1).
    pub share: f64,
}

impl Default for Compaction {
    fn default() -> Self {
        Compaction {
            window: None,
            share: DEFAULT_SHARE,
        }
    }
}

/// The default share of the context window that triggers compaction.
pub const DEFAULT_SHARE: f64 = 0.8;

impl Compaction {
    /// Reads `context_window` and `compact_at` from `config.json`; values
    /// that make no sense are ignored.
    pub fn from_config(config: &Value) -> Compaction {
        let window = config
            .get("context_window")
            .and_then(Value::as_u64)
            .filter(|w| *w >= 1000);
        let share = config
            .get("compact_at")
            .and_then(Value::as_f64)
            .filter(|s| *s > 0.0 && *s <= 1.0)
            .unwrap_or(DEFAULT_SHARE);
        Compaction { window, share }
    }
}

/// What a compaction did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compacted {
    /// Estimated tokens of the request before.
    pub before_tokens: u64,
    /// Estimated tokens of the request after.
    pub after_tokens: u64,
    /// Messages replaced by the summary.
    pub summarized: usize,
    /// Messages kept verbatim after it.
    pub kept: usize,
}

/// Tokens of a request, estimated as its JSON bytes / 4 (what providers
/// average for English and code; exact counts need a provider round trip).
pub fn estimate(req: &ChatRequest) -> u64 {
    let bytes = req
        .system
        .len()
        .saturating_add(serde_json::to_string(&req.messages).map_or(0, |s| s.len()))
        .saturating_add(serde_json::to_string(&req.tools).map_or(0, |s| s.len()))
        .saturating_add(serde_json::to_string(&req.deferred).map_or(0, |s| s.len()));
    u64::try_from(bytes / 4).unwrap_or(u64::MAX)
}

/// Where the kept part starts: the latest user prompt (a user message that
/// answers no tool call) that has something before it.
pub fn cut(messages: &[Message]) -> Option<usize> {
    messages
        .iter()
        .enumerate()
        .rev()
        .find(|(_, m)| {
            m.role == Role::User
                && !m
                    .content
                    .iter()
                    .any(|b| matches!(b, Block::ToolResult { .. }))
        })
        .map(|(i, _)| i)
        .filter(|i| *i > 0)
}

/// Instructions for the summarising call.
const SUMMARY_SYSTEM: &str = "You compact a conversation between a user and a coding agent so the agent can continue it with less context. Write one summary that keeps everything the agent needs: the user's goals and constraints, decisions made, files read or changed (with paths), commands run and their outcomes, errors and how they were resolved, and the work still open. Be specific and concise; no preamble.";

/// The first line of the summary message, so a reader of the transcript
/// knows what it is.
pub const SUMMARY_HEADER: &str =
    "[Summary of the earlier part of this conversation, written when zot compacted it]";

/// Most characters of one tool result or argument in the summarising
/// request; the rest is cut (the model summarises, it need not see all).
const PIECE_CHARS: usize = 2000;

fn clip(s: &str) -> String {
    if s.chars().count() <= PIECE_CHARS {
        return s.to_owned();
    }
    let mut c: String = s.chars().take(PIECE_CHARS).collect();
    c.push_str(" […]");
    c
}

/// The older messages as plain text for the summarising call, newest kept
/// when they do not all fit in `max_chars`.
pub fn render(messages: &[Message], max_chars: usize) -> String {
    let mut parts: Vec<String> = Vec::new();
    for m in messages {
        let who = match m.role {
            Role::User => "User",
            Role::Assistant => "Assistant",
            Role::System => continue,
        };
        let mut lines = Vec::new();
        for b in &m.content {
            match b {
                Block::Text { text } if !text.trim().is_empty() => lines.push(clip(text)),
                Block::Text { .. } => {}
                Block::Image { .. } => lines.push("[image]".into()),
                Block::ToolUse { name, input, .. } => {
                    lines.push(format!("[called {name} {}]", clip(&input.to_string())))
                }
                Block::ToolResult {
                    content, is_error, ..
                } => {
                    let text: String = content
                        .iter()
                        .map(|c| match c {
                            ContentBlock::Text { text } => text.as_str(),
                            ContentBlock::Image { .. } => "[image]",
                        })
                        .collect::<Vec<_>>()
                        .join("\n");
                    let label = if *is_error {
                        "tool error"
                    } else {
                        "tool result"
                    };
                    lines.push(format!("[{label}: {}]", clip(&text)));
                }
                Block::ServerToolUse { input, .. } => {
                    lines.push(format!("[searched tools {}]", clip(&input.to_string())))
                }
                Block::ToolSearchToolResult { .. }
                | Block::ToolsAnnounced { .. }
                | Block::ToolSchemas { .. } => {}
            }
        }
        if !lines.is_empty() {
            parts.push(format!("{who}: {}", lines.join("\n")));
        }
    }
    // Newest first until the budget is spent, then back in order.
    let mut kept: Vec<String> = Vec::new();
    let mut used = 0usize;
    for p in parts.into_iter().rev() {
        used = used.saturating_add(p.len()).saturating_add(2);
        if used > max_chars && !kept.is_empty() {
            kept.push("[… older messages left out …]".into());
            break;
        }
        kept.push(p);
    }
    kept.reverse();
    kept.join("\n\n")
}

impl Agent {
    /// The context window in use: `config.json` first, then the catalogue.
    fn window(&self, provider: &str, model: &str) -> Option<u64> {
        self.compaction
            .window
            .or_else(|| catalog::context_window(provider, model))
    }

    /// Compacts before a step when its request would pass the share of the
    /// window. Returns `false` when the prompt ended instead (aborted).
    pub(crate) async fn auto_compact(
        &self,
        provider: &dyn Provider,
        loading: ToolLoading,
        cancel: &CancellationToken,
    ) -> bool {
        let model = self.state().model.clone();
        let Some(window) = self.window(provider.name(), &model) else {
            return true;
        };
        // Token counts fit f64 far beyond any real window.
        #[allow(clippy::cast_precision_loss)]
        let over = estimate(&self.request(loading)) as f64 > window as f64 * self.compaction.share;
        if !over || cut(&self.state().messages).is_none() {
            return true;
        }
        match self.compact_with(provider, None, cancel).await {
            Ok(_) => true,
            Err(_) if cancel.is_cancelled() => {
                self.end_step(zot_ext_protocol::rpc::StopReason::Aborted, None);
                false
            }
            Err(e) => {
                // The request may still fit; the provider says if not.
                self.send(UiEvent::Error {
                    message: format!("automatic compaction failed: {e}; the prompt goes on with the full transcript"),
                });
                true
            }
        }
    }

    /// Compacts now with the provider in use (`compact`, `/compact`).
    pub async fn compact(
        &self,
        instructions: Option<&str>,
        cancel: &CancellationToken,
    ) -> Result<Compacted, String> {
        let slot = self.provider();
        if let Some(p) = &slot.problem {
            return Err(p.clone());
        }
        self.compact_with(slot.provider.as_ref(), instructions, cancel)
            .await
    }

    async fn compact_with(
        &self,
        provider: &dyn Provider,
        instructions: Option<&str>,
        cancel: &CancellationToken,
    ) -> Result<Compacted, String> {
        let loading = provider.tool_loading(&self.state().model);
        let before_req = self.request(loading);
        let before_tokens = estimate(&before_req);
        let messages = before_req.messages;
        let Some(at) = cut(&messages) else {
            return Err(
                "nothing to compact yet: the conversation has only its current turn".into(),
            );
        };
        let (older, _) = messages.split_at(at);
        let window = self.window(provider.name(), &before_req.model);
        // Half the window for the text to summarise (4 bytes a token).
        let max_chars =
            usize::try_from(window.unwrap_or(200_000).saturating_mul(2)).unwrap_or(usize::MAX);
        let mut ask = format!(
            "Summarise this conversation so far:\n\n{}",
            render(older, max_chars)
        );
        if let Some(i) = instructions.map(str::trim).filter(|i| !i.is_empty()) {
            ask.push_str(&format!(
                "\n\nWhen summarising, follow these instructions: {i}"
            ));
        }
        let req = ChatRequest {
            model: before_req.model.clone(),
            system: SUMMARY_SYSTEM.into(),
            messages: vec![Message::user_text(ask)],
            tools: Vec::new(),
            deferred: Vec::new(),
            max_tokens: self.max_tokens,
        };
        let mut quiet = |_: &str| {};
        let completion = tokio::select! {
            r = provider.stream(&req, &mut quiet) => r.map_err(|e| e.message)?,
            _ = cancel.cancelled() => return Err("aborted by the user".into()),
        };
        let report = self
            .state()
            .usage
            .record(provider.name(), &req.model, completion.usage);
        self.send(UiEvent::Usage(report));
        let summary: String = completion
            .content
            .iter()
            .filter_map(|b| match b {
                Block::Text { text } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        if summary.trim().is_empty() {
            return Err(
                "the model returned an empty summary; the transcript was left as it was".into(),
            );
        }
        let summary = Message::user_text(format!("{SUMMARY_HEADER}\n\n{}", summary.trim()));
        let kept = self.replace_older(at, summary)?;
        let after_tokens = estimate(&self.request(loading));
        let done = Compacted {
            before_tokens,
            after_tokens,
            summarized: at,
            kept,
        };
        self.exts.emit(
            LifecycleEvent::CompactDone,
            EventFields {
                before_tokens: Some(before_tokens),
                after_tokens: Some(after_tokens),
                ..Default::default()
            },
        );
        self.send(UiEvent::CompactDone {
            before_tokens,
            after_tokens,
        });
        Ok(done)
    }

    /// Puts `summary` in place of the first `at` messages, in memory and in
    /// the session file; returns how many messages were kept.
    fn replace_older(&self, at: usize, summary: Message) -> Result<usize, String> {
        let mut st = self.state();
        let kept = st.messages.len().saturating_sub(at);
        if let Some(s) = st.session.as_mut() {
            if let Err(e) = s.append_compaction(&summary, kept) {
                self.send(UiEvent::Error {
                    message: format!("{e:#}; the conversation goes on but is no longer saved"),
                });
                st.session = None;
            }
        }
        let at = at.min(st.messages.len());
        let rest = st.messages.split_off(at);
        st.messages = std::iter::once(summary).chain(rest).collect();
        Ok(kept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool_turn(i: usize) -> Vec<Message> {
        vec![
            Message::user_text(format!("task {i}")),
            Message {
                checkpoint: None,
                role: Role::Assistant,
                content: vec![Block::ToolUse {
                    id: format!("t{i}"),
                    name: "read".into(),
                    input: serde_json::json!({"path": "a"}),
                }],
            },
            Message {
                checkpoint: None,
                role: Role::User,
                content: vec![Block::ToolResult {
                    tool_use_id: format!("t{i}"),
                    content: vec![ContentBlock::text("x".repeat(5000))],
                    is_error: false,
                }],
            },
        ]
    }

    #[test]
    fn the_cut_is_at_the_latest_prompt_never_between_a_call_and_its_result() {
        let mut m = tool_turn(1);
        assert_eq!(cut(&m), None);
        m.extend(tool_turn(2));
        assert_eq!(cut(&m), Some(3));
    }

    #[test]
    fn rendering_clips_long_results_and_keeps_the_newest_when_over_budget() {
        let m: Vec<Message> = (0..10).flat_map(tool_turn).collect();
        let all = render(&m, usize::MAX);
        assert!(all.contains("task 0") && all.contains(" […]"));
        let some = render(&m, 5000);
        assert!(some.contains("task 9") && !some.contains("task 0"));
        assert!(some.starts_with("[… older"));
    }

    #[test]
    fn config_values_that_make_no_sense_keep_the_defaults() {
        let c = Compaction::from_config(
            &serde_json::json!({"context_window": 50000, "compact_at": 0.5}),
        );
        assert_eq!((c.window, c.share), (Some(50000), 0.5));
        let c =
            Compaction::from_config(&serde_json::json!({"context_window": -1, "compact_at": 3}));
        assert_eq!((c.window, c.share), (None, DEFAULT_SHARE));
    }
}
