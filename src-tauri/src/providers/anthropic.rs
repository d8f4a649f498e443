//! The Anthropic Messages API with SSE streaming.

use async_trait::async_trait;
use serde_json::{json, Value};
use zot_ext_protocol::rpc::{ModelInfo, StopReason, Usage};
use zot_ext_protocol::ContentBlock;

use super::{
    at, retry, set, sse, ChatRequest, Completion, Provider, ProviderConfig, ProviderError,
    TextSink, ToolLoading,
};
use crate::providers::transcript::{Block, Role};

/// A client for one Anthropic-compatible server.
pub struct Anthropic {
    /// Shared connection pool.
    http: reqwest::Client,
    /// Server and key.
    cfg: ProviderConfig,
}

impl Anthropic {
    /// Wraps a client and config.
    pub fn new(http: reqwest::Client, cfg: ProviderConfig) -> Self {
        Anthropic { http, cfg }
    }

    fn url(&self, path: &str) -> String {
        format!("{}/v1/{path}", self.cfg.base_url.trim_end_matches('/'))
    }

    fn request(&self, method: reqwest::Method, url: &str) -> reqwest::RequestBuilder {
        let mut b = self
            .http
            .request(method, url)
            .header("anthropic-version", "2023-06-01");
        if let Some(k) = &self.cfg.api_key {
            b = b.header("x-api-key", k);
        }
        b
    }
}

/// The regex variant of Anthropic's tool search, sent whenever a request
/// has deferred tools.
pub const TOOL_SEARCH: &str = "tool_search_tool_regex";

/// The beta the tool search needs (`anthropic-beta`), sent only with
/// deferred tools.
pub const TOOL_SEARCH_BETA: &str = "advanced-tool-use-2025-11-20";

/// The most `cache_control` breakpoints one request may carry (the API
/// refuses a fifth).
pub const MAX_BREAKPOINTS: usize = 4;

/// The request body in Anthropic's shape, with prompt-cache breakpoints
/// (see [`mark_cache`]).
pub fn body(req: &ChatRequest) -> Value {
    let mut messages: Vec<Value> = Vec::new();
    for m in &req.messages {
        let role = match m.role {
            Role::User => "user",
            Role::Assistant => "assistant",
            // Kimi's tool-loading messages mean nothing here.
            Role::System => continue,
        };
        let blocks: Vec<Value> = m.content.iter().filter_map(block).collect();
        if blocks.is_empty() {
            continue;
        }
        // The API wants roles to alternate; a failed step can leave two user
        // messages in a row, so merge them.
        if let Some(last) = messages.last_mut() {
            if at(last, &["role"]) == role {
                if let Some(content) = last.get_mut("content").and_then(Value::as_array_mut) {
                    content.extend(blocks);
                    continue;
                }
            }
        }
        messages.push(json!({"role": role, "content": blocks}));
    }
    let mut tools: Vec<Value> = req
        .tools
        .iter()
        .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.schema}))
        .collect();
    if !req.deferred.is_empty() {
        tools.push(json!({"type": "tool_search_tool_regex_20251119", "name": TOOL_SEARCH}));
        tools.extend(req.deferred.iter().map(|t| {
            json!({"name": t.name, "description": t.description, "input_schema": t.schema, "defer_loading": true})
        }));
    }
    let mut b = json!({
        "model": req.model,
        "max_tokens": req.max_tokens,
        "messages": messages,
        "stream": true,
    });
    if !req.system.is_empty() {
        set(
            &mut b,
            "system",
            json!([{"type": "text", "text": req.system}]),
        );
    }
    if !tools.is_empty() {
        set(&mut b, "tools", json!(tools));
    }
    mark_cache(&mut b);
    b
}

/// Marks the stable prefix for Anthropic's prompt cache. The cache is keyed
/// by the prefix up to each `cache_control` block (in the order tools →
/// system → messages), so the breakpoints are:
///
/// 1. the last tool that is not deferred (deferred tools sit outside the
///    cached prefix and must never carry `cache_control`);
/// 2. the system prompt;
/// 3. the end of the previous request's conversation (the message before
///    the last assistant reply), which the previous request wrote, so this
///    one reads everything up to it from the cache;
/// 4. the end of the conversation, written now for the next request.
///
/// Breakpoints 3 and 4 move forward as the conversation grows. At most
/// [`MAX_BREAKPOINTS`]; a part that is missing (no tools, no system) simply
/// has no breakpoint.
pub fn mark_cache(b: &mut Value) {
    let eph = || json!({"type": "ephemeral"});
    if let Some(tools) = b.get_mut("tools").and_then(Value::as_array_mut) {
        if let Some(t) = tools
            .iter_mut()
            .rev()
            .find(|t| at(t, &["defer_loading"]) != &Value::Bool(true))
        {
            set(t, "cache_control", eph());
        }
    }
    if let Some(s) = b
        .get_mut("system")
        .and_then(Value::as_array_mut)
        .and_then(|s| s.last_mut())
    {
        set(s, "cache_control", eph());
    }
    if let Some(msgs) = b.get_mut("messages").and_then(Value::as_array_mut) {
        let n = msgs.len();
        let mut marks = vec![n.checked_sub(1)];
        if n >= 3 {
            marks.push(n.checked_sub(3));
        }
        for i in marks.into_iter().flatten() {
            if let Some(blk) = msgs
                .get_mut(i)
                .and_then(|m| m.get_mut("content"))
                .and_then(Value::as_array_mut)
                .and_then(|c| c.iter_mut().rev().find(|c| cacheable(c)))
            {
                set(blk, "cache_control", eph());
            }
        }
    }
}

/// Blocks the API lets carry `cache_control` (server-tool blocks are kept
/// out: they go back exactly as they came).
fn cacheable(b: &Value) -> bool {
    matches!(
        at(b, &["type"]).as_str(),
        Some("text" | "image" | "tool_use" | "tool_result")
    )
}

fn block(b: &Block) -> Option<Value> {
    Some(match b {
        Block::Text { text } if text.is_empty() => return None,
        Block::Text { text } => json!({"type": "text", "text": text}),
        Block::Image { mime_type, data } => image(mime_type, data),
        Block::ToolUse { id, name, input } => {
            // Args that were not an object were refused at run time; the API
            // only accepts objects here.
            let input = if input.is_object() {
                input.clone()
            } else {
                json!({})
            };
            json!({"type": "tool_use", "id": id, "name": name, "input": input})
        }
        Block::ToolResult {
            tool_use_id,
            content,
            is_error,
        } => {
            let content: Vec<Value> = content
                .iter()
                .map(|c| match c {
                    ContentBlock::Text { text } => json!({"type": "text", "text": text}),
                    ContentBlock::Image { mime_type, data } => image(mime_type, data),
                })
                .collect();
            json!({"type": "tool_result", "tool_use_id": tool_use_id, "content": content, "is_error": is_error})
        }
        Block::ServerToolUse { id, name, input } => {
            json!({"type": "server_tool_use", "id": id, "name": name, "input": input})
        }
        Block::ToolSearchToolResult {
            tool_use_id,
            content,
        } => {
            json!({"type": "tool_search_tool_result", "tool_use_id": tool_use_id, "content": content})
        }
        Block::ToolsAnnounced { .. } | Block::ToolSchemas { .. } => return None,
    })
}

fn image(mime: &str, data: &str) -> Value {
    json!({"type": "image", "source": {"type": "base64", "media_type": mime, "data": data}})
}

/// A block being streamed.
enum Partial {
    Text(String),
    Tool {
        id: String,
        name: String,
        json: String,
    },
    /// A `server_tool_use` (the tool search) whose input streams like a
    /// tool's.
    Server {
        id: String,
        name: String,
        json: String,
    },
    /// A block that arrives whole (`tool_search_tool_result`).
    Whole(Block),
}

/// The provider's name in messages and stream bounds.
const PROVIDER: &str = "anthropic";

/// One answer as its stream builds it, event by event.
#[derive(Default)]
struct Answer {
    blocks: Vec<Option<Partial>>,
    usage: Usage,
    stop: Option<StopReason>,
    budget: sse::Budget,
}

impl Answer {
    /// `message_start`: the usage so far.
    fn message_start(&mut self, v: &Value) {
        let u = at(v, &["message", "usage"]);
        self.usage.input_tokens = at(u, &["input_tokens"]).as_u64().unwrap_or(0);
        self.usage.cache_read_tokens = at(u, &["cache_read_input_tokens"]).as_u64().unwrap_or(0);
        self.usage.cache_write_tokens = at(u, &["cache_creation_input_tokens"])
            .as_u64()
            .unwrap_or(0);
        self.usage.output_tokens = at(u, &["output_tokens"]).as_u64().unwrap_or(0);
    }

    /// `content_block_start`: a text or tool block at its index (bounded).
    fn block_start(&mut self, v: &Value, on_text: TextSink<'_>) -> Result<(), ProviderError> {
        let i = sse::index(PROVIDER, v)?.unwrap_or(self.blocks.len());
        if i >= sse::MAX_INDEX {
            return Err(ProviderError::fatal(format!(
                "anthropic sent a malformed stream: more than {} content blocks in one answer; try again",
                sse::MAX_INDEX
            )));
        }
        let cb = at(v, &["content_block"]);
        let str_of = |k: &str| at(cb, &[k]).as_str().unwrap_or_default().to_owned();
        let p = match at(cb, &["type"]).as_str() {
            Some("tool_use") => Partial::Tool {
                id: str_of("id"),
                name: str_of("name"),
                json: String::new(),
            },
            Some("server_tool_use") => Partial::Server {
                id: str_of("id"),
                name: str_of("name"),
                json: String::new(),
            },
            Some("tool_search_tool_result") => {
                let content = at(cb, &["content"]).clone();
                self.budget.take(PROVIDER, content.to_string().len())?;
                Partial::Whole(Block::ToolSearchToolResult {
                    tool_use_id: str_of("tool_use_id"),
                    content,
                })
            }
            _ => {
                let t = at(cb, &["text"]).as_str().unwrap_or_default().to_owned();
                self.budget.take(PROVIDER, t.len())?;
                if !t.is_empty() {
                    on_text(&t);
                }
                Partial::Text(t)
            }
        };
        if self.blocks.len() <= i {
            self.blocks.resize_with(i.saturating_add(1), || None);
        }
        if let Some(slot) = self.blocks.get_mut(i) {
            *slot = Some(p);
        }
        Ok(())
    }

    /// `content_block_delta`: more text (shown as it comes) or tool args.
    fn block_delta(&mut self, v: &Value, on_text: TextSink<'_>) -> Result<(), ProviderError> {
        let i = sse::index(PROVIDER, v)?.unwrap_or(0);
        let d = at(v, &["delta"]);
        match (
            self.blocks.get_mut(i).and_then(Option::as_mut),
            at(d, &["type"]).as_str(),
        ) {
            (Some(Partial::Text(t)), Some("text_delta")) => {
                let s = at(d, &["text"]).as_str().unwrap_or_default();
                self.budget.take(PROVIDER, s.len())?;
                on_text(s);
                t.push_str(s);
            }
            (
                Some(Partial::Tool { json, .. } | Partial::Server { json, .. }),
                Some("input_json_delta"),
            ) => {
                let s = at(d, &["partial_json"]).as_str().unwrap_or_default();
                self.budget.take(PROVIDER, s.len())?;
                json.push_str(s);
            }
            _ => {}
        }
        Ok(())
    }

    /// `message_delta`: the stop reason and the final usage.
    fn message_delta(&mut self, v: &Value) {
        if let Some(s) = at(v, &["delta", "stop_reason"]).as_str() {
            self.stop = Some(match s {
                "tool_use" => StopReason::ToolUse,
                "max_tokens" => StopReason::Length,
                _ => StopReason::EndTurn,
            });
        }
        if let Some(o) = at(v, &["usage", "output_tokens"]).as_u64() {
            self.usage.output_tokens = o;
        }
        if let Some(o) = at(v, &["usage", "input_tokens"]).as_u64() {
            self.usage.input_tokens = o;
        }
    }

    /// `message_stop`: the blocks in index order, tool args parsed.
    fn into_completion(self) -> Completion {
        let content = self
            .blocks
            .into_iter()
            .flatten()
            .map(|p| match p {
                Partial::Text(text) => Block::Text { text },
                Partial::Tool { id, name, json } => Block::ToolUse {
                    id,
                    name,
                    input: parse_args(&json),
                },
                Partial::Server { id, name, json } => Block::ServerToolUse {
                    id,
                    name,
                    input: parse_args(&json),
                },
                Partial::Whole(b) => b,
            })
            .collect::<Vec<_>>();
        Completion {
            content,
            stop: self.stop.unwrap_or(StopReason::EndTurn),
            usage: self.usage,
        }
    }
}

#[async_trait]
impl Provider for Anthropic {
    fn name(&self) -> &str {
        "anthropic"
    }

    fn tool_loading(&self, model: &str) -> ToolLoading {
        if super::catalog::tool_search(model) {
            ToolLoading::AnthropicSearch
        } else {
            ToolLoading::Generic
        }
    }

    async fn stream(
        &self,
        req: &ChatRequest,
        on_text: TextSink<'_>,
    ) -> Result<Completion, ProviderError> {
        let url = self.url("messages");
        let body = body(req);
        let resp = retry::send("anthropic", &url, || {
            let b = self.request(reqwest::Method::POST, &url).json(&body);
            // The tool search is a beta feature of the Messages API.
            if req.deferred.is_empty() {
                b
            } else {
                b.header("anthropic-beta", TOOL_SEARCH_BETA)
            }
        })
        .await?;
        let mut events = sse::events("anthropic", resp);
        let mut answer = Answer::default();
        while let Some(ev) = sse::next(PROVIDER, &mut events).await {
            let ev = ev?;
            if ev.data.is_empty() {
                continue;
            }
            let v: Value = serde_json::from_str(&ev.data)
                .map_err(|e| sse::malformed("anthropic", &ev.data, e))?;
            match at(&v, &["type"]).as_str().unwrap_or(ev.event.as_str()) {
                "message_start" => answer.message_start(&v),
                "content_block_start" => answer.block_start(&v, on_text)?,
                "content_block_delta" => answer.block_delta(&v, on_text)?,
                "message_delta" => answer.message_delta(&v),
                "message_stop" => return Ok(answer.into_completion()),
                "error" => {
                    let m = at(&v, &["error", "message"])
                        .as_str()
                        .unwrap_or("unknown error");
                    return Err(ProviderError::fatal(format!(
                        "anthropic reported an error mid-stream: {m}"
                    )));
                }
                _ => {}
            }
        }
        Err(sse::truncated("anthropic"))
    }

    async fn list_models(&self) -> Result<Vec<ModelInfo>, ProviderError> {
        let url = self.url("models");
        let resp = retry::send("anthropic", &url, || {
            self.request(reqwest::Method::GET, &url)
        })
        .await?;
        let v: Value = resp.json().await.map_err(|e| {
            ProviderError::fatal(format!(
                "anthropic sent a model list that does not parse: {e}"
            ))
        })?;
        Ok(at(&v, &["data"])
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|m| at(m, &["id"]).as_str())
                    .map(|id| super::catalog::model_info("anthropic", id))
                    .collect()
            })
            .unwrap_or_default())
    }
}

/// Parses streamed tool args; empty means `{}`, and text that is not JSON is
/// kept as a string so the tool runner can refuse it with a clear error.
pub fn parse_args(s: &str) -> Value {
    if s.trim().is_empty() {
        return json!({});
    }
    serde_json::from_str(s).unwrap_or_else(|_| Value::String(s.to_owned()))
}
