//! The backend both front ends use: it owns the agent and the extension
//! host, takes every `docs/rpc.md` command through [`Backend::handle`], and
//! merges everything they say into one `UiEvent` stream that the RPC mode
//! prints and the desktop forwards as Tauri events.

mod accept;
pub mod commands;
pub mod events;
pub mod options;
mod prompt_queue;
mod rewind;
mod sessions;
pub mod token;
mod trust;
mod updates;
mod worker;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde_json::Value;
use tokio::sync::mpsc;
use zot_ext_host::{Host, HostEvent};
use zot_ext_protocol::rpc::{ModelInfo, RpcCommand, UiEvent};
use zot_ext_protocol::rpc_results::{HelloResult, RpcResult};
use zot_ext_protocol::{EventFields, LifecycleEvent, RpcError};

use crate::agent::extensions::{Extensions, NoExtensions};
use crate::agent::{session, Agent, Opened, Parts};
use crate::providers::transcript::Block;
use crate::providers::ProviderKind;
use crate::secrets::redact;
use crate::tools;
pub use accept::AcceptedPrompt;
pub use options::{BackendOptions, SessionChoice};
use prompt_queue::PromptQueue;

/// Shared state behind every clone of [`Backend`].
struct Inner {
    /// How it was started.
    opts: BackendOptions,
    /// The agent.
    agent: Arc<Agent>,
    /// The extension host.
    host: Host,
    /// Into the one event stream.
    events: mpsc::UnboundedSender<UiEvent>,
    /// Events caused by an extension's answer (command actions); they pass
    /// through the host-event task after whatever the extension sent
    /// before that answer, so a `notify` never trails its `display`.
    after_host: mpsc::UnboundedSender<UiEvent>,
    /// Prompts for the worker, and what "busy" means.
    prompts: PromptQueue,
    /// `get_models`, fetched once.
    models: tokio::sync::Mutex<Option<Vec<ModelInfo>>>,
    /// Whether `session_start` has been announced.
    started: AtomicBool,
    /// Masks this run's keys in everything handed to a front end.
    redactor: Arc<redact::Redactor>,
    /// The project's checkpoints (`checkpoints`), taken by the worker
    /// before each prompt.
    checkpoints: Arc<crate::checkpoints::Checkpoints>,
}

/// A cheap handle on the running agent and extension host.
#[derive(Clone)]
pub struct Backend {
    /// Shared state.
    inner: Arc<Inner>,
}

impl Backend {
    /// Starts the extension host and the agent; does not wait for the
    /// extensions. Never fails for a missing API key: prompts then answer
    /// with a message saying how to set one, and extensions still work.
    pub async fn start(opts: BackendOptions) -> anyhow::Result<(Backend, mpsc::Receiver<UiEvent>)> {
        crate::state_dir::prepare(&opts.zot_home)?;
        // Producers never wait; the pump applies the flood policy while the
        // front end is behind (`events`).
        let (tx, urx) = mpsc::unbounded_channel::<UiEvent>();
        let redactor = Arc::new(redact::Redactor::new(
            opts.api_key.as_deref(),
            &opts.zot_home,
        ));
        let out_rx = events::pump(urx, redactor.clone());

        let model = opts.model_or_default();
        // The session first: its extension state is in each `hello_ack`.
        let opened = session::choose(&opts.session, &opts.zot_home, &opts.cwd)?;
        let (host, hrx) = Host::start_with_state(opts.host_config(), opened.state.clone());
        if opts.watch && !opts.explicit.is_empty() {
            // Ends by itself when the host is dropped.
            zot_ext_host::watch::watch(&host, opts.explicit.clone(), zot_ext_host::watch::DEBOUNCE);
        }

        let agent = build_agent(&opts, &host, model, opened, &tx, redactor.clone())?;
        let checkpoints = Arc::new(crate::checkpoints::Checkpoints::new(
            &opts.zot_home,
            &opts.cwd,
            crate::checkpoints::size::Limits::from_config(
                crate::config::Config::read(&opts.zot_home).json(),
            ),
        ));
        // Old sessions' checkpoints go, at most once a day, off the
        // prompt's path.
        let home = opts.zot_home.clone();
        tokio::task::spawn_blocking(move || crate::checkpoints::prune::prune_if_due(&home));
        if let Some(problem) = agent.approvals().problem() {
            let _ = tx.send(UiEvent::Error { message: problem });
        }

        let (prompts, qrx) = PromptQueue::new();
        let (atx, arx) = mpsc::unbounded_channel::<UiEvent>();
        let inner = Arc::new(Inner {
            opts,
            agent,
            host,
            events: tx,
            after_host: atx,
            prompts,
            models: tokio::sync::Mutex::new(None),
            started: AtomicBool::new(false),
            redactor,
            checkpoints,
        });

        // The worker: one prompt at a time, in order, surviving panics.
        worker::spawn(Arc::downgrade(&inner), qrx);

        forward_host_events(Arc::downgrade(&inner), hrx, arx);

        Ok((Backend { inner }, out_rx))
    }

    /// Waits until every extension is ready or its grace passed, then
    /// announces `session_start` (once) to the client and to subscribers,
    /// after what waits for the user's trust (`project_untrusted`).
    pub async fn wait_ready(&self) {
        self.inner.host.wait_ready().await;
        trust::announce(self);
        self.announce_session();
    }

    fn announce_session(&self) {
        if !self.inner.started.swap(true, Ordering::SeqCst) {
            self.inner
                .host
                .emit(LifecycleEvent::SessionStart, EventFields::default());
            let _ = self.inner.events.send(UiEvent::SessionStart {});
        }
    }

    /// Queues a prompt behind any running one; `from` is the extension
    /// that sent it, when one did (its `user_message` says so).
    fn enqueue(&self, content: Vec<Block>, from: Option<crate::agent::PromptFrom>) {
        self.inner.prompts.push(content, from);
    }

    /// Stops the running prompt and drops queued ones; returns whether
    /// anything was running.
    pub fn abort(&self) -> bool {
        // The dialogs the running prompt raised end with `cancel` first,
        // while the prompt is still marked running: once the token fires,
        // the worker may end the prompt and unmark it at any moment.
        self.inner.host.abort_dialogs();
        let busy = self.inner.prompts.abort();
        // Then every waiting approval is settled as denied. After the
        // cancel, never before: a call woken by this denial must find the
        // prompt cancelled, or the loop would take it for a plain denial
        // and call the model again.
        self.inner.agent.approvals().deny_all();
        busy
    }

    /// Whether a prompt is queued or running.
    pub fn busy(&self) -> bool {
        self.inner.prompts.busy()
    }

    /// Waits until no prompt is queued or running.
    pub async fn idle(&self) {
        self.inner.prompts.idle().await;
    }

    /// How many prompts have run to their `done` so far.
    pub fn finished(&self) -> u64 {
        self.inner.prompts.finished()
    }

    /// Runs one `docs/rpc.md` command; `Err` is the response's `error`.
    /// The answer is the command's typed result ([`Backend::call`]) as
    /// JSON, every secret the redactor knows masked as it is serialised.
    pub async fn handle(&self, cmd: RpcCommand) -> Result<Value, RpcError> {
        let typed = self.call(cmd).await;
        self.inner.redactor.answer(typed)
    }

    /// Runs one command and returns its typed result, unredacted: for
    /// in-process callers that read its fields (settings). Whatever reaches
    /// a client goes through [`Backend::handle`].
    pub async fn call(&self, cmd: RpcCommand) -> Result<RpcResult, RpcError> {
        let spec = cmd.spec();
        let r = commands::handle(self, cmd).await;
        // The pairing the UI's generated `RpcResultOf` promises
        // (zot_ext_protocol::rpc_commands): every test run checks it.
        if let Ok(answer) = &r {
            debug_assert_eq!(
                answer.type_name(),
                spec.result,
                "{} answered the wrong result type",
                spec.name
            );
        }
        r
    }

    /// Aborts any prompt and shuts the extensions down (2 s grace, then
    /// SIGTERM, then SIGKILL).
    pub async fn shutdown(&self) {
        self.abort();
        self.inner.host.shutdown().await;
    }

    /// The agent (for front ends that show state).
    pub fn agent(&self) -> &Arc<Agent> {
        &self.inner.agent
    }

    /// The extension host (for the manager).
    pub fn host(&self) -> &Host {
        &self.inner.host
    }

    /// Re-reads every secret the redactor masks (after settings changed).
    pub fn refresh_secrets(&self) {
        self.inner.redactor.refresh(
            self.inner.opts.api_key.as_deref(),
            &self.inner.opts.zot_home,
        );
    }

    /// Switches to `kind` (or reconnects the current provider after a key
    /// was saved) from the next model request on, with `model` or, for a
    /// new provider, its default model.
    pub fn use_provider(&self, kind: ProviderKind, model: Option<String>) {
        self.inner.redactor.refresh(
            self.inner.opts.api_key.as_deref(),
            &self.inner.opts.zot_home,
        );
        let switched = self.inner.agent.provider().kind != kind;
        self.inner.agent.set_provider(self.inner.opts.connect(kind));
        if let Some(m) = model.or_else(|| switched.then(|| kind.default_model().to_owned())) {
            self.inner.agent.set_model(m);
        }
        if let Ok(mut cache) = self.inner.models.try_lock() {
            *cache = None;
        }
    }

    /// The options it was started with.
    pub fn options(&self) -> &BackendOptions {
        &self.inner.opts
    }

    /// Sends an event caused by an extension's answer, after the frames it
    /// sent before that answer.
    fn send_after_host(&self, ev: UiEvent) {
        let _ = self.inner.after_host.send(ev);
    }

    /// The rpc.md `hello` data.
    fn hello_data(&self) -> HelloResult {
        HelloResult {
            protocol_version: zot_ext_protocol::PROTOCOL_VERSION,
            version: env!("CARGO_PKG_VERSION").to_owned(),
            provider: self.inner.agent.provider().kind.as_str().to_owned(),
            model: self.inner.agent.model(),
            cwd: self.inner.opts.cwd.clone(),
        }
    }
}

/// The agent of one backend: its provider, the session it resumes (a
/// warning about it goes to the client), its system prompt and tools, and
/// the host as its extensions.
fn build_agent(
    opts: &BackendOptions,
    host: &Host,
    model: String,
    opened: session::Opened,
    tx: &mpsc::UnboundedSender<UiEvent>,
    redactor: Arc<redact::Redactor>,
) -> anyhow::Result<Arc<Agent>> {
    let provider = opts.connect(opts.provider);
    if let Some(w) = opened.warning {
        let _ = tx.send(UiEvent::Error { message: w });
    }
    let (messages, session) = (opened.messages, opened.session);
    let (state, state_at) = (opened.state, opened.state_at);
    let exts: Arc<dyn Extensions> = Arc::new(host.clone());
    let _ = NoExtensions; // the bare loop's seam, used in tests
    let parts = Parts {
        provider,
        system: crate::agent::system_prompt::build(
            &opts.zot_home,
            &opts.cwd,
            opts.system_prompt.as_deref(),
            &opts.append_system_prompt,
        ),
        tools: tools::select(opts.tools.as_deref(), opts.no_tools)?,
        ext_tools: !opts.no_tools,
        exts,
        cwd: opts.cwd.clone(),
        max_steps: opts.max_steps,
        max_tokens: 8192,
        compaction: crate::agent::compaction::Compaction::from_config(
            crate::config::Config::read(&opts.zot_home).json(),
        ),
        events: tx.clone(),
        approvals: Arc::new(crate::agent::approval::Approvals::new(
            opts.approvals,
            opts.approvals_can_ask,
            opts.zot_home.clone(),
            opts.cwd.clone(),
        )),
        redactor,
    };
    let opened = Opened {
        model,
        messages,
        session,
        state,
        state_at,
    };
    Ok(Arc::new(Agent::new(parts, opened)))
}

/// Host events reach the client: UI events pass through; `submit` queues a
/// prompt only in interactive front ends (the spec ignores it headless).
fn forward_host_events(
    w: std::sync::Weak<Inner>,
    mut hrx: mpsc::Receiver<HostEvent>,
    mut arx: mpsc::UnboundedReceiver<UiEvent>,
) {
    tokio::spawn(async move {
        let mut host_open = true;
        loop {
            // Biased: host events already queued go out before an action
            // event that a later frame of the same extension caused.
            let ev = tokio::select! {
                biased;
                ev = hrx.recv(), if host_open => match ev {
                    Some(ev) => ev,
                    None => {
                        host_open = false;
                        continue;
                    }
                },
                ev = arx.recv() => match ev {
                    Some(ev) => HostEvent::Ui(ev),
                    None => break,
                },
            };
            let Some(inner) = w.upgrade() else { break };
            match ev {
                HostEvent::Ui(ev) => {
                    let _ = inner.events.send(ev);
                }
                HostEvent::StateSet {
                    extension,
                    key,
                    value,
                } => inner.agent.record_state(&extension, &key, value),
                HostEvent::Submit { text, extension } if inner.opts.interactive => {
                    Backend {
                        inner: inner.clone(),
                    }
                    .enqueue(
                        vec![Block::text(text)],
                        Some(crate::agent::PromptFrom {
                            extension,
                            command: None,
                            app: None,
                        }),
                    );
                }
                _ => {}
            }
        }
    });
}
