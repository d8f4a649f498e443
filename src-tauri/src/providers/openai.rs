//! OpenAI-compatible chat completions with streaming: OpenAI itself, Ollama
//! and Kimi/Moonshot, differing only in base URL, key and defaults.

use async_trait::async_trait;
use serde_json::{json, Value};
use zot_ext_protocol::rpc::{ModelInfo, StopReason, Usage};
use zot_ext_protocol::ContentBlock;

use super::anthropic::parse_args;
use super::{
    at, retry, set, sse, ChatRequest, Completion, Provider, ProviderConfig, ProviderError,
    TextSink, ToolLoading,
};
use crate::providers::transcript::{Block, Role};

/// A client for one OpenAI-compatible server.
pub struct OpenAi {
    /// Shared connection pool.
    http: reqwest::Client,
    /// Server, key and preset.
    cfg: ProviderConfig,
}

impl OpenAi {
    /// Wraps a client and config.
    pub fn new(http: reqwest::Client, cfg: ProviderConfig) -> Self {
        OpenAi { http, cfg }
    }

    fn url(&self, path: &str) -> String {
        format!("{}/{path}", self.cfg.base_url.trim_end_matches('/'))
    }

    fn request(&self, method: reqwest::Method, url: &str) -> reqwest::RequestBuilder {
        let b = self.http.request(method, url);
        match &self.cfg.api_key {
            Some(k) => b.bearer_auth(k),
            None => b,
        }
    }
}

fn data_url(mime: &str, data: &str) -> Value {
    json!({"type": "image_url", "image_url": {"url": format!("data:{mime};base64,{data}")}})
}

/// The request body in the chat-completions shape. `kimi_native`: the
/// model loads deferred tools Kimi's way, so zot's tool-loading system
/// messages are sent (`kimi.rs`); everywhere else they are left out.
pub fn body(req: &ChatRequest, kimi_native: bool) -> Value {
    let mut messages: Vec<Value> = Vec::new();
    if !req.system.is_empty() {
        messages.push(json!({"role": "system", "content": req.system}));
    }
    for m in &req.messages {
        match m.role {
            Role::System => {
                if kimi_native {
                    messages.extend(m.content.iter().filter_map(super::kimi::system_message));
                }
            }
            Role::Assistant => {
                let text = m.text();
                let calls: Vec<Value> = m
                    .tool_uses()
                    .map(|(id, name, input)| {
                        let args = match input {
                            Value::String(s) => s.clone(),
                            v => v.to_string(),
                        };
                        json!({"id": id, "type": "function", "function": {"name": name, "arguments": args}})
                    })
                    .collect();
                let mut msg = json!({"role": "assistant", "content": if text.is_empty() { Value::Null } else { json!(text) }});
                if !calls.is_empty() {
                    set(&mut msg, "tool_calls", json!(calls));
                }
                messages.push(msg);
            }
            Role::User => {
                let mut parts: Vec<Value> = Vec::new();
                // Tool messages cannot carry images, so those follow as a user message.
                let mut tool_images: Vec<Value> = Vec::new();
                for b in &m.content {
                    match b {
                        Block::Text { text } => parts.push(json!({"type": "text", "text": text})),
                        Block::Image { mime_type, data } => parts.push(data_url(mime_type, data)),
                        Block::ToolResult {
                            tool_use_id,
                            content,
                            is_error,
                        } => {
                            let mut text = String::new();
                            if *is_error {
                                text.push_str("Error: ");
                            }
                            for c in content {
                                match c {
                                    ContentBlock::Text { text: t } => text.push_str(t),
                                    ContentBlock::Image { mime_type, data } => {
                                        text.push_str("[image attached below]");
                                        tool_images.push(data_url(mime_type, data));
                                    }
                                }
                            }
                            messages.push(json!({"role": "tool", "tool_call_id": tool_use_id, "content": text}));
                        }
                        Block::ToolUse { .. }
                        | Block::ServerToolUse { .. }
                        | Block::ToolSearchToolResult { .. }
                        | Block::ToolsAnnounced { .. }
                        | Block::ToolSchemas { .. } => {}
                    }
                }
                if !tool_images.is_empty() {
                    messages.push(json!({"role": "user", "content": tool_images}));
                }
                if !parts.is_empty() {
                    let content = match parts.as_slice() {
                        [only] if at(only, &["type"]) == "text" => at(only, &["text"]).clone(),
                        _ => json!(parts),
                    };
                    messages.push(json!({"role": "user", "content": content}));
                }
            }
        }
    }
    let mut b = json!({
        "model": req.model,
        "messages": messages,
        "stream": true,
        "stream_options": {"include_usage": true},
        "max_tokens": req.max_tokens,
    });
    if !req.tools.is_empty() {
        set(
            &mut b,
            "tools",
            json!(req
                .tools
                .iter()
                .map(super::kimi::function)
                .collect::<Vec<_>>()),
        );
    }
    b
}

/// A tool call being streamed.
#[derive(Default)]
struct PartialCall {
    id: String,
    name: String,
    args: String,
}

/// One answer as its chunks build it.
#[derive(Default)]
struct Answer {
    text: String,
    calls: Vec<PartialCall>,
    usage: Usage,
    stop: Option<StopReason>,
    budget: sse::Budget,
}

impl Answer {
    /// One chunk: usage, text (shown as it comes), tool-call pieces, and
    /// the finish reason.
    fn chunk(&mut self, name: &str, v: &Value, on_text: TextSink<'_>) -> Result<(), ProviderError> {
        if let Some(u) = v.get("usage").filter(|u| u.is_object()) {
            self.take_usage(u);
        }
        let Some(choice) = at(v, &["choices"]).get(0) else {
            return Ok(());
        };
        let d = at(choice, &["delta"]);
        if let Some(s) = at(d, &["content"]).as_str() {
            if !s.is_empty() {
                self.budget.take(name, s.len())?;
                on_text(s);
                self.text.push_str(s);
            }
        }
        if let Some(tcs) = at(d, &["tool_calls"]).as_array() {
            for tc in tcs {
                self.tool_call_piece(name, tc)?;
            }
        }
        if let Some(f) = at(choice, &["finish_reason"]).as_str() {
            self.stop = Some(match f {
                "tool_calls" | "function_call" => StopReason::ToolUse,
                "length" => StopReason::Length,
                _ => StopReason::EndTurn,
            });
        }
        Ok(())
    }

    /// OpenAI counts cached tokens inside `prompt_tokens`; zot's
    /// `input_tokens` are the uncached ones, as Anthropic's are.
    fn take_usage(&mut self, u: &Value) {
        let prompt = at(u, &["prompt_tokens"]).as_u64().unwrap_or(0);
        self.usage.cache_read_tokens = at(u, &["prompt_tokens_details", "cached_tokens"])
            .as_u64()
            .unwrap_or(0)
            .min(prompt);
        self.usage.input_tokens = prompt.saturating_sub(self.usage.cache_read_tokens);
        self.usage.output_tokens = at(u, &["completion_tokens"]).as_u64().unwrap_or(0);
    }

    /// A piece of a tool call at its index (bounded): id, name, arguments.
    fn tool_call_piece(&mut self, name: &str, tc: &Value) -> Result<(), ProviderError> {
        let i = sse::index(name, tc)?.unwrap_or(self.calls.len());
        if i >= sse::MAX_INDEX {
            return Err(ProviderError::fatal(format!(
                "{name} sent a malformed stream: more than {} tool calls in one answer; try again",
                sse::MAX_INDEX
            )));
        }
        if self.calls.len() <= i {
            self.calls
                .resize_with(i.saturating_add(1), PartialCall::default);
        }
        let Some(c) = self.calls.get_mut(i) else {
            return Ok(());
        };
        if let Some(id) = at(tc, &["id"]).as_str() {
            self.budget.take(name, id.len())?;
            c.id = id.to_owned();
        }
        if let Some(n) = at(tc, &["function", "name"]).as_str() {
            self.budget.take(name, n.len())?;
            c.name.push_str(n);
        }
        if let Some(a) = at(tc, &["function", "arguments"]).as_str() {
            self.budget.take(name, a.len())?;
            c.args.push_str(a);
        }
        Ok(())
    }

    /// The text, then the tool calls (an id made up where none came); a
    /// "stop" with tool calls counts as tool use.
    fn into_completion(self) -> Completion {
        let mut content = Vec::new();
        if !self.text.is_empty() {
            content.push(Block::Text { text: self.text });
        }
        for (i, c) in self.calls.into_iter().enumerate() {
            let id = if c.id.is_empty() {
                format!("call_{i}")
            } else {
                c.id
            };
            content.push(Block::ToolUse {
                id,
                name: c.name,
                input: parse_args(&c.args),
            });
        }
        let has_calls = content.iter().any(|b| matches!(b, Block::ToolUse { .. }));
        let stop = match self.stop {
            // Some servers say "stop" even when they called tools.
            Some(StopReason::EndTurn) | None if has_calls => StopReason::ToolUse,
            Some(s) => s,
            None => StopReason::EndTurn,
        };
        Completion {
            content,
            stop,
            usage: self.usage,
        }
    }
}

#[async_trait]
impl Provider for OpenAi {
    fn name(&self) -> &str {
        self.cfg.kind.as_str()
    }

    fn tool_loading(&self, model: &str) -> ToolLoading {
        if self.cfg.kind == super::ProviderKind::Kimi
            && super::catalog::dynamic_tools("kimi", model)
        {
            ToolLoading::KimiSelect
        } else {
            ToolLoading::Generic
        }
    }

    async fn stream(
        &self,
        req: &ChatRequest,
        on_text: TextSink<'_>,
    ) -> Result<Completion, ProviderError> {
        let name = self.name().to_owned();
        let url = self.url("chat/completions");
        let body = body(
            req,
            self.tool_loading(&req.model) == ToolLoading::KimiSelect,
        );
        let resp = retry::send(&name, &url, || {
            self.request(reqwest::Method::POST, &url).json(&body)
        })
        .await?;
        let mut events = sse::events(&name, resp);
        let mut answer = Answer::default();
        let mut done = false;
        while let Some(ev) = sse::next(&name, &mut events).await {
            let ev = ev?;
            let data = ev.data.trim();
            if data.is_empty() {
                continue;
            }
            if data == "[DONE]" {
                done = true;
                break;
            }
            let v: Value =
                serde_json::from_str(data).map_err(|e| sse::malformed(&name, data, e))?;
            if let Some(m) = at(&v, &["error", "message"])
                .as_str()
                .or(at(&v, &["error"]).as_str())
            {
                return Err(ProviderError::fatal(format!(
                    "{name} reported an error mid-stream: {m}"
                )));
            }
            answer.chunk(&name, &v, on_text)?;
        }
        if !done && answer.stop.is_none() {
            return Err(sse::truncated(&name));
        }
        Ok(answer.into_completion())
    }

    async fn list_models(&self) -> Result<Vec<ModelInfo>, ProviderError> {
        let name = self.name().to_owned();
        let url = self.url("models");
        let resp = retry::send(&name, &url, || self.request(reqwest::Method::GET, &url)).await?;
        let v: Value = resp.json().await.map_err(|e| {
            ProviderError::fatal(format!("{name} sent a model list that does not parse: {e}"))
        })?;
        Ok(at(&v, &["data"])
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|m| at(m, &["id"]).as_str())
                    .map(|id| super::catalog::model_info(&name, id))
                    .collect()
            })
            .unwrap_or_default())
    }
}
