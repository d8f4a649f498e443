//! The agent: a transcript, a provider, tools and the extension seam, and
//! the loop that runs one prompt to its end (`agent/turn.rs`). It knows
//! nothing of Tauri or stdout; everything it says goes out as `UiEvent`s.
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

pub mod app_calls;
pub mod approval;
pub mod compaction;
pub mod ext_host;
pub mod extensions;
pub mod fault;
pub mod rewind;
pub mod session;
pub mod session_catalog;
pub mod session_index;
pub mod system_prompt;
pub mod tool_loading;
pub mod tool_target;
pub mod turn;
pub mod usage;

pub use turn::PromptFrom;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, RwLock};

use tokio::sync::mpsc::UnboundedSender;
use zot_ext_protocol::rpc::UiEvent;

use crate::providers::transcript::Message;
use crate::providers::{Provider, ProviderKind};
use crate::tools::Tool;
use extensions::Extensions;
use session::Session;

/// State that changes as the agent works; behind one short-held lock so
/// `get_state` never waits for a turn. Only the agent's own modules touch
/// it; the backend goes through [`Agent`]'s methods.
pub struct State {
    /// The transcript as the model sees it.
    messages: Vec<Message>,
    /// Token and cost totals since start or the last clear.
    usage: usage::Ledger,
    /// The model id in use.
    model: String,
    /// Where messages are appended, unless `--no-session`.
    session: Option<Session>,
    /// The extensions' state in this session (`state_set`), as the
    /// session file records it.
    ext_state: zot_ext_host::SessionState,
    /// That state just before each checkpointed prompt, by checkpoint id:
    /// what a rewind of the conversation restores.
    state_at: std::collections::HashMap<String, zot_ext_host::SessionState>,
}

/// The model backend in use, swapped whole when the user picks another
/// provider or saves a key; a step that already started keeps the one it
/// took.
#[derive(Clone)]
pub struct ProviderSlot {
    /// Which provider.
    pub kind: ProviderKind,
    /// The client.
    pub provider: Arc<dyn Provider>,
    /// Why it cannot be used (no key), said at each prompt.
    pub problem: Option<String>,
}

/// What an agent is made of, fixed for its life: the backend fills it once
/// and hands it to [`Agent::new`].
pub struct Parts {
    /// The model backend.
    pub provider: ProviderSlot,
    /// The system prompt.
    pub system: String,
    /// Built-in tools chosen by `--tools` / `--no-tools`.
    pub tools: Vec<Arc<dyn Tool>>,
    /// Whether extension tools may be offered (`--no-tools` hides them too).
    pub ext_tools: bool,
    /// The extension seam.
    pub exts: Arc<dyn Extensions>,
    /// The project directory.
    pub cwd: PathBuf,
    /// Model steps per prompt before the loop stops.
    pub max_steps: u32,
    /// Output token limit per call.
    pub max_tokens: u32,
    /// When the transcript is compacted by itself.
    pub compaction: compaction::Compaction,
    /// Where events go.
    pub events: UnboundedSender<UiEvent>,
    /// The gate every tool call passes after interception.
    pub approvals: Arc<approval::Approvals>,
    /// Masks the keys zot knows in every tool result.
    pub redactor: Arc<crate::secrets::redact::Redactor>,
}

/// Where the conversation starts: a new one or a session reopened.
pub struct Opened {
    /// The model id to use.
    pub model: String,
    /// The transcript so far (empty for a new conversation).
    pub messages: Vec<Message>,
    /// Where messages are appended, unless `--no-session`.
    pub session: Option<Session>,
    /// The extensions' state in it.
    pub state: zot_ext_host::SessionState,
    /// Their state at each checkpointed prompt.
    pub state_at: std::collections::HashMap<String, zot_ext_host::SessionState>,
}

/// What `get_state` reports of the agent, read under one lock.
#[derive(Debug, Clone)]
pub struct Status {
    /// The model id in use.
    pub model: String,
    /// Messages in the transcript.
    pub message_count: usize,
    /// Token and cost totals since start or the last clear.
    pub usage: zot_ext_protocol::rpc::UsageReport,
    /// The session file, unless `--no-session`.
    pub session: Option<PathBuf>,
}

/// One agent: configuration plus [`State`]. Its fields are its own: the
/// backend asks it to do things (run a prompt, compact, switch model or
/// provider, start over, open a transcript) and never writes them.
pub struct Agent {
    /// The model backend.
    provider: RwLock<ProviderSlot>,
    /// The system prompt.
    system: String,
    /// Built-in tools chosen by `--tools` / `--no-tools`.
    tools: Vec<Arc<dyn Tool>>,
    /// Whether extension tools may be offered (`--no-tools` hides them too).
    ext_tools: bool,
    /// The extension seam.
    exts: Arc<dyn Extensions>,
    /// The project directory.
    cwd: PathBuf,
    /// Model steps per prompt before the loop stops.
    max_steps: u32,
    /// Output token limit per call.
    max_tokens: u32,
    /// When the transcript is compacted by itself.
    compaction: compaction::Compaction,
    /// Held by a running prompt or compaction: one at a time changes the
    /// transcript.
    turn: tokio::sync::Mutex<()>,
    /// Where events go.
    events: UnboundedSender<UiEvent>,
    /// The gate every tool call passes after interception.
    approvals: Arc<approval::Approvals>,
    /// Masks the keys zot knows in every tool result before it enters the
    /// transcript (so the session file and the provider never see them).
    redactor: Arc<crate::secrets::redact::Redactor>,
    /// Mutable state.
    state: Mutex<State>,
}

impl Agent {
    /// An agent made of `parts`, continuing `opened`.
    pub fn new(parts: Parts, opened: Opened) -> Agent {
        Agent {
            provider: RwLock::new(parts.provider),
            system: parts.system,
            tools: parts.tools,
            ext_tools: parts.ext_tools,
            exts: parts.exts,
            cwd: parts.cwd,
            max_steps: parts.max_steps,
            max_tokens: parts.max_tokens,
            compaction: parts.compaction,
            turn: tokio::sync::Mutex::new(()),
            events: parts.events,
            approvals: parts.approvals,
            redactor: parts.redactor,
            state: Mutex::new(State {
                messages: opened.messages,
                usage: Default::default(),
                model: opened.model,
                session: opened.session,
                ext_state: opened.state,
                state_at: opened.state_at,
            }),
        }
    }

    /// The gate every tool call passes: its mode, the waiting approvals.
    pub fn approvals(&self) -> &approval::Approvals {
        &self.approvals
    }

    /// Waits until no prompt or compaction holds the transcript, then holds
    /// it until the guard drops.
    pub async fn wait_turn(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.turn.lock().await
    }

    /// The model id in use.
    pub fn model(&self) -> String {
        self.state().model.clone()
    }

    /// Uses `model` from the next model request on.
    pub fn set_model(&self, model: String) {
        self.state().model = model;
    }

    /// The model, transcript size, usage and session file, read together.
    pub fn status(&self) -> Status {
        let st = self.state();
        Status {
            model: st.model.clone(),
            message_count: st.messages.len(),
            usage: st.usage.report(),
            session: st.session.as_ref().map(|s| s.path().to_path_buf()),
        }
    }

    /// The transcript as JSON values, for `get_messages`.
    pub fn messages_json(&self) -> Result<Vec<serde_json::Value>, serde_json::Error> {
        self.state()
            .messages
            .iter()
            .map(serde_json::to_value)
            .collect()
    }

    /// The session file messages are appended to, unless sessions are off.
    pub fn session_path(&self) -> Option<PathBuf> {
        self.state()
            .session
            .as_ref()
            .map(|s| s.path().to_path_buf())
    }

    /// Drops the transcript and the usage totals; appends go to `fresh`
    /// from now on, unless sessions are off (then there is none either way).
    pub fn start_over(&self, fresh: Option<Session>) {
        let mut st = self.state();
        st.messages.clear();
        st.usage = Default::default();
        st.ext_state.clear();
        st.state_at.clear();
        if st.session.is_some() {
            st.session = fresh;
        }
    }

    /// Continues the conversation of `session`, whose messages and
    /// extension state are `loaded`; usage totals start again.
    pub fn open_transcript(&self, loaded: session::Loaded, session: Session) {
        let mut st = self.state();
        st.messages = loaded.messages;
        st.usage = Default::default();
        st.session = Some(session);
        st.ext_state = loaded.state;
        st.state_at = loaded.state_at;
    }

    /// The provider in use now.
    pub fn provider(&self) -> ProviderSlot {
        self.provider
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Uses `slot` from the next model request on.
    pub fn set_provider(&self, slot: ProviderSlot) {
        *self.provider.write().unwrap_or_else(|e| e.into_inner()) = slot;
    }

    /// Locks the state briefly.
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends an event; a closed receiver means nobody listens any more.
    pub fn send(&self, ev: UiEvent) {
        let _ = self.events.send(ev);
    }

    /// Forces the session's appends to disk (at each turn end). The sync
    /// runs on a cloned handle outside the state lock, so `get_state` never
    /// waits for the disk.
    pub fn sync_session(&self) {
        let handle = self
            .state()
            .session
            .as_ref()
            .map(|s| (s.path().to_path_buf(), s.sync_handle()));
        if let Some((path, Some(file))) = handle {
            if let Err(e) = file.sync_data() {
                self.send(UiEvent::Error {
                    message: format!(
                        "cannot sync session {}: {e}; the last turn may not survive a crash",
                        path.display()
                    ),
                });
            }
        }
    }

    /// Adds a completed message to the transcript and the session file.
    pub fn push(&self, m: Message) {
        let mut st = self.state();
        if let Some(s) = st.session.as_mut() {
            if let Err(e) = s.append(&m) {
                let _ = self.events.send(UiEvent::Error {
                    message: format!("{e:#}; the conversation goes on but is no longer saved"),
                });
                st.session = None;
            }
        }
        st.messages.push(m);
    }
}
