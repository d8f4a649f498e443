//! Model providers behind one streaming trait, so the agent loop never knows
//! which wire format (Anthropic Messages or OpenAI-compatible chat
//! completions) it is talking to.
// Model streams, tool args, files and the agent loop handle data from
// outside (a model server, a file, an extension): none of it may reach a
// panic. Provably safe exceptions carry an `allow` with the reason.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::unreachable,
        clippy::todo,
        clippy::unimplemented,
        clippy::indexing_slicing,
        clippy::string_slice,
        clippy::cast_possible_truncation,
        clippy::cast_possible_wrap,
        clippy::cast_sign_loss
    )
)]

pub mod anthropic;
pub mod catalog;
pub mod kimi;
pub mod openai;
pub mod retry;
pub mod sse;
pub mod transcript;

use std::sync::Arc;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use zot_ext_protocol::rpc::{ModelInfo, StopReason, Usage};

use transcript::{Block, Message};

/// Which wire format and defaults a provider uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    /// Anthropic Messages API.
    Anthropic,
    /// OpenAI chat completions.
    Openai,
    /// A local Ollama server (OpenAI-compatible, no key).
    Ollama,
    /// Moonshot's Kimi (OpenAI-compatible).
    Kimi,
}

impl ProviderKind {
    /// The name shown to users and sent to extensions.
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::Anthropic => "anthropic",
            ProviderKind::Openai => "openai",
            ProviderKind::Ollama => "ollama",
            ProviderKind::Kimi => "kimi",
        }
    }

    /// Where the provider lives unless `--base-url` says otherwise.
    pub fn default_base_url(self) -> &'static str {
        match self {
            ProviderKind::Anthropic => "https://api.anthropic.com",
            ProviderKind::Openai => "https://api.openai.com/v1",
            ProviderKind::Ollama => "http://localhost:11434/v1",
            ProviderKind::Kimi => "https://api.moonshot.ai/v1",
        }
    }

    /// The model used when `--model` is not given.
    pub fn default_model(self) -> &'static str {
        match self {
            ProviderKind::Anthropic => "claude-sonnet-4-5",
            ProviderKind::Openai => "gpt-4.1",
            ProviderKind::Ollama => "llama3.1",
            ProviderKind::Kimi => "kimi-k2-0905-preview",
        }
    }

    /// Environment variables that may hold the key, in order.
    pub fn env_vars(self) -> &'static [&'static str] {
        match self {
            ProviderKind::Anthropic => &["ANTHROPIC_API_KEY"],
            ProviderKind::Openai => &["OPENAI_API_KEY"],
            ProviderKind::Ollama => &[],
            ProviderKind::Kimi => &["MOONSHOT_API_KEY", "KIMI_API_KEY"],
        }
    }

    /// Whether the provider works without a key (local servers).
    pub fn needs_key(self) -> bool {
        !matches!(self, ProviderKind::Ollama)
    }
}

/// A tool as advertised to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDef {
    /// The tool's name.
    pub name: String,
    /// What it does, for the model.
    pub description: String,
    /// JSON Schema of its args.
    pub schema: Value,
}

/// How a provider takes deferred extension tools (registered with
/// `"deferred": true`, not yet activated).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolLoading {
    /// Not offered until an extension activates them; then they join the
    /// request's tool list (every provider accepts this).
    Generic,
    /// Anthropic's tool search: sent with `defer_loading: true` beside the
    /// regex search tool; the API loads what the model finds.
    AnthropicSearch,
    /// Kimi's dynamic tools: the top-level list stays fixed (core tools plus
    /// `select_tools`), loadable names are announced in system messages and
    /// loaded schemas follow as a `role:system` message with `tools`.
    KimiSelect,
}

/// Everything one model call needs.
#[derive(Debug, Clone, Default)]
pub struct ChatRequest {
    /// Model id.
    pub model: String,
    /// The system prompt.
    pub system: String,
    /// The transcript so far.
    pub messages: Vec<Message>,
    /// Tools the model may call.
    pub tools: Vec<ToolDef>,
    /// Deferred tools the provider loads itself when the model looks for
    /// them (Anthropic's tool search); empty for every other provider.
    pub deferred: Vec<ToolDef>,
    /// Output token limit.
    pub max_tokens: u32,
}

/// What one model call produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    /// Text and tool-use blocks, in order.
    pub content: Vec<Block>,
    /// Why the model stopped.
    pub stop: StopReason,
    /// Tokens used.
    pub usage: Usage,
}

/// A failed model call, with a message fit for the user.
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderError {
    /// What happened and what to do.
    pub message: String,
    /// Whether trying again may help (429, 5xx, connection trouble).
    pub retryable: bool,
    /// Seconds the server asked us to wait.
    pub retry_after: Option<f64>,
}

impl ProviderError {
    /// A non-retryable error.
    pub fn fatal(message: impl Into<String>) -> Self {
        ProviderError {
            message: message.into(),
            retryable: false,
            retry_after: None,
        }
    }
}

impl std::fmt::Display for ProviderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Receives streamed text as it arrives.
pub type TextSink<'a> = &'a mut (dyn FnMut(&str) + Send);

/// One model backend speaking one wire format.
#[async_trait]
pub trait Provider: Send + Sync {
    /// The provider's user-facing name.
    fn name(&self) -> &str;
    /// Streams one model call; text deltas go to `on_text` as they arrive.
    async fn stream(
        &self,
        req: &ChatRequest,
        on_text: TextSink<'_>,
    ) -> Result<Completion, ProviderError>;
    /// Lists the models the server offers.
    async fn list_models(&self) -> Result<Vec<ModelInfo>, ProviderError>;
    /// How `model` takes deferred tools; the agent builds the transcript
    /// and the request to match (`agent/tool_loading.rs`). The default is
    /// the generic path: activated tools join the request's tool list.
    fn tool_loading(&self, _model: &str) -> ToolLoading {
        ToolLoading::Generic
    }
}

/// How to reach a provider.
#[derive(Debug, Clone)]
pub struct ProviderConfig {
    /// Wire format and defaults.
    pub kind: ProviderKind,
    /// The server's base URL.
    pub base_url: String,
    /// The key, if any.
    pub api_key: Option<String>,
}

/// Builds the provider for a config.
pub fn build(cfg: ProviderConfig) -> Arc<dyn Provider> {
    let http = reqwest::Client::builder()
        .connect_timeout(std::time::Duration::from_secs(30))
        .build();
    // Static settings: building fails only when the TLS backend cannot
    // start at all (a broken install), never because of outside data.
    #[allow(clippy::expect_used)]
    let http = http.expect("the HTTP client builds with static settings");
    match cfg.kind {
        ProviderKind::Anthropic => Arc::new(anthropic::Anthropic::new(http, cfg)),
        _ => Arc::new(openai::OpenAi::new(http, cfg)),
    }
}

/// Turns an HTTP error status and body into a [`ProviderError`].
pub fn status_error(
    provider: &str,
    status: reqwest::StatusCode,
    retry_after: Option<f64>,
    body: &str,
) -> ProviderError {
    let detail = provider_message(body);
    if status == reqwest::StatusCode::UNAUTHORIZED || status == reqwest::StatusCode::FORBIDDEN {
        return ProviderError::fatal(format!(
            "invalid API key for {provider} (HTTP {}: {detail}); set a valid key with --api-key, the provider's environment variable, or $ZOT_HOME/auth.json",
            status.as_u16()
        ));
    }
    let retryable = status.as_u16() == 429 || status.is_server_error();
    ProviderError {
        message: format!("{provider} returned HTTP {}: {detail}", status.as_u16()),
        retryable,
        retry_after,
    }
}

/// Pulls the human message out of an error body in either wire format.
fn provider_message(body: &str) -> String {
    if let Ok(v) = serde_json::from_str::<Value>(body) {
        if let Some(m) = v.pointer("/error/message").and_then(Value::as_str) {
            return m.to_owned();
        }
        if let Some(m) = v.get("message").and_then(Value::as_str) {
            return m.to_owned();
        }
        if let Some(m) = v.get("error").and_then(Value::as_str) {
            return m.to_owned();
        }
    }
    let t = body.trim();
    if t.is_empty() {
        "no message".into()
    } else {
        t.chars().take(500).collect()
    }
}

/// Reads `retry-after` (seconds) from a response.
pub fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<f64> {
    headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim()
        .parse::<f64>()
        .ok()
}

/// The error for a connection that failed before a response arrived.
pub fn transport_error(provider: &str, url: &str, e: reqwest::Error) -> ProviderError {
    ProviderError {
        message: format!("could not reach {provider} at {url}: {e}"),
        retryable: true,
        retry_after: None,
    }
}

/// The JSON `null` that [`at`] returns for a missing path.
static NULL: serde_json::Value = serde_json::Value::Null;

/// `v[k1][k2]…` for JSON from a server: `null` where any key is missing,
/// never a panic (as serde_json's read indexing, which the
/// `indexing_slicing` lint cannot tell apart from slice indexing).
pub(crate) fn at<'a>(v: &'a serde_json::Value, path: &[&str]) -> &'a serde_json::Value {
    path.iter().try_fold(v, |v, k| v.get(*k)).unwrap_or(&NULL)
}

/// Sets `v[key]` when `v` is an object (the request bodies zot builds).
pub(crate) fn set(v: &mut serde_json::Value, key: &str, x: serde_json::Value) {
    if let Some(o) = v.as_object_mut() {
        o.insert(key.to_owned(), x);
    }
}
