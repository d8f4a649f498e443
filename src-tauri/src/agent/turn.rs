//! The loop for one prompt: turn_start intercept → model call → stream →
//! assistant_message intercept → each tool call (intercept, approval, run,
//! result) → next step, until the model ends its turn, `--max-steps`, an
//! abort, an error or a block. Ends every prompt with exactly one `done`.

use serde_json::Value;
use tokio_util::sync::CancellationToken;
use zot_ext_protocol::rpc::{StopReason, UiEvent};
use zot_ext_protocol::{ContentBlock, EventFields, LifecycleEvent, NoteLevel};

use super::approval::Request;
use super::extensions::Verdict;
use super::tool_loading;
use super::tool_target::ToolTarget;
use super::Agent;
use crate::providers::transcript::{Block, Message, Role};
use crate::providers::{ChatRequest, Completion, Provider, ToolDef, ToolLoading};
use crate::tools::{self, ToolCtx, ToolOutput};

/// Who sent a prompt that the user did not type: an extension, through its
/// command's `prompt` action (`command` set) or a `submit`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptFrom {
    /// The extension.
    pub extension: String,
    /// The slash command whose answer it was, without `/`.
    pub command: Option<String>,
    /// The MCP App (its `ui://` resource) whose `ui/message` it was.
    pub app: Option<String>,
}

/// What tool calls leave besides their output: the tools they load (Kimi:
/// picked with select_tools or activated by an extension's result), and
/// the last call's MCP App or why it is not shown (MCP tools only).
#[derive(Debug, Default)]
struct CallSide {
    loads: Vec<String>,
    app: Option<zot_ext_protocol::ToolApp>,
    app_note: Option<String>,
}

impl Agent {
    /// Runs one prompt to its end, sending events as it goes. The caller
    /// sends the closing `done` (see `backend/worker.rs`): only it knows
    /// when the backend is no longer busy, and a client that reads `done`
    /// must find `get_state.busy` false.
    pub async fn run_prompt(
        &self,
        content: Vec<Block>,
        checkpoint: Option<String>,
        from: Option<PromptFrom>,
        cancel: CancellationToken,
    ) {
        // One prompt or compaction at a time on the transcript.
        let _turn = self.turn.lock().await;
        if let Some(problem) = &self.provider().problem {
            self.send(UiEvent::Error {
                message: problem.clone(),
            });
            self.end_step(StopReason::Error, Some(problem.clone()));
            return;
        }
        let user = Message {
            checkpoint,
            role: Role::User,
            content,
        };
        let text = user.text();
        let checkpoint = user.checkpoint.clone();
        // Saved before it is announced: a client that saw `user_message`
        // can rely on it surviving a crash.
        self.push_prompt(user);
        self.send(UiEvent::UserMessage {
            checkpoint,
            content: text.clone(),
            extension: from.as_ref().map(|f| f.extension.clone()),
            command: from.as_ref().and_then(|f| f.command.clone()),
            app: from.and_then(|f| f.app),
        });
        super::fault::inject(&text);
        self.steps(&cancel).await;
    }

    /// Ends a prompt whose run panicked (the backend caught it): the
    /// transcript is repaired so every tool call has a result, and the
    /// client and subscribers get `error` and `turn_end{stop:"error"}`, as
    /// for any failed prompt (the caller then sends `done`).
    pub fn fail_after_panic(&self, what: &str) {
        crate::providers::transcript::repair(&mut self.state().messages);
        let message = format!(
            "internal error: the agent crashed while running this prompt ({what}); the prompt was stopped and zot is ready for the next one (please report this bug)"
        );
        self.send(UiEvent::Error {
            message: message.clone(),
        });
        self.end_step(StopReason::Error, Some(message));
    }

    /// Sends `turn_end` to the client and to subscribers, after the
    /// session's appends are on disk.
    pub(crate) fn end_step(&self, stop: StopReason, error: Option<String>) {
        self.sync_session();
        self.exts.emit(
            LifecycleEvent::TurnEnd,
            EventFields {
                stop: Some(stop.as_ext_str().into()),
                ..Default::default()
            },
        );
        self.send(UiEvent::TurnEnd { stop, error });
    }

    /// The tools the next request advertises, and the deferred ones it
    /// offers for the provider to load (Anthropic's tool search).
    fn tool_defs(&self, loading: ToolLoading) -> (Vec<ToolDef>, Vec<ToolDef>) {
        let mut defs: Vec<ToolDef> = self.tools.iter().map(|t| t.def()).collect();
        if !self.ext_tools {
            return (defs, Vec::new());
        }
        let add = |defs: &mut Vec<ToolDef>, d: ToolDef| {
            // Built-ins win a name clash.
            if !defs.iter().any(|x| x.name == d.name) {
                defs.push(d);
            }
        };
        for t in self.exts.tools() {
            // Kimi's top-level list never changes: activated deferred tools
            // are loaded by a system message instead.
            if !(loading == ToolLoading::KimiSelect && t.deferred) {
                add(&mut defs, t.def);
            }
        }
        let mut deferred = Vec::new();
        match loading {
            ToolLoading::KimiSelect => add(&mut defs, tool_loading::select_tools_def()),
            ToolLoading::Generic | ToolLoading::AnthropicSearch => {
                // Tools an earlier Kimi model loaded stay callable after a
                // switch of provider.
                let loaded = tool_loading::loaded(&self.state().messages);
                for t in self.exts.deferred_tools() {
                    if loaded.contains(&t.def.name) {
                        add(&mut defs, t.def);
                    } else if loading == ToolLoading::AnthropicSearch
                        && !defs.iter().any(|d| d.name == t.def.name)
                    {
                        deferred.push(t.def);
                    }
                }
            }
        }
        (defs, deferred)
    }

    /// Every deferred extension tool, activated or not: what Kimi's model
    /// may load with `select_tools`.
    fn loadable(&self) -> Vec<ToolDef> {
        if !self.ext_tools {
            return Vec::new();
        }
        let builtin = |n: &str| self.tools.iter().any(|t| t.def().name == n);
        self.exts
            .tools()
            .into_iter()
            .filter(|t| t.deferred)
            .chain(self.exts.deferred_tools())
            .map(|t| t.def)
            .filter(|d| !builtin(&d.name))
            .collect()
    }

    /// Kimi: tells the model (in the transcript) which tools became
    /// loadable or stopped being so since the last announcement.
    fn announce_loadable(&self) {
        let loadable = self.loadable();
        let msg = tool_loading::announcement(&self.state().messages, &loadable);
        if let Some(m) = msg {
            self.push(m);
        }
    }

    /// The model steps of one prompt: begin (limit, interception, events),
    /// build the request, call the model, show the reply, run its tools;
    /// again until the model ends its turn or something stops it.
    async fn steps(&self, cancel: &CancellationToken) {
        let mut step: u32 = 0;
        loop {
            step = step.saturating_add(1);
            if !self.begin_step(step, cancel).await {
                return;
            }
            let slot = self.provider();
            let (provider, provider_name) = (slot.provider, slot.kind.as_str());
            let loading = provider.tool_loading(&self.state().model);
            if !self.auto_compact(provider.as_ref(), loading, cancel).await {
                return;
            }
            if loading == ToolLoading::KimiSelect {
                self.announce_loadable();
            }
            let req = self.request(loading);
            let Some(completion) = self.call_model(provider.as_ref(), &req, cancel).await else {
                return;
            };
            let report = self
                .state()
                .usage
                .record(provider_name, &req.model, completion.usage);
            self.send(UiEvent::Usage(report));
            let msg = Message {
                checkpoint: None,
                role: Role::Assistant,
                content: completion.content,
            };
            self.show_reply(&msg).await;
            let calls: Vec<(String, String, Value)> = msg
                .tool_uses()
                .map(|(i, n, a)| (i.to_owned(), n.to_owned(), a.clone()))
                .collect();
            self.push(msg);
            if calls.is_empty() {
                let stop = match completion.stop {
                    StopReason::ToolUse => StopReason::EndTurn,
                    s => s,
                };
                return self.end_step(stop, None);
            }
            if self.run_tools(calls, cancel, loading).await {
                return self.end_step(StopReason::Aborted, None);
            }
            self.end_step(StopReason::ToolUse, None);
        }
    }

    /// Starts step `step`: refuses past `--max-steps`, lets interceptors
    /// block it, then tells subscribers and the client. Returns whether the
    /// step goes ahead (when not, the prompt has ended).
    async fn begin_step(&self, step: u32, cancel: &CancellationToken) -> bool {
        if step > self.max_steps {
            self.send(UiEvent::Error {
                message: format!(
                    "stopped after {} model steps (--max-steps); send another prompt to continue",
                    self.max_steps
                ),
            });
            return false;
        }
        let verdict = tokio::select! {
            v = self.exts.intercept_turn_start(step) => v,
            _ = cancel.cancelled() => {
                self.end_step(StopReason::Aborted, None);
                return false;
            }
        };
        if let Verdict::Block { extension, reason } = verdict {
            self.send(UiEvent::ExtStatus {
                extension,
                level: NoteLevel::Warn,
                text: reason,
            });
            self.end_step(StopReason::Blocked, None);
            return false;
        }
        self.exts.emit(
            LifecycleEvent::TurnStart,
            EventFields {
                step: Some(step),
                ..Default::default()
            },
        );
        self.send(UiEvent::TurnStart { step });
        self.send(UiEvent::AssistantStart {});
        true
    }

    /// The request for this step: the transcript and the tools, placed the
    /// provider's way (`tool_loading.rs`).
    pub(crate) fn request(&self, loading: ToolLoading) -> ChatRequest {
        let (tools, deferred) = self.tool_defs(loading);
        let st = self.state();
        ChatRequest {
            model: st.model.clone(),
            system: self.system.clone(),
            messages: st.messages.clone(),
            tools,
            deferred,
            max_tokens: self.max_tokens,
        }
    }

    /// Streams the model's answer to the client. `None` when the prompt
    /// ended instead (aborted, or the call failed), after saying so.
    async fn call_model(
        &self,
        provider: &dyn Provider,
        req: &ChatRequest,
        cancel: &CancellationToken,
    ) -> Option<Completion> {
        let mut partial = String::new();
        let events = self.events.clone();
        let mut sink = |d: &str| {
            partial.push_str(d);
            let _ = events.send(UiEvent::TextDelta {
                delta: d.to_owned(),
            });
        };
        let result = tokio::select! {
            r = provider.stream(req, &mut sink) => Some(r),
            _ = cancel.cancelled() => None,
        };
        match result {
            None => {
                // Keep what the user already saw, so the model knows it
                // was cut off.
                if !partial.is_empty() {
                    self.push(Message {
                        checkpoint: None,
                        role: Role::Assistant,
                        content: vec![Block::text(partial)],
                    });
                }
                self.end_step(StopReason::Aborted, None);
                None
            }
            Some(Err(e)) => {
                // Nothing of a failed call enters the transcript, so the
                // next prompt starts from a consistent state.
                self.send(UiEvent::Error {
                    message: e.message.clone(),
                });
                self.end_step(StopReason::Error, Some(e.message));
                None
            }
            Some(Ok(c)) => Some(c),
        }
    }

    /// Shows the reply's text, as assistant_message interceptors let it
    /// (the transcript keeps the model's words; only the user sees a
    /// replacement).
    async fn show_reply(&self, msg: &Message) {
        let text = msg.text();
        if text.is_empty() {
            return;
        }
        self.exts.emit(
            LifecycleEvent::AssistantMessage,
            EventFields {
                text: Some(text.clone()),
                ..Default::default()
            },
        );
        match self.exts.intercept_assistant_message(text).await {
            Verdict::Allow(shown) => self.send(UiEvent::AssistantMessage { content: shown }),
            Verdict::Block { extension, reason } => self.send(UiEvent::ExtStatus {
                extension,
                level: NoteLevel::Warn,
                text: reason,
            }),
        }
    }

    /// Runs the reply's tool calls in order and records their results as
    /// one user message; after an abort the rest get an "aborted" result.
    /// Returns whether the prompt was aborted.
    async fn run_tools(
        &self,
        calls: Vec<(String, String, Value)>,
        cancel: &CancellationToken,
        loading: ToolLoading,
    ) -> bool {
        let mut results = Vec::new();
        let mut aborted = false;
        // Tools to load (Kimi): picked with select_tools or activated by an
        // extension's result.
        let mut side = CallSide::default();
        for (id, name, args) in calls {
            let (mut out, extension) = if aborted || cancel.is_cancelled() {
                aborted = true;
                (
                    ToolOutput::err("aborted by the user before this tool ran"),
                    None,
                )
            } else {
                self.tool_call(&id, &name, args, cancel, loading, &mut side)
                    .await
            };
            if cancel.is_cancelled() {
                aborted = true;
            }
            // Before the transcript, the session file and the next request
            // see it: a tool that printed a key (a `read` of a file holding
            // one, an extension echoing its config) gives the model a mask.
            self.redactor.blocks(&mut out.content);
            self.send(UiEvent::ToolResult {
                id: id.clone(),
                is_error: out.is_error,
                content: out.content.clone(),
                extension,
                app: side.app.take(),
                app_note: side.app_note.take(),
            });
            results.push(Block::ToolResult {
                tool_use_id: id,
                content: out.content,
                is_error: out.is_error,
            });
        }
        self.push(Message {
            checkpoint: None,
            role: Role::User,
            content: results,
        });
        let loads = side.loads;
        if loading == ToolLoading::KimiSelect && !loads.is_empty() {
            let already = tool_loading::loaded(&self.state().messages);
            let mut defs: Vec<ToolDef> = Vec::new();
            for d in self.loadable() {
                if loads.contains(&d.name)
                    && !already.contains(&d.name)
                    && !defs.iter().any(|x| x.name == d.name)
                {
                    defs.push(d);
                }
            }
            if !defs.is_empty() {
                self.push(tool_loading::schemas(defs));
            }
        }
        aborted
    }

    /// A running tool's progress as the RPC event `tool_progress`, under
    /// the model's call id (`extension` empty for a built-in tool).
    fn send_progress(&self, id: &str, extension: &str, u: super::extensions::ToolProgressUpdate) {
        self.send(UiEvent::ToolProgress {
            id: id.into(),
            extension: extension.into(),
            message: u.message,
            progress: u.progress,
            total: u.total,
            partial: (!u.partial.is_empty()).then_some(u.partial),
        })
    }

    /// One tool call: lifecycle event, interception, then the run.
    async fn tool_call(
        &self,
        id: &str,
        name: &str,
        args: Value,
        cancel: &CancellationToken,
        loading: ToolLoading,
        side: &mut CallSide,
    ) -> (ToolOutput, Option<String>) {
        self.exts.emit(
            LifecycleEvent::ToolCall,
            EventFields {
                tool_id: Some(id.into()),
                tool_name: Some(name.into()),
                tool_args: Some(args.clone()),
                ..Default::default()
            },
        );
        let exts = self.ext_tools.then_some(self.exts.as_ref());
        let target = ToolTarget::resolve(name, &self.tools, exts, loading);
        let ext_owner = target.extension().map(str::to_owned);
        let verdict = tokio::select! {
            v = self.exts.intercept_tool_call(id, name, args.clone()) => v,
            _ = cancel.cancelled() => Verdict::Block { extension: "zot".into(), reason: "aborted by the user".into() },
        };
        let args = match verdict {
            Verdict::Allow(a) => a,
            Verdict::Block { extension, reason } => {
                self.send(UiEvent::ToolCall {
                    id: id.into(),
                    name: name.into(),
                    args,
                    extension: ext_owner.clone(),
                });
                return (
                    ToolOutput::err(format!("blocked by extension {extension}: {reason}")),
                    ext_owner,
                );
            }
        };
        self.send(UiEvent::ToolCall {
            id: id.into(),
            name: name.into(),
            args: args.clone(),
            extension: ext_owner.clone(),
        });
        // Approval comes after every interceptor, on the arguments that
        // will actually run (docs/security.md "Tool approvals").
        let gate = Request {
            call_id: id,
            tool: name,
            args: &args,
            extension: target.extension(),
            read_only: target.read_only_claim(),
        };
        if let Err(denied) = self.approvals.check(gate, &self.events, cancel).await {
            return (ToolOutput::err(denied), ext_owner);
        }
        let feed = std::sync::Arc::new(zot_ext_host::tool_progress::ProgressFeed::default());
        let ctx = ToolCtx {
            cwd: self.cwd.clone(),
            cancel: cancel.clone(),
            progress: Some(feed.clone()),
        };
        match target {
            ToolTarget::SelectTools => {
                let mut have = tool_loading::loaded(&self.state().messages);
                have.extend(side.loads.iter().cloned());
                let (load, out) = tool_loading::select(&args, &self.loadable(), &have);
                side.loads.extend(load);
                (out, None)
            }
            ToolTarget::Builtin(tool) => {
                // Raced against abort: whatever the tool is doing (a slow
                // read, a bash that ignores signals), the turn ends at once;
                // dropping the call kills bash's process group.
                // What it prints streams into its card (docs/rpc.md
                // `tool_progress`, `extension` empty for a built-in tool).
                let on_progress = |u| self.send_progress(id, "", u);
                let run = tools::run_checked(tool.as_ref(), args, &ctx);
                let out = tokio::select! {
                    out = zot_ext_host::tool_progress::drive(&feed, run, &on_progress) => out,
                    _ = cancel.cancelled() => ToolOutput::err(format!("aborted by the user; the {name} tool was stopped")),
                };
                (out, None)
            }
            ToolTarget::Extension(ext_tool) => {
                // The spec makes the extension responsible for validating
                // and coercing its arguments (a "5" it turns into 5 must
                // reach it), so only the frame's shape is checked: `args` is
                // an object. Built-in tools keep the strict schema check.
                if !args.is_object() {
                    return (
                        ToolOutput::err(format!(
                            "invalid arguments for tool {name}: expected a JSON object, got {}",
                            tools::schema::describe(&args)
                        )),
                        ext_owner,
                    );
                }
                // The tool's progress goes out as it comes (docs/rpc.md
                // `tool_progress`), under the model's call id.
                let on_progress = |u| self.send_progress(id, &ext_tool.extension, u);
                let r = tokio::select! {
                    r = self.exts.call_tool(&ext_tool, args, &on_progress) => r,
                    _ = cancel.cancelled() => Err("aborted by the user".into()),
                };
                match r {
                    Ok(r) => {
                        side.loads.extend(r.activated);
                        side.app = r.app;
                        side.app_note = r.app_note;
                        let out = ToolOutput {
                            content: r.content,
                            is_error: r.is_error,
                        };
                        (out, Some(r.extension))
                    }
                    Err(e) => (ToolOutput::err(e), ext_owner),
                }
            }
            ToolTarget::Unknown => self.unknown_tool(name, loading),
        }
    }

    /// The answer to a call of a tool nobody has: the names the model may use.
    fn unknown_tool(&self, name: &str, loading: ToolLoading) -> (ToolOutput, Option<String>) {
        (
            ToolOutput {
                content: vec![ContentBlock::text(format!(
                    "unknown tool {name}; the available tools are: {}",
                    self.tool_defs(loading)
                        .0
                        .iter()
                        .map(|d| d.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))],
                is_error: true,
            },
            None,
        )
    }
}
